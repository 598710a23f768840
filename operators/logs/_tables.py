"""Tables of a header row and rows of numbers under it (``step  loss  lr`` then ``10  2.31  3e-4``): which
line is a header, its column names, and a row's values as metric rows at the row's step.

Why a module of its own: a table is read by its layout (where the columns stand), not by the line templates
the general reader mines, so its rules are apart from the miner's. A row is read by position: its cells are
the tokens under each column of the header (the header's wide gaps, and where the row's cells stand), so a
name of several words, a header stacked over two lines, a cell with its unit (``43.1 ms``) or a note beside it
(``4090 (81.8%)``) and a row cut short read alike; a source location or a bracketed note at either edge of a
line is no cell; a rule of dashes under the header (``---  ------``) sets the columns' widths. The step is the
column named so, else the epoch's, else the first column whose whole numbers only rise (found from the table's
rows, which wait for the table's end).

Why one module: a row's cells are placed by the spans its header (or the rule under it) gives, and which column
counts the steps is known only from the rows; header, rule and rows are read by one state per rank."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from assay.operators.logs._collect import Collector
from assay.operators.logs._fields import series_name
from assay.operators.logs._losses import loss_by_ending, pick_loss
from assay.operators.logs._names import is_step_key, key_slug, metric_name
from assay.operators.logs._numbers import memory_of, parse_quantity

#: A table's header row (``step  loss  lr``) and its rows of numbers.
_COLUMN = r"(?:[A-Za-z_][\w/.\-():%]*|#)"  # ("#": a count's column, spaCy's steps)
HEADER = re.compile(rf"^\s*{_COLUMN}(?:(?:\s{{2,}}|\t|\s*[|,]\s*){_COLUMN}(?: {_COLUMN})*)+\s*$")
#: A key and its number (``iterations:1200``, ``acc: 0.41``): a record's pair, never a column's name, so a line of
#: them apart by commas is a record (cut before its trailing comma, it would otherwise read as a header).
_KEYED_NUMBER = re.compile(r"[A-Za-z_]\w*:\s*[-+]?\d")
#: A key and a value gone non-finite (``loss: nan``): a record's pair, so a line of them is no header.
_KEYED_NON_FINITE = re.compile(r"[A-Za-z_]\w*:\s*(?i:nan|inf)\b")
_BAR_TAIL = re.compile(r"\s\d{1,3}%\|")
#: The batch count of the bar a row ends in (``| 15/234 [00:23<04:56, ...]``).
#: Rows above a first header held at most (a pasted excerpt cut below its header shows a few).
_MAX_ORPHANS = 50
#: Rows in a bar under an epoch column held at most before they are read.
_MAX_HELD = 10_000
_NUMBER_ROW = re.compile(r"^\s*[-+]?\d[\d./]*\s+[-+]?(?:\d|\.\d|nan)")
_BAR_COUNT = re.compile(r"\s\d{1,3}%\|[^|\n]*\|\s*(\d+)/\d+\s*\[")


def column_of_a_log(column: str) -> bool:
    """A header's column that says the table is a training log's: a step, an epoch, a metric, a loss term."""
    slug = key_slug(column)
    # a loss term named after the word (mmdet's ``loss_cls``, spaCy's ``LOSS NER``) as one named before it
    term = slug.startswith("loss_")
    return is_step_key(column) or slug == "epoch" or bool(metric_name(column)) or bool(loss_by_ending(slug)) or term


#: A row of numbers under a header; a cell may be a counter with its total (``3/50``) or carry a unit (``4.1G``),
#: and the row may end in a progress bar (``640: 100%|###| 32/32 [...]``).
_CELL = r"[-+]?(?:\d|\.\d)[\d.eE+\-]*(?:/\d+|[KMGT]i?B?|%)?"
NUMBER_ROW = rf"^\s*{_CELL}(?:(?:\s+|\s*[|,]\s*)(?:{_CELL}|nan|inf))+(?::?\s+\d{{1,3}}%\|.*)?\s*$"


def _total_as_loss(header: list[str], values: list[float], metrics: dict[int, str]) -> None:
    """A table's ``total`` column that is the sum of the two or more columns right before it (YOLO's ``box obj
    cls total``) is the objective those terms add up to: the loss, when no column is named the loss."""
    if "loss" in metrics.values():
        return
    for i, column in enumerate(header):
        if key_slug(column) not in ("total", "sum", "total_loss") or i < 2:
            continue
        for start in range(i - 2, -1, -1):
            parts = values[start:i]
            if math.isnan(values[i]) and any(math.isnan(v) for v in parts):
                metrics[i] = "loss"  # a sum with a NaN term is NaN: the row still adds up (a run diverging)
                return
            if all(v >= 0 for v in parts) and abs(sum(parts) - values[i]) <= 1e-3 * max(abs(values[i]), 1e-9) + 5e-5:
                metrics[i] = "loss"
                return


#: A cell that marks its row (skorch's ``+`` where the epoch saved a checkpoint, a ``*`` for the best): no value.
_MARKER = re.compile(r"[+*✓✔†]")
#: A rule of dashes under a header, one run per column (``---  ------  -----``).
_RULE_LINE = r"^[ \t]*-{2,}(?:[ \t]+-{2,})+\s*$"
#: A line the general reader takes only as a table's: a header of words in columns apart by wide gaps (no
#: digit but a source location at its end), or a row that starts with a number and has another after a wide gap;
#: either may open with a bracketed note (``[ 10%  ]``). RE2 and Python alike (the prefilter is RE2's).
TABLE_LINE = (
    r"^\s*(?:\[[^\]\n]*\]\s*|#+\s*)?[A-Za-z_][^\d\n]*(?:\s{2,}|\t)[A-Za-z_(%][^\d\n]*(?:\s+\[?[\w./\-]+:\d+\]?)?\s*$"
    r"|^\s*(?:\[[^\]\n]*\]\s*)?\[?\s*[-+]?(?:\d|\.\d|nan|inf)[^\n]*(?:\s{2,}|\t)\S*(?:\d|nan|inf)"
    r"|" + _RULE_LINE  # the rule under a header
)
TABLE_LINE_RE = re.compile(TABLE_LINE)
#: A note at the start of a line in brackets (``[    5%      ]``, ``[------------]``) or the comment mark a data
#: file's header opens with (``#  step  rmse_val  lr``, as ``numpy.savetxt`` writes it), and at its end a source
#: location (``latfacto.py:604``, ``[trainer.cc:120]``) or a bracketed note: blanked, so that positions stay.
_LEAD_NOTE = re.compile(r"^\s*(?:\[[^\]]*\]|#+(?=\s))")
_TAIL_NOTE = re.compile(r"(?:\s\[?[\w./\-]+\.\w+:\d+\]?|\s\[[^\]]*[A-Za-z][^\]]*\])\s*$")
_WORDS_LINE = re.compile(r"^[^\d]*$")
#: Digits inside a column's name (``TOK2VEC``, ``top5_acc``, ``F1``): a name's letters, no number of a row.
_IN_WORD_DIGITS = re.compile(r"(?<=[A-Za-z_])\d+")
_MAYBE_HEADER = re.compile(r"^[^\d]*?(?:\s{2}|\t|[|,])")
_RULE = re.compile(_RULE_LINE)
_DASHES = re.compile(r"-{2,}")
_WIDE = re.compile(r"\S+(?: \S+)*")  # a run of words with single spaces: one column of a header
_TOKEN = re.compile(r"\S+")
_PAREN = re.compile(r"\s*\([^)]*\)")
_CLOCK = re.compile(r"^\d+(?::\d+)+(?:\.\d+)?$")
#: Names of a column that is never the step, whatever its values do.
_NOT_STEP = re.compile(r"(?i)time|elapsed|sec|epoch|%|eta")


def _blank(text: str, match: re.Match | None) -> str:
    return text if match is None else text[: match.start()] + " " * (match.end() - match.start()) + text[match.end():]


def _body(text: str) -> str:
    """The line without its edge notes, blanked in place."""
    return _blank(_blank(text, _LEAD_NOTE.match(text)), _TAIL_NOTE.search(text))


@dataclass
class Header:
    """A table's column names and where each stands on its line (``sep``: the separator it is written with,
    a tab, ``|`` or ``,``, when it has one; None where only positions part the columns)."""

    names: list[str]
    spans: list[tuple[int, int]]
    sep: str | None
    line_no: int = -1
    finite_losses: set[int] = field(default_factory=set)  # loss columns that held a finite value
    # NaNs of loss columns beside another loss column's finite value: placeholders once their column holds a
    # finite value anywhere in the table, else the run's values (``_nans_beside_losses``), read at its end (``close``)
    held_nans: list[tuple[int, str, int | None, float, int, int | None]] = field(default_factory=list)

    def of_a_log(self) -> bool:
        return any(column_of_a_log(c) or column_of_a_log(_PAREN.sub("", c)) for c in self.names)


def _header(body: str, line_no: int) -> Header | None:
    """A line of column names (no digit in it), or None."""
    if not body.strip() or not (_WORDS_LINE.match(_IN_WORD_DIGITS.sub("", body)) or HEADER.match(body)):
        return None
    for sep in ("\t", "|", ","):
        if sep in body.strip():
            names, spans, at = [], [], 0
            parts = body.split(sep)
            # a table of bars keeps its empty cells (the lower line of a name stacked over two lines leaves the
            # columns of one-line names empty: ``|       | (hh:mm:ss) |   Loss   |``, its frame taken off first)
            for k, part in enumerate(parts):
                if part.strip() or (sep == "|" and k < len(parts) - 1):
                    start = at + len(part) - len(part.lstrip())
                    names.append(part.strip())
                    spans.append((start, start + len(part.strip())))
                at += len(part) + 1
            return Header(names, spans, sep, line_no) if sum(bool(n) for n in names) > 1 else None
    groups = [(m.group(), m.span()) for m in _WIDE.finditer(body)]
    if len(groups) < 2:
        return None
    return Header([g for g, _ in groups], [s for _, s in groups], None, line_no)


def _region(spans: list[tuple[int, int]], i: int) -> tuple[float, float]:
    """Where column ``i``'s cells may stand: from the middle of the gap before its name to that of the gap
    after it (the edges open)."""
    start = -1e9 if i == 0 else (spans[i - 1][1] + spans[i][0]) / 2
    end = 1e9 if i == len(spans) - 1 else (spans[i][1] + spans[i + 1][0]) / 2
    return start, end


def _place(spans: list[tuple[int, int]], start: int, end: int) -> int:
    """The column a token at ``start:end`` stands under: the region it overlaps most."""
    best, most = 0, -1e9
    for i in range(len(spans)):
        lo, hi = _region(spans, i)
        overlap = min(hi, end) - max(lo, start)
        if overlap > most:
            best, most = i, overlap
    return best


def _stacked(upper: Header, lower: Header) -> Header:
    """A header written over two lines (a name's words one over the other): the line of more columns gives
    the columns, each word of the other joins the column it stands over or under."""
    if upper.sep and upper.sep == lower.sep and len(upper.names) == len(lower.names):
        # cells over cells between the same separators: each column's name is its words from top to bottom
        names = [" ".join(n for n in pair if n) for pair in zip(upper.names, lower.names, strict=True)]
        return Header(names, lower.spans, lower.sep, lower.line_no)
    if upper.sep or lower.sep:
        return lower
    frame, other = (upper, lower) if len(upper.names) > len(lower.names) else (lower, upper)
    added: list[list[str]] = [[] for _ in frame.names]
    for name, (start, _) in zip(other.names, other.spans, strict=True):
        for m in _TOKEN.finditer(name):
            added[_place(frame.spans, start + m.start(), start + m.end())].append(m.group())
    names = [
        " ".join([*extra, own] if frame is lower else [own, *extra])
        for own, extra in zip(frame.names, added, strict=True)
    ]
    return Header(names, frame.spans, None, lower.line_no)


def _cells(header: Header, text: str) -> list[list[str]]:
    """The ways to read a row's cells under ``header``: by its separator, else by where its tokens stand
    (a cell under each column), then one token a column where they are as many as the columns."""
    bar = _BAR_TAIL.search(text)  # a row that ends in its batch bar (``... 640: 100%|####| 32/32 [...]``)
    body = _body(text[: bar.start()] if bar else text)
    if header.sep:
        cells = [c.strip() for c in body.strip().split(header.sep)]
        cells = [c for c in cells if c] if header.sep == "|" else cells
        return [cells] if len(cells) <= len(header.names) else []
    tokens = list(_TOKEN.finditer(body))
    placed: list[list[str]] = [[] for _ in header.names]
    for t in tokens:
        placed[_place(header.spans, t.start(), t.end())].append(t.group())
    ways = [[" ".join(c) for c in placed]]
    return ways + [[t.group() for t in tokens]] if len(tokens) == len(header.names) else ways


def _value(cell: str) -> tuple[float, str] | None | bool:
    """A cell's number (the first of it: ``4090 (81.8%)`` is 4090, ``[-0.45]`` is -0.45); True for a cell that
    holds a clock time (``00:12``) or nothing, which no series takes; None for a cell that is no number."""
    cell = cell.strip().strip("[]").strip()
    if not cell or _CLOCK.match(cell):
        return True
    first = cell.split()[0].rstrip(":,;")
    return parse_quantity(first)


@dataclass
class Tables:
    """Tables of a header row and rows of numbers in one file, per rank: a header seen stays the table's until
    another; rows wait for the table's end where no column is named the step (their values say which)."""

    out: Collector
    headers: dict[int | None, Header] = field(default_factory=dict)
    last: dict[int | None, Header] = field(default_factory=dict)  # the last line of names, a header or not
    pending: dict[int | None, list[tuple]] = field(default_factory=dict)
    #: rows of numbers before any header of their rank: an excerpt that opens below its table's header
    orphans: dict[int | None, list[tuple]] = field(default_factory=dict)
    orphans_done: set = field(default_factory=set)

    def see(self, text: str, line_no: int, rank: int | None, current: int | None) -> bool:
        """True when ``text`` is a table's header or row (read here, not to be mined)."""
        header = self.headers.get(rank)
        if header is not None and header.line_no == line_no - 1 and _RULE.match(text):
            # the rule under the header (``---  ------  ------------``) marks each column's width: the cells
            # right-aligned under a name written at its column's left edge stand within it
            rules = [m.span() for m in _DASHES.finditer(text)]
            if header.sep is None and len(rules) == len(header.names):
                header.spans = rules
            return True
        if header is None and rank not in self.orphans_done and _NUMBER_ROW.match(text):
            held = self.orphans.setdefault(rank, [])
            held.append((text, line_no, current))
            if len(held) > _MAX_ORPHANS:  # a long table with no header: no excerpt's first rows (memory stays flat)
                self.orphans.pop(rank)
                self.orphans_done.add(rank)
        if header is not None:
            bar = _BAR_COUNT.search(text)
            count = int(bar[1]) if bar else None
            if any(self._row(header, cells, line_no, rank, current, count) for cells in _cells(header, text)):
                return True
        self.flush(rank, hold_bars=True)  # (rows in a bar by epoch wait through a line glued after their bar)
        old = bool(HEADER.match(text)) and not _KEYED_NUMBER.search(text)
        if not old and not _MAYBE_HEADER.match(text):
            return False  # a digit before any wide gap: no header (a cheap test first; most lines end here)
        found = None if _KEYED_NON_FINITE.search(text) else _header(_body(text), line_no)
        if found is None:
            return old
        before = self.last.get(rank)
        self.last[rank] = found
        if before is not None and before.line_no == line_no - 1:
            both = _stacked(before, found)
            if both.of_a_log():
                self.flush(rank)
                self.close(rank)
                self.headers[rank] = both
                return True
        if found.of_a_log():
            self.flush(rank)
            self.close(rank)
            self.headers[rank] = found
            self._adopt(found, rank)
            return True
        return old

    def _adopt(self, header: Header, rank: int | None) -> None:
        """The rows of numbers before the first header of ``rank`` (the excerpt began below it) are its rows
        where each has a cell under every column, one token a column; read once, at that first header."""
        if rank in self.orphans_done:
            return
        self.orphans_done.add(rank)
        for text, line_no, current in self.orphans.pop(rank, []):
            bar = _BAR_TAIL.search(text)
            tokens = _body(text[: bar.start()] if bar else text).split()
            if len(tokens) == len(header.names):
                count = _BAR_COUNT.search(text)
                self._row(header, tokens, line_no, rank, current, int(count[1]) if count else None)

    def _row(
        self, header: Header, cells: list[str], line_no: int, rank: int | None, current: int | None, count: int | None
    ) -> bool:
        values = [True if _MARKER.fullmatch(c) else _value(c) for c in cells]  # (a marker's cell holds no value)
        if values and values[0] is None and _split_row(header, cells, values, line_no, rank, current, self.out):
            return True
        if any(v is None for v in values) or not isinstance(values[0], tuple):
            return False
        if sum(isinstance(v, tuple) for v in values) < 2:
            return False
        values += [True] * (len(header.names) - len(values))
        cells = cells + [""] * (len(header.names) - len(cells))
        row = (line_no, rank, values, cells, current, count)
        at = _named_step(header)
        if at is None or (count is not None and not is_step_key(_PAREN.sub("", header.names[at]).strip())):
            # held until the table ends: its rising column, or (rows in a bar by epoch) its epoch's constancy, says
            self.pending.setdefault(rank, []).append(row)
            if at is not None and len(self.pending[rank]) >= _MAX_HELD:
                self.flush(rank)  # rows in a bar by epoch held this long: read so far (memory stays flat)
        else:
            self._emit(header, [row], at)
        return True

    def flush(self, rank: int | None, hold_bars: bool = False) -> None:
        """``rank``'s rows waiting for their table's end: at the step their rising column says (rows in a bar under
        an epoch column: at their epoch, or their bar's count; ``hold_bars`` keeps those until a header or the end)."""
        header = self.headers.get(rank)
        if hold_bars and header is not None and _named_step(header) is not None:
            return
        rows = self.pending.pop(rank, [])
        if rows:
            at = _named_step(header)
            if at is None:
                self._emit(header, rows, _rising(header, rows))
            elif _first_epoch_batches(rows, at):
                self._emit(header, rows, None, by_count=True)
            else:
                self._emit(header, rows, at)

    def finish(self) -> None:
        for r in list(self.pending):
            self.flush(r)
        for r in list(self.headers):
            self.close(r)

    def close(self, rank: int | None) -> None:
        """``rank``'s table ended: its held NaNs are values where their column never held a finite one."""
        header = self.headers.get(rank)
        if header is None:
            return
        for i, name, step, value, line_no, row_rank in header.held_nans:
            if i not in header.finite_losses:
                self.out.metric(name, step, value, line_no, row_rank)
        header.held_nans.clear()

    def _emit(self, header: Header, rows: list[tuple], at: int | None, by_count: bool = False) -> None:
        names = header.names
        epoch = _named_step(header) if by_count else None
        metrics = {
            i: name for i, column in enumerate(names) if i not in (at, epoch) and (name := series_name(_known_tail(column)))
        }
        pick_loss(metrics, dict(enumerate(names)))
        for line_no, rank, values, cells, current, count in rows:
            if by_count:
                current = count
            numbers = [v[0] if isinstance(v, tuple) else 0.0 for v in values]
            found = dict(metrics)
            _total_as_loss(names, numbers, found)
            step = None
            # a step printed with a point (an epoch ``1.00`` among ``0.25``, ``0.50``) counts no steps
            whole = at is not None and "." not in cells[at].split()[0] if at is not None and cells[at] else False
            if whole and isinstance(values[at], tuple) and float(values[at][0]).is_integer():
                step = int(values[at][0])
            if step is None:
                step = current
            beside, header.finite_losses = _nans_beside_losses(found, values, header.finite_losses)
            for i, name in found.items():
                if not isinstance(values[i], tuple):
                    continue
                if i in beside:
                    header.held_nans.append((i, name, step, values[i][0], line_no, rank))
                    continue
                value = memory_of(cells[i].split()[0]) if name == "memory_mb" else values[i][0]
                if value is not None:
                    self.out.metric(name, step, value, line_no, rank)


def _nans_beside_losses(found: dict[int, str], values: list, finite: set[int]) -> tuple[set[int], set[int]]:
    """The loss columns of a row that hold a NaN beside another loss column's finite value, and the loss columns
    known finite so far. A history table that fills only the columns measured at its step (``20000  nan  1.594``
    for a validation, ``33440  1.817  nan`` for a training loss) writes NaN for the others: one set of weights
    gives both losses, so such a NaN is a placeholder where its column holds a finite value elsewhere in the
    table (``Tables.close``); a column NaN throughout (``nan  4.51`` every epoch) is the run's value."""
    losses = [i for i, name in found.items() if name.endswith("loss") and isinstance(values[i], tuple)]
    now = {i for i in losses if math.isfinite(values[i][0])}
    beside = {i for i in losses if math.isnan(values[i][0])} if now else set()
    return beside, finite | now


def _known_tail(column: str) -> str:
    """A column's name, or its last words where the synonym table knows them and not the whole (``Base Learning
    Rate`` is the learning rate)."""
    words = column.split()
    if len(words) > 1 and not metric_name(column):
        for k in range(1, len(words) - 1):  # a tail of two words at least: ``Base Rate`` is no rate of ours
            if metric_name(" ".join(words[k:])):
                return " ".join(words[k:])
    return column


#: The split a row of an evaluation table is labelled with in its first cell (``train``, ``vali``, ``test``).
SPLIT_LABELS = {"train": "", "training": "", "val": "val_", "vali": "val_", "valid": "val_", "validation": "val_",
                "dev": "val_", "cv": "val_", "eval": "val_", "test": "test_"}


def _split_row(
    header: Header, cells: list[str], values: list, line_no: int, rank: int | None, current: int | None, out: Collector
) -> bool:
    """A row whose first cell names a split and whose other cells are numbers (a report after an epoch, one row a
    split: ``train | 0.98 | ...``, ``vali | 1.39 | ...``): each value under its column's name, the split's prefix
    before it (the validation row's loss is ``val_loss``, the test row's ``test_loss``), at the step of the lines
    before the table. A table whose rows each name their phase beside a step column (tableprint's ``| PHASE|
    EPOCH| ITER| LOSS|`` over ``| TRAIN| 14| 100| -6.30|``, as WeNet's family prints) is a log of steps: a row is
    at its step."""
    prefix = SPLIT_LABELS.get(cells[0].strip().lower())
    rest = values[1:]
    if prefix is None or len(rest) < 1 or not all(isinstance(v, tuple) for v in rest):
        return False
    at = _named_step(header)
    if at is not None and 0 < at < len(cells) and cells[at].strip().isdigit():
        current = int(cells[at])
    metrics = {i: name for i, column in enumerate(header.names) if i and i != at and (name := series_name(column))}
    pick_loss(metrics, dict(enumerate(header.names)))
    for i, name in metrics.items():
        if i < len(values) and isinstance(values[i], tuple):
            name = name.removeprefix("val_") if prefix else name
            out.metric(f"{prefix}{name}" if prefix else name, current, values[i][0], line_no, rank)
    return True


def _named_step(header: Header) -> int | None:
    """The column named the step (``Step (% Done)`` is one), else the epoch's (one row per epoch)."""
    bare = [_PAREN.sub("", c).strip() for c in header.names]
    at = next((i for i, c in enumerate(bare) if is_step_key(c)), None)
    if at is None:
        at = next((i for i, c in enumerate(bare) if key_slug(c) == "epoch"), None)
    return at


def _first_epoch_batches(rows: list[tuple], at: int) -> bool:
    """Rows that each end in a bar of the first epoch (``0/299 ... | 15/234 [``), two or more, the bar's count
    rising: the epoch never moves, so it counts no step; the bar's batches do, from the run's start."""
    epochs = {row[3][at].split("/")[0] for row in rows}
    counts = [row[5] for row in rows]
    return (
        len(rows) >= 2 and epochs == {"0"} and None not in counts
        and all(b > a for a, b in zip(counts, counts[1:], strict=False))
    )


def _rising(header: Header, rows: list[tuple]) -> int | None:
    """The column that counts the rows, for a table that names none: of the columns of whole numbers printed
    without a point that only rise over two or more rows (never a time, an epoch or a percentage), the first
    that rises by a steady stride, else the first."""
    if len(rows) < 2:
        return None
    rising = []
    for i, name in enumerate(header.names):
        if _NOT_STEP.search(name):
            continue
        cells = [row[3][i].split()[0] if row[3][i].strip() else "" for row in rows]
        if not all(c.isdigit() for c in cells):
            continue
        numbers = [int(c) for c in cells]
        if all(b > a for a, b in zip(numbers, numbers[1:], strict=False)):
            rising.append((i, len({b - a for a, b in zip(numbers, numbers[1:], strict=False)}) == 1))
    steady = [i for i, s in rising if s]
    return steady[0] if steady else (rising[0][0] if rising else None)
