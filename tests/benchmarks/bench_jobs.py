"""Parallel-training jobs on this machine: throughput of each layout against one worker, resize latency
(checkpoint to the first step at the new size) and recovery time after a killed worker (kill to the first
step after the restart), each against a cold start of the same job. Goal: resize and recovery under 20 s.

    python tests/benchmarks/bench_jobs.py [--quick]

Runs on an embedded Ray with as many logical CPUs as the largest layout has workers (the workers share the
machine's cores: on a 2-core machine, more workers is more communication, not more compute).
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

MODEL = ["model.layers=4", "model.hidden=64", "model.heads=4", "model.seq_len=32", "model.vocab=256",
         "global_batch=16", "micro_batch=2", "checkpoint_every=10"]


def _supervise(spec, db, jobs_dir):
    from assay.jobs._gang import WorkerShape
    from assay.jobs._supervisor import JobSupervisor
    from assay.jobs.runner import new_job

    return JobSupervisor(db, new_job(spec, "starting"), jobs_dir, shape=WorkerShape(cpus=1.0)).start()


def _wait(predicate, timeout_s: float = 300.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("benchmark step timed out")
        time.sleep(0.01)


def throughput(layouts, steps: int, root: Path) -> dict[str, dict[str, float]]:
    from assay.jobs import load_spec

    out = {}
    for name, overrides in layouts:
        spec = load_spec("tiny", [*MODEL, *overrides, f"steps={steps}", "max_workers=8", f"name=bench-{name}"])
        db = root / f"tp-{name}.duckdb"
        started = time.monotonic()
        sup = _supervise(spec, db, root / "jobs")
        sup.join()
        wall = time.monotonic() - started
        if sup.outcome != "completed":
            raise RuntimeError(f"{name}: {sup.outcome}: {sup.job.error}")
        from assay.store import queries_jobs as q

        tps = q.job_metrics(db, sup.job_id, ["tokens_per_s"]).sort_values("step").value.tolist()[2:]
        out[name] = {"tokens_per_s": statistics.median(tps), "workers": spec.parallel.world_size,
                     "wall_s": wall, "first_step_s": _first_step(sup)}
    return out


def _first_step(sup) -> float:
    times = {what: t for what, t, _ in reversed(sup.timeline)}
    return times["first_step"] - times["start"]


def resize_latency(steps: int, root: Path) -> tuple[float, float]:
    """(seconds from the resize request to the first step on 4 workers, cold start to first step)."""
    from assay.jobs import load_spec

    spec = load_spec("tiny", [*MODEL, "dp=2", f"steps={steps}", "max_workers=4", "name=bench-resize"])
    sup = _supervise(spec, root / "resize.duckdb", root / "jobs")
    _wait(lambda: sup.step >= 5)
    sup.resize(4, "benchmark")
    sup.join()
    if sup.outcome != "completed":
        raise RuntimeError(f"resize run: {sup.outcome}: {sup.job.error}")
    asked = next(t for what, t, _ in sup.timeline if what == "resize_requested")
    first = next(t for what, t, _ in sup.timeline if what == "first_step" and t > asked)
    return first - asked, _cold(sup)


def _cold(sup) -> float:
    start = next(t for what, t, _ in sup.timeline if what == "start")
    first = next(t for what, t, _ in sup.timeline if what == "first_step")
    return first - start


def recovery_time(steps: int, root: Path) -> tuple[float, float, int]:
    """(seconds from SIGKILL of a worker to the first step after the restart, cold start, steps lost)."""
    from assay.jobs import load_spec

    spec = load_spec("tiny", [*MODEL, "dp=2", f"steps={steps}", "max_workers=4", "name=bench-recover"])
    sup = _supervise(spec, root / "recover.duckdb", root / "jobs")
    _wait(lambda: sup.step >= 13 and sup.gang is not None)
    at_kill = sup.step
    killed = time.time()
    os.kill(sup.gang.pids[1], signal.SIGKILL)
    sup.join()
    if sup.outcome != "completed":
        raise RuntimeError(f"recovery run: {sup.outcome}: {sup.job.error}")
    first = next(t for what, t, _ in sup.timeline if what == "first_step" and t > killed)
    from assay.store import queries_jobs as q

    events = q.job_events(root / "recover.duckdb", sup.job_id)
    failed_at = int(events[events.kind == "failure"].step.iloc[0])
    resumed_at = int(events[events.kind == "restart"].step.iloc[0])
    return first - killed, _cold(sup), max(failed_at, at_kill) - resumed_at


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer layouts and steps (under a minute)")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import logging

    import ray

    logging.getLogger("assay").setLevel(logging.ERROR)
    layouts = [("single", ["dp=1"]), ("dp2", ["dp=2"]), ("tp2", ["tp=2"]), ("pp2", ["pp=2"])]
    if not args.quick:
        layouts += [("dp2-tp2", ["dp=2", "tp=2"]), ("dp2-tp2-pp2", ["dp=2", "tp=2", "pp=2"])]
    steps = 20 if args.quick else 40
    cpus = max(os.cpu_count() or 1, 8)
    ray.init(address="local", num_cpus=cpus, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            os.environ["ASSAY_JOBS_DIR"] = str(root / "jobs")
            print(f"# jobs benchmark on {os.cpu_count()} cores ({'quick' if args.quick else 'full'}); model: "
                  "4 layers, hidden 64, seq 32, batch 16")
            results = throughput(layouts, steps, root)
            base = results["single"]["tokens_per_s"]
            print(f"{'layout':<14}{'workers':>8}{'tokens/s':>12}{'vs single':>11}{'first step s':>14}")
            for name, r in results.items():
                print(f"{name:<14}{r['workers']:>8}{r['tokens_per_s']:>12,.0f}{r['tokens_per_s'] / base:>10.2f}x"
                      f"{r['first_step_s']:>14.1f}")
            resize_s, cold_s = resize_latency(steps + 20, root)
            print(f"resize 2 -> 4 workers: {resize_s:.1f} s from request to first step "
                  f"(cold start {cold_s:.1f} s; ratio {resize_s / cold_s:.2f}) "
                  f"[goal < 20 s: {'met' if resize_s < 20 else 'MISSED'}]")
            recover_s, cold_s, lost = recovery_time(steps + 20, root)
            print(f"recovery after a killed worker: {recover_s:.1f} s from kill to first step, {lost} steps re-run "
                  f"(cold start {cold_s:.1f} s; ratio {recover_s / cold_s:.2f}) "
                  f"[goal < 20 s: {'met' if recover_s < 20 else 'MISSED'}]")
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
