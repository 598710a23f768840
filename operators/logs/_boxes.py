"""Boxed key/value reports in a text log: a box of ``| key | value |`` rows per report, with section rows
(Stable-Baselines3's logger). Read apart from the line templates: a box is one record spread over lines."""

from __future__ import annotations

import re

from assay.operators.logs._collect import Collector
from assay.operators.logs._fields import series_name
from assay.operators.logs._losses import pick_loss
from assay.operators.logs._names import is_step_key, key_slug
from assay.operators.logs._numbers import parse_quantity
from assay.operators.logs._steps import counts_across_epochs

#: A row of a boxed table of one key and one value (Stable-Baselines3's ``|    loss    | 0.0227 |``), or a
#: section row with no value (``| train/   |        |``).
BOX_ROW = re.compile(r"^\s*\|\s+(?P<key>[A-Za-z_][\w/.\-]*)\s+\|\s*(?P<value>[^|\s]*)\s*\|\s*$")


_BORDERS = "|┃│║"
_INNER_BORDER = re.compile(r"\s*[┃│║]\s*")


def unborder(text: str) -> str:
    """A bordered table's row without its outer borders, its inner ones as ``|`` (``| step | loss |``,
    ``┃ step ┃ loss ┃``, ``│ 10 │ 0.91 │``): the header-and-rows reader then reads it as a ``|``-separated
    table. Any other line as it is."""
    stripped = text.strip()
    if len(stripped) < 3 or stripped[0] not in _BORDERS or stripped[-1] not in _BORDERS:
        return text
    return _INNER_BORDER.sub(" | ", stripped[1:-1]).strip()


def _whole(value: str) -> int | None:
    """A step printed whole (``400``) or in ``%g`` notation (``5e+04``, as a logger that formats every value
    alike prints it); a fraction is no step."""
    if value.isdigit():
        return int(value)
    try:
        number = float(value)
    except ValueError:
        return None
    return int(number) if number.is_integer() and number >= 0 else None


class BoxTables:
    """Tables printed as a box of ``| key | value |`` rows, one box per report: the box's step is its step-key
    row (``total_timesteps``, ``step``); section rows (``train/``, ``eval/``) qualify the keys under them. A box
    ends where a key it already holds comes again, or at the end of the file."""

    def __init__(self, out: Collector) -> None:
        self.out = out
        self.section: str = ""
        self.rows: list[tuple[str, str, int, int | None]] = []  # (section/key, value, line, rank)
        self.heading: int | None = None  # the count of the last line that printed only a counter
        self.box_heading: int | None = None  # the heading before the box being read

    def see(self, text: str, line_no: int, rank: int | None) -> bool:
        m = BOX_ROW.match(text)
        if not m:
            h = _COUNTER_HEADING.match(text)
            if h and is_step_key(h.group("word")):
                self.heading = int(h.group("n"))
            return False
        key, value = m.group("key"), m.group("value")
        if value[:1].isalpha() and value.lower() not in ("nan", "inf"):
            return False  # ``| epoch | loss |``: a table's header of two columns, not a key and its value
        if not value:
            self.section = key if key.endswith("/") else f"{key}/"
            return True
        full = self.section + key
        if any(k == full for k, _, _, _ in self.rows):
            self.flush()
        if not self.rows:  # the box opens: a heading printed before it is its own
            self.box_heading, self.heading = self.heading, None
        self.rows.append((full, value, line_no, rank))
        return True

    def flush(self) -> None:
        rows, self.rows, self.section = self.rows, [], ""
        if rows:
            emit_record(self.out, rows, self.box_heading)


def _step_of_record(rows: list[tuple[str, str, int, int | None]]) -> int | None:
    """A record's step: its key that counts across the run (``timesteps_total``, ``global_step``), else its
    first step key (``step``, ``training_iteration``), else its epoch (a report a tool prints once an epoch,
    ``| Epoch | 3 |``); printed whole or in ``%g`` notation."""
    steps = [(k.rsplit("/", 1)[-1], w) for k, v, _, _ in rows if is_step_key(k.rsplit("/", 1)[-1])
             and (w := _whole(v)) is not None]
    across = [w for k, w in steps if counts_across_epochs(k)]
    if across or steps:
        return across[0] if across else steps[0][1]
    epochs = [w for k, v, _, _ in rows if key_slug(k.rsplit("/", 1)[-1]) == "epoch" and (w := _whole(v)) is not None]
    return epochs[0] if epochs else None


#: A time unit in brackets after a key (``time/epoch (s)``): the key names a duration, whatever its words.
_TIME_UNIT = re.compile(r"\s*\((?:s|sec|secs|seconds|ms|min|h)\)$")


def _row_name(key: str, last: str) -> str | None:
    """A record's row named by the last part of its key (``Diagnostics/CumSteps``, ``train/entropy_loss``), unless
    that part says nothing alone: then by the whole key (``replay_buffer/size``, ``time/epoch (s)``: a size or a
    duration, never the epoch)."""
    if "/" not in key or (key_slug(_TIME_UNIT.sub("", last)) not in _GENERIC_LAST and not _TIME_UNIT.search(last)):
        return series_name(last)
    # (the split a section names is the record's prefix, ``emit_record``: ``eval/Average Returns`` is
    # ``val_average_returns``)
    return series_name(_SPLIT_SECTION.sub("", key))


#: Last parts of a key that say nothing alone (``replay_buffer/size``, ``time/epoch (s)``): the whole key names it.
_GENERIC_LAST = {"size", "epoch", "count", "total", "mean", "std", "min", "max", "avg", "sum", "value", "time"}
#: A key's first section that names an evaluation's split (``eval/``): the row's prefix, no part of its name.
_SPLIT_SECTION = re.compile(r"^(?:eval|val|valid|validation|test)/", re.I)


def emit_record(out: Collector, rows: list[tuple[str, str, int, int | None]], heading: int | None = None) -> int | None:
    """One record of ``(key, value, line, rank)`` rows at its step (see ``_step_of_record``), else at the count of
    the heading line printed above it (``heading``); its step, or ``None`` when neither names one (a settings
    table, not a report: nothing is written)."""
    step = _step_of_record(rows)
    if step is None:
        step = heading
    if step is None:
        return None
    keys = {i: k.rsplit("/", 1)[-1] for i, (k, _, _, _) in enumerate(rows) if not is_step_key(k.rsplit("/", 1)[-1])}
    metrics = {i: name for i, k in keys.items() if (name := _row_name(rows[i][0], k))}
    pick_loss(metrics, keys)
    for i, name in metrics.items():
        key, value, line_no, rank = rows[i]
        parsed = parse_quantity(value)
        if parsed is None:
            continue
        if key.startswith(("eval/", "val/", "valid/", "validation/", "test/")) and not name.startswith("val_"):
            name = f"val_{name}"
        out.metric(name, step, parsed[0], line_no, rank)
    return step


#: A line that prints only a counter and its count (OpenAI Baselines' ACKTR prints ``Iteration 3025`` above each
#: box whose rows name no step): the box's step.
_COUNTER_HEADING = re.compile(r"^\s*(?P<word>[A-Za-z][A-Za-z_]*)\s*[:#=]?\s*(?P<n>\d+)\s*$")


#: A line that is only a key and its number (a YAML or ``key: value`` dump, one field per line), also a field of a
#: JSON object printed one field per line (``{"iter": 1200,``, ``  "loss": 0.56,``, ``"time": 0.41}``).
KEY_LINE = re.compile(r"^\s*\{?\s*[\"']?(?P<key>[A-Za-z_][\w/.@\-]*)[\"']?:\s+(?P<value>[-+]?(?:\d+\.?\d*"
                      r"(?:[eE][-+]?\d+)?|\.\d+|nan|inf))\s*,?\s*(?P<close>\})?\s*$")

#: A line of a tabular logger's report without its colon (rllab's, garage's and rlpyt's ``Diagnostics/CumSteps
#: 10000``): a key shaped as an identifier (a ``/`` section, an ``_`` or a capital inside it; a word of prose has
#: none) and its number apart by spaces, after the separator a logger's prefix may leave (``| ``).
KEY_SPACE_LINE = re.compile(r"^\s*(?:[|:-]\s+)?(?P<key>[A-Za-z_]\w*(?:/\w+)+|[A-Za-z]+_\w+|[A-Z]?[a-z]+[A-Z]\w*)(?: \([^)]{1,8}\))?"
                            r"\s+(?P<value>[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+|nan|inf))\s*$")

#: The rule above and below a two-column table (``-----------------  ----------``, tabulate's ``simple`` format).
TWO_COLUMN_RULE = r"^\s*-{3,}\s{2,}-{3,}\s*$"
_TWO_COLUMN_RULE = re.compile(TWO_COLUMN_RULE)
#: A row of such a table: a key of words (``trainer/QF1 Loss``, ``Epoch``), a gap of two spaces or more, a number.
_FENCED_ROW = re.compile(
    r"^\s*(?P<key>[A-Za-z_][^\s].*?)\s{2,}(?P<value>[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+|nan|inf))\s*$"
)
#: The rows the reader's line selection takes for such a table: a key in sections (``trainer/QF1 Loss``); its
#: other rows are taken for their words (``Epoch``, a loss).
SECTIONED_ROW = r"^\s*[A-Za-z_][^\s:/]*/[^\n]*?\s{2,}[-+]?(?:\d|\.\d)[\d.eE+-]*\s*$"

#: A line of such a dump whose value is no number (``hostname: node-3``, ``"eta": "1 day, 3:00:00",``) or that
#: opens a section (``info:``).
_OTHER_KEY_LINE = re.compile(r"^\s*[A-Za-z_][\w/.@\-]*:(?:\s+\S+)?\s*$|^\s*\{?\s*\"[\w/.@\-]+\":\s*\"[^\"]*\",?\s*$")


#: A field of a Python dict printed over lines (``pprint``, ``print(vars(args))``): its key in single quotes, or its
#: value one only Python writes (``None``, ``True``, a call: ``device(type='cpu')``). Two in a block with no loss
#: make it a settings dump (the line gate lets through only the fields with numbers).
_PYTHON_KEY = re.compile(r"^\s*\{?\s*'[\w/.@\-]+':\s")
_PYTHON_FIELD = re.compile(
    r"^\s*\{?\s*(?:'[\w/.@\-]+':\s*(?:None|True|False|'[^']*'|\w[\w.]*\(.*\)|\[.*\]|\(.*\))"
    r"|(?:'[\w/.@\-]+'|\"[\w/.@\-]+\"):\s*(?:None|True|False|\w[\w.]*\(.*\)))\s*,?\s*\}?\s*$"
    # a key in quotes whose value opens a dict (``'loader': {'batch_size': 10,``, ``'sched': {'args': {'warmup':
    # 3}, 'type': 'Poly'},``) or whose line closes two (``'show_iter': 1}}``): only a nested dict's repr does
    r"|^\s*\{?\s*'[\w/.@\-]+':\s*(?:\{.*|[^{}\n]*\}\}[\]}]*,?\s*)$"
)


class KeyBlocks:
    """Records printed one ``key: value`` per line (Ray Tune's result dumps, a loop's multi-line report),
    separated by blank lines or by a key coming again. A block with a step key and another number is one
    record at that step, wherever the step key sits in it: a dump in alphabetical order prints the step after
    the values it belongs to. Any other block goes back to the line reader as it came (``replay``)."""

    def __init__(self, out: Collector, replay, on_record) -> None:
        self.out = out
        self.replay = replay  # (text, line_no, rank): a line of a block that was no record, read as any line
        self.on_record = on_record  # (step, rank): a block was a record at that step
        self.rows: list[tuple[str, str, int, int | None]] = []
        self.texts: list[tuple[str, int, int | None]] = []
        self.python = 0  # fields of the block written as a Python dict's repr writes them
        self.fenced = False  # inside the rules of a two-column table

    def see(self, text: str, line_no: int, rank: int | None) -> bool:
        """Whether the line was taken into a block (a blank line ends the block and is taken)."""
        if not text.strip():
            self.flush()
            return True
        if self.rule(text):
            return True
        m = KEY_LINE.match(text) if ":" in text else None
        if m is None:
            m = KEY_SPACE_LINE.match(text)
        if m is None and self.fenced:
            m = _FENCED_ROW.match(text)  # within the rules a key of words (``trainer/QF1 Loss``) is a key too
        if not m:
            if self.rows and _OTHER_KEY_LINE.match(text):
                self.texts.append((text, line_no, rank))  # ``date: 2019-01-31_22-00-09``, ``info:``: in the block
                return True
            if _PYTHON_FIELD.match(text):
                self.python += 1  # ``'cache_size': None,``: a Python dict of settings printed over lines
                self.texts.append((text, line_no, rank))
                return True
            if not self.rows:
                return False
            self.flush()
            return False
        if _PYTHON_KEY.match(text):
            self.python += 1
        key = m.group("key")
        if any(k == key for k, _, _, _ in self.rows):
            self.flush()
        self.rows.append((key, m.group("value"), line_no, rank))
        self.texts.append((text, line_no, rank))
        if m.groupdict().get("close"):  # (a ``key value`` line has no brace to close)
            self.flush()  # the object's closing brace ends its record
        return True

    def rule(self, text: str) -> bool:
        """Whether the line is the rule of a two-column table of a report (rllab's, rlkit's and garage's
        ``dump_tabular`` through tabulate): above its rows it opens the record, below them it closes it."""
        if not _TWO_COLUMN_RULE.match(text):
            return False
        if self.rows:
            self.flush()
            self.fenced = False
        else:
            self.fenced = True
        return True

    def flush(self) -> int | None:
        python, self.python = self.python >= 2, 0
        if not self.rows or (python and not any(series_name(k) in ("loss", "val_loss") for k, _, _, _ in self.rows)):
            # a Python dict printed over lines with no loss in it (``pprint(vars(args))``: ``{'batch_size': 32,``
            # ... ``'seed': 42}``) is the run's settings, no record: its ``'epoch': 300`` is no step and its
            # numbers no series (the layout in it was read line by line before the first record, ``options_of``)
            self.rows, self.texts = [], []
            return None
        rows, texts, self.rows, self.texts = self.rows, self.texts, [], []
        numbers = [k for k, _, _, _ in rows if not is_step_key(k)]
        step = emit_record(self.out, rows) if len(rows) >= 2 and numbers else None
        if step is None:
            for text, line_no, rank in texts:
                self.replay(text, line_no, rank)
        else:
            self.on_record(step, rows[-1][3])
        return step
