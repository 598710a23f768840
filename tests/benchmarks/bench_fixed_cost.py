"""Benchmark: the fixed cost of a small run, from the command's start to its exit, on each runner.

Issue 27's bars, on a 2-core machine: 10 small papers and 3 small logs through `assay run` in under 3 s with
the local runner and under 12 s on embedded Ray. Each `assay run` is a subprocess timed from its start to its
exit (Python's start, the imports, the pipeline, the database, Ray's start and stop where it runs), each into
a fresh database, the runners alternating so a slow minute of a shared machine falls on both. The CPU
seconds of the command's processes are printed beside: on a busy machine they say what the wall time cannot.

Each run starts on a machine its predecessor has left: this script makes itself the subreaper of its
children's children (Linux ``PR_SET_CHILD_SUBREAPER``), so a process a command leaves running (a Ray worker
still exiting after the command has) becomes its child, is seen in ``/proc``, waited for and reaped (its CPU
counted with the run's) before the next timing starts. Alternating without that wait, the Ray runs' workers
still took the CPUs when the next run started (local papers 3.7 s, Ray papers 13.7 s in one run, against 2.5
and 10.2 s run apart). What each runner left behind, and how long it lived on, is printed under the table.
Then, up to ``--settle`` seconds, it waits for the machine's cores to be idle (fewer than 0.3 busy, read from
``/proc/stat``: other users of a shared machine count too) and prints how busy they were as each run began.

    python tests/benchmarks/bench_fixed_cost.py [--repeats N] [--runners local,ray] [--settle SECONDS]

Where a small local papers run's seconds go (issue 27; CPU-seconds on this 2-core machine, at a load of 1-8):
the command's Python and CLI (typer, which imports pydantic) about 0.2; spaCy's import 0.9-1.0 (near half of
it ``spacy.cli``'s requests/weasel/httpx, which spaCy's ``__init__`` imports); the trained parser's first load
0.55-0.65 (spaCy fills its registry then, every language's tokenizer module included; its disabled
``senter`` is no longer read); pandas 0.35-0.5 (pyarrow imports it at the first ``pa.table`` built from
Python lists, so the sink's Arrow rows pull it in); the papers operators' modules about 0.3 (their regexes
compiled; the logs family is no longer imported for a papers run); DuckDB's file and schema and the
extraction itself the rest. The floor, Python + spaCy + the parser + pandas, is about 2.1 CPU-seconds of
the 3 s bar. The whole run took 3.35 CPU-s and 3.3 s of wall time at a load of 1 before the two cuts named
(about 0.4 CPU-s together, measured apart); at loads of 5-11 it takes 3.5-4 CPU-s and 6-13 s.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # for processes.py

from processes import descendants  # noqa: E402

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


def become_subreaper() -> bool:
    """Processes orphaned below this one become its children (Linux's ``prctl(PR_SET_CHILD_SUBREAPER)``), so
    what a command leaves running can be seen and waited for. False where the system has no such call."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # 36: PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def _reap() -> None:
    """Collect the exit of every child that has ended (as subreaper, orphans' exits are ours to collect)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def wait_left_behind(timeout_s: float = 60.0) -> tuple[list[str], float]:
    """Wait until nothing the last command started is still running; the titles of what outlived it, and
    how many seconds after its exit the last of them ended."""
    started, seen = time.perf_counter(), {}
    while time.perf_counter() - started < timeout_s:
        _reap()
        running = descendants(os.getpid())
        for pid, title in running:
            seen[pid] = title or seen.get(pid, "")
        if not running:
            break
        time.sleep(0.05)
    else:
        raise SystemExit(f"still running {timeout_s:g} s after the command exited: {descendants(os.getpid())}")
    return sorted(title or "?" for title in seen.values()), time.perf_counter() - started


def busy_cores(window_s: float = 0.5) -> float:
    """How many of the machine's cores were busy over the last ``window_s`` (from ``/proc/stat``; every
    process counts, other users' too); 0.0 where it cannot be read."""

    def sample() -> tuple[int, int]:
        with open("/proc/stat") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
        return sum(fields[:8]) - idle, sum(fields[:8])

    try:
        busy0, total0 = sample()
        time.sleep(window_s)
        busy1, total1 = sample()
    except (OSError, ValueError, IndexError):
        return 0.0
    return (os.cpu_count() or 1) * (busy1 - busy0) / max(1, total1 - total0)


def settle(max_wait_s: float, quiet_cores: float = 0.3) -> float:
    """Wait (at most ``max_wait_s``) until fewer than ``quiet_cores`` cores are busy; the busy cores last seen.
    What this script started has ended by then; the rest is the machine's other users."""
    deadline = time.perf_counter() + max_wait_s
    busy = busy_cores()
    while busy >= quiet_cores and time.perf_counter() < deadline:
        busy = busy_cores()
    return busy


def timed_run(kind: str, folder: Path, runner: str, db: Path,
              settle_s: float = 0.0) -> tuple[float, float, list[str], float, float]:
    """Seconds from the command's start to its exit; the CPU seconds of its processes, those that outlived it
    included when this script is their subreaper; what outlived it and how long after its exit it ended."""
    assay = Path(sys.executable).with_name("assay")
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS", "ASSAY_RUNNER")}
    wait_left_behind()
    busy = settle(settle_s)
    cpu = cpu_of_children()
    started = time.perf_counter()
    done = subprocess.run([str(assay), "run", kind, "--input", str(folder), "--db", str(db), "--runner", runner,
                           "--no-progress"], capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"assay run {kind} --runner {runner} failed:\n{done.stdout}\n{done.stderr}")
    left, lived = wait_left_behind()
    return seconds, cpu_of_children() - cpu, left, lived, busy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--runners", default="local,ray", help="comma-separated: local, ray")
    parser.add_argument("--settle", type=float, default=30.0,
                        help="seconds to wait at most, before each run, for the machine's CPUs to be idle")
    args = parser.parse_args()
    runners = [r for r in args.runners.split(",") if r]
    reaper = become_subreaper()
    with tempfile.TemporaryDirectory(prefix="assay-fixed-cost-") as tmp:
        folders = inputs(Path(tmp))
        times: dict[tuple[str, str], list[tuple[float, float, list[str], float, float]]] = {}
        for i in range(args.repeats):
            for runner in runners:
                for kind, folder in folders.items():
                    db = Path(tmp) / f"{runner}-{kind}-{i}.duckdb"
                    times.setdefault((kind, runner), []).append(timed_run(kind, folder, runner, db, args.settle))
    load = os.getloadavg()[0]
    print(f"assay run, command start to exit, best of {args.repeats} (load average {load:.1f}, "
          f"{os.cpu_count()} CPUs)")
    for kind, n in (("papers", len(PAPERS)), ("logs", len(LOGS))):
        best = {r: min(times[kind, r]) for r in runners}
        marks = ", ".join(f"{r} {best[r][0]:5.1f} s (all: {' '.join(f'{t[0]:.1f}' for t in times[kind, r])}), "
                          f"{best[r][1]:4.1f} CPU-s "
                          f"({'within' if best[r][0] < BARS[r] else 'OVER'} the {BARS[r]:g} s bar)"
                          for r in runners)
        ratio = f"; ray / local = {best['ray'][0] / best['local'][0]:.1f}x" if len(best) == 2 else ""
        print(f"  {n:2d} small {kind:6s}: {marks}{ratio}")
    for (kind, runner), runs in sorted(times.items()):
        print(f"  cores busy as each {runner} {kind} run started: {' '.join(f'{t[4]:.2f}' for t in runs)}")
    if not reaper:
        print("  (not a subreaper here: what a command left running was not waited for)")
        return
    for (kind, runner), runs in sorted(times.items()):
        left = [f"{len(t[2])} for {t[3]:.1f} s" for t in runs]
        titles = sorted({title.split()[0][:40] for t in runs for title in t[2]})
        print(f"  left running after {runner} {kind}: {', '.join(left)}" + (f" ({', '.join(titles)})" if titles else ""))


if __name__ == "__main__":
    main()
