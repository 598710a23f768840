"""Benchmark: `assay check` on 1,000 claims (target: under 10 s without --reproduce).

A DuckDB file holds 1,000 performance claims over 40 settings (model size, GPUs, hardware, layout; relative,
FLOP-rate, MFU and layout claims mixed) and 400 runs with 50 steps of speed metrics each. Timed:

1. ``check_claims``: every claim against the runs (read once, matched in memory) and the cost model
   (predictions cached per setting), verdicts written in one transaction;
2. the obvious alternative for the runs evidence: claim by claim, each reading the runs it needs from the
   database, as the dashboard's per-claim ``runs_check_now`` does, on the first 100 claims, scaled to 1,000.

    python tests/benchmarks/bench_checks.py [--claims N]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from assay.checks import check_claims, runs_check_now
from assay.store import write_rows

SIZES = [(1.3, "gpt-1.3b"), (7.5, "gpt-7.5b"), (13.0, "gpt-13b"), (39.1, "gpt-39b"), (175.0, "gpt-175b")]
SYSTEMS = ["FastTrain", "Megatron-LM", "DeepSpeed", "Alpa"]


def build(path: Path, n_claims: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    settings = [(size, gpus, hw, tp)
                for size in SIZES for gpus in (8, 64) for hw in ("A100", "H100") for tp in (1, 8)][:40]
    runs, metrics = [], []
    for i in range(400):
        (params_b, model), gpus, hw, tp = rng.choice(settings)
        run_id = f"r{i}"
        runs.append(dict(run_id=run_id, framework=rng.choice(SYSTEMS).lower(), status="ok", model=model,
                         world_size=gpus, dp=gpus // tp, tp=tp, pp=1, hardware=hw))
        base = rng.uniform(1e4, 5e4)
        metrics += [dict(run_id=run_id, step=s, name="tokens_per_s", value=base * rng.uniform(0.95, 1.05), rank=0)
                    for s in range(50)]
    claims = []
    for i in range(n_claims):
        (params_b, model), gpus, hw, tp = rng.choice(settings)
        kind = i % 4
        common = dict(claim_id=f"c{i:05d}", doc_id=f"d{i % 50}", subject=rng.choice(SYSTEMS), hardware=hw, gpus=gpus,
                      model=model, params_b=params_b, tp=tp, confidence=0.9, text="...")
        if kind == 0:
            claims.append({**common, "versus": "Megatron-LM", "metric": "speedup", "measure": "throughput",
                           "direction": "higher", "unit": "x", "value": rng.uniform(1.1, 3.0)})
        elif kind == 1:
            claims.append({**common, "metric": "throughput", "measure": "tflops", "direction": "higher",
                           "unit": "TFLOP/s", "value": rng.uniform(80, 400)})
        elif kind == 2:
            claims.append({**common, "metric": "utilization", "measure": "mfu", "direction": "higher", "unit": "%",
                           "value": rng.uniform(20, 70)})
        else:
            claims.append({**common, "subject": "pipeline parallelism", "versus": "tensor parallelism",
                           "metric": "speedup", "measure": "throughput", "direction": "higher", "unit": "x",
                           "value": rng.uniform(0.8, 1.5), "tp": None})
    entities = [dict(entity_id=f"e{i}", name=s, type="system", aliases=[s.lower()]) for i, s in enumerate(SYSTEMS)]
    write_rows(path, {"runs": runs, "metrics": metrics, "claims": claims, "entities": entities})


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--claims", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.duckdb"
        build(db, args.claims)
        started = time.perf_counter()
        report = check_claims(db)
        ours = time.perf_counter() - started
        print(report.summary())
        sample = 100
        started = time.perf_counter()
        for i in range(sample):
            runs_check_now(db, f"c{i:05d}")
        per_claim = (time.perf_counter() - started) * args.claims / sample
    print(f"assay check, {args.claims} claims (runs + cost model, written): {ours:.2f}s "
          f"({'meets' if ours < 10 else 'MISSES'} the 10 s target)")
    print(f"claim by claim (runs evidence only), scaled to {args.claims}: {per_claim:.2f}s")
    print(f"ratio: {per_claim / ours:.1f}x faster than claim-by-claim")


if __name__ == "__main__":
    main()
