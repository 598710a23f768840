"""Pollux side by side (issue 7): the eight AdaptDL workloads of Pollux's evaluation replayed under assay's
tiresias, goodput and fifo on the measured AdaptDL profiles (16 nodes x 4 GPUs, 60 s rounds, 30 s per
allocation change), next to the published Pollux, Tiresias+TunedJobs and Optimus+Oracle+TunedJobs figures.

    python tests/benchmarks/bench_pollux.py           # all eight workloads
    python tests/benchmarks/bench_pollux.py --quick   # workloads 1 and 6
    python tests/benchmarks/bench_pollux.py --db assay.duckdb   # also record runs and references

Targets: tiresias within 10 % of the published Tiresias average JCT; goodput at or below Pollux's on
workloads 1 and 6 and on the mean of the eight; a replay in at most 35 s. Prints the table, exits 0.
"""

from __future__ import annotations

import argparse
import statistics

from assay.scheduler.simulator import simulate
from assay.scheduler.simulator._store import published, write_published, write_result
from assay.scheduler.workloads import adaptdl_workload

POLICIES = ("tiresias", "goodput", "fifo")
REFERENCES = ("pollux", "tiresias", "optimus")


def fmt(v: float | None, width: int = 7) -> str:
    return f"{'-':>{width}}" if v is None else f"{v:{width}.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="workloads 1 and 6 only")
    parser.add_argument("--db", help="record the runs and the published reference rows in this database")
    args = parser.parse_args(argv)
    numbers = [1, 6] if args.quick else list(range(1, 9))
    ref = published()["policies"]

    print("AdaptDL workloads, 160 jobs each, 64 GPUs; JCT and makespan in seconds, wall = simulation time")
    print(f"{'workload':<11} {'policy':<19} {'avg JCT':>8} {'p99 JCT':>8} {'makespan':>9} {'wall':>7}")
    avg: dict[str, list[float]] = {p: [] for p in POLICIES + tuple(f"published:{r}" for r in REFERENCES)}
    walls: dict[str, list[float]] = {p: [] for p in POLICIES}
    for n in numbers:
        w = adaptdl_workload(n)
        key = f"workload-{n}"
        for policy in POLICIES:
            r = simulate(w, policy)
            s = r.summary
            avg[policy].append(s["avg_jct"])
            walls[policy].append(r.wall_s)
            print(f"{key:<11} {policy:<19} {fmt(s['avg_jct'], 8)} {fmt(s['p99_jct'], 8)} {fmt(s['makespan'], 9)} "
                  f"{r.wall_s:6.1f}s", flush=True)
            if args.db:
                write_result(r, args.db)
        for name in REFERENCES:
            fig = ref[name]
            avg[f"published:{name}"].append(fig["avg_jct"][key])
            wall = fig.get("wall_s", {}).get(key)
            print(f"{key:<11} {'published:' + name:<19} {fmt(fig['avg_jct'][key], 8)} "
                  f"{fmt(fig.get('p99_jct', {}).get(key), 8)} {fmt(fig.get('makespan', {}).get(key), 9)} "
                  f"{(f'{wall:6.0f}s' if wall else '      -')}")
    if args.db:
        write_published(args.db, [f"adaptdl/workload-{n}" for n in numbers])

    print(f"\nmean avg JCT over workloads {numbers}:")
    means = {p: statistics.fmean(v) for p, v in avg.items()}
    for p, m in means.items():
        print(f"  {p:<19} {m:8.0f}")
    print(f"  tiresias vs published Tiresias: {means['tiresias'] / means['published:tiresias'] - 1:+.1%} "
          f"(target within 10 %)")
    print(f"  goodput vs published Pollux:    {means['goodput'] / means['published:pollux'] - 1:+.1%} "
          f"(target <= 0)")
    for n, g, p in zip(numbers, avg["goodput"], avg["published:pollux"], strict=True):
        print(f"    workload-{n}: goodput {g:.0f} s vs Pollux {p:.0f} s ({g / p - 1:+.1%})")
    print(f"  replay wall time: goodput max {max(walls['goodput']):.1f} s, tiresias max "
          f"{max(walls['tiresias']):.1f} s (target <= 35 s; Pollux's own simulator: 17-19 min)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
