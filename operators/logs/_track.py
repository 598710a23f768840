"""The step track of a chunk's metric rows: which step an event happened at, where the step went back (a
restart), where a series turned non-finite (a ``nan`` event), the loss summary."""

from __future__ import annotations

import bisect
import datetime as dt
import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from assay.operators.logs._names import EVAL_PREFIXES


@dataclass
class Event:
    line_no: int
    kind: str
    detail: str
    rank: int | None
    step: int | None
    ts: dt.datetime | None
    count: int = 1


#: Series that keep a best or a bound, which a loop starts at an infinity before the first measurement.
_SENTINEL = re.compile(r"(?:^|_)(?:best|min|max|lowest|highest)(?:_|$)")


class StepTrack:
    """Steps by line, from the metric rows: which step an event happened at, where steps went back
    (a restart from a checkpoint), where the loss turned NaN."""

    def __init__(self, metrics: pa.Table, track: tuple[np.ndarray, np.ndarray, np.ndarray]):
        lines, steps, ranks = track
        order = np.argsort(lines, kind="stable")
        self.lines, self.steps, self.ranks = lines[order], steps[order], ranks[order]
        self.main_rank = self._main_rank()
        self._metrics = metrics
        self._loss_rows: tuple[np.ndarray, np.ndarray, _Steps] | None = None
        main = self.ranks == self.main_rank
        self.first_step = int(self.steps[main][0]) if main.any() else None
        self.last_step = int(self.steps[main][-1]) if main.any() else None
        self.first_step_line = int(self.lines[main][0]) if main.any() else None
        self.last_step_line = int(self.lines[main][-1]) if main.any() else None

    def _main_rank(self) -> int:
        """The rank whose series stands for the run: rank-less rows, else the lowest rank printed."""
        # Rank-less rows are -1, below every printed rank: the minimum is the answer either way.
        return int(self.ranks.min()) if len(self.ranks) else -1

    def step_at(self, line_no: int, prior: int | None) -> int | None:
        i = int(np.searchsorted(self.lines, line_no, side="right")) - 1
        return int(self.steps[i]) if i >= 0 else prior

    def step_after(self, line_no: int) -> int | None:
        """The step of the first record after ``line_no`` (in this chunk), if one is."""
        i = int(np.searchsorted(self.lines, line_no, side="right"))
        return int(self.steps[i]) if i < len(self.steps) else None

    def resumed_at(self, line_no: int, named: int | None) -> int | None:
        """The step a resume at ``line_no`` goes on from: the step its line names (``resuming from step 5000``),
        unless that number is no step of the records' counter (less than half the next record's step and more
        than one of their strides before it: VITS-style trainers name the epoch, ``Loaded checkpoint
        'G_6000.pth' (iteration 121)``, where the records count 6000); then, as with no step named, the next
        record's step (after a crash, before the crash's); with no record after it, the last record's. A line
        that prints only its epoch (``Train Epoch: 121 [0%]``) is no record the run goes on from."""
        after = self.step_after(line_no)
        if named is not None and after is not None:
            m = self._metrics
            later = m.filter(
                pc.and_(
                    pc.and_(pc.greater(m.column("line_no"), line_no), pc.is_valid(m.column("step"))),
                    pc.invert(pc.is_in(m.column("name"), pa.array(_EPOCH_SERIES))),
                )
            )
            if later.num_rows:
                first = pc.index(later.column("line_no"), pc.min(later.column("line_no"))).as_py()
                after = int(later.column("step")[first].as_py())
        if named is not None and after is not None and named * 2 < after:
            distinct = np.unique(self.steps)
            stride = int(np.median(np.diff(distinct))) if len(distinct) > 1 else 0
            if after - named > stride:
                named = None
        return named if named is not None else after

    def distinct_steps(self) -> int:
        """Steps printed, counted once however many metrics (and ranks) a step's line carries."""
        if not len(self.steps):
            return 0
        new_line = np.concatenate(([True], self.lines[1:] != self.lines[:-1]))
        steps = self.steps[new_line]
        change = np.diff(steps)
        if (change >= 0).all():  # the usual case, steps in order: no sort needed
            return int(np.count_nonzero(change)) + 1
        return int(len(np.unique(steps)))

    def regressions(self, prior_step: int | None, new_starts: list[int] = ()) -> list[Event]:
        """A restart wherever the main rank's step goes back: training resumed from an earlier checkpoint. Not
        where something began anew since the record before (``new_starts``, sorted lines): a new epoch whose
        counter starts again, or another fit after a line said the run ended (R's ``nnet`` printing ``converged``
        and fitting the next model)."""
        main = self.ranks == self.main_rank
        steps, lines = self.steps[main], self.lines[main]
        if not len(steps):
            return []
        order = np.argsort(lines, kind="stable")  # one record per line, in line order
        steps, lines = steps[order], lines[order]
        first = np.concatenate(([True], lines[1:] != lines[:-1]))
        steps, lines = steps[first], lines[first]
        prev = np.concatenate(([prior_step if prior_step is not None else steps[0]], steps[:-1]))
        # Two writers without rank tags printing one counter (two ranks' bars) dip by a step and come straight
        # back: a record right after the dip at or past the step before it is no resumed run.
        after = np.concatenate((steps[1:], [-1]))
        out = []
        dips = np.flatnonzero((steps < prev) & (after < prev))
        epochs = self._epochs_by_line() if len(dips) else (np.empty(0), np.empty(0))
        for i in dips:
            if prior_step is None and (steps[:i] == steps[0]).all():
                # the records before the dip are the log's first and never moved: a banner read as a record
                # ("Epoch:500 3GPU, batch size: 32" above the run's "Epoch: 0", a dump of the arguments with its
                # ``'epoch': 300.0`` over several lines), not a run that went on and resumed
                continue
            if _epoch_went_up(epochs, int(lines[i])):
                continue  # a counter of the epoch's batches starting again as the epoch beside it goes up
            if i and _after_and_by(new_starts, int(lines[i - 1]), int(lines[i])):
                continue  # a new epoch or another fit began since the record before
            if i and self._other_records(int(lines[i - 1]), int(lines[i])):
                continue  # another kind of record with its own counter (``Iteration[3] Train-accuracy``
                # after ``Batch [600] Speed``): two counters side by side, no run going back
            out.append(
                Event(
                    int(lines[i]),
                    "restart",
                    f"step went back from {int(prev[i])} to {int(steps[i])}",
                    None,
                    int(steps[i]),
                    None,
                )
            )
        return out

    def _other_records(self, before: int, at: int) -> bool:
        """Whether the record on line ``at`` is another kind than the one on line ``before`` (no metric's name in
        common) whose own counter did not go back: its record before it was at the same step or an earlier one
        (``Iteration[3]`` after ``Iteration[2]``, with ``Batch [600]`` between them), or that is its kind's first.
        Two kinds of record counting side by side; a resumed run's records go back each by its own counter."""
        m = self._metrics
        names_before, names_at = self._names_on(before), self._names_on(at)
        if not names_before or not names_at or names_before & names_at:
            return False
        same = m.filter(
            pc.and_(pc.less(m.column("line_no"), at), pc.is_in(m.column("name"), pa.array(sorted(names_at))))
        )
        same = same.filter(pc.is_valid(same.column("step")))
        if not same.num_rows:
            return True  # the kind's first record: a counter of its own starting, no run going back
        last = pc.index(same.column("line_no"), pc.max(same.column("line_no"))).as_py()
        step_at = self.step_at(at, None)
        return step_at is not None and int(same.column("step")[last].as_py()) <= step_at

    def _names_on(self, line: int) -> set[str]:
        m = self._metrics
        return set(m.filter(pc.equal(m.column("line_no"), line)).column("name").to_pylist())

    def _epochs_by_line(self) -> tuple[np.ndarray, np.ndarray]:
        """The main rank's ``epoch`` values and their lines, in line order, where records print their epoch (or
        a pass over the data, PaddlePaddle's ``Pass 1, Batch 0``)."""
        m = self._metrics
        named = pc.is_in(m.column("name"), pa.array(_EPOCH_SERIES))
        mask = pc.and_(named, pc.equal(m.column("rank").fill_null(-1), self.main_rank))
        picked = m.filter(mask)
        lines = picked.column("line_no").to_numpy()
        order = np.argsort(lines, kind="stable")
        return lines[order], picked.column("value").to_numpy()[order]

    def loss_rows(self) -> tuple[np.ndarray, np.ndarray, _Steps]:
        """The main rank's loss values, their lines and steps, in line order (computed once)."""
        if self._loss_rows is None:
            self._loss_rows = self._find_loss_rows()
        return self._loss_rows

    def _find_loss_rows(self) -> tuple[np.ndarray, np.ndarray, _Steps]:
        m = self._metrics
        if not m.num_rows:
            return np.empty(0), np.empty(0, dtype=np.int64), _Steps(np.empty(0, dtype=np.int64))
        mask = pc.and_(
            pc.equal(m.column("name"), "loss"), pc.equal(m.column("rank").fill_null(-1), self.main_rank)
        )
        picked = m.filter(mask)
        lines = picked.column("line_no").to_numpy()
        order = np.argsort(lines, kind="stable")
        values = picked.column("value").to_numpy()[order]
        step_column = picked.column("step")
        steps = step_column.fill_null(-1).to_numpy()[order]
        valid = np.asarray(step_column.is_valid())[order]
        return values, lines[order], _Steps(steps, valid)

    def divergences(self, prior_finite: bool | None) -> list[Event]:
        """A ``nan`` event where the training loss turns non-finite (not at every NaN step after it)."""
        values, lines, steps = self.loss_rows()
        if not len(values):
            return []
        finite = np.isfinite(values.astype(np.float64))
        before = np.concatenate(([True if prior_finite is None else prior_finite], finite[:-1]))
        out = []
        for i in np.flatnonzero(~finite & before):
            step = steps[i]
            if step is None:
                # a record the text gives no step (one of many an epoch, ``_several_an_epoch``): the step of the
                # first record after it, the epoch's evaluation, rather than an earlier epoch's last
                step = self.step_after(int(lines[i]))
            out.append(
                Event(
                    int(lines[i]),
                    "nan",
                    f"loss is {values[i]}",
                    None,
                    None if step is None else int(step),
                    None,
                )
            )
        return out

    def non_finite_series(self) -> list[Event]:
        """A ``nan`` event where any other series (a grad norm, a loss term) is first non-finite in the
        chunk: a NaN grad norm under a loss that is not printed, or printed finite, is the same failure."""
        m = self._metrics
        if not m.num_rows:
            return []
        values = m.column("value")
        bad = m.filter(pc.and_(pc.invert(pc.is_finite(values)), pc.not_equal(m.column("name"), "loss")))
        if not bad.num_rows:
            return []
        bad = bad.sort_by([("line_no", "ascending")])
        out, seen = [], set()
        for name, value, line, step in zip(
            *(bad.column(c).to_pylist() for c in ("name", "value", "line_no", "step")), strict=True
        ):
            if _SENTINEL.search(name) and value in (math.inf, -math.inf):
                continue  # a best or minimum kept from an infinite start (``val_best_loss is inf``): no divergence
            if name.startswith(EVAL_PREFIXES) and "loss" not in name:
                continue  # an evaluation's score over a class it saw no sample of (``eval avg class acc: nan``)
            if name not in seen and self._placeholder(name, line):
                seen.add(name)  # a domain's term with nothing to average (``loss/cn=nan`` beside ``loss/en=2.1``)
            if name not in seen:
                seen.add(name)
                out.append(Event(int(line), "nan", f"{name} is {value}", None, step, None))
        return out

    def _placeholder(self, name: str, line: int) -> bool:
        """Whether a non-finite series is a placeholder, not a divergence: never finite in the chunk, while a
        sibling of its family (``loss_en`` beside ``loss_cn``) is finite on the same line."""
        family = name.rsplit("_", 1)[0] + "_" if "_" in name else None
        if family is None:
            return False
        m = self._metrics
        values = m.filter(pc.equal(m.column("name"), name)).column("value")
        if pc.any(pc.is_finite(values)).as_py():
            return False
        on_line = m.filter(pc.equal(m.column("line_no"), line))
        siblings = on_line.filter(pc.and_(pc.starts_with(on_line.column("name"), family), pc.not_equal(on_line.column("name"), name)))
        return bool(pc.any(pc.is_finite(siblings.column("value"))).as_py())

    def loss_summary(self) -> dict[str, Any]:
        values, lines, steps = self.loss_rows()
        if not len(values):
            return {}
        values = values.astype(np.float64)
        finite = np.flatnonzero(np.isfinite(values))
        out: dict[str, Any] = {
            "first": _num(values[0]),
            "last": _num(values[-1]),
            "last_line": int(lines[-1]),
            "last_step": None if steps[-1] is None else int(steps[-1]),
            "n": int(len(values)),
        }
        if len(finite):
            out["last_finite"] = _num(values[finite[-1]])
            out["last_finite_line"] = int(lines[finite[-1]])
            out["min"] = _num(float(np.min(values[finite])))
        return out


#: The series that number passes over the data.
_EPOCH_SERIES = ["epoch", "ep", "pass"]


def _epoch_went_up(epochs: tuple[np.ndarray, np.ndarray], line_no: int) -> bool:
    """Whether the record on ``line_no`` prints an epoch above the last one printed before it."""
    lines, values = epochs
    at = int(np.searchsorted(lines, line_no, side="left"))
    return 0 < at < len(lines) and lines[at] == line_no and values[at] > values[at - 1]


class _Steps:
    """Steps of rows, ``None`` where a row has none; indexed like a list, without a Python int per row."""

    def __init__(self, steps: np.ndarray, valid: np.ndarray | None = None):
        self._steps = steps
        self._valid = valid

    def __len__(self) -> int:
        return len(self._steps)

    def __getitem__(self, i: int) -> int | None:
        if self._valid is not None and not self._valid[i]:
            return None
        return int(self._steps[i])


def _num(value: float) -> float | str:
    """JSON has no NaN: non-finite numbers travel as text."""
    value = float(value)
    return value if math.isfinite(value) else str(value)


def _after_and_by(lines: list[int], after: int, by: int) -> bool:
    """Whether a line of the sorted ``lines`` comes after the line ``after`` and at or before the line ``by``."""
    i = bisect.bisect_right(lines, after)
    return i < len(lines) and lines[i] <= by
