"""Figure text read as lines: an axis's tick labels, a panel's label and a decimal torn by the reader are
no claims.

A PDF's figures reach the text as their own short lines: the labels of an axis one a line ("0%", "20%",
"40%", ...) and a legend's values ("0.7x", "0.5x", "0.3x" for three model sizes). A flattened results table
looks the same at a glance (a cell a line: "5.28x", "2.46x"), and its cells are claims. What tells the
two apart is what the numbers do: an axis or a legend steps through its values evenly (0, 20, 40, ...;
0.7, 0.5, 0.3), a table's measurements do not. So a bare number (the whole of its line) in a run of three or
more bare numbers of the same unit, one a line, that rise or fall by one step is a tick label; so is one of
two panels' axes read together, each tick twice in a row ("5%", "5%", "10%", "10%", ...) or one axis after
the other ("10%" ... "40%", "10%" ... "40%"), each stepping evenly.

A figure's font also makes the reader tear a decimal at its point ("0. 7X" for 0.7X): the number after the
tear ("7X") is not what the paper wrote. Prose never puts a lone "0." before a ratio, so a number right
after "0. " is dropped rather than read as another value.

A plot's labels also come out as a run of short lines of numbers, some of them fused where two labels stood
close ("1.00.8" for the ticks 1.0 and 0.8, "7.36s7.04s" for two bars, "Scale1.3x" for a tick glued to the
axis title): a number alone on its line ("+4.6%", "1.0x") in such a run is a label, whether or not the run
steps evenly. Prose and a table flattened one cell a line never fuse two numbers.

A design diagram's boxes and arrows come out as short lines too, a label with a number among them ("2X
registers" between "Profiler" and "Iter 2"): such a line among lines mostly as short, several of them words
with no number, is a label. A table flattened a row a line puts numbers on most of its lines.

A bar plot's value axis comes out as decimal ticks alone on their lines ("0.6", "0.4", "0.2", or opening a
line of the bars' labels read with them), its legend's words between them: a number over a bar, alone on its
line there, is a label. A table's unitless column does not step evenly.

A line that is nothing but a name set to a value ("Acc. = 84%", "SLO = 1.5x") labels a panel or a legend
entry: a sentence stating a result has a verb.

Why a module of its own: these are facts about how figures reach the text, not about what a clause says
(``_cues``) or where a number is (``_claims``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# A line that is one number with its ratio unit and nothing else ("40%", "0.5x", "~1.2×", "-0.6%").
_BARE = re.compile(r"[ \t]*[~≈<>]?[ \t]*(?P<num>[-−+]?\d+(?:\.\d+)?)[ \t]*(?P<unit>%|[xX×])[ \t]*")
# A line that only names a value or a bound ("Acc. = 84%", "Acc. >= 90%"): a panel's or a legend's label.
_LABEL = re.compile(
    r"[ \t]*[A-Za-z][\w.-]*(?:[ \t]+[\w.-]+){0,2}[ \t]*(?:[<>]?=|≥|≤)[ \t]*[-−]?\d+(?:\.\d+)?[ \t]*(?:%|[xX×])[ \t]*"
)
# "0. 7X": a decimal torn after its point by the reader.
_TORN = re.compile(r"(?<![\w.])0\.[ \t]$")
_MIN_RUN = 3
_MAX_RUN = 12
_ROW_CHARS = 400
_LINE_CHARS = 16


# A short line of numbers only ("8", "+4.6%", "7.08s", "0.2 0.4"), and two numbers fused ("1.00.8",
# "7.36s7.04s") or a tick glued to its axis title ("Scale1.3x").
_NUMBERS_LINE = re.compile(r"[ \t]*(?:[-−+~]?\d+(?:\.\d+)?(?:[ \t]*(?:%|[xX×]|ms|s))?[ \t]*)+")
#: An axis's tick: a whole number alone on its line, no unit.
_TICK = re.compile(r"[ \t]*\d{1,4}[ \t]*")
#: How far up and down a plot's run of number lines is read for an axis among its labels.
_AXIS_RUN = 40
#: A run of this many short lines of numbers with no word between them is a plot's labels (a bar chart's value
#: over each bar): a table flattened one cell a line names its row every few cells.
_LONG_RUN = 16
_FUSED = re.compile(r"\d\.\d+(?:\.|[A-Za-z%×]{1,3})\d|[A-Za-z]\d+(?:\.\d+)?[xX×%]")
_PLOT_LINE_CHARS = 24


def plot_label(text: str, start: int, end: int) -> bool:
    """Whether the number at ``text[start:end]`` is the whole of its line (or stands on a line fusing
    numbers) in a run of three or more short lines of numbers of which one fuses two: a plot's labels."""
    lo = text.rfind("\n", max(0, start - _PLOT_LINE_CHARS), start) + 1
    if lo == 0 and start > _PLOT_LINE_CHARS:
        return False
    hi = text.find("\n", end, end + _PLOT_LINE_CHARS)
    hi = len(text) if hi < 0 and len(text) - end <= _PLOT_LINE_CHARS else hi
    if (
        hi < 0
        or hi - lo > _PLOT_LINE_CHARS
        or not (_BARE.fullmatch(text, lo, hi) or _FUSED.search(text, lo, hi))
    ):
        return False
    up, down = _plot_lines(text, lo - 1, -1), _plot_lines(text, hi, 1)
    near = [*up[:_MAX_RUN], text[lo:hi], *down[:_MAX_RUN]]
    if len(near) >= _MIN_RUN and any(_FUSED.search(line) for line in near):
        return True
    run = [*reversed(up), text[lo:hi], *down]
    return len(run) >= _LONG_RUN or _axis_among(run)


#: A diagram's text: a label's line is this short, among this many lines around it (up and down each) of which
#: most are as short and several hold no number at all (a box's name, a legend's word).
_DIAGRAM_LINE_CHARS = 24
_DIAGRAM_REACH = 6
_DIAGRAM_SHORT = 8
_DIAGRAM_WORDS_ONLY = 4


def diagram_label(text: str, start: int, end: int) -> bool:
    """Whether the number at ``text[start:end]`` stands in a diagram's label: a short line of four words at most that
    holds it with a word ("2X registers", "4X ILP:"), among lines that are mostly as short, several of them
    words with no number (the boxes and arrows' names: "Profiler", "Iter 2", "E"). Prose runs in long lines;
    a table flattened one cell a line puts numbers on most of its lines, and its bare cells are left to the
    rules above."""
    lo = text.rfind("\n", max(0, start - _DIAGRAM_LINE_CHARS), start) + 1
    if lo == 0 and start > _DIAGRAM_LINE_CHARS:
        return False
    hi = text.find("\n", end, end + _DIAGRAM_LINE_CHARS)
    if hi < 0 or hi - lo > _DIAGRAM_LINE_CHARS or _BARE.fullmatch(text, lo, hi):
        return False
    if len(text[lo:hi].split()) > 4 or not re.search(r"[A-Za-z]{2}", text[lo:start] + text[end:hi]):
        return False
    near = [*_lines_around(text, lo - 1, -1), *_lines_around(text, hi, 1)]
    short = [line for line in near if len(line.strip()) <= _DIAGRAM_LINE_CHARS]
    words_only = [line for line in short if line.strip() and not re.search(r"\d", line)]
    return len(short) >= _DIAGRAM_SHORT and len(words_only) >= _DIAGRAM_WORDS_ONLY


#: A decimal tick alone on its line, no unit (``0.4``): a plot's value axis.
_DECIMAL_TICK = re.compile(r"[ \t]*\d{1,3}\.\d{1,2}[ \t]*")
#: How far up and down a bar's label looks for its plot's axis, over the legend's lines.
_BAR_REACH = 10


def bar_label(text: str, start: int, end: int) -> bool:
    """Whether the number at ``text[start:end]`` is a bar's value printed over it ("-2.53%" alone on its line)
    in a plot whose value axis reaches the text as decimal ticks alone on their lines ("0.6", "0.4", "0.2"),
    three or more stepping evenly in order, with the legend's words between them ("Real", "Predicted"). A table
    flattened one cell a line has no run of evenly stepping decimals without a unit."""
    lo = text.rfind("\n", max(0, start - _PLOT_LINE_CHARS), start) + 1
    if lo == 0 and start > _PLOT_LINE_CHARS:
        return False
    hi = text.find("\n", end, end + _PLOT_LINE_CHARS)
    if hi < 0 or not (_BARE.fullmatch(text, lo, hi) or _NUMBERS_LINE.fullmatch(text, lo, hi)):
        return False
    up = _lines_around(text, lo - 1, -1, _BAR_REACH)
    near = [*reversed(up), *_lines_around(text, hi, 1, _BAR_REACH)]
    ticks = [float(tick) for line in near if (tick := _tick_of(line)) is not None]
    words = [line for line in near if line.strip() and not re.search(r"\d", line)]
    if not words:
        return False
    if len(ticks) >= _MIN_RUN and _even(ticks):
        return True
    # an axis of whole ticks, or its lowest tick glued to the first category under it ("2", "1", "0 SLO-S";
    # "0.0 SLO-S"): read top to bottom, an axis falls; a flattened table's row numbers rise
    # (two panels' axes may be read in one stretch: any three ticks in a row that fall evenly are one)
    axis = [float(m.group(1)) for line in near if (m := _AXIS_TICK.fullmatch(line))]
    return any(
        run[0] > run[-1] and _even(run) for run in (axis[i : i + _MIN_RUN] for i in range(len(axis) - _MIN_RUN + 1))
    )


#: An axis's tick alone on its line, or the lowest one with the category label the reader put beside it.
_AXIS_TICK = re.compile(r"[ \t]*(\d{1,3}(?:\.\d{1,2})?)(?:[ \t]+[A-Za-z][\w.-]*)?[ \t]*")
#: An axis's tick that opens a line of the bars' labels it was read together with ("0.05 -4.04% -7.18%").
_LEADING_TICK = re.compile(r"[ \t]*(\d{1,3}\.\d{1,2})(?=[ \t]+[-−+]?\d)")


def _tick_of(line: str) -> str | None:
    """The decimal tick a line holds: the whole line, or the unitless number opening a line of numbers."""
    if _DECIMAL_TICK.fullmatch(line):
        return line
    lead = _LEADING_TICK.match(line)
    return lead.group(1) if lead and _NUMBERS_LINE.fullmatch(line) else None


def _lines_around(text: str, at: int, step: int, reach: int = _DIAGRAM_REACH) -> list[str]:
    """Up to ``reach`` lines next to the line break at ``at``, up (``step`` -1, nearest first) or down (1),
    stopping at a blank line."""
    out: list[str] = []
    for lo, hi in _neighbours(text, at, step, len(text)):
        if len(out) >= reach or not text[lo:hi].strip():
            break
        out.append(text[lo:hi])
    return out


def _axis_among(lines: list[str]) -> bool:
    """Whether a run of short lines of numbers holds an axis: three or more unitless whole numbers, each alone
    on its line, that step evenly in the order they come (a log axis's ``103``, ``102``, ``101``, ``100`` whose
    exponents lost their raise) between the bars' labels. A table flattened one cell a line puts its rows' names
    between its numbers, and its counts (8, 16, 32 GPUs) do not step evenly among ratio cells."""
    ticks = [int(line) for line in lines if _TICK.fullmatch(line)]
    return len(ticks) >= _MIN_RUN and len(ticks) < len(lines) and _even([float(t) for t in ticks])


def _plot_lines(text: str, at: int, step: int) -> list[str]:
    """The short lines of numbers next to each other from the line break at ``at`` on, up (``step`` -1,
    nearest first) or down (1)."""
    out: list[str] = []
    for lo, hi in _neighbours(text, at, step, _PLOT_LINE_CHARS):
        if len(out) >= _AXIS_RUN or not (_NUMBERS_LINE.fullmatch(text, lo, hi) or _FUSED.search(text, lo, hi)):
            break
        out.append(text[lo:hi])
    return out


def torn_decimal(text: str, start: int) -> bool:
    """Whether the number starting at ``start`` is the tail of a decimal the reader tore ("0. 7X")."""
    return bool(_TORN.search(text, max(0, start - 4), start))


def label_line(text: str, start: int, end: int) -> bool:
    """Whether the number at ``text[start:end]`` ends a line that only names a value ("WER = 40%")."""
    lo = text.rfind("\n", max(0, start - 40), start) + 1
    if lo == 0 and start > 40:
        return False
    hi = text.find("\n", end)
    hi = len(text) if hi < 0 else hi
    return hi - end <= 2 and bool(_LABEL.fullmatch(text, lo, hi))


def even_row(text: str, start: int, end: int) -> bool:
    """Whether the number at ``text[start:end]`` fills a cell of a row (cells joined by `` | ``, as a reader
    gives a figure's labels laid out side by side) whose ratio cells of its unit step evenly: a legend or an
    axis read as a table row ("| 0.7X | 0.5X | 0.3X")."""
    lo = text.rfind("\n", max(0, start - _ROW_CHARS), start) + 1
    hi = text.find("\n", end, end + _ROW_CHARS)
    hi = len(text) if hi < 0 and len(text) - end <= _ROW_CHARS else hi
    if hi < 0 or " | " not in text[lo:hi]:
        return False
    values, own, offset = [], None, lo
    for cell in text[lo:hi].split(" | "):
        m = _BARE.fullmatch(cell.strip("| \t"))
        if m is not None:
            if offset <= start < offset + len(cell):
                own = _unit(m.group("unit"))
            values.append((_unit(m.group("unit")), m))
        offset += len(cell) + 3
    if own is None:
        return False
    return _label_run([m for u, m in values if u == own])


def tick_label(text: str, start: int, end: int) -> bool:
    """Whether the number at ``text[start:end]`` is the whole of its line and one of an evenly stepping run
    of such lines (an axis's or a legend's labels)."""
    lo = text.rfind("\n", max(0, start - _LINE_CHARS), start) + 1
    if lo == 0 and start > _LINE_CHARS:
        return False
    hi = text.find("\n", end, end + _LINE_CHARS)
    hi = len(text) if hi < 0 and len(text) - end <= _LINE_CHARS else hi
    if hi < 0:
        return False
    own = _BARE.fullmatch(text, lo, hi)
    if own is None:
        return False
    unit = _unit(own.group("unit"))
    before = _run(text, lo - 1, -1, unit)
    after = _run(text, hi, 1, unit)
    # The whole run steps evenly: a table's row or column may hold three evenly spaced values by chance
    # (0.05%, 0.03%, 0.01%), rarely all of its cells.
    return _label_run([*reversed(before), own, *after])


def _label_run(labels: list[re.Match[str]]) -> bool:
    """Whether numbers in a row or a run of lines are labels: three or more that step evenly. Three
    measurements may step evenly by chance (0.98x, 1.06x, 1.14x), three labels are round (0.7X, 0.5X,
    0.3X): a run of three needs one decimal place at most, a longer one need only step evenly."""
    if len(labels) < _MIN_RUN:
        return False
    if len(labels) == _MIN_RUN and any(len(m.group("num").partition(".")[2]) > 1 for m in labels):
        return False
    values = [_value(m) for m in labels]
    return _even(values) or _axes_together(values)


def _axes_together(values: list[float]) -> bool:
    """Whether four or more labels are two panels' axes read together: each tick twice in a row (``5%, 5%,
    10%, 10%, ...``) or one axis after another (``10%, 20%, 30%, 10%, 20%, 30%``), each axis stepping evenly;
    or several panels' ticks in no order, each of a few evenly stepping values printed twice or more (``50%,
    0%, 0%, 50%, 100%, 0%, 100%``): measurements seldom repeat so."""
    if len(values) < 2 * _MIN_RUN - 2:
        return False
    distinct = sorted(set(values))
    if len(distinct) >= _MIN_RUN and _even(distinct) and all(values.count(v) >= 2 for v in distinct):
        return True
    ticks = [v for i, v in enumerate(values) if i == 0 or v != values[i - 1]]
    # (each tick exactly twice in a row: "0%, 0%, 0%, -12%" is a row of changes, three of them none)
    paired = values == [t for t in ticks for _ in (0, 1)] and len(ticks) >= _MIN_RUN - 1
    axes: list[list[float]] = [[ticks[0]]]
    for v in ticks[1:]:
        if len(axes[-1]) >= 2 and (v - axes[-1][-1]) * (axes[-1][-1] - axes[-1][-2]) < 0:
            axes.append([v])  # the labels turn back: the next axis
        else:
            axes[-1].append(v)
    return all(len(a) >= 2 and _even(a) for a in axes) and (paired or all(len(a) >= _MIN_RUN for a in axes))


def _value(m: re.Match[str]) -> float:
    return float(m.group("num").replace("−", "-"))


def _unit(written: str) -> str:
    return "%" if written == "%" else "x"


def _run(text: str, at: int, step: int, unit: str) -> list[re.Match[str]]:
    """The bare-number lines next to each other from the line break at ``at`` on, upwards (``step`` -1,
    nearest first) or downwards (1), while their unit is ``unit``."""
    out: list[re.Match[str]] = []
    for line in _neighbours(text, at, step, _LINE_CHARS):
        m = _BARE.fullmatch(text, *line)
        if len(out) >= _MAX_RUN or m is None or _unit(m.group("unit")) != unit:
            break
        out.append(m)
    return out


def _neighbours(text: str, at: int, step: int, width: int) -> Iterator[tuple[int, int]]:
    """The spans of the lines of at most ``width`` characters next to each other from the line break at
    ``at`` on, upwards (``step`` -1, nearest first) or downwards (1); a longer line ends them."""
    while 0 < at < len(text):
        if step < 0:
            start = text.rfind("\n", max(0, at - width), at) + 1
            if start == 0 and at > width:
                return
            line, at = (start, at), start - 1
        else:
            end = text.find("\n", at + 1, at + 1 + width)
            if end < 0:
                end = len(text) if len(text) - at - 1 <= width else -1
            if end < 0:
                return
            line, at = (at + 1, end), end
        yield line


def _even(values: list[float]) -> bool:
    """Whether the values rise or fall by one step (within rounding), a step that is not zero."""
    steps = [b - a for a, b in zip(values[:-1], values[1:], strict=True)]
    first = steps[0]
    if abs(first) < 1e-9:
        return False
    return all(abs(s - first) <= 0.01 * max(1.0, abs(first)) for s in steps)
