"""Scheduler benchmark: the cost of one scheduling round, of a 1,000-job simulation, and the Philly-shaped
comparison of issue 5 (goodput against least-attained-service and fifo).

    python tests/benchmarks/bench_scheduler.py            # 8 seeds of 160 jobs at 64 GPUs
    python tests/benchmarks/bench_scheduler.py --quick    # 2 seeds, smaller 1,000-job run

Targets: one round with 1,000 queued jobs on 1,000 GPUs under 100 ms; a 1,000-job simulation under 30 s;
goodput's average JCT at least 32 % below tiresias and 48 % below fifo. Prints the figures and ratios,
exits 0.
"""

from __future__ import annotations

import argparse
import statistics
import time

from assay.scheduler.policies import ClusterView, GoodputModel, JobView, get_policy, split_batch
from assay.scheduler.simulator import simulate
from assay.scheduler.simulator._jobs import compact_counts
from assay.scheduler.workloads import get_profile, philly_workload

POLICIES = ("fifo", "tiresias", "goodput")


def round_jobs(n: int, per_node: int) -> list[JobView]:
    """``n`` queued jobs of a Philly-shaped mix, each having reported steps on 1 and 2 GPUs."""
    jobs = []
    for i, spec in enumerate(philly_workload(n, seed=0).jobs):
        profile, _ = get_profile(spec.model)
        lim = profile.limits
        model = GoodputModel(lim, gpus_per_node=per_node)
        for k in (1, 2):
            atomic, _ = split_batch(lim.default_batch(k), k, lim)
            step, sync = profile.step_time(compact_counts(k, per_node), atomic)
            model.observe_step(1, k, atomic, step, sync)
        model.observe_noise(*profile.grad_stats(lim.init_batch, 0))
        jobs.append(JobView(spec.job_id, spec.submit_time, spec.num_gpus, requested_batch=spec.batch_size,
                            limits=lim, model=model, attained_service=float(i)))
    return jobs


def bench_round(repeats: int) -> dict[str, tuple[float, float]]:
    """(first round, following round) milliseconds, best of ``repeats``: 1,000 jobs, 125 nodes x 8 GPUs."""
    cluster = ClusterView.uniform(125, 8)
    out = {}
    for name in POLICIES:
        cold, warm = [], []
        for _ in range(repeats):
            jobs = round_jobs(1000, 8)
            policy = get_policy(name)
            t0 = time.perf_counter()
            policy.decide(jobs, cluster, 0.0)
            t1 = time.perf_counter()
            policy.decide(jobs, cluster, 60.0)
            t2 = time.perf_counter()
            cold.append(t1 - t0)
            warm.append(t2 - t1)
        out[name] = (min(cold) * 1e3, min(warm) * 1e3)
    return out


def bench_big_simulation(n_jobs: int) -> dict[str, tuple[float, float]]:
    """(wall seconds, avg JCT) of an ``n_jobs`` Philly-shaped simulation, load per GPU as at 64 GPUs."""
    gpus = 256
    w = philly_workload(n_jobs, seed=1, jobs_per_hour=20.0 * gpus / 64)
    out = {}
    for name in ("tiresias", "goodput"):
        r = simulate(w, name, gpus=gpus, record_allocations=False)
        out[name] = (r.wall_s, r.summary["avg_jct"])
    return out


def philly_table(seeds: list[int]) -> dict[str, dict[str, float]]:
    rows: dict[str, list[dict]] = {p: [] for p in POLICIES}
    for seed in seeds:
        w = philly_workload(160, seed=seed)
        line = [f"seed {seed}:"]
        for name in POLICIES:
            r = simulate(w, name, gpus=64, record_allocations=False)
            rows[name].append({**r.summary, "wall_s": r.wall_s})
            line.append(f"{name} {r.summary['avg_jct']:.0f}s")
        print("  " + "  ".join(line), flush=True)
    return {name: {k: statistics.fmean(r[k] for r in rs) for k in ("avg_jct", "p50_jct", "p99_jct", "makespan",
                                                                    "utilization", "fairness", "wall_s")}
            for name, rs in rows.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 seeds and a smaller large run (about a minute)")
    args = parser.parse_args(argv)

    print("== one scheduling round: 1,000 queued jobs, 1,000 GPUs (125 nodes x 8), best of 3")
    rounds = bench_round(2 if args.quick else 3)
    for name, (cold, warm) in rounds.items():
        print(f"  {name:<9} first round {cold:7.1f} ms   next round {warm:7.1f} ms")
    print(f"  goodput / tiresias (first round): {rounds['goodput'][0] / rounds['tiresias'][0]:.1f}x; "
          f"target < 100 ms: {'met' if rounds['goodput'][0] < 100 else 'MISSED'}")

    n = 500 if args.quick else 1000
    print(f"== a {n}-job simulation (Philly-shaped, 256 GPUs)")
    big = bench_big_simulation(n)
    for name, (wall, avg) in big.items():
        print(f"  {name:<9} wall {wall:6.1f} s   avg JCT {avg:8.0f} s")
    print(f"  goodput / tiresias wall: {big['goodput'][0] / big['tiresias'][0]:.1f}x; target < 30 s: "
          f"{'met' if big['goodput'][0] < 30 else 'MISSED'}")

    seeds = [0, 1] if args.quick else list(range(8))
    print(f"== Philly-shaped, 160 jobs, 64 GPUs (16 x 4), seeds {seeds[0]}..{seeds[-1]}: means")
    table = philly_table(seeds)
    print(f"  {'policy':<9} {'avg JCT':>9} {'p50 JCT':>9} {'p99 JCT':>9} {'makespan':>9} {'util':>5} {'FTF':>5} "
          f"{'wall':>6}")
    for name, s in table.items():
        print(f"  {name:<9} {s['avg_jct']:9.0f} {s['p50_jct']:9.0f} {s['p99_jct']:9.0f} {s['makespan']:9.0f} "
              f"{s['utilization']:5.2f} {s['fairness']:5.2f} {s['wall_s']:5.1f}s")
    g, t, f = (table[p]["avg_jct"] for p in ("goodput", "tiresias", "fifo"))
    print(f"  goodput avg JCT vs tiresias: {1 - g / t:+.1%} lower (target >= 32 %), "
          f"vs fifo: {1 - g / f:+.1%} lower (target >= 48 %)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
