"""Reproduction evidence: the claim's two layouts, scaled down, trained by the live scheduler, and the
measured ratio of their speeds set against the claimed one.

    check = reproduce("assay.duckdb", ClaimSetting.from_row(claim_row))
    write_rows(db, {"claim_checks": [check.row()]}, upsert=["claim_checks"])

The jobs go into the database queue like any user's and a live scheduler (in this process, unless
``run_scheduler=False`` leaves them to a running ``assay scheduler``) runs them one after another on
supervisors on Ray, so each side is measured alone on the same workers; a worker lost on the way costs a
restart from the job's checkpoint, not the reproduction. The sides run interleaved, in rounds (A B, then
B A, ...), so a drift of a shared machine's load hits both: rounds are added until the interval on the ratio
(a bootstrap over the rounds, paired, and each job's steady steps; ``_interval``) is no wider than the
tolerance band, or the budget (rounds, seconds) runs out. The verdict is on the ratio measured at small scale;
the cost model, fitted on the sweep's runs where there are enough of them, extrapolates the ratio to the
claim's own model, workers and hardware, and that figure is reported beside the verdict, not judged.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from assay.checks._check import Check, untestable
from assay.checks._interval import Interval, ratio_interval, steady
from assay.checks._interval import judge as judge_interval
from assay.checks._setting import ClaimSetting
from assay.checks._sweep import (
    DEFAULT_MODELS,
    DEFAULT_STEPS,
    SIDES,
    WARMUP_STEPS,
    Sweep,
    Unreproducible,
    plan_sweep,
    short,
    why_not_reproducible,
)
from assay.store.job_state import FINAL_STATES, JobState

#: A reproduction agrees with a claim when the ratios are within this factor of each other (25%): a tiny
#: model on CPU workers keeps the kind of trade-off a layout makes, not its exact size.
TOLERANCE = 0.25
KIND = "reproduction"
#: Rounds of a reproduction: at least ``MIN_ROUNDS`` (one round says nothing of the spread between tries),
#: at most ``MAX_ROUNDS``, fewer when the interval is narrow enough first.
MIN_ROUNDS, MAX_ROUNDS = 2, 4


@dataclass(frozen=True)
class SideSpeed:
    """A job's measured speed: its steady step times (warm-up and first steps after restarts left out)."""

    job_id: str
    run_id: str | None
    step_ms: tuple[float, ...]
    tokens_per_step: int

    @property
    def median_ms(self) -> float:
        return statistics.median(self.step_ms)

    @property
    def tokens_per_s(self) -> float:
        return self.tokens_per_step / (self.median_ms / 1000)

    def quartiles(self) -> tuple[float, float]:
        if len(self.step_ms) < 2:
            return self.median_ms, self.median_ms
        q = statistics.quantiles(self.step_ms, n=4, method="inclusive")
        return q[0], q[2]


def steady_step_times(steps: Mapping[int, float], restarts: Iterable[int] = (),
                      warmup: int = WARMUP_STEPS) -> list[float]:
    """Step times (``step -> ms``) without the first ``warmup`` steps and the first step after each restart
    (a restart at checkpoint step ``s`` runs ``s + 1`` on a fresh process group)."""
    skip = {s + 1 for s in restarts}
    kept = [ms for step, ms in sorted(steps.items())
            if step > warmup and step not in skip and math.isfinite(ms) and ms > 0]
    # Outliers (a checkpoint write, a neighbour's burst) go by ``_interval.steady``'s rule; warm-up is done.
    return steady(kept, warmup=0, fraction=0) if kept else [ms for _, ms in sorted(steps.items()) if math.isfinite(ms) and ms > 0]


def reproduce(db: Any, setting: ClaimSetting, *, workers: int | None = None, steps: int = DEFAULT_STEPS,
              address: str | None = None, timeout_s: float = 600.0, echo: Callable[[str], None] = print,
              models: Sequence[str] = DEFAULT_MODELS, tolerance: float = TOLERANCE,
              run_scheduler: bool = True, on_round: Callable[[Any, dict[str, Any]], None] | None = None,
              min_rounds: int = MIN_ROUNDS, max_rounds: int = MAX_ROUNDS) -> Check:
    """Reproduce a layout-comparison claim on this cluster; the ``reproduction`` :class:`Check` comes back
    (``untestable`` with the reason when the claim is not a layout comparison of throughput or step time, or
    the sweep could not run). ``workers`` caps the workers (default: the cluster's worker slots);
    ``on_round`` sees each round of the in-process scheduler (the scheduler and what it decided). The sides
    run in ``min_rounds`` to ``max_rounds`` interleaved rounds within ``timeout_s`` in all."""
    from assay.jobs import capacity

    cid = setting.claim_id
    why = why_not_reproducible(setting)
    if why:  # decided before anything connects to a cluster
        return untestable(cid, KIND, why)
    try:
        slots = workers or capacity(address=address, worker_cpus=1.0).slots
        size = min(setting.workers or slots, slots)
        sweep = plan_sweep(setting, size, steps=steps, models=tuple(models))
    except Unreproducible as exc:
        return untestable(cid, KIND, str(exc))
    echo(f"reproducing {cid}: {sweep.describe()} (the claim: {_claimed(setting, sweep)}), "
         f"{', '.join(sweep.models)}, {steps} steps each, {min_rounds}-{max_rounds} interleaved rounds")
    started = time.monotonic()
    jobs: list[dict[str, Any]] = []
    speeds: dict[str, SideSpeed] = {}
    stopped = f"the budget of {max_rounds} rounds ran out"
    claimed = setting.claimed_ratio() if setting.relative else None
    for r in range(max_rounds):
        left = timeout_s - (time.monotonic() - started)
        if left <= 0:
            stopped = f"the budget of {timeout_s:.0f}s ran out after {r} round(s)"
            break
        ordered = _round_order(sweep, r)
        ids = _run(db, ordered, address=address, timeout_s=left, echo=echo, run_scheduler=run_scheduler,
                   on_round=on_round)
        round_jobs = [{**j, "round": r} for j in _job_evidence(db, ordered, ids)]
        unfinished = [j for j in round_jobs if j["state"] != JobState.COMPLETED]
        if unfinished:
            why = "; ".join(f"{j['job_id']} {j['state']}" + (f" ({j['error']})" if j.get("error") else "")
                            for j in unfinished)
            if not jobs:
                return untestable(cid, KIND, f"the scaled-down reproduction ({sweep.describe()}) did not "
                                             f"finish: {why}", jobs=round_jobs, workers=sweep.workers, steps=steps)
            stopped = f"round {r + 1} did not finish ({why}); the verdict rests on the rounds before it"
            break
        for j in round_jobs:
            speeds[j["job_id"]] = s = _speed(db, j)
            j.update(step_time_ms=round(s.median_ms, 3), tokens_per_s=round(s.tokens_per_s, 1),
                     steps_measured=len(s.step_ms), run_id=s.run_id)
        jobs += round_jobs
        interval = _interval_of(sweep.models[-1], jobs, speeds)
        if r + 1 >= min_rounds and interval is not None and _settled(interval, tolerance):
            stopped = f"the interval was inside the ±{tolerance:.0%} band after {r + 1} rounds"
            break
        echo(f"  round {r + 1}: {sweep.models[-1]} {interval.describe('{:.2f}x') if interval else 'not measured'}"
             + (f" (claimed {claimed:.2f}x)" if claimed else ""))
    return _verdict(db, setting, sweep, jobs, speeds, steps=steps, tolerance=tolerance, echo=echo,
                    stopped=stopped, min_rounds=min_rounds)


def _round_order(sweep: Sweep, r: int) -> Sweep:
    """Round ``r``'s jobs: subject then baseline in even rounds, the other way in odd ones (A B, B A, ...),
    so a load that grows or falls during a round does not always favour the same side."""
    if r % 2 == 0:
        return sweep
    pairs: dict[str, list[Any]] = {}
    for j in sweep.jobs:
        pairs.setdefault(j.model, []).append(j)
    return replace(sweep, jobs=tuple(j for m in pairs.values() for j in reversed(m)))


def _interval_of(model: str, jobs: list[dict[str, Any]], speeds: dict[str, SideSpeed]) -> Interval | None:
    """The subject's speed over the baseline's on ``model``, over the rounds run so far (paired by round)."""
    rounds = sorted({j["round"] for j in jobs})
    side = {(j["round"], j["side"]): speeds[j["job_id"]].step_ms for j in jobs if j["model"] == model}
    done = [r for r in rounds if (r, "subject") in side and (r, "baseline") in side]
    return ratio_interval([side[(r, "subject")] for r in done], [side[(r, "baseline")] for r in done],
                          invert=True, paired=True)


def _settled(interval: Interval, tolerance: float) -> bool:
    return interval.width <= 2 * math.log(1 + tolerance)


# -- running the sweep -------------------------------------------------------------------------------------

def _run(db: Any, sweep: Sweep, *, address: str | None, timeout_s: float, echo: Callable[[str], None],
         run_scheduler: bool, on_round: Callable[[Any, dict[str, Any]], None] | None) -> list[str]:
    from assay.jobs import get_job, request_cancel, submit, wait
    from assay.live.scheduler import LiveScheduler

    ids = [submit(j.spec, db, capacity=sweep.workers) for j in sweep.jobs]
    for j, job_id in zip(sweep.jobs, ids, strict=True):
        echo(f"  queued {job_id}: {j.side} {short(j.layout)}, {j.model}")

    def ended() -> bool:
        return all(get_job(db, job_id)["state"] in FINAL_STATES for job_id in ids)

    def watch(sched: Any, info: dict[str, Any]) -> None:
        for line in info.get("applied", []):  # starts, restarts, preemptions; each side's waits are implied
            if any(job_id in line for job_id in ids) and not line.startswith("wait "):
                echo(f"  {line}")
        if on_round is not None:
            on_round(sched, info)

    started = time.monotonic()
    if run_scheduler:
        # Fifo on exactly the sweep's workers: one side at a time, each measured alone.
        sched = LiveScheduler(db, "fifo", slots=sweep.workers, address=address, interval_s=0.5,
                              worker_cpus=1.0, on_round=watch)
        sched.run(until=ended, timeout_s=timeout_s)
    else:
        for job_id in ids:
            wait(db, job_id, timeout_s=max(0.0, timeout_s - (time.monotonic() - started)))
    for job_id in ids:  # out of time: nothing of the sweep is left behind in the queue
        state = get_job(db, job_id)["state"]
        if state not in FINAL_STATES:
            state = request_cancel(db, job_id, f"reproduction ran out of its {timeout_s:.0f}s")
        echo(f"  {job_id}: {state}")
    echo(f"  sweep done in {time.monotonic() - started:.0f}s")
    return ids


def _job_evidence(db: Any, sweep: Sweep, ids: list[str]) -> list[dict[str, Any]]:
    """Each job of the sweep as the dashboard shows it: id, side, model, layout, how it ended, restarts."""
    from assay.jobs import get_job
    from assay.store.queries_jobs import job_events

    out = []
    for j, job_id in zip(sweep.jobs, ids, strict=True):
        row = get_job(db, job_id)
        events = job_events(db, job_id)
        restarts = events[events.kind == "restart"].step.astype(int).tolist() if len(events) else []
        out.append({"job_id": job_id, "side": j.side, "model": j.model, "layout": short(j.layout),
                    "dp": j.layout.dp, "tp": j.layout.tp, "pp": j.layout.pp, "state": row["state"],
                    "error": row.get("error"), "attempts": int(row.get("attempts") or 0),
                    "restarts": restarts, "global_batch": j.spec.global_batch,
                    "micro_batch": j.spec.micro_batch, "tokens_per_step": j.spec.tokens_per_step})
    return out


def _speed(db: Any, job: dict[str, Any]) -> SideSpeed:
    # Read after the scheduler has stopped: no supervisor of this process writes any more.
    from assay.store.queries_jobs import job_metrics

    m = job_metrics(db, job["job_id"], ["step_time_ms"])
    steps = {int(s): float(v) for s, v in zip(m.step, m.value, strict=True)}
    run_id = str(m.run_id.iloc[0]) if len(m) else None
    return SideSpeed(job["job_id"], run_id, tuple(steady_step_times(steps, job["restarts"])),
                     int(job["tokens_per_step"]))


# -- the verdict ------------------------------------------------------------------------------------------

def _verdict(db: Any, setting: ClaimSetting, sweep: Sweep, jobs: list[dict[str, Any]],
             speeds: dict[str, SideSpeed], *, steps: int, tolerance: float, echo: Callable[[str], None],
             stopped: str = "", min_rounds: int = 1) -> Check:
    from assay.checks._extrapolate import extrapolate

    for j in jobs:
        j["run_id"] = speeds[j["job_id"]].run_id
    measured: dict[str, dict[str, Any]] = {}
    for model in sweep.models:
        interval = _interval_of(model, jobs, speeds)
        if interval is None:
            continue
        per_side = {s: [speeds[j["job_id"]] for j in jobs if j["model"] == model and j["side"] == s] for s in SIDES}
        measured[model] = {"ratio": interval.point, "low": interval.low, "high": interval.high,
                           "rounds": interval.runs,
                           **{f"{s}_tokens_per_s": statistics.median(x.tokens_per_s for x in per_side[s])
                              for s in SIDES},
                           **{f"{s}_step_time_ms": statistics.median(x.median_ms for x in per_side[s])
                              for s in SIDES}}
    # The verdict is on the largest model swept: the one nearest the claim's scale.
    judged = sweep.models[-1]
    at = measured[judged]
    interval = _interval_of(judged, jobs, speeds)
    assert interval is not None  # measured above
    claimed = setting.claimed_ratio() if setting.relative else None
    verdict, why = judge_interval(claimed, interval, tolerance, unit_of_more="rounds (one job per side each)")
    if interval.runs < min_rounds:
        # One round says nothing of the spread between tries: on a busy machine the same pair measured 1.26x
        # and 0.89x one after the other. Too few rounds within the budget decide nothing.
        verdict, why = "inconclusive", (f"{why.split(';')[0]}; only {interval.runs} of the {min_rounds} rounds a "
                                        f"verdict needs finished within the budget")
    extra = extrapolate(db, setting, sweep, [j for j in jobs if j.get("run_id")], speeds)
    subject, baseline = (setting.subject, setting.versus)
    restarted = [j["job_id"] for j in jobs if j["attempts"]]
    reason = (f"Scaled-down reproduction ({sweep.describe()}, {judged}, {interval.runs} interleaved round(s) of "
              f"{steps} steps per side, {WARMUP_STEPS} warm-up steps and outlier steps left out; the claim: "
              f"{_claimed(setting, sweep)}): {subject} over {baseline}: {why}.")
    if stopped:
        reason += f" Stopped: {stopped}."
    if len(measured) > 1:
        reason += " Other sizes: " + ", ".join(f"{m} {v['ratio']:.2f}x" for m, v in measured.items() if m != judged) + "."
    if restarted:
        reason += f" {len(restarted)} job(s) lost a worker and resumed from a checkpoint."
    reason += " " + extra["summary"]
    evidence = {
        "scaled_down": True, "workers": sweep.workers, "claim_workers": setting.workers, "steps": steps,
        "warmup_steps": WARMUP_STEPS, "models": sweep.models, "judged_model": judged, "tolerance": tolerance,
        "rounds": interval.runs, "stopped": stopped, "why": why,
        "interval": {"point": interval.point, "low": interval.low, "high": interval.high, "runs": interval.runs,
                     "values": interval.values, "level": interval.level, "run_sd": interval.run_sd},
        "sides": {s: {"name": name, "claimed_layout": short(c), "layout": short(lay)}
                  for s, name, c, lay in zip(SIDES, (subject, baseline), sweep.claimed, sweep.scaled, strict=True)},
        "jobs": jobs, "measured": measured, "measured_ratio": at["ratio"],
        "extrapolated_ratio": extra.get("ratio"), "extrapolation": extra, "skipped_models": sweep.skipped,
    }
    echo(f"  {verdict}: {reason}")
    return Check(setting.claim_id, KIND, verdict, reason, claimed=claimed, observed=at["ratio"], low=at["low"],
                 high=at["high"], unit="x", evidence=evidence)


def _claimed(setting: ClaimSetting, sweep: Sweep) -> str:
    subject, baseline = sweep.claimed
    ratio = setting.claimed_ratio() if setting.relative else None
    said = f"{ratio:.2f}x, " if ratio else ""
    return f"{said}{short(subject)} vs {short(baseline)} on {subject.world_size} workers"
