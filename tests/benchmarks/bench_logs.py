"""Benchmark of the logs pipeline on a large Megatron-LM log.

    python tests/benchmarks/bench_logs.py [--quick] [--size-mb N] [--chunk-mb N] [--address ADDR]

Generates a Megatron-format log (1 GB by default, 50 MB with --quick) in a temporary directory and measures,
in the same run:

* what a user would write instead: a script that splits each Megatron iteration line and timer line on
  ``|`` and ``key: value``, collects (step, name, value) and inserts them into DuckDB through one Arrow
  table (one process);
* a minimal loop that reads the file line by line and extracts only the loss with one regular expression;
* the operators alone, in this process: the split pass, then each chunk parsed (everything: all metrics,
  events, settings) and its rows dropped, as in a worker whose rows stream to the store;
* the store writer alone: the metric rows of the file's first 64 MB written to DuckDB as the pipeline's
  writer writes them, as MB of log per second (a bound on any pipeline that stores every metric row);
* the whole ``logs`` pipeline through ``assay.runtime.run_pipeline`` (Ray workers, the DuckDB writer), run as
  ``assay run logs`` runs it: in a new process, starting Ray itself (or joining ``--address``) and planning
  the file meanwhile.
  Its MB/s is given with Ray's start-up included, against the hand-written script (the issue's goal:
  >= 1.5x), and after the start-up;

and the peak memory of all processes of each (this one and its children: Ray's raylet, GCS and workers;
proportional set size, so shared pages count once), sampled by peak_memory.py (its own cost kept small),
with Ray's idle footprint, measured after the run, shown apart. Prints the figures and the ratios, exits 0.

``--mixed N`` instead generates a directory of N small logs of mixed formats and shapes (and a few that are
not training logs) and runs ``assay run logs`` on it as a user would, printing its per-file table.

``log_parse`` takes one chunk record per call, so the runtime streams the chunks one per block to a pool of
parse actors that starts at full size: the chunks of one large file are parsed on every CPU at once.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from peak_memory import PeakMemory, tree_memory_mb

# These measure the Ray runner (issue 27: their ratios on Ray); bench_fixed_cost.py compares the runners.
os.environ.setdefault("ASSAY_RUNNER", "ray")

ARGS_BLOCK = """using world size: 64, data-parallel size: 4, context-parallel size: 1, tensor-model-parallel size: 4, \
pipeline-model-parallel size: 4
------------------------ arguments ------------------------
  global_batch_size ............................... 1024
  micro_batch_size ................................ 2
  num_layers ...................................... 48
  hidden_size ..................................... 6144
  pipeline_model_parallel_size .................... 4
  tensor_model_parallel_size ...................... 4
  train_iters ..................................... 10000000
  world_size ...................................... 64
-------------------- end of arguments ---------------------
building GPT model ...
 > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 1412235264
training ...
"""


def generate(path: Path, size_mb: float) -> tuple[int, int]:
    """A Megatron-LM log of about ``size_mb``: iteration lines, timer blocks, validation and checkpoints."""
    rng = random.Random(42)
    target = int(size_mb * 1e6)
    written = 0
    lines = 0
    loss = 10.9
    with open(path, "w") as out:
        out.write(ARGS_BLOCK)
        buf: list[str] = []
        it = 0
        while written < target:
            it += 1
            loss = max(1.6, loss * 0.99995 + (rng.random() - 0.5) * 0.004)
            t = 1_700_000_000 + it * 2
            stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t))
            buf.append(
                f" [{stamp}] iteration {it:8d}/{10_000_000:8d} | consumed samples: {it * 1024:12d} | "
                f"elapsed time per iteration (ms): {1950 + rng.random() * 60:.1f} | throughput per GPU (TFLOP/s/GPU): "
                f"{171 + rng.random() * 4:.1f} | learning rate: {1.5e-4 * min(1.0, it / 2000):.6E} | global batch "
                f"size: {1024:5d} | lm loss: {loss:.6E} | loss scale: 1.0 | grad norm: {0.2 + rng.random():.3f} | "
                f"number of skipped iterations:   0 | number of nan iterations:   0 |\n"
            )
            if it % 100 == 0:
                buf.append(
                    "(min, max) time across ranks (ms):\n"
                    "    forward-backward ...............................: (1890.12, 1893.57)\n"
                    "    optimizer ......................................: (31.02, 31.77)\n"
                )
            if it % 2000 == 0:
                buf.append(
                    "-" * 90 + f"\n validation loss at iteration {it} | lm loss value: {loss + 0.03:.6E} | "
                    f"lm loss PPL: 1.2E+01 | \n" + "-" * 90 + "\n"
                    f"saving checkpoint at iteration {it:7d} to /lustre/ckpt in torch_dist format\n"
                    f"  successfully saved checkpoint from iteration {it:7d} to /lustre/ckpt [ t 1/4, p 1/4 ]\n"
                )
            if len(buf) >= 2000:
                text = "".join(buf)
                out.write(text)
                written += len(text)
                lines += text.count("\n")
                buf = []
        text = "".join(buf)
        out.write(text)
        lines += text.count("\n") + ARGS_BLOCK.count("\n")
    return path.stat().st_size, lines


# -- the measurements --------------------------------------------------------------------------------


def baseline(path: Path) -> tuple[float, int]:
    """The obvious alternative: one regular expression, the loss only."""
    loss = re.compile(rb"lm loss: ([-+0-9.eEnaif]+)")
    values = []
    start = time.perf_counter()
    with open(path, "rb") as f:
        for line in f:
            m = loss.search(line)
            if m:
                values.append(float(m.group(1)))
    return time.perf_counter() - start, len(values)


def hand_written(path: Path, db: Path) -> tuple[float, int, int]:
    """What a user writes instead: split Megatron's iteration and timer lines on ``|`` and ``key: value``,
    collect (step, name, value), insert them into DuckDB through one Arrow table. Returns (seconds, rows,
    losses)."""
    import duckdb
    import pyarrow as pa

    head = re.compile(r"iteration\s+(\d+)\s*/")
    steps: list[int] = []
    names: list[str] = []
    values: list[float] = []
    step = 0
    start = time.perf_counter()
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if "|" in line and "iteration" in line:
                parts = line.split("|")
                m = head.search(parts[0])
                if m is None:
                    continue
                step = int(m.group(1))
                for part in parts[1:]:
                    key, sep, value = part.partition(":")
                    if not sep:
                        continue
                    try:
                        number = float(value)
                    except ValueError:
                        continue
                    steps.append(step)
                    names.append(sys.intern(key.strip()))  # one string per key, not one per value
                    values.append(number)
            elif line.startswith("    ") and "...:" in line:  # timer: "    optimizer ....: (31.02, 31.77)"
                key, _, value = line.partition(":")
                try:
                    number = float(value.strip().strip("()").split(",")[-1])
                except ValueError:
                    continue
                steps.append(step)
                names.append(sys.intern(key.strip(" .")))
                values.append(number)
    table = pa.table(
        {"step": pa.array(steps, pa.int64()), "name": names, "value": pa.array(values, pa.float64())}
    )
    with duckdb.connect(str(db)) as con:
        con.register("rows", table)
        con.execute("CREATE TABLE metrics AS SELECT * FROM rows")
    losses = names.count("lm loss")
    return time.perf_counter() - start, table.num_rows, losses


def in_child(function, *args):
    """``function(*args)`` in a forked child process: the gigabytes a Python script's lists take are not
    left in this process's heap to inflate the memory measured after it."""
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(1) as pool:
        return pool.apply(function, args)


def parse_alone(path: Path, chunk_mb: float) -> tuple[float, int, int]:
    """The operators in this process, one chunk after the other as a worker sees them: the split pass
    (hash, line count, chunk boundaries), then each chunk parsed and its rows dropped (they would stream to
    the store)."""
    import pyarrow.compute as pc

    from assay.operators.logs._read import scan
    from assay.operators.logs._spans import parse_span
    from assay.operators.logs.megatron import MegatronParser

    # warm up once (imports, RE2 compilation) on a small slice, as a long-lived worker would be
    parse_span(
        str(path), 0, min(path.stat().st_size, 1 << 20) // 2, 1, MegatronParser, "warm", lookback=False
    )
    start = time.perf_counter()
    rows = losses = 0
    for span in scan(str(path), int(chunk_mb * (1 << 20))).spans:
        result = parse_span(str(path), span.start, span.end, span.first_line, MegatronParser, "bench")
        rows += result.metrics.num_rows
        losses += pc.sum(pc.equal(result.metrics.column("name"), "loss")).as_py() or 0
    return time.perf_counter() - start, rows, losses


def writer_alone(path: Path, work: Path, sample_mb: float = 64) -> tuple[float, float]:
    """The store's cost on its own: the metric rows of the file's first ``sample_mb`` parsed, then written
    the way the pipeline's writer writes them (one transaction on a short connection). Returns (rows/s,
    seconds per MB of this log)."""
    from assay.operators.logs._operators import _compact
    from assay.operators.logs._read import scan
    from assay.operators.logs._spans import parse_span
    from assay.operators.logs.megatron import MegatronParser
    from assay.store import connect, transaction

    span = scan(str(path), int(sample_mb * (1 << 20))).spans[0]
    rows = _compact(parse_span(str(path), span.start, span.end, 1, MegatronParser, "writer").metrics)
    db = work / "writer.duckdb"
    with connect(db):
        pass  # the schema, created before the clock starts
    start = time.perf_counter()
    with transaction(db) as tx:
        tx.insert("metrics", rows)
    seconds = time.perf_counter() - start
    return rows.num_rows / seconds, seconds / (span.end / 1e6)


@dataclass(frozen=True)
class UserRun:
    seconds: float  # the pipeline after Ray's start-up
    startup_s: float  # Ray's start-up (or connection), with the planning done meanwhile
    wall_s: float  # the whole call: Ray's start-up (or connection), the run, Ray's shutdown
    peak_mb: float
    idle_mb: float  # Ray's own footprint, idle, measured after the run
    samples: int


def run_as_user(path: Path, db: Path, chunk_mb: float, address: str) -> UserRun:
    """The pipeline as ``assay run logs`` runs it, in a new process as a user's command is (not in this one,
    whose heap, imports and page cache the measurements before it have grown): ``run_pipeline`` starts (or
    joins) Ray itself, so what it does while Ray starts (planning the file) counts as it does for a user."""
    import json
    import subprocess

    done = subprocess.run(
        [sys.executable, __file__, "--run-file", str(path), "--db", str(db), "--chunk-mb", str(chunk_mb),
         "--address", address],
        capture_output=True, text=True, check=False,
    )
    if done.returncode:
        raise RuntimeError(f"the pipeline's process failed ({done.returncode}): {done.stderr[-2000:]}")
    return UserRun(**json.loads(done.stdout.strip().splitlines()[-1]))


def _run_file(path: Path, db: Path, chunk_mb: float, address: str) -> UserRun:
    """In the new process: the run, its memory (this process and its descendants), then Ray's idle
    footprint measured on its own."""
    from assay.pipelines.logs import build
    from assay.ray_session import ensure_ray, quiet_ray
    from assay.runtime import run_pipeline

    quiet_ray()
    start = time.perf_counter()
    with PeakMemory() as mem:
        summary = run_pipeline(
            build(chunk_mb=chunk_mb), [str(path)], db=str(db), progress=False,
            address=None if address == "local" else address,
        )
    wall_s = time.perf_counter() - start
    import ray

    ensure_ray(None if address == "local" else address)
    time.sleep(2.0)
    idle_mb = tree_memory_mb(os.getpid())
    ray.shutdown()
    return UserRun(summary.seconds, summary.startup_s, wall_s, mem.peak, idle_mb, mem.samples)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="50 MB instead of 1 GB")
    ap.add_argument("--size-mb", type=float, default=None, help="size of the generated log")
    ap.add_argument(
        "--chunk-mb", type=float, default=None, help="chunk size of the splitter (default: the pipeline's)"
    )
    ap.add_argument("--address", default="local", help="Ray address (default: a new local instance)")
    ap.add_argument("--skip-pipeline", action="store_true", help="only the single-process measurements")
    ap.add_argument("--pipeline-only", action="store_true", help="only the pipeline (memory at large sizes)")
    ap.add_argument(
        "--mixed", type=int, default=0, help="instead: N small logs of mixed formats, one assay run"
    )
    ap.add_argument("--run-file", type=Path, help=argparse.SUPPRESS)  # the pipeline's own process
    ap.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.run_file:
        import json
        from dataclasses import asdict

        print(json.dumps(asdict(_run_file(args.run_file, args.db, args.chunk_mb, args.address))))
        return 0
    if args.mixed:
        return mixed_directory(args.mixed)
    size_mb = args.size_mb or (50 if args.quick else 1024)
    from assay.operators.logs._operators import CHUNK_MB

    chunk_mb = args.chunk_mb or (8 if args.quick else CHUNK_MB)
    os.environ.setdefault("RAY_DEDUP_LOGS", "1")

    work = Path(tempfile.mkdtemp(prefix="assay-bench-logs-"))
    try:
        path = work / "megatron.log"
        t = time.perf_counter()
        n_bytes, n_lines = generate(path, size_mb)
        mb = n_bytes / 1e6
        print(
            f"generated {mb:.0f} MB, {n_lines:,} lines of Megatron-LM log in {time.perf_counter() - t:.1f}s"
        )

        if args.pipeline_only:
            return _pipeline_only(args, path, work, mb, n_lines, chunk_mb)
        with PeakMemory() as mem:
            base_s, base_losses = baseline(path)
        print(
            f"baseline (one regex, loss only):     {mb / base_s:8.1f} MB/s  {n_lines / base_s:12,.0f} lines/s  "
            f"{base_losses:,} losses  peak {mem.peak:6.0f} MB"
        )

        with PeakMemory() as mem:
            hand_s, hand_rows, hand_losses = in_child(hand_written, path, work / "hand.duckdb")
        (work / "hand.duckdb").unlink()
        print(
            f"hand-written split script -> DuckDB: {mb / hand_s:8.1f} MB/s  {n_lines / hand_s:12,.0f} lines/s  "
            f"{hand_rows:,} rows ({hand_losses:,} losses)  peak {mem.peak:6.0f} MB"
        )

        with PeakMemory() as mem:
            alone_s, rows, losses = parse_alone(path, chunk_mb)
        print(
            f"split + parse operators, 1 process: {mb / alone_s:8.1f} MB/s  {n_lines / alone_s:12,.0f} lines/s  "
            f"{rows:,} metric rows ({losses:,} losses)  peak {mem.peak:6.0f} MB"
        )
        print(f"  ratio to baseline: {base_s / alone_s:.2f}")

        rows_per_s, s_per_mb = writer_alone(path, work)
        print(
            f"store writer alone (DuckDB):         {1 / s_per_mb:8.1f} MB/s of log  {rows_per_s / 1e6:.1f} M metric "
            f"rows/s, {s_per_mb * mb:.1f}s for this file: {base_s / (s_per_mb * mb):.2f} of the baseline's speed"
        )

        if not args.skip_pipeline:
            run = run_as_user(path, work / "bench.duckdb", chunk_mb, args.address)
            import duckdb

            with duckdb.connect(str(work / "bench.duckdb"), read_only=True) as con:
                stored = con.execute(
                    "select count(*) filter (where name = 'loss'), count(*) from metrics"
                ).fetchall()[0]
            print(
                f"logs pipeline (run_pipeline):        {mb / run.seconds:8.1f} MB/s  "
                f"{n_lines / run.seconds:12,.0f} lines/s  {stored[1]:,} metric rows ({stored[0]:,} losses)  "
                f"peak {run.peak_mb:6.0f} MB  [{run.seconds:.1f}s after Ray's start-up of {run.startup_s:.1f}s, "
                f"{os.cpu_count()} CPUs, chunks of {chunk_mb:g} MB]"
            )
            print(
                f"  Ray idle (raylet, GCS, idle workers): {run.idle_mb:.0f} MB; the pipeline's own on top of it: "
                f"{run.peak_mb - run.idle_mb:.0f} MB ({run.samples} memory samples)"
            )
            print(
                f"  ratio to baseline: {base_s / run.seconds:.2f}; "
                f"losses stored = baseline's: {stored[0] == base_losses}"
            )
            print(
                f"  as a user runs it, Ray's start-up included ({run.wall_s:.1f}s): {mb / run.wall_s:.1f} MB/s = "
                f"{hand_s / run.wall_s:.2f}x the hand-written script (goal >= 1.5x), {base_s / run.wall_s:.2f}x "
                f"the one-regex loop; peak of all processes {run.peak_mb / 1e3:.2f} GB (goal < 2 GB, flat in "
                "file size)"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def _pipeline_only(
    args: argparse.Namespace, path: Path, work: Path, mb: float, n_lines: int, chunk_mb: float
) -> int:
    """The pipeline alone: its speed with and without Ray's start-up and the peak memory of all processes."""
    run = run_as_user(path, work / "bench.duckdb", chunk_mb, args.address)
    print(
        f"logs pipeline (run_pipeline): {mb / run.wall_s:.1f} MB/s as a user runs it ({run.wall_s:.1f}s, Ray's "
        f"start-up of {run.startup_s:.1f}s included; {mb / run.seconds:.1f} MB/s after it)  "
        f"{n_lines / run.seconds:,.0f} lines/s  peak of all processes {run.peak_mb:.0f} MB (Ray idle "
        f"{run.idle_mb:.0f} MB)  [{run.seconds:.1f}s, {os.cpu_count()} CPUs]"
    )
    return 0


# -- a directory of small mixed logs -------------------------------------------------------------------------


def _mixed_log(kind: str, rng: random.Random, n: int) -> str:
    """A small log of one of several shapes (written here, in the shapes real tools print)."""
    steps = range(10, 10 * n + 1, 10)
    loss = [4.0 * 0.99**i + rng.random() * 0.05 for i in range(n)]
    if kind == "megatron":
        return "".join(
            f"[default0]: iteration {s:6d}/ 100000 | consumed samples: {s * 64} | elapsed time per iteration (ms): "
            f"{900 + rng.random() * 20:.1f} | learning rate: 1.0E-04 | global batch size: 64 | lm loss: {v:.6E} |"
            f" loss scale: 1.0 | grad norm: {rng.random():.3f} | number of skipped iterations: 0 |\n"
            for s, v in zip(steps, loss, strict=False)
        )
    if kind == "nanogpt":
        return "".join(
            f"> 2024-05-0{1 + s % 9} 10:00:{s % 60:02d} iter {s}: loss {v:.4f}, time 210.5ms, mfu 30.1%\n"
            for s, v in zip(steps, loss, strict=False)
        )
    if kind == "hf":
        out = []
        for s, v in zip(steps, loss, strict=False):
            out.append(f" 10%|#         | {s}/{10 * n} [00:10<01:30,  1.00it/s]\n")
            out.append(
                f"{{'loss': {v:.4f}, 'grad_norm': 1.2, 'learning_rate': 2e-05, 'epoch': {s / (10 * n):.2f}}}\n"
            )
        return "".join(out)
    if kind == "table":
        return "step  loss  lr\n" + "".join(
            f"{s}  {v:.4f}  0.0003\n" for s, v in zip(steps, loss, strict=False)
        )
    if kind == "mpirun":
        out = []
        for s, v in zip(steps, loss, strict=False):
            out += [f"[1,{r}]<stdout>:Epoch 0/10, Batch {s}/9000\n" for r in (0, 1)]
            out += [f"[1,{r}]<stdout>:Total loss is {v + r:.5f} ETA is 1:00:00\n" for r in (0, 1)]
        return "".join(out)
    if kind == "nemo":
        return "".join(
            f" 0: Training epoch 0, iteration {s}/{10 * n} | lr: 1e-05 | global_step: {s} | reduced_train_loss: "
            f"{v:.4f} | train_step_timing in s: 3.1\n"
            for s, v in zip(steps, loss, strict=False)
        )
    return "".join(f"heartbeat from worker {rng.randrange(8)} after {s} ticks\n" for s in steps)  # not a log


def mixed_directory(n_files: int) -> int:
    """``n_files`` small logs of mixed shapes through ``assay run logs`` (Ray start-up included), with the
    per-file table it prints."""
    import subprocess

    rng = random.Random(7)
    kinds = ["megatron", "nanogpt", "hf", "table", "mpirun", "nemo", "none"]
    work = Path(tempfile.mkdtemp(prefix="assay-bench-mixed-"))
    try:
        folder = work / "logs"
        for i in range(n_files):
            kind = kinds[i % len(kinds)]
            sub = folder / f"group{i % 10}"
            sub.mkdir(parents=True, exist_ok=True)
            (sub / f"{kind}_{i:03d}.log").write_text(_mixed_log(kind, rng, rng.randrange(20, 200)))
        size = sum(p.stat().st_size for p in folder.rglob("*.log"))
        assay = Path(sys.executable).with_name("assay")
        start = time.perf_counter()
        with PeakMemory() as mem:
            done = subprocess.run(
                [
                    str(assay),
                    "run",
                    "logs",
                    "--input",
                    str(folder),
                    "--db",
                    str(work / "mixed.duckdb"),
                    "--no-progress",
                ],
                capture_output=True,
                text=True,
                check=False,
            )
        seconds = time.perf_counter() - start
        print(done.stdout, done.stderr[-2000:] if done.returncode else "")
        print(
            f"{n_files} files, {size / 1e6:.1f} MB in {seconds:.1f}s (Ray start-up included): "
            f"{n_files / seconds:.1f} files/s; peak of all processes {mem.peak:.0f} MB; exit {done.returncode}"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
