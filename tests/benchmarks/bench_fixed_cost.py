"""Benchmark: the fixed cost of a small run, from the command's start to its exit, on each runner.

Issue 27's bars, on a 2-core machine: 10 small papers and 3 small logs through `assay run` in under 3 s with
the local runner and under 12 s on embedded Ray. Each `assay run` is a subprocess timed from its start to its
exit (Python's start, the imports, the pipeline, the database, Ray's start and stop where it runs), each into
a fresh database, the runners alternating so a slow minute of a shared machine falls on both. The CPU
seconds of the command's processes are printed beside: on a busy machine they say what the wall time cannot.

    python tests/benchmarks/bench_fixed_cost.py [--repeats N]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "pipelines" / "samples"
PAPERS = ("cinder.txt", "fathom.txt", "halyard.txt", "heron_zh.txt", "kestrel.txt", "larch.md", "pylon.tex",
          "quill.txt", "sprocket.txt", "strata.txt")
LOGS = ("deepspeed_zero3.log", "megatron_gpt_tp2_pp2.log", "nanogpt_shakespeare_char.log")
BARS = {"local": 3.0, "ray": 12.0}


def inputs(root: Path) -> dict[str, Path]:
    out = {}
    for kind, names in (("papers", PAPERS), ("logs", LOGS)):
        folder = root / kind
        folder.mkdir(parents=True)
        for name in names:
            shutil.copy(SAMPLES / kind / name, folder)
        out[kind] = folder
    return out


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(kind: str, folder: Path, runner: str, db: Path) -> tuple[float, float]:
    """Seconds from the command's start to its exit, and the CPU seconds of its processes that were reaped
    (all of a local run; Ray's daemons that outlive the command are not counted)."""
    assay = Path(sys.executable).with_name("assay")
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS", "ASSAY_RUNNER")}
    cpu = cpu_of_children()
    started = time.perf_counter()
    done = subprocess.run([str(assay), "run", kind, "--input", str(folder), "--db", str(db), "--runner", runner,
                           "--no-progress"], capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"assay run {kind} --runner {runner} failed:\n{done.stdout}\n{done.stderr}")
    return seconds, cpu_of_children() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="assay-fixed-cost-") as tmp:
        folders = inputs(Path(tmp))
        times: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for i in range(args.repeats):
            for runner in ("local", "ray"):
                for kind, folder in folders.items():
                    db = Path(tmp) / f"{runner}-{kind}-{i}.duckdb"
                    times.setdefault((kind, runner), []).append(timed_run(kind, folder, runner, db))
    load = os.getloadavg()[0]
    print(f"assay run, command start to exit, best of {args.repeats} (load average {load:.1f}, "
          f"{os.cpu_count()} CPUs)")
    for kind, n in (("papers", len(PAPERS)), ("logs", len(LOGS))):
        best = {r: min(times[kind, r]) for r in ("local", "ray")}
        marks = ", ".join(f"{r} {best[r][0]:5.1f} s, {best[r][1]:4.1f} CPU-s "
                          f"({'within' if best[r][0] < BARS[r] else 'OVER'} the {BARS[r]:g} s bar)"
                          for r in ("local", "ray"))
        print(f"  {n:2d} small {kind:6s}: {marks}; ray / local = {best['ray'][0] / best['local'][0]:.1f}x")


if __name__ == "__main__":
    main()
