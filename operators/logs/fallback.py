"""Unknown text formats: mine line templates (in the manner of Drain: lines of equal length whose constant
tokens mostly agree share a template, the tokens that differ are its variables) and recover the numeric
series a template carries, named by the word printed before each value: ``step 10 | loss 2.31`` gives
``loss`` at step 10. Only lines that mention a metric-like word and a number are mined."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._collect import Collector
from assay.operators.logs._lines import PrefixStyle
from assay.operators.logs._names import (
    STANDARD_METRICS,
    extra_metric_name,
    is_step_key,
    key_slug,
    metric_name,
)
from assay.operators.logs._numbers import memory_mb, parse_quantity
from assay.operators.logs._steps import EVALUATION_WORD, EpochBars, EpochCounters, counter_step, step_position

_TOKEN = re.compile(
    r"[-+]?(?:\d[\d,]*\.?\d*(?:[eE][-+]?\d+)?|\.\d+)(?:[A-Za-z%]+)?"  # numbers, with a unit glued on
    r"|[A-Za-z_][A-Za-z0-9_./()\-]*(?:@\d+)?"  # words and keys (train/loss, lr-AdamW, Acc@1)
    r"|\S"
)
_NUMERIC_WORDS = {"nan", "NaN", "inf", "Inf", "-inf", "-nan"}
_SIMILARITY = 0.5
_RECOGNISED = {*STANDARD_METRICS, "tokens_per_s_per_gpu", "samples_per_s_per_gpu"}
_MAX_CLUSTERS_PER_LENGTH = 64
_MAX_TOKENS = 80
_TIME_NAMES = {"time", "dt", "iter_time", "step_time", "batch_time", "elapsed"}


@dataclass
class _Cluster:
    template: list[str]  # constants, and "<*>" for variables
    rows: list[tuple[int, int | None, list[str], int | None]] = field(default_factory=list)


def tokens_of(text: str) -> list[str]:
    return _TOKEN.findall(text)[:_MAX_TOKENS]


def _is_variable(token: str) -> bool:
    return (
        token[0].isdigit()
        or (token[0] in "+-." and len(token) > 1 and token[1:2].isdigit())
        or token in _NUMERIC_WORDS
    )


class TemplateMiner:
    """Drain-style clustering of token sequences; each cluster keeps its lines' variable tokens."""

    def __init__(self) -> None:
        self.by_length: dict[int, list[_Cluster]] = {}

    def add(self, tokens: list[str], line_no: int, rank: int | None, step: int | None = None) -> None:
        """Add a line's tokens; ``step`` is the step the log was at, for series that print none."""
        shape = ["<*>" if _is_variable(t) else t for t in tokens]
        clusters = self.by_length.setdefault(len(shape), [])
        best, best_score = None, -1.0
        keys = {i for i in range(len(shape) - 1) if shape[i + 1] in (":", "=") and shape[i] != "<*>"}
        for cluster in clusters:
            constants = [i for i, t in enumerate(cluster.template) if t != "<*>"]
            if not constants:
                score = 1.0
            elif any(cluster.template[i] != shape[i] and i in keys for i in constants):
                continue  # a different key before its value (``loss: 2.1`` vs ``time: 9``): another series
            else:
                score = sum(cluster.template[i] == shape[i] for i in constants) / len(constants)
            if score > best_score:
                best, best_score = cluster, score
        if best is None or best_score < _SIMILARITY:
            if len(clusters) >= _MAX_CLUSTERS_PER_LENGTH:
                return
            best = _Cluster(shape)
            clusters.append(best)
        else:
            for i, token in enumerate(shape):
                if best.template[i] != token:
                    best.template[i] = "<*>"
        best.rows.append((line_no, rank, tokens, step))

    def clusters(self) -> list[_Cluster]:
        return [c for cs in self.by_length.values() for c in cs]


#: Units printed after a number that name its metric: ``12000 tok/s``.
_RATE_UNITS = {
    "tok/s": "tokens_per_s",
    "tokens/s": "tokens_per_s",
    "tokens/sec": "tokens_per_s",
    "samples/s": "samples_per_s",
    "samples/sec": "samples_per_s",
    "img/s": "samples_per_s",
    "img/sec": "samples_per_s",
    "images/sec": "samples_per_s",
}


#: Words between a name and its value (``Total loss is 26.7``, ``loss of 2.3``): skipped when naming.
_FILLER = {"is", "was", "are", "were", "of", "at", "to", "now", "currently", "equals", "became", "becomes"}
#: A word before a metric's name that says which split it is about (``val loss 2.4``).
_QUALIFIERS = {"train", "training", "val", "valid", "validation", "eval", "test", "dev"}


def variable_names(template: list[str]) -> dict[int, str]:
    """Each variable position named by the nearest word before it (punctuation and filler words skipped),
    or by a rate unit right after it. A clock time (``7:57:00``) is no value."""
    names: dict[int, str] = {}
    for i, token in enumerate(template):
        if token != "<*>":
            continue
        after = template[i + 1 : i + 3]
        # a rate unit after the value names it (``812 img/s``), unless it is the next field's key (``img/s: 812``)
        if after and after[0].lower() in _RATE_UNITS and after[1:2] not in ([":"], ["="]):
            names[i] = after[0].lower()
            continue
        running = _running_average(template, i, names)
        if running:
            names[i] = running
            continue
        # hours of a clock time (7:57:00, eta: 1:23), unless a metric's name comes right before a value that
        # only a colon follows (torchtune's "Loss: 2.26:  4%|")
        clock = after == [":", "<*>"] and (
            template[i + 3 : i + 4] == [":"] or not (i >= 2 and template[i - 1] == ":" and metric_name(template[i - 2]))
        )
        if clock:
            continue
        for j in range(i - 1, max(-1, i - 5), -1):
            word = template[j]
            if word == "<*>" or word in _NAME_STOPS:
                break  # a name is never read across a value, a bracket or a field separator
            if (word[0].isalpha() or word[0] == "_") and word.lower() not in _FILLER:
                before = template[j - 1] if j > 0 else ""
                if not _is_key(word, before, template[j - 2] if j > 1 else ""):
                    break
                if before == "(" and template[i + 1 : i + 2] == [")"] and j == i - 2 and template[j + 1] == ":":
                    break  # ESPnet's "(trainer:672)": a module and its line, a source location
                # "val loss 2.4" is the validation loss, "train loss 2.3" the training loss; so is LitGPT's
                # "loss train: 2.3" (the split after the metric's name)
                if before.lower() in _QUALIFIERS and word.isalpha():
                    names[i] = f"{before.lower()}_{word}"
                elif word.lower() in _QUALIFIERS and before.isalpha() and metric_name(before):
                    names[i] = f"{word.lower()}_{before}"
                else:
                    phrased = phrase_name(template, j)
                    if phrased:
                        names[i] = phrased
                break
    return names


#: Words that say a value in parentheses is the running average of the value before it: ``(Avg 0.61)``.
_AVERAGE_WORDS = {"avg", "average", "mean", "ema", "smoothed", "running"}


def _running_average(template: list[str], i: int, names: dict[int, str]) -> str | None:
    """The name of a value in parentheses right after a named value (``Loss 0.52 (0.61)``, ``loss 2.1 (Avg
    2.3)``): that value's running average, ``<name>_avg``, kept apart from the value itself."""
    if template[i + 1 : i + 2] != [")"]:
        return None
    j = i - 1
    if j >= 0 and template[j].lower() in _AVERAGE_WORDS:
        j -= 1
    if j < 1 or template[j] != "(" or template[j - 1] != "<*>" or (j - 1) not in names:
        return None
    return f"{names[j - 1]}_avg"


#: Plural counter words that a ``Total``/``Number of`` before them makes a count of the run, not a series
#: (``Total Batches 800``, ``Number of steps 1000``).
_COUNTS = {"batches", "steps", "iterations", "iters", "epochs", "updates", "samples", "examples", "tokens"}
_COUNT_WORDS = {"total", "num", "number", "n"}


def phrase_name(template: list[str], j: int) -> str | None:
    """The name a field's words give the value after them: the longest run of words ending at ``j`` that the
    synonym table knows (``Learning Rate 2e-05`` is lr), a loss named by its whole phrase (``batch avg ctc loss``
    and ``batch avg loss`` are two series), ``None`` for a count of the run (``Total Batches 800``), else the
    word at ``j`` itself."""
    start = j
    while start > 0 and j - start < 3 and _is_word(template[start - 1]):
        start -= 1
    words = template[start : j + 1]
    if key_slug(words[-1]).endswith("loss") and len(words) > 1:
        return " ".join(words)  # the loss's own words say whether it is the loss (see pick_loss)
    for k in range(len(words) - 1):  # the longest known run first
        if metric_name(" ".join(words[k:])):
            return " ".join(words[k:])
    if words[-1].lower() in _COUNTS and any(w.lower() in _COUNT_WORDS for w in words[:-1]):
        return None
    return words[-1]


def _is_word(token: str) -> bool:
    return token.isalpha() and token.lower() not in _FILLER


#: Tokens a name is never read across: ``] [2021-06-08`` is no value of the bar's ``it``, ``(0/7) Epoch``...
_NAME_STOPS = {"]", ")", "|", ",", ";", "}", "{", "│", "┃"}
#: Words before a word that make it prose, not a key: a verb (``Tried to allocate 20 MiB``, ``we found is 1``).
_PROSE_BEFORE = {"to", "we", "i", "you", "they", "he", "she", "will", "would", "can", "could", "should", "must"}
#: A source location (``trainer.py:412``, ``yolox.core.trainer:246``): a file name or a dotted module path.
_SOURCE_FILE = re.compile(r"(?i)^[\w/.\-]*\.(?:py|pyx|cc|cpp|cxx|c|h|hpp|cu|cuh|go|rs|java|scala|js|ts|jl|lua|rb)$")
#: A dotted module path (``yolox.core.trainer:246``): a source location where its values are whole numbers (a
#: dotted metric name, mmseg's ``decode.loss_seg: 0.1234``, holds fractions).
_MODULE_PATH = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")


def _is_key(word: str, before: str, key: str) -> bool:
    """Whether ``word`` names the value after it: not when it is itself the value of a ``key`` before it
    (``Device=xla:0``), a verb of a sentence (``we found``, ``to allocate``), or a file name (``x.py:12``)."""
    if before in (":", "=") and key[:1].isalpha():
        return False
    if before.lower() in _PROSE_BEFORE:
        return False
    return not _SOURCE_FILE.match(word)


#: A table's header row (``step  loss  lr``) and its rows of numbers.
_HEADER = re.compile(r"^\s*[A-Za-z_][\w/.\-():%]*(?:(?:\s{2,}|\t|\s*[|,]\s*)[A-Za-z_][\w/.\-():%]*)+\s*$")
_BAR_TAIL = re.compile(r"\s\d{1,3}%\|")


def _column_of_a_log(column: str) -> bool:
    """A header's column that says the table is a training log's: a step, an epoch, a metric, a loss term."""
    slug = key_slug(column)
    return is_step_key(column) or slug == "epoch" or bool(metric_name(column)) or bool(loss_by_ending(slug))


_ROW_SPLIT = re.compile(r"\s*[|,\t]\s*|\s+")
#: A row of numbers under a header; a cell may be a counter with its total (``3/50``) or carry a unit (``4.1G``),
#: and the row may end in a progress bar (``640: 100%|###| 32/32 [...]``).
_CELL = r"[-+]?(?:\d|\.\d)[\d.eE+\-]*(?:/\d+|[KMGT]i?B?|%)?"
_NUMBER_ROW = rf"^\s*{_CELL}(?:(?:\s+|\s*[|,]\s*)(?:{_CELL}|nan|inf))+(?::?\s+\d{{1,3}}%\|.*)?\s*$"


def mine_line(miner: TemplateMiner, text: str, line_no: int, rank: int | None, out: Collector) -> None:
    """A user script's own line for ``miner``; a counter on it moves the collector's current step, so
    that the framework's lines after it (an overflow, a timer) take that step."""
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
    interesting = (
        r"(?i:loss|lr|learning|step|iter|epoch|batch|acc|perplex|ppl|throughput|tokens|samples|norm|mfu|flops|mem"
        r"|metric|entropy|reward|score|grad|bleu|f1|wer|tok|update)"
        r"[^\n]*\d|" + _NUMBER_ROW + r"|^\s*(?i:step|iter|iteration|epoch|global_step)\b[\w\s/|,.\-()]*$"
    )

    def __init__(self, out: Collector, prefix: PrefixStyle | None = None):
        super().__init__(out, prefix)
        self.miner = TemplateMiner()
        self.steps: dict[int | None, int] = {}  # the last counter each rank printed (None: any rank)
        self.header: dict[int | None, list[str]] = {}
        self.epochs = EpochCounters()
        self.keras = EpochBars()
        self.relative = _EpochRelative()

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        header = self.header.get(rank)
        if header is not None and self._table_row(header, text, line_no, rank):
            return
        if self.keras.see(text, line_no, rank):
            return
        if _HEADER.match(text):
            columns = [c for c in _ROW_SPLIT.split(text.strip()) if c]
            if any(_column_of_a_log(c) for c in columns):
                self.header[rank] = columns
            return
        if not EVALUATION_WORD.search(text):  # evaluation lines take the training step, whatever they count
            self._count(text, line_no, rank)
        tokens = tokens_of(text)
        if len(tokens) >= 2:
            self.miner.add(tokens, line_no, rank, self.steps.get(rank, self.steps.get(None)))

    def _count(self, text: str, line_no: int, rank: int | None) -> None:
        """The step a line's counter says, for the value lines that follow it (a per-rank context)."""
        counted = self.epochs.see(text, line_no, rank)
        found = counted if counted is not None else counter_step(text)
        if counted is None and found is not None:
            epoch = _EPOCH_NUMBER.search(text)
            if epoch:
                shifted = self.relative.step(rank, float(epoch.group(1)), found)
                if shifted != found:
                    self.relative.offsets[line_no] = shifted - found
                found = shifted
        if found is not None:
            self.steps[rank] = self.steps[None] = found

    def _table_row(self, header: list[str], text: str, line_no: int, rank: int | None) -> bool:
        bar = _BAR_TAIL.search(text)  # a row that ends in its batch bar (``... 640: 100%|####| 32/32 [...]``)
        cells = [c.rstrip(":") for c in _ROW_SPLIT.split(text[: bar.start()].strip() if bar else text.strip()) if c]
        if len(cells) != len(header):
            return False
        values = [parse_quantity(c) for c in cells]
        if any(v is None for v in values):
            return False
        # the step column: a step key, else the epoch of a table with one row per epoch (YOLOv5's results.csv)
        at = next((i for i, c in enumerate(header) if is_step_key(c)), None)
        if at is None:
            at = next((i for i, c in enumerate(header) if key_slug(c) == "epoch"), None)
        step = int(values[at][0]) if at is not None and float(values[at][0]).is_integer() else None
        if step is None:
            step = self.steps.get(rank, self.steps.get(None))
        metrics = {i: name for i, column in enumerate(header) if i != at and (name := series_name(column))}
        pick_loss(metrics, dict(enumerate(header)))
        for i, name in metrics.items():
            self.out.metric(name, step, values[i][0], line_no, rank)
        return True

    def finish(self) -> None:
        fixed = self.keras.steps()
        if fixed:
            for cluster in self.miner.clusters():
                cluster.rows = [(n, r, t, fixed.get(n, step)) for n, r, t, step in cluster.rows]
        emit_all(
            self.miner,
            self.out,
            keep_unknown=True,
            shifts=self.epochs.offsets,
            fixed=fixed,
            relative=self.relative.offsets,
        )


def series_name(word: str, keep_unknown: bool = True) -> str | None:
    """The metric a word before a value names: the contract's name through the synonym table, a loss
    term by its ending, else (``keep_unknown``) the word itself as a slug."""
    slug = key_slug(word)
    name = _RATE_UNITS.get(word) or metric_name(word) or ("step_time_ms" if slug in _TIME_NAMES else None)
    if name is None and loss_by_ending(slug):
        name = extra_metric_name(word)  # a loss term: :func:`pick_loss` says whether it is the loss
    if name is None and keep_unknown and not is_step_key(word) and slug not in _NOT_SERIES:
        name = extra_metric_name(word)
    return name


def loss_by_ending(slug: str) -> str | None:
    """``loss`` or ``val_loss`` for a name that ends in loss and is no auxiliary term."""
    if not slug.endswith("loss") or _AUXILIARY_LOSS.search(slug):
        return None
    return "val_loss" if slug.startswith(("val", "eval", "valid", "test")) else "loss"


#: Words that qualify a loss as the whole of it (an average, a total, this batch's), not one of its terms; the
#: lower the rank the nearer to the step's own value (``batch avg loss`` over a running ``total avg loss``).
_WHOLE_LOSS_WORDS = {
    **dict.fromkeys(("batch", "step", "iter", "cur", "current", "train", "training", "tr", "reduced"), 0),
    **dict.fromkeys(("total", "sum", "overall", "full", "all", "final", "weighted", "global", "net"), 1),
    **dict.fromkeys(("avg", "avr", "average", "mean", "running", "smoothed", "moving", "ema", "epoch"), 2),
    **dict.fromkeys(("val", "eval", "valid", "validation", "test"), 0),
}


def pick_loss(metrics: dict[int, str], words: dict[int, str]) -> None:
    """The loss of a record by meaning, where no name of the synonym table gives it: its only loss term, else
    the whole loss among several (``total``, ``avg``, ``batch`` qualify the whole; the nearest to the step wins:
    ``batch avg loss`` over ``total avg loss``, a running average over the epoch);
    loss terms that are all parts (``act_loss``, ``cri_loss``; ``box_loss``, ``cls_loss``) give no loss and keep
    their own names."""
    for split in ("loss", "val_loss"):
        if split in metrics.values():
            continue
        found = [
            p for p in sorted(metrics) if not metric_name(words[p]) and loss_by_ending(key_slug(words[p])) == split
        ]
        if len(found) == 1:
            metrics[found[0]] = split
            continue
        ranks = {p: _whole_rank(key_slug(words[p])) for p in found}
        wholes = [p for p in found if ranks[p] is not None]
        if wholes:
            metrics[min(wholes, key=lambda p: (ranks[p], -p))] = split


def _whole_rank(slug: str) -> int | None:
    """The rank of a loss name whose qualifiers all say it is the whole loss, else ``None``."""
    qualifiers = [w for w in slug[: -len("loss")].split("_") if w]
    if not qualifiers:
        return 0
    if not all(w in _WHOLE_LOSS_WORDS for w in qualifiers):
        return None
    return min(_WHOLE_LOSS_WORDS[w] for w in qualifiers)


#: Loss terms printed beside the objective (``actor/entropy_loss``, ``kl_loss``, ``load_balancing_loss``): kept
#: under their own names, never taken for the loss.
_AUXILIARY_LOSS = re.compile(
    r"(?:^|_)(?:entropy|kl|aux|z|load_balancing|lb|balance|router|moe|vf|value|critic|reg|l1|l2|penalty)_?loss$"
)

#: Words that name no series of their own: bookkeeping (a version, a rank, an ETA) and units.
_NOT_SERIES = {
    "v",
    "v_num",
    "rank",
    "local_rank",
    "eta",
    "gpu",
    "gpus",
    "node",
    "nodes",
    "pid",
    "s",
    "ms",
    "it",
    # a log level before a value glued to a word (ESPnet's ``INFO: 1epoch:train:...``)
    "info",
    "warning",
    "warn",
    "debug",
    "error",
    "critical",
    # the counter of an evaluation line (``Test: [ 10/196]``), not a series of its own
    "test",
    "val",
    "eval",
    "valid",
    "validation",
}


def _keep_series_apart(metrics: dict[int, str], names: dict[int, str]) -> None:
    """Two values of one line never land in one series: where two keys map to the same name, a key the synonym
    table names so keeps it over one named by its ending (fairseq's ``loss`` over ``nll_loss``); between equals
    (a running-mean ``loss=`` beside ``reduced_train_loss=``) the last printed keeps it. The others keep
    their own names."""
    last: dict[str, int] = {}
    for pos in sorted(metrics):
        keeper = last.get(metrics[pos])
        # a later key takes the name, unless only the earlier one is in the synonym table
        if keeper is None or metric_name(names[pos]) or not metric_name(names[keeper]):
            last[metrics[pos]] = pos
    for pos in sorted(metrics):
        name = metrics[pos]
        if last[name] != pos:
            own = key_slug(names[pos])
            metrics[pos] = own if own and own != name else f"{name}_at_{pos}"


class _EpochRelative:
    """A step printed without its total beside an epoch (MindSpore's ``epoch: 2 step: 100, loss is 1.9``) that
    goes back exactly when the epoch goes up counts within the epoch: the steps go on from the largest one seen
    in the epochs before (the epoch's length as far as the log shows it), instead of a restart at each epoch."""

    def __init__(self) -> None:
        self.state: dict[int | None, tuple[float, int, int, int]] = {}  # rank -> epoch, last, most, offset
        self.offsets: dict[int, int] = {}  # line number -> steps added to its counter (where > 0)

    def step(self, rank: int | None, epoch: float, printed: int) -> int:
        last_epoch, last, most, offset = self.state.get(rank, (epoch, printed, 0, 0))
        if epoch > last_epoch and printed < last:
            offset += max(most, last)
            most = 0
        self.state[rank] = (epoch, printed, max(most, printed), offset)
        return printed + offset


#: The epoch a line names, printed without its total (``epoch: 2 step: 100``).
_EPOCH_NUMBER = re.compile(r"(?i)\bepoch\b\s*[:=#]?\s*(\d+)(?!\s*/)")


def _evaluation_loss(template: list[str], metrics: dict[int, str]) -> None:
    """On a line about evaluation (``Test: [ 10/196] ... Loss 5.5``, ``| valid on 'valid' subset | loss 4.1``:
    an evaluation word before the loss), the loss is the validation loss, unless the line names one itself."""
    at = next((p for p in sorted(metrics) if metrics[p] == "loss"), None)
    if at is None or "val_loss" in metrics.values():
        return
    if any(w.lower() in _EVALUATION_TAGS for w in template[:at]):
        metrics[at] = "val_loss"


_EVALUATION_TAGS = {"test", "val", "valid", "validation", "eval", "evaluation", "evaluating", "validating"}


def _drop_non_values(cluster: _Cluster, names: dict[int, str]) -> None:
    """Positions named by a dotted module path whose values are whole numbers are source locations
    (``yolox.core.trainer:246``), not series."""
    for pos, word in list(names.items()):
        if _MODULE_PATH.match(word) and all(_whole(row[2][pos]) for row in cluster.rows):
            del names[pos]


def _whole(token: str) -> bool:
    return token.isdigit()


def _percent_positions(cluster: _Cluster, names: dict[int, str]) -> set[int]:
    """Positions whose values are printed as percentages (a bar's ``7%``): never a step counter."""
    return {pos for pos in names if any(row[2][pos].endswith("%") for row in cluster.rows)}


def _step_of(cluster: _Cluster) -> tuple[dict[int, str], int | None]:
    """The template's named values and where it prints its step."""
    names = variable_names(cluster.template)
    _drop_non_values(cluster, names)
    found = step_position(cluster.template, names, not_counters=_percent_positions(cluster, names))
    return names, (found if found is not None else _bracketed_counter(cluster))


def _bracketed_counter(cluster: _Cluster) -> int | None:
    """A whole number alone in brackets that never goes down across the records (clu's ``logging_writer.py:35]
    [400] train_loss=...``): the step. A rank tag (``[0]``, ``[1]``, ``[0]``) goes back and forth."""
    t = cluster.template
    for pos in range(1, len(t) - 2):
        # followed by a key (``[400] train_loss=``), not by another bracket (mmengine's ``[1][25/25]``)
        if t[pos - 1] == "[" and t[pos] == "<*>" and t[pos + 1] == "]" and t[pos + 2][:1].isalpha():
            values = [row[2][pos] for row in cluster.rows]
            if all(v.isdigit() for v in values) and all(
                int(a) <= int(b) for a, b in zip(values, values[1:], strict=False)
            ):
                return pos
            return None
    return None


def emit_all(
    miner: TemplateMiner,
    out,
    *,
    keep_unknown: bool = False,
    shifts: dict[int, int] | None = None,
    fixed: dict[int, int] | None = None,
    relative: dict[int, int] | None = None,
) -> None:
    """Every template's values as metric rows. The order of appearance numbers a template's records only where
    nothing in the file counts steps: beside a real counter, a line that prints none (an overflow notice, a
    summary) has no step of its own, and numbering it 0, 1, 2 ... invented steps and restarts."""
    clusters = miner.clusters()
    counted = any(
        _step_of(c)[1] is not None or any(row[3] is not None for row in c.rows) for c in clusters
    )
    for cluster in clusters:
        emit_series(
            cluster, out, keep_unknown=keep_unknown, shifts=shifts, ordinal=not counted, fixed=fixed, relative=relative
        )


def emit_series(
    cluster: _Cluster,
    out,
    *,
    keep_unknown: bool = False,
    shifts: dict[int, int] | None = None,
    ordinal: bool = True,
    fixed: dict[int, int] | None = None,
    relative: dict[int, int] | None = None,
) -> None:
    """The template's values as metric rows; ``shifts`` (line number -> steps to add) makes the steps of a
    per-epoch counter printed ``N/M`` global (see :class:`EpochCounters`); ``ordinal``: rows without a step
    are numbered in order (else their step is unknown); ``fixed``: line number -> a step already known from the
    line's context (a Keras bar under its ``Epoch k/N``), over what the line prints; ``relative``: line number ->
    steps to add to a counter printed without its total that starts again each epoch (see ``_EpochRelative``)."""
    shifts, relative = shifts or {}, relative or {}
    names, step_pos = _step_of(cluster)
    counted = step_pos is not None and cluster.template[step_pos + 1 : step_pos + 2] == ["/"]
    # a line numbered by its epoch (``Epoch 1/1 with loss 2.12``) among lines that count steps takes their step
    by_epoch = step_pos is not None and names.get(step_pos, "").lower() == "epoch"
    metrics: dict[int, str] = {}
    for pos, word in names.items():
        if pos == step_pos:
            continue
        name = series_name(word, keep_unknown)
        if name:
            metrics[pos] = name
    pick_loss(metrics, names)
    _evaluation_loss(cluster.template, metrics)
    _keep_series_apart(metrics, names)
    stepped = step_pos is not None or all(row[3] is not None for row in cluster.rows)
    if not any(name in _RECOGNISED for name in metrics.values()) and not (
        keep_unknown and stepped and metrics
    ):
        return  # no known metric and no step: a line with numbers, not a series
    for number, (line_no, rank, tokens, current) in enumerate(cluster.rows):
        step = current if current is not None or not ordinal else number
        if step_pos is not None and not (by_epoch and current is not None) and not (fixed and line_no in fixed):
            parsed = parse_quantity(tokens[step_pos])
            if parsed is None or parsed[0] != parsed[0]:
                continue
            if float(parsed[0]).is_integer():  # a fractional epoch (0.25) counts no steps
                step = int(parsed[0]) + ((shifts if counted else relative).get(line_no, 0))
        for pos, name in metrics.items():
            parsed = parse_quantity(tokens[pos])
            if parsed is None:
                continue
            value, unit = parsed
            if name == "step_time_ms":
                if unit in ("s", "sec"):
                    value *= 1000.0
                elif unit != "ms":
                    continue
            if name == "memory_mb":
                value = memory_mb(value, unit)
            out.metric(name, step, value, line_no, rank)
