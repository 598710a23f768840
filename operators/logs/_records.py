"""Records that are not one per line: several on one physical line (a progress bar redrawn with carriage
returns, a record glued right after a bar, a logger's records pasted without line breaks) and one printed over two lines, each with a counter of its own;
and the step a line between records takes from the record before it (``context_step``, ``step_before``).
The general reader (``fallback``) reads them as the tool meant them."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

from assay.operators.logs._miner import Cluster, TemplateMiner
from assay.operators.logs._numbers import whole_number

#: A progress bar's counter and its bracket (``| 760/2001 [30:21<48:56, 2.37s/it, loss=0.15]``) with another
#: record glued right after it, no space between (a logger's line printed while the bar was drawn): two records.
BAR_GLUED = re.compile(r"\|\s*\d+/\d+\s*\[[^\]\[]*\](?=\S)")

#: A logger's date and time glued right after the text of the record before it (``... ips: 15.9 ins/s2022-07-28
#: 08:44:26,560 - INFO - epoch: 0, ...``, records pasted without their line breaks): another record starts there.
GLUED_STAMP = re.compile(r"(?<=[^\d\s])(?=\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2})")


def records_of_line(text: str) -> list[str] | None:
    """The records of one physical line that holds several, each to be read as a line of its own: the draws of
    a bar redrawn with carriage returns (``last_draws``), or a logger's records pasted without line breaks (split
    before each date and time glued to the text before it); ``None`` where the line is one record."""
    if "\r" in text.rstrip("\r"):
        return last_draws(text.split("\r"))
    if text.count("%|") >= 2 and len(draws := _glued_draws(text)) > 1:
        return last_draws(draws)
    if not GLUED_STAMP.search(text):
        return None
    return [part for part in GLUED_STAMP.split(text) if part.strip()]


#: A progress bar's head: its percentage, its bar, its count and total, the bracket of its clock.
_BAR_HEAD = re.compile(r"\d{1,3}%\|[^|\n]*\|\s*\d+/\d+(?:\.\d+)?\s*\[")  # (a total as a float: ``4320/100000.0 [``)
#: Where a bar's draw ends: its bracket closed, or the comma after its postfix's last field.
_DRAW_END = re.compile(r"\]|,\s")


def bar_draws(text: str) -> list[str]:
    """A line's pieces as a bar's reader reads them: apart at each carriage return, and each piece apart at
    the draws of a bar glued together when their carriage returns were lost (``_glued_draws``)."""
    pieces = text.split("\r")
    if text.count("%|") < 2:
        return pieces
    return [draw for piece in pieces for draw in (_glued_draws(piece) if piece.count("%|") >= 2 else [piece])]


def _glued_draws(text: str) -> list[str]:
    """A bar drawn again and again on one line whose carriage returns were lost (a paste of a terminal's bar:
    ``Epoch 0:  3%|▎| 565/20101 [..., loss=3.91, Epoch 0:  3%|▎| 566/20101 [...``): the draws, each from the
    description before its percentage (cut after the last bracket or comma of the draw before it)."""
    cuts, start = [], 0
    for head in _BAR_HEAD.finditer(text):
        # (before the first draw, the end of a record cut off at the line's start: ``Loss=3.92, ..., Epoch 0:``)
        ends = list(_DRAW_END.finditer(text, start, head.start()))
        if ends:
            cuts.append(ends[-1].end())
        start = head.end()
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False) if text[a:b].strip()]


#: A bar's position as it draws it (``| 40/100 [``), to keep one draw per position.
_BAR_AT = re.compile(r"(\d+)/\d+\s*\[")


def last_draws(parts: list[str]) -> list[str]:
    """The draws of a progress bar redrawn on one line (``parts``: its pieces between carriage returns,
    ``10/100 [..., loss=2.0]`` then ``20/100 [..., loss=1.9]``, or its glued draws), each a record of its own:
    the last draw at each position (a bar redrawn at one count for its clock alone is one record), text that is
    no bar kept as it is."""
    draws = [part for part in parts if part.strip()]
    kept = []
    for at, draw in enumerate(draws):
        here = _BAR_AT.search(draw)
        after = _BAR_AT.search(draws[at + 1]) if at + 1 < len(draws) else None
        if here and after and here.group(1) == after.group(1):
            continue
        kept.append(draw)
    return kept


def second_lines(miner: TemplateMiner, step_of: Callable[[Cluster], tuple]) -> dict[int, int]:
    """Records printed over two lines, each line with a counter of its own (TFLearn's ``Training Step: 9 |
    total loss: 1.9`` then ``| Adam | epoch: 001 | loss: 1.9 -- iter: 00576/55000``): where every line of
    the templates that print one counter (by its name) follows a line of one other typed template, and the
    two counters move in lockstep, the second by a whole multiple (two or more) of the first over three or more
    records, the second counts samples of the first's steps: its lines are at the first line's step (line
    number -> step; the rows are updated). A pair printed again (the same step with the same count: a record
    repeated, or a run resumed over steps it had printed) counts once; the same step with another count is no
    lockstep. ``step_of``: a template's typed names and step position."""
    typed = [(c, *step_of(c)[:2]) for c in miner.clusters()]
    typed = [(c, names.get(pos, ""), pos) for c, names, pos in typed if pos is not None]
    if len(typed) < 2:
        return {}
    at_line = {n: (c, pos) for c, _, pos in typed for n, _, _, _ in c.rows}  # line -> its typed template
    groups: dict[tuple[str, int], list] = {}  # (counter's name, template before) -> [(cluster, pairs)]
    for cluster, name, pos in typed:
        head = at_line.get(cluster.rows[0][0] - 1)
        if not name or head is None or head[0] is cluster:
            continue  # (its first line follows no other typed line: no second line of a record)
        before = [at_line.get(n - 1) for n, _, _, _ in cluster.rows]
        if any(b is None or b[0] is not head[0] for b in before):
            continue
        lines = {n: t for n, _, t, _ in head[0].rows}
        pairs = [(whole_number(lines[n - 1][head[1]]), whole_number(t[pos])) for n, _, t, _ in cluster.rows]
        if any(a is None or b is None for a, b in pairs):
            continue
        groups.setdefault((name, id(head[0])), []).append((cluster, pairs))
    fixed: dict[int, int] = {}
    for members in groups.values():
        # a record printed again (a snapshot's line repeated, a second run over the same steps) is one pair
        pairs = sorted({p for _, ps in members for p in ps})
        if len(pairs) < 3 or any(a2 <= a1 for (a1, _), (a2, _) in zip(pairs, pairs[1:], strict=False)):
            continue
        (a0, b0), (a1, b1) = pairs[0], pairs[1]
        ratio, left = divmod(b1 - b0, a1 - a0)
        if left or ratio < 2 or any((b - b0) != ratio * (a - a0) for a, b in pairs):
            continue
        for cluster, ps in members:
            steps = {n: a for (n, _, _, _), (a, _) in zip(cluster.rows, ps, strict=True)}
            cluster.rows = [(n, r, t, steps[n]) for n, r, t, _ in cluster.rows]
            fixed.update(steps)
    return fixed


def context_step(lines: list[int], steps: dict[int, int], line_no: int, step: int | None, replace: bool) -> int | None:
    """A line's context step where the bars' steps were fixed: the bar's before it where the line has none, or
    where its context came from a bar whose step was replaced (a bar drawn once per epoch)."""
    if step is not None and not replace:
        return step
    before = step_before(lines, steps, line_no)
    return before if before is not None else step


def step_before(lines: list[int], steps: dict[int, int], line_no: int) -> int | None:
    """The step of the last of ``lines`` (sorted) before ``line_no``, if one is."""
    at = bisect.bisect_left(lines, line_no)
    return steps[lines[at - 1]] if at else None
