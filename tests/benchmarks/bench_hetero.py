"""Sia side by side (issue 31): the heterogeneous-cluster workloads of Sia's evaluation (10 Saturn/Helios and
8 Philly workloads on the 64-GPU cluster aws:6x4,rtx:3x8,dgx-ext:2x8, and the 30-job physical-cluster trace
on rtx:3x8,dgx-ext:2x8,quad:1x4) replayed under assay's goodput and gavel policies with the artifact's
per-type profiles and calibration (60 s rounds, per-application restart seconds and slowdowns).

    python tests/benchmarks/bench_hetero.py                      # all 19 workloads x 2 policies
    python tests/benchmarks/bench_hetero.py --quick              # phoebe and saturn workload 1
    python tests/benchmarks/bench_hetero.py --sia ../shared/peer/sia --part dev

The artifact's data is read from ``--sia`` (not part of the repository). Workloads fall in the ``dev`` or
``test`` part of the shared split (tests/shared_split.py, by ``<trace>/workload-N.csv``): tune on dev only.
Targets: gavel within 15 % of the artifact's Gavel on saturn 1 and phoebe; goodput at or below Sia there,
beside the artifact's Sia on every workload of both traces (its own simulator run on this machine) and the
published Sia means of each trace; all replays in under 10 minutes. Exits 0.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from assay.scheduler.simulator import simulate
from assay.scheduler.workloads import load_workload

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from shared_split import part  # noqa: E402

POLICIES = ("goodput", "gavel")
#: The artifact's policy each of ours is measured beside.
PEER = {"goodput": "Sia", "gavel": "Gavel"}
HETERO_64 = "sia-64"
PHOEBE = "phoebe-44"
#: What the artifact's own simulator measured on this kind of machine (avg JCT, s): Sia for goodput, Gavel for
#: gavel, with the settings of its run_experiment.sh (Sia: p -0.5, lambda_n 1.1, lambda_a 0.01, 60 s rounds,
#: projected throughputs, shared max replicas; Gavel: 360 s rounds), and the paper's trace means (Table 3, hours).
MEASURED = {("saturn/workload-1", "goodput"): 2091.0, ("saturn/workload-1", "gavel"): 6474.0,
            ("phoebe", "goodput"): 2468.0, ("phoebe", "gavel"): 4778.0}
#: Sia on each workload of the two traces (the same runs; saturn 1 as above).
_SIA_RUNS = {
    "saturn/workload-2": 2570, "saturn/workload-3": 2621, "saturn/workload-4": 3121,
    "saturn/workload-5": 2392, "saturn/workload-6": 2369, "saturn/workload-7": 2115,
    "saturn/workload-8": 2847, "saturn/workload-9": 3679, "saturn/workload-10": 2867,
    "philly/workload-1": 1950, "philly/workload-2": 2621, "philly/workload-3": 2049,
    "philly/workload-4": 2480, "philly/workload-5": 2356, "philly/workload-6": 2100,
    "philly/workload-7": 3033, "philly/workload-8": 2300,
}
MEASURED.update({(name, "goodput"): float(jct) for name, jct in _SIA_RUNS.items()})
PUBLISHED_MEAN_S = {"saturn": {"goodput": 0.7 * 3600, "gavel": 2.5 * 3600},
                    "philly": {"goodput": 0.6 * 3600, "gavel": 1.9 * 3600}}


def workloads(root: Path, quick: bool) -> list[tuple[str, Path, str]]:
    """(name, csv, cluster) of every workload in the artifact's folder."""
    out = [("phoebe", root / "workloads" / "phoebe.csv", PHOEBE)]
    for trace in ("saturn", "philly"):
        for path in sorted((root / "workloads" / trace).glob("workload-*.csv"),
                           key=lambda p: int(p.stem.split("-")[1])):
            out.append((f"{trace}/{path.stem}", path, HETERO_64))
    if quick:
        out = [w for w in out if w[0] in ("phoebe", "saturn/workload-1")]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sia", default=str(Path(__file__).resolve().parents[3] / "shared" / "peer" / "sia"),
                        help="the folder of Sia's artifact data (workloads/, traces/)")
    parser.add_argument("--quick", action="store_true", help="phoebe and saturn workload 1 only")
    parser.add_argument("--part", choices=("dev", "test", "all"), default="all")
    args = parser.parse_args(argv)
    root = Path(args.sia)
    if not (root / "traces").is_dir():
        print(f"no Sia artifact data at {root}: skipped")
        return 0
    started = time.perf_counter()
    rows = []
    print("JCT and makespan in seconds; wall = simulation time; ref = the artifact's simulator where measured")
    print(f"{'workload':<19} {'part':<5} {'policy':<8} {'avg JCT':>8} {'p99 JCT':>8} {'makespan':>9} {'unfin':>5} "
          f"{'wall':>6} {'ref':>6}")
    for name, path, cluster in workloads(root, args.quick):
        where = part(f"{name}.csv")
        if args.part != "all" and where != args.part:
            continue
        w = load_workload(path, profiles_dir=root / "traces", name=name)
        for policy in POLICIES:
            r = simulate(w, policy, cluster=cluster, calibration="sia", record_allocations=False)
            s = r.summary
            ref = MEASURED.get((name, policy))
            rows.append((name, where, policy, s["avg_jct"], r.wall_s))
            print(f"{name:<19} {where:<5} {policy:<8} {s['avg_jct']:8.0f} {s['p99_jct']:8.0f} {s['makespan']:9.0f} "
                  f"{s['unfinished']:5d} {r.wall_s:5.1f}s {(f'{ref:6.0f}' if ref else '     -')}", flush=True)
    total = time.perf_counter() - started
    print()
    for (name, policy), ref in MEASURED.items():
        got = next((avg for n, _, p, avg, _ in rows if n == name and p == policy), None)
        if got is not None:
            print(f"{name:<19} {policy:<8} {got:8.0f} s vs the artifact's {PEER[policy]:<5} {ref:6.0f} s "
                  f"({got / ref - 1:+.1%})")
    for trace in PUBLISHED_MEAN_S:
        # the mean over the workloads the artifact's Sia was run on: the same jobs, profiles and calibration
        pairs = [(avg, MEASURED[(n, p)]) for n, _, p, avg, _ in rows
                 if n.startswith(trace + "/") and p == "goodput" and (n, p) in MEASURED]
        if pairs:
            ours, sia = statistics.fmean(a for a, _ in pairs), statistics.fmean(r for _, r in pairs)
            wins = sum(a <= r for a, r in pairs)
            print(f"{trace} goodput {ours:7.0f} s vs the artifact's Sia {sia:7.0f} s ({ours / sia - 1:+.1%}) over the "
                  f"{len(pairs)} workloads it was run on; at or below it on {wins}")
    for trace, refs in PUBLISHED_MEAN_S.items():
        for where in ("dev", "test", "all"):
            for policy in POLICIES:
                vals = [avg for n, pt, p, avg, _ in rows
                        if n.startswith(trace + "/") and p == policy and where in ("all", pt)]
                if vals:
                    m = statistics.fmean(vals)
                    print(f"{trace} {where:<4} mean {policy:<8} {m:7.0f} s over {len(vals):2d} workloads vs "
                          f"published {refs[policy]:6.0f} s ({m / refs[policy] - 1:+.1%})")
    print(f"wall time: {total:.0f} s for {len(rows)} replays (target < 600 s for 18 workloads x 2 policies)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
