"""What a parser finds in (a chunk of) a log: metric columns, events, settings, status markers. Parsers call
the ``Collector``; ``finish`` turns it into the contract's rows plus a small summary that the combine step
merges across chunks.

Why one module: the ``Collector`` is one object every parser writes through; its columns, events, settings and
markers are kept, taken back and turned into rows together, chunk by chunk."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from assay.operators.logs._coverage import Coverage
from assay.operators.logs._names import RATE_METRICS
from assay.operators.logs._timestamps import iso
from assay.operators.logs._track import Event, StepTrack

METRICS_SCHEMA = pa.schema(
    [
        ("run_id", pa.string()),
        ("step", pa.int64()),
        ("name", pa.string()),
        ("value", pa.float64()),
        ("rank", pa.int32()),
        ("ts", pa.timestamp("us")),
        ("line_no", pa.int64()),
    ]
)
EVENT_KINDS = (
    "oom",
    "nan",
    "skipped_step",
    "restart",
    "failure",
    "cancelled",
    "hardware_error",
    "checkpoint",
    "resize",
    "preempted",
)
#: Markers that decide a run's final status, latest wins (see ``_assemble.final_status``).
OUTCOMES = ("completed", "failed", "cancelled", "diverged", "restart")
#: Identical events this close together (same kind, step and text) are one event: eight ranks printing
#: the same traceback, or a warning repeated every step.
_MERGE_LINES = 2000
#: Restart reports this close together describe one restart.
_RESTART_LINES = 50
_DERIVED = 1 << 62  # the "line" of a setting derived at the end rather than read from a line


_TIMES = re.compile(r"\d{2,4}[-/]\d{2}[-/]\d{2,4}[ T_]?|\d{2}:\d{2}:\d{2}(?:[.,]\d+)?|^[IWEF]\d{4} ")
_WHO = re.compile(r"(?i)\b(rank|gpu|pid|node|worker|device|local_rank|cuda:)[\s:=#(]*\d+")


def _repeat_key(detail: str) -> str:
    """An event's text with what differs between ranks printing it masked: times, rank and GPU ids."""
    return _WHO.sub(r"\1#", _TIMES.sub("", detail))[:200]


class Collector:
    """The sink a parser writes to. One per chunk (or per small file)."""

    def __init__(self, run_id: str, operator: str = "log_parse"):
        self.run_id = run_id
        self.operator = operator
        self._step: list[int | None] = []
        self._name: list[str] = []
        self._value: list[float] = []
        self._rank: list[int | None] = []
        self._ts: list[dt.datetime | None] = []
        self._line: list[int] = []
        self._pieces: list[pa.Table] = []
        # (lines, steps, ranks) of the bulk rows, once per set of lines: the step track without a pass over
        # every metric row
        self._track: list[tuple[np.ndarray, np.ndarray, np.ndarray | None]] = []
        self._events: list[Event] = []
        self.settings: dict[str, Any] = {}  # read it; write through ``setting``
        self.settings_last: dict[str, Any] = {}
        self._first_at: dict[str, int] = {}
        self._last_at: dict[str, int] = {}
        self.markers: list[tuple[int, str, str]] = []
        # lines where a new epoch began (a banner's epoch went up, a counter started again with the epoch): a
        # step going back after one is no restart
        self.epoch_starts: set[int] = set()
        self.issues: list[dict[str, Any]] = []
        self.models: list[tuple[str, int, int | None]] = []
        self.hardware: list[tuple[str, int, int | None]] = []
        self.framework: str | None = None
        self.systems: list[str] = []  # other systems the log shows in use (DeepSpeed under HF Trainer)
        self.first_ts: dt.datetime | None = None
        self.last_ts: dt.datetime | None = None
        self.current_step: int | None = None  # for parsers whose lines do not carry a step
        self.coverage = Coverage()
        self._step_lines: list[int] = []
        self.decisions: list[str] = []  # how the general reader chose steps and losses (see ``decide``)
        # whether the line a parser is given now matched the event phrases (set by the block reader, which
        # knows it from its one RE2 pass), so a reader need not run the phrase table in Python again
        self.event_candidate = False

    # -- what parsers call ----------------------------------------------------------------------------------
    def metric(
        self,
        name: str,
        step: int | None,
        value: float | None,
        line_no: int,
        rank: int | None = None,
        ts: dt.datetime | None = None,
    ) -> None:
        """One metric value. Placeholders (a throughput <= 0 before the first measurement, MFU -100%) are
        dropped; NaN and inf are kept as printed."""
        if value is None or (name in RATE_METRICS and value <= 0):
            return
        if step is None:
            step = self.current_step
        self._step.append(step)
        self._name.append(name)
        self._value.append(float(value))
        self._rank.append(rank)
        self._ts.append(ts)
        self._line.append(line_no)

    def gave_step(self, line_no: int) -> None:
        """Line ``line_no`` gave the step of values printed elsewhere (a progress bar under stdout dicts): it
        was understood, though no row cites it."""
        self._step_lines.append(line_no)

    def metric_columns(
        self,
        name: str,
        steps: np.ndarray,
        values: np.ndarray,
        line_nos: np.ndarray,
        ranks: np.ndarray | None = None,
        ts: pa.Array | None = None,
    ) -> None:
        """Many values of one metric at once (the vectorised path for high-volume lines)."""
        values = np.asarray(values, dtype=np.float64)
        if not self._track or self._track[-1][0] is not line_nos:
            self._track.append((line_nos, steps, ranks))
        if name in RATE_METRICS:
            keep = ~(values <= 0)
            if not keep.all():
                steps, values, line_nos = steps[keep], values[keep], line_nos[keep]
                ranks = ranks[keep] if ranks is not None else None
                ts = ts.filter(pa.array(keep)) if ts is not None else None
        n = len(values)
        if not n:
            return
        self._pieces.append(
            pa.table(
                {
                    "run_id": _repeat(self.run_id, n),
                    "step": pa.array(steps, pa.int64()),
                    "name": _repeat(name, n),
                    "value": pa.array(values, pa.float64()),
                    "rank": pa.array(ranks, pa.int32()) if ranks is not None else pa.nulls(n, pa.int32()),
                    "ts": ts.cast(pa.timestamp("us")) if ts is not None else pa.nulls(n, pa.timestamp("us")),
                    "line_no": pa.array(line_nos, pa.int64()),
                },
                schema=METRICS_SCHEMA,
            )
        )

    def event(
        self,
        kind: str,
        line_no: int,
        detail: str = "",
        *,
        rank: int | None = None,
        step: int | None = None,
        ts: dt.datetime | None = None,
    ) -> None:
        if kind not in EVENT_KINDS:
            raise ValueError(f"unknown event kind {kind!r}; use one of {', '.join(EVENT_KINDS)}")
        self._events.append(Event(line_no, kind, detail.strip()[:500], rank, step, ts))

    def withdraw(self, kind: str, line_no: int) -> None:
        """Take back the event of ``kind`` recorded at ``line_no`` (a later line said what it was)."""
        self._events = [e for e in self._events if not (e.kind == kind and e.line_no == line_no)]

    def setting(self, key: str, value: Any, line_no: int | None = None) -> None:
        """A run setting (world_size, tp, micro_batch_size, ...). The run's value is the one printed first in
        the file, whatever order lines are processed in; the last one is kept too (a world size that
        changed is a resize). Settings derived without a line (``line_no=None``) only fill gaps."""
        if value is None or value == "":
            return
        line = _DERIVED if line_no is None else line_no
        first = self._first_at.get(key)
        if first is None or line < first:
            self._first_at[key] = line
            self.settings[key] = value
        last = self._last_at.get(key)
        if last is None or line >= last:
            if (
                key == "world_size"
                and last is not None
                and last != _DERIVED
                and line != _DERIVED
                and value != self.settings_last[key]
            ):
                self.event("resize", line, f"world size {self.settings_last[key]} -> {value}")
            self._last_at[key] = line
            self.settings_last[key] = value

    def mark(self, outcome: str, line_no: int, detail: str = "") -> None:
        """An outcome marker: ``completed``, ``failed``, ``cancelled``, ``diverged`` or ``restart``."""
        if outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {outcome!r}; use one of {', '.join(OUTCOMES)}")
        self.markers.append((line_no, outcome, detail[:200]))

    def model(self, name: str, line_no: int, offset: int | None = None) -> None:
        if name and all(m[0] != name for m in self.models):
            self.models.append((name, line_no, offset))

    def accelerator(self, name: str, line_no: int, offset: int | None = None) -> None:
        if name and all(h[0] != name for h in self.hardware):
            self.hardware.append((name, line_no, offset))

    def system(self, name: str) -> None:
        if name not in self.systems:
            self.systems.append(name)

    def decide(self, reason: str) -> None:
        """Record how the reader chose a step or a loss (``step: the key 'iter' ...``), once, for the per-file
        table to say why; a few are kept."""
        if reason not in self.decisions and len(self.decisions) < 20:
            self.decisions.append(reason)

    def issue(self, error: str, line_no: int | None = None) -> None:
        if len(self.issues) < 1000:  # a file of garbage must not make a garbage-sized issue list
            self.issues.append({"operator": self.operator, "error": error[:500], "line_no": line_no})

    def saw_time(self, stamp: dt.datetime | None) -> None:
        """A time printed in the log, seen in file order: the first one starts the run, the last ends it."""
        if stamp is None:
            return
        if self.first_ts is None:
            self.first_ts = stamp
        self.last_ts = stamp

    @property
    def n_metric_rows(self) -> int:
        return len(self._value) + sum(p.num_rows for p in self._pieces)

    def metric_names(self) -> set[str]:
        """The names of the metrics collected so far."""
        names = set(self._name)
        for piece in self._pieces:
            names.update(pc.unique(piece.column("name")).to_pylist())
        return names

    # -- results --------------------------------------------------------------------------------------------
    def metrics_table(self) -> pa.Table:
        pieces = list(self._pieces)
        if self._value:
            n = len(self._value)
            pieces.append(
                pa.table(
                    {
                        "run_id": _repeat(self.run_id, n),
                        "step": pa.array(self._step, pa.int64()),
                        "name": pa.array(self._name, pa.string()),
                        "value": pa.array(self._value, pa.float64()),
                        "rank": pa.array(self._rank, pa.int32()),
                        "ts": pa.array(self._ts, pa.timestamp("us")),
                        "line_no": pa.array(self._line, pa.int64()),
                    },
                    schema=METRICS_SCHEMA,
                )
            )
        if not pieces:
            return METRICS_SCHEMA.empty_table()
        return pa.concat_tables(pieces) if len(pieces) > 1 else pieces[0]

    def finish(
        self, metrics: pa.Table, *, prior_step: int | None = None, prior_loss_finite: bool | None = None
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Events (with the step each happened at, derived ones added, repeats merged) and the summary of
        this chunk. ``prior_*`` describe the lines before the chunk (read back from the previous one)."""
        track = StepTrack(metrics, self._track_arrays())
        events = list(self._events)
        ended = {line for line, outcome, _ in self.markers if outcome == "completed"}
        events.extend(track.regressions(prior_step, sorted(self.epoch_starts | ended)))
        events.extend(track.divergences(prior_loss_finite))
        events.extend(track.non_finite_series())
        for ev in events:
            # a resume is at the step the run goes on from (``StepTrack.resumed_at``)
            if ev.kind == "restart":
                ev.step = track.resumed_at(ev.line_no, ev.step)
            if ev.step is None:
                ev.step = track.step_at(ev.line_no, prior_step)
        events.sort(key=lambda e: e.line_no)
        merged: list[Event] = []
        last_of: dict[tuple[str, int | None, str], Event] = {}
        at_line: set[tuple[str, int, int | None]] = set()
        last_restart = -_RESTART_LINES - 1
        for ev in events:
            # one line, one event of a kind at a step (a count and a NaN value); a summary naming two saves
            # (``best_model_checkpoint``, ``last_model_checkpoint``) is two
            if (ev.kind, ev.line_no, ev.step) in at_line:
                continue
            at_line.add((ev.kind, ev.line_no, ev.step))
            if ev.kind == "restart":
                # The agent's "will restart", the rendezvous' restart_count and the step going back are
                # three views of one restart.
                if ev.line_no - last_restart <= _RESTART_LINES:
                    continue
                last_restart = ev.line_no
            key = (ev.kind, ev.step, _repeat_key(ev.detail))
            prev = last_of.get(key)
            if prev is not None and ev.line_no - prev.line_no <= _MERGE_LINES and ev.kind not in ("restart",):
                prev.count += 1
                continue
            last_of[key] = ev
            merged.append(ev)
        for ev in merged:
            if ev.kind == "restart":
                self.markers.append((ev.line_no, "restart", ev.detail[:200]))
        rows = [
            {
                "run_id": self.run_id,
                "step": ev.step,
                "kind": ev.kind,
                "detail": ev.detail + (f" (x{ev.count})" if ev.count > 1 else ""),
                "line_no": ev.line_no,
                "ts": ev.ts,
            }
            for ev in merged
        ]
        return rows, self._summary(metrics, track, merged)

    def _track_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Lines, steps and ranks of every metric row that has a step (a line appears once per piece)."""
        lines = [piece[0] for piece in self._track]
        steps = [piece[1] for piece in self._track]
        ranks = [piece[2] if piece[2] is not None else np.full(len(piece[0]), -1) for piece in self._track]
        if self._line:
            known = [i for i, step in enumerate(self._step) if step is not None]
            lines.append(np.asarray([self._line[i] for i in known], dtype=np.int64))
            steps.append(np.asarray([self._step[i] for i in known], dtype=np.int64))
            ranks.append(
                np.asarray([-1 if self._rank[i] is None else self._rank[i] for i in known], dtype=np.int64)
            )
        if not lines:
            empty = np.empty(0, dtype=np.int64)
            return empty, empty, empty
        return (
            np.concatenate(lines).astype(np.int64),
            np.concatenate(steps).astype(np.int64),
            np.concatenate(ranks).astype(np.int64),
        )

    def _summary(self, metrics: pa.Table, track: StepTrack, events: list[Event]) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for ev in events:
            counts[ev.kind] = counts.get(ev.kind, 0) + 1
        return {
            "n_metric_rows": metrics.num_rows,
            "metric_names": sorted(pc.unique(metrics.column("name")).to_pylist()) if metrics.num_rows else [],
            "steps": track.distinct_steps(),
            "first_step": track.first_step,
            "last_step": track.last_step,
            "first_step_line": track.first_step_line,
            "last_step_line": track.last_step_line,
            "loss": track.loss_summary(),
            "settings": self.settings,
            "settings_last": self.settings_last,
            "markers": sorted(self.markers),
            "events": counts,
            "event_lines": sorted((ev.line_no, ev.kind) for ev in events)[-50:],
            "models": self.models[:20],
            "hardware": self.hardware[:20],
            "framework": self.framework,
            "systems": self.systems,
            "first_ts": iso(self.first_ts),
            "last_ts": iso(self.last_ts),
            "coverage": self.coverage.report(self._understood(metrics, events)),
            "decisions": self.decisions,
        }

    def _understood(self, metrics: pa.Table, events: list[Event]) -> np.ndarray:
        """Lines that gave something: a metric, an event, an outcome, a setting, a model or hardware."""
        lines = [
            *(ev.line_no for ev in events),
            *(m[0] for m in self.markers),
            *self._first_at.values(),
            *self._last_at.values(),
            *(m[1] for m in self.models),
            *(h[1] for h in self.hardware),
            *self._step_lines,
        ]
        column = metrics.column("line_no").to_numpy() if metrics.num_rows else np.empty(0, dtype=np.int64)
        return np.concatenate((column, np.asarray(lines, dtype=np.int64)))


def _repeat(value: str, n: int) -> pa.Array:
    return pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, dtype=np.int32)), pa.array([value])).cast(
        pa.string()
    )
