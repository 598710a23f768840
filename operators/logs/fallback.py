"""Unknown text formats: mine line templates (in the manner of Drain: lines of equal length whose constant
tokens mostly agree share a template, the tokens that differ are its variables) and recover the numeric
series a template carries, named by the word printed before each value: ``step 10 | loss 2.31`` gives
``loss`` at step 10. The lines mined mention a metric-like word and a number, or are records by their shape
(two or more key-number pairs whose shape repeats with a changing measurement: see ``_gate``).

Why one module: mining, typing the fields of a template and pairing keys with values are one pass over a
file's lines that shares its per-template state; the rules it consults live in their own modules."""

from __future__ import annotations

import bisect
import re

import numpy as np

from assay.operators.logs._bar_losses import BarLosses
from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._boxes import (
    BOX_ROW,
    SECTIONED_ROW,
    TWO_COLUMN_RULE,
    BoxTables,
    KeyBlocks,
    unborder,
)
from assay.operators.logs._charts import chart_line
from assay.operators.logs._collect import Collector
from assay.operators.logs._counters import (
    second_counts,
    step_number,
)
from assay.operators.logs._cut import mend_cut_tail
from assay.operators.logs._emit import RUN_WORDS, emit_all, names_metric, step_of
from assay.operators.logs._epoch_counters import EpochCounters
from assay.operators.logs._evaluation_lines import evaluation_line
from assay.operators.logs._events import EXCEPTION_LINE, classify
from assay.operators.logs._gate import ShapeGate, is_prose, not_only_tables
from assay.operators.logs._lines import LineBlock, PrefixStyle, tags_ranks
from assay.operators.logs._metric_words import METRIC_WORD
from assay.operators.logs._miner import TemplateMiner, shape_of, tokens_of
from assay.operators.logs._options import OPTION_LINES, options_of
from assay.operators.logs._records import BAR_GLUED, context_step, records_of_line, second_lines, step_before
from assay.operators.logs._settings_lines import RULED_TITLE, SETTINGS_HEADER, SettingsTable
from assay.operators.logs._split_headings import HEADING, RESTATED, SplitHeadings
from assay.operators.logs._steps import (
    BARE_BAR,
    LISTED_STEP,
    EpochBars,
    EpochRelative,
    counter_step,
    step_before_evaluation,
)
from assay.operators.logs._tables import NUMBER_ROW, TABLE_LINE, TABLE_LINE_RE, Tables
from assay.operators.logs._trees import TREE_LINE, TreeReports

#: Event kinds whose lines carry no training values (a job ended, a process failed, a machine fault).
_NO_VALUES = {"failure", "cancelled", "preempted", "hardware_error", "restart"}
#: A record that opens with the run of a repeated experiment it belongs to (``Run 01 | Epoch 5``, ``trial 3:``).
_RUN_FIELD = re.compile(rf"(?i)^\W*(?:{RUN_WORDS})\s*[:#=]?\s*(\d+)\s*[|,:]")
_BARE_BAR = re.compile(BARE_BAR)
#: A report of the state a run was restored to (Ray Tune's ``Current state after restoring: {'_iteration': 13, ...}``):
#: the restored run's summary, no record.
_RESTORED_STATE = re.compile(r"(?i)\bstate\s+after\s+(?:restoring|restore|loading|resuming)\b|\brestored\s+state\b")
#: A tqdm bar's percentage and the start of its bar, after its description.
_BAR_AFTER_DESCRIPTION = re.compile(r"\d{1,3}%\|")
#: A parenthesis and what it holds.
_ASIDE = re.compile(r"\([^()\n]*\)")
#: A line that says only which epoch begins.
_EPOCH_ALONE = re.compile(r"(?i)^\s*(?:train(?:ing)?\s+)?epoch\s*[:=#]?\s*(\d+)\s*$")


#: A shell's prompt before the command it runs (``user@host:~/work$ python -u infer.py -m config.yaml``, ``(venv)
#: $ torchrun ...``), or the trace ``set -x`` prints of it (``+ python ./train.py``): a pasted session's next
#: program, whose counters start on their own (no resumed run).
_COMMAND_RUN = re.compile(
    r"^(?:\([\w.-]+\)\s*)?(?:[\w.-]+@[\w.-]+:[^\s$#]*)?(?:[$#]|\+{1,3} )\s*(?:[A-Z_]+=\S+\s+)*"
    r"(?:python\d?(?:\.\d+)?|torchrun|deepspeed|accelerate|srun|mpirun|horovodrun|bash|sh)\s"
)
#: A script a command runs that evaluates or infers, no training (``tools/infer.py``, ``eval_model.py``, ``test.py``).
_EVALUATING_SCRIPT = re.compile(r"(?i)(?:^|[\s/])(?:infer|inference|eval|evaluate|evaluation|test|predict|validate)(?:_\w+)?\.py\b")
#: A command's words that say it resumes a run from a checkpoint.
_RESUMES = re.compile(r"(?i)resum|\bload[_-]?(?:from|checkpoint|ckpt)|\bckpt[_-]?path|\bfrom[_-]checkpoint")
#: A counter of the whole run printed beside an epoch's (``GLOBAL_STEP: 370050``, ``global step 1200``).
_GLOBAL_COUNTER = re.compile(rf"(?i)\bglobal[_ ]?step\b\s*[:=#]?\s*(\d+)(?![\d.])|{LISTED_STEP}")

#: A traceback's first words glued after a record on one line (``iter 160 || Loss: 4.8 || Traceback (most
#: recent call last):``, two streams written to one file without a newline between them).
_GLUED_TRACEBACK = re.compile(r"\s*\S[^\n]*?(?P<glued>\s*Traceback \(most recent call last\))")


def record_before_traceback(text: str) -> str:
    """The record a traceback was glued onto, without the traceback's words, so that its values are read as
    any record's (the failure is found on the whole line by the event reader); any other line as it is."""
    glued = _GLUED_TRACEBACK.match(text)
    return text[: glued.start("glued")] if glued else text


def mine_line(miner: TemplateMiner, text: str, line_no: int, rank: int | None, out: Collector) -> None:
    """A user script's own line for ``miner``; a counter on it moves the collector's current step, so
    that the framework's lines after it (an overflow, a timer) take that step."""
    text = record_before_traceback(text)
    if EXCEPTION_LINE.search(text):
        return  # an uncaught exception's message (``OutOfMemoryError: ... 2.00 GiB``): no values, no progress
    step = counter_step(text)
    if step is not None:
        out.current_step = step
    tokens = tokens_of(text)
    if len(tokens) >= 2:
        miner.add(tokens, line_no, rank, out.current_step)


@register_parser
class GenericParser(LogParser):
    """The fallback for formats no parser recognises: a general reader of line templates (``k: v``,
    ``k=v``, ``k v``, ``k is v``, ``|``-separated, JSON and Python dicts, progress-bar postfixes) and of
    tables with a header row. Names go through the synonym table; names it lacks are kept as printed."""

    name = "generic"
    framework = None
    priority = -100
    joins_wrapped = True
    interesting = (
        rf"{METRIC_WORD}[^\n]*\d"
        # a metric word and a non-finite value after it, the line's numbers all before (``4/234 [==] - loss: inf``)
        rf"|{METRIC_WORD}[^\n]*[^A-Za-z](?i:nan|inf|infinity)(?:[^A-Za-z]|$)"
        # a short counter word before its number and total (``ep 2 it 30/50 | xent 1.9``)
        r"|\b(?i:it|ep|iter|step|batch)\b\s*[:=#]?\s*\d+\s*/\s*\d|" + NUMBER_ROW + "|" + BARE_BAR
        + r"|^\s*(?i:step|iter|iteration|epoch|global_step)\b[\w\s/|,.\-()]*$"
        r"|" + BOX_ROW.pattern
        + r"|^\s*$"  # a blank line ends a block of ``key: value`` lines (``KeyBlocks``)
        + "|" + HEADING  # a split's heading over the values it names (``Validating on dev``)
        + "|" + TREE_LINE  # a node of a report drawn as a tree (``├── Validation``)
        + r"|^\s*[|┃│║][^\n]*[|┃│║]\s*$"  # a row of a bordered table (``| step | loss |``, ``┃ step ┃``)
        + "|" + OPTION_LINES + "|" + LISTED_STEP  # a script's options (``world_size: 8``); a step in a list
        + "|" + SETTINGS_HEADER  # the header of a table of settings (``Arguments | Values``): its rows are none
        + "|" + RULED_TITLE  # the title of a ruled block of settings (``------Learning Details------``)
        + "|" + TWO_COLUMN_RULE + "|" + SECTIONED_ROW  # a report's two-column table (``KeyBlocks``)
        + r"|^\s*\[\d+\]:?\s+[A-Za-z]\w*(?:'s\s|-)[\w@.\-]+\s*:\s*[-+]?\.?\d"  # a booster's round: ``[10]  train's l2: 0.1``
        + "|" + _COMMAND_RUN.pattern  # a pasted session's next program (its counters start on their own)
        # a counter opening the line before two keyed values, whatever their names (``100:  learn: 0.89  test:
        # 0.69``, a booster's iteration)
        + r"|^\s*\d+:\s+[A-Za-z][\w-]*\s*:\s*[-+]?\.?\d\S*\s+[A-Za-z][\w-]*\s*:\s*[-+]?\.?\d"
    )
    #: the lines mined; ``interesting`` also takes a table's header or row of other shapes (``TABLE_LINE``)
    mined = re.compile(interesting)
    interesting = interesting + "|" + TABLE_LINE

    def __init__(self, out: Collector, prefix: PrefixStyle | None = None):
        super().__init__(out, prefix)
        self.gate = ShapeGate()
        self.by_shape: set[int] = set()  # the lines of the current block taken by their shape
        self.streams: dict[int | None, _Stream] = {}
        self.by_rank = tags_ranks(prefix)
        # an epoch's banner one rank prints holds for every rank (it knows each rank's, else any rank's)
        self.relative = EpochRelative()

    def admit(self, block: LineBlock, skip: np.ndarray) -> np.ndarray:
        """The lines of ``block`` (outside ``skip``) that no word selects but their shape does: records of
        two or more key-number pairs that repeat (see ``_gate``), also among the lines taken only as a table's."""
        found = self.gate.admit(block, not_only_tables(block, skip, TABLE_LINE, self.mined.pattern))
        self.by_shape = {block.line_no(i) for i in found.tolist()}
        return found

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        """A line, read in its rank's stream where the file's lines are tagged with ranks: every process of a
        job may print the same records (a script that does not keep its prints to rank 0), interleaved line by
        line; each process's lines are one log of their own, with its own counters, tables and templates."""
        key = rank if self.by_rank else None
        stream = self.streams.get(key)
        if stream is None:
            stream = self.streams[key] = _Stream(self)
        stream.parse_line(text, line_no, rank)

    def finish(self) -> None:
        for stream in self.streams.values():
            stream.finish()


class _Stream:
    """What the general reader learns from one stream of lines (a file, or one rank's lines of it): counters,
    tables, templates, epochs."""

    def __init__(self, reader: GenericParser):
        out = reader.out
        self.reader = reader
        self.out = out
        self.miner = TemplateMiner()
        self.steps: dict[int | None, int] = {}  # the last counter each rank printed (None: any rank)
        self.tables = Tables(out)
        self.epochs = EpochCounters()
        self.keras = EpochBars()
        self.relative = reader.relative
        self.boxes = BoxTables(out)
        self.trees = TreeReports()
        self.blocks = KeyBlocks(out, self._line, self._record_at)
        self.finer = False  # a counter finer than the epoch was seen
        self.stated: int | None = None  # the last step a line stated as the run's (``global_step 85329``)
        self.run_no: str | None = None  # the run of a repeated experiment the last record named
        self.headings = SplitHeadings()
        self.bar_losses = BarLosses()
        self.settings = SettingsTable()
        self.by_banner = False  # an epoch's banner numbered the lines after it
        self.evaluating = False  # the lines come from a pasted command that runs an evaluation script
        self.closing: dict[int, int] = {}  # a line that sums an epoch up with its length -> the epoch's last step

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        if chart_line(text):
            return  # a chart drawn in text: its axes' ticks, no records
        setting = self.settings.see(text)
        if setting:  # a table of settings: its rows are the run's options, no records
            if isinstance(setting, tuple) and not self.steps:
                for name, value in options_of(f"{setting[0]}: {setting[1]}").items():
                    self.out.setting(name, value, line_no)
            return
        if (pieces := records_of_line(text)) is not None:  # a bar's draws, records pasted without line breaks
            for piece in pieces:
                self.parse_line(piece, line_no, rank)
            return
        tree = self.trees.line(text)
        if tree is not None:  # a tree's node: a value under its sections' labels, or nothing to read
            if tree:
                self._line(tree, line_no, rank)
            return
        glued = BAR_GLUED.search(text)
        if not glued and _BARE_BAR.match(text):  # a bar of progress and rate only: no record (see per_epoch)
            self.epochs.bare_bar(text, line_no, rank, self.relative.banner_of(rank))
            return
        if glued:  # the bar, then the record glued after it, each read as a line of its own
            self._line(text[: glued.end()], line_no, rank)
            text = text[glued.end() :]
        if self.blocks.rule(text):
            return  # the rule of a two-column table of a report (``KeyBlocks``)
        if TABLE_LINE_RE.match(text) and not GenericParser.mined.search(text) and line_no not in self.reader.by_shape:
            # taken only as a line of a table
            self.tables.see(text, line_no, rank, self.steps.get(rank, self.steps.get(None)))
            return
        if self.boxes.see(text, line_no, rank):
            return
        text = unborder(text)
        # before the first record: a script's printed options say the run's layout (a batch size printed later
        # is a record's); a world size stated any time says it too (a relaunch prints its own)
        if not self.steps or "orld" in text or "ORLD" in text:
            for setting, value in options_of(text).items():
                if not self.steps or setting == "world_size":
                    self.out.setting(setting, value, line_no)
        if self.blocks.see(text, line_no, rank):
            return
        self._line(text, line_no, rank)

    def _record_at(self, step: int, rank: int | None) -> None:
        """A block of ``key: value`` lines was a record at ``step``: the lines after it are at that step."""
        self.steps[rank] = self.steps[None] = step

    def _line(self, text: str, line_no: int, rank: int | None) -> None:
        """A line outside a block of ``key: value`` lines (or one of a block that was no record)."""
        text = record_before_traceback(text)
        if not text.strip():
            return
        if "%|" in text:  # a bar's loss, and the epoch's loss line after it (``_bar_losses``)
            self.bar_losses.bar(text, line_no)
        else:
            self.bar_losses.line(text, line_no)
        if self.tables.see(text, line_no, rank, self.steps.get(rank, self.steps.get(None))):
            return  # a table's header or row
        if _COMMAND_RUN.match(text):
            # another program of a pasted session: its counters start on their own, none carries over; unless
            # it says it resumes (``--resume``, ``--load_checkpoint``): a counter going back is then a restart
            if not _RESUMES.search(text):
                self.out.epoch_starts.add(line_no)
            self.steps.clear()
            # a script that evaluates (``python tools/infer.py -m config.yaml``): its records are the evaluation's
            self.evaluating = bool(_EVALUATING_SCRIPT.search(text))
            return
        run = _RUN_FIELD.match(text)
        if run:  # which run of a repeated experiment the record is of (``Run 01 | Epoch 00000 | ...``)
            if self.run_no is not None and run[1] != self.run_no:
                self.out.epoch_starts.add(line_no)  # the next run: its counters start again, no restart
            self.run_no = run[1]
        before = self.relative.banner_of(rank)
        self.relative.banner(text, rank)  # an epoch's banner or footer: the epoch of the records around it
        if before is not None and (self.relative.banner_of(rank) or 0) > before:
            self.out.epoch_starts.add(line_no)  # a new epoch: a counter going back after it starts it again
        if not self.finer and self.relative.opened is not None:
            # where nothing counts finer, the epoch a banner or a bare footer opens numbers the lines after it
            self.steps[rank] = self.steps[None] = self.relative.opened
            self.by_banner = True
        if self.finer and self.relative.closed_at is not None:
            # an epoch's summary with its length, after the steps within it: at the epoch's last step (the lines
            # after it, a scheduler's notice, stay at the last record's)
            self.closing[line_no] = self.relative.closed_at
        self.epochs.note(text)  # an epoch 0 named anywhere: the run counts its epochs from 0
        if self.keras.see(text, line_no, rank):
            return
        if is_prose(text, names_metric):
            return  # a sentence with numbers (``resuming from iteration 0, epoch 6 until 7``): no step, no values
        if not evaluation_line(text) and not self.headings.evaluating(text, line_no) and not self.evaluating:
            # (evaluation lines take the training step, whatever they count)
            self._count(text, line_no, rank)
        else:
            self.epochs.place(text, line_no, rank)
            at = step_before_evaluation(text)
            if at is not None and at >= (self.steps.get(rank, self.steps.get(None)) or 0):
                self.steps[rank] = self.steps[None] = at
            end = self.epochs.end_of_epoch(text, rank)
            if end is not None:
                self.steps[rank] = self.steps[None] = end
        kind = classify(text) if self.out.event_candidate else None
        if EXCEPTION_LINE.search(text) or kind in _NO_VALUES or _RESTORED_STATE.search(text):
            # an uncaught exception's message, a launcher's report that the job ended (``*** STEP 5559.0 ON
            # node3 CANCELLED AT 2024-...``): their numbers are the error's or the job's, and they are no progress
            return
        # a save's own report in parentheses (``(epoch 10 @ 4791 updates, score 6.389) (writing took 2.3 seconds)``):
        # the save's, no record's
        tokens = tokens_of(_ASIDE.sub(" ", text) if kind == "checkpoint" else text)
        shape = shape_of(tokens)
        if (split := self.headings.split_of(text, line_no, tuple(shape))) == RESTATED:
            return  # the best record's values again
        if not split and self.evaluating:
            split = "val"  # a line of the evaluating script's
        if split:  # values under an evaluation's heading: that split's
            tokens, shape = [split, *tokens], [split, *shape]
        if len(tokens) >= 2:
            self.miner.add(tokens, line_no, rank, self.steps.get(rank, self.steps.get(None)), shape)

    def _count(self, text: str, line_no: int, rank: int | None) -> None:
        """The step a line's counter says, for the value lines that follow it (a per-rank context)."""
        alone = _EPOCH_ALONE.match(text)
        if alone:
            # a line that is only an epoch (nnU-Net's ``epoch:  6``, ``Epoch 0``) numbers the lines after it,
            # until the file counts anything finer
            if not self.finer:
                self.steps[rank] = self.steps[None] = int(alone.group(1))
                self.by_banner = True
            return
        run_wide = _GLOBAL_COUNTER.search(text)
        if run_wide:  # ``STEP: 49/377 -- GLOBAL_STEP: 370050``: the counter of the whole run over the epoch's
            self.finer = True  # (or the one whole number of a list printed alone, ``[200, 9.99e-05]``)
            self.steps[rank] = self.steps[None] = self.stated = int(run_wide.group(1) or run_wide.group(2))
            return
        counted = self.epochs.see(text, line_no, rank, self.relative.banner_of(rank), self.stated)
        if counted is not None and self.relative.length and (bar := _BAR_AFTER_DESCRIPTION.search(text)):
            self._described(text[: bar.start()], line_no, rank)
        found = counted if counted is not None else counter_step(text)
        self.finer = self.finer or found is not None
        if counted is None and found is not None:
            epoch = self.relative.epoch_of(text, rank)  # on the line, or from the banner above it
            if epoch is not None:
                found = self._within_epoch(rank, epoch, found, line_no)
        if found is not None:
            self.steps[rank] = self.steps[None] = found

    def _described(self, description: str, line_no: int, rank: int | None) -> None:
        """A bar over the whole run whose description prints the step within the epoch (DeepSpeed-Chat's ``Epoch
        2, Step 3, Loss: 0.97:   9%|▉  | 13/144 [...]``, 8 steps an epoch printed before): the record is at the
        description's step, made global with the epoch's length as any counter within an epoch is."""
        epoch, step = self.relative.epoch_of(description, rank), counter_step(description)
        if epoch is not None and step is not None:
            self._within_epoch(rank, epoch, step, line_no)

    def _within_epoch(self, rank: int | None, epoch: float, printed: int, line_no: int) -> int:
        """The run's step of a counter printed within its epoch (``EpochRelative.step``), the steps it adds kept
        for the line's records; a counter going back as the epoch goes up starts the epoch, no restart."""
        shifted = self.relative.step(rank, epoch, printed, line_no)
        if self.relative.started_again:
            self.out.epoch_starts.add(line_no)  # a new epoch's counter going back: no restart
        if shifted != printed:
            self.relative.offsets[line_no] = shifted - printed
        return shifted

    def finish(self) -> None:
        self.tables.finish()
        self.boxes.flush()
        self.blocks.flush()
        fixed = self.keras.steps()
        ended = sorted(line for line, outcome, _ in self.out.markers if outcome == "completed")
        self.out.epoch_starts.update(self.keras.new_fits(ended))
        # a bar drawn once per epoch whose loss is the epoch's: its step is the epoch
        per_epoch = {} if fixed else self.epochs.per_epoch(self.bar_losses.step_records)
        if fixed or per_epoch:
            # a line between bars (an epoch's summary, a validation line) is at the step of the bar before it
            fixed = fixed or per_epoch
            bar_lines = sorted(fixed)
            for cluster in self.miner.clusters():
                cluster.rows = [
                    (n, r, t, fixed.get(n, context_step(bar_lines, fixed, n, step, bool(per_epoch))))
                    for n, r, t, step in cluster.rows
                ]
        _shift_late(self.miner, self.relative.late)
        for cluster in self.miner.clusters():
            if self.closing and all(row[0] in self.closing for row in cluster.rows):
                cluster.epoch_of_finer = True  # the epoch's values, at its last step
                cluster.rows = [(n, r, t, self.closing[n]) for n, r, t, _ in cluster.rows]
        mend_cut_tail(self.miner, step_of)
        second = second_lines(self.miner, step_of)
        _steps_from_typed_lines(self.miner)
        if self.by_banner and not self.finer:
            _several_an_epoch(self.miner)
        emit_all(
            self.miner,
            self.out,
            keep_unknown=True,
            shifts=self.epochs.offsets,
            fixed={**fixed, **second} if second else fixed,
            relative=self.relative.offsets,
        )


def _shift_late(miner: TemplateMiner, late: dict[int, tuple[int, int]]) -> None:
    """The lines read at a counter's step before the epoch's length was printed (``EpochRelative.late_length``)
    move with it: a line after the counter's line at the step it printed."""
    if not late:
        return
    counters = sorted(late)
    for cluster in miner.clusters():
        rows = []
        for n, r, t, s in cluster.rows:
            at = bisect.bisect_right(counters, n) - 1
            if at >= 0 and s == late[counters[at]][0]:
                s += late[counters[at]][1]
            rows.append((n, r, t, s))
        cluster.rows = rows


def _several_an_epoch(miner: TemplateMiner) -> None:
    """A record with no counter of its own that an epoch's banner numbered, printed several times under most
    banners (``Epoch 196`` then a dozen ``Loss = 4.18e-03, PNorm = ...`` lines, one each so many batches): the
    epoch is not its step, and the text gives none; each line stays a record of its own, at no step."""
    for cluster in miner.clusters():
        if step_of(cluster)[1] is not None:
            continue
        per_step: dict[int, int] = {}
        for row in cluster.rows:
            if row[3] is not None:
                per_step[row[3]] = per_step.get(row[3], 0) + 1
        if len(per_step) >= 2 and sum(n >= 3 for n in per_step.values()) * 2 > len(per_step):
            cluster.rows = [(n, r, t, None) for n, r, t, _ in cluster.rows]


def _steps_from_typed_lines(miner: TemplateMiner) -> None:
    """Lines that print no step of their own (an evaluation after its training line) take the step of the
    typed line before them: where that line's step is a whole number its template names (``(Epoch 21) TRAIN
    LOSS:0.18`` then ``VALID SET 0 LOSS:0.17``), a line that had no step from the line-by-line reading takes it;
    where that line's counter is the second of its pair (``second_counts``), the line-by-line reading took
    the first (the epoch), so every such line takes the typed step."""
    second: dict[int, int] = {}
    plain: dict[int, int] = {}
    by_epoch = []  # templates numbered by their epoch: among finer steps at the step before, numbering no line
    finer: dict[int, int] = {}
    for cluster in miner.clusters():
        names, pos, _ = step_of(cluster)
        if pos is None:
            continue
        counted = {n: int(t[pos]) if t[pos].isdigit() else step_number(t[pos]) for n, _, t, _ in cluster.rows}
        counted = {n: v for n, v in counted.items() if v is not None}  # (``env_step=50000,``: its separator)
        if pos >= 2 and cluster.template[pos - 1] == "/" and second_counts(cluster, pos - 2):
            second.update(counted)
        elif cluster.template[pos + 1 : pos + 2] != ["/"]:
            plain.update(counted)
            if names.get(pos, "").lower() == "epoch":
                by_epoch.append(cluster)
            else:
                finer.update(counted)
    if not second and not plain:
        return
    steps = {**({n: v for n, v in plain.items() if n in finer} if finer else plain), **second}
    lines = sorted(steps)
    finer_lines = sorted(finer)
    for cluster in miner.clusters():
        if step_of(cluster)[1] is not None:
            if finer and any(cluster is c for c in by_epoch):  # ``Epoch #2: test_reward: 200.0`` after a line
                # of ``env_step=100000``: at that step, as a line numbered by its epoch among finer steps is
                cluster.rows = [
                    (n, r, t, s if s is not None else step_before(finer_lines, finer, n)) for n, r, t, s in cluster.rows
                ]
            continue
        rows = []
        for n, r, t, s in cluster.rows:
            if second:
                s = step_before(lines, steps, n) if s is not None else None
            elif s is None:
                s = step_before(lines, steps, n)
            rows.append((n, r, t, s))
        cluster.rows = rows


