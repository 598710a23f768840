"""Representative databases for the dashboard's tests and benchmark.

``fill_sample(db)`` writes a small, hand-made knowledge graph through ``assay.store.write_rows``: papers
whose claims point at their source sentences, runs with several parallel layouts and per-rank metric
series (NaN included) with restart/oom/resize/nan events, a scheduler's jobs and allocations, pipeline runs
with quarantined inputs, and simulated policies beside the published Pollux/Optimus/Tiresias figures.

``fill_large(db, n_metrics, n_claims)`` adds bulk rows with DuckDB SQL (``range``/``generate_series``, no
Python loops) for the benchmark: ten million metric rows and a hundred thousand claims build in seconds.

Everything is deterministic (fixed seeds, fixed timestamps), so tests can assert on what they see.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from assay.ids import content_id, stable_id
from assay.store import connect, write_rows

T0 = datetime(2025, 3, 3, 9, 0, 0)

# (name, type, aliases). Aliases include the spellings that training logs use for framework/model/hardware.
ENTITIES: list[tuple[str, str, list[str]]] = [
    ("Megatron-LM", "system", ["megatron", "megatron-lm"]),
    ("DeepSpeed", "system", ["deepspeed", "ZeRO-3"]),
    ("PyTorch DDP", "system", ["pytorch-ddp", "DDP"]),
    ("Pollux", "system", ["adaptdl"]),
    ("Optimus", "system", []),
    ("Tiresias", "system", []),
    ("Ray Train", "system", ["ray-train"]),
    ("GPT-3 1.3B", "model", ["gpt3-1.3b"]),
    ("LLaMA-7B", "model", ["llama-7b"]),
    ("BERT-large", "model", ["bert-large"]),
    ("GPT-2 small", "model", ["gpt2-small"]),
    ("A100", "hardware", ["a100-80gb"]),
    ("V100", "hardware", ["v100-32gb"]),
    ("The Pile", "dataset", []),
    ("NVIDIA", "organization", []),
]

PAPERS: list[dict[str, Any]] = [
    {
        "title": "Efficient Large-Scale Language Model Training on GPU Clusters",
        "uri": "papers/megatron.txt",
        "lang": "en",
        "text": (
            "We study tensor and pipeline parallelism for transformer training on NVIDIA GPUs. "
            "We train GPT-3 1.3B on The Pile. "
            "Megatron-LM achieves 1.5x higher throughput than DeepSpeed when training GPT-3 1.3B "
            "on 16 A100 GPUs with TP=2. "
            "With interleaved pipeline parallelism, Megatron-LM reaches 52% MFU on LLaMA-7B "
            "with TP=4 and PP=2. "
            "Scaling from 8 to 32 A100 GPUs keeps 90% of the per-GPU throughput of GPT-3 1.3B."
        ),
        "claims": [
            dict(
                sentence="Megatron-LM achieves 1.5x",
                span="1.5x higher throughput",
                subject="Megatron-LM",
                metric="throughput",
                value=1.5,
                unit="x",
                versus="DeepSpeed",
                setting="GPT-3 1.3B, 16 A100 GPUs, TP=2",
                structured=dict(model="GPT-3 1.3B", params_b=1.3, gpus=16, hardware="A100", tp=2, measure="throughput",
                                direction="higher"),
                qualifier="higher",
                confidence=0.92,
            ),
            dict(
                sentence="With interleaved",
                span="52% MFU",
                subject="Megatron-LM",
                metric="MFU",
                value=52.0,
                unit="%",
                setting="LLaMA-7B, TP=4, PP=2",
                structured=dict(model="LLaMA-7B", params_b=7.0, tp=4, pp=2, measure="mfu", direction="higher"),
                confidence=0.88,
            ),
            dict(
                sentence="Scaling from 8",
                span="90% of the per-GPU throughput",
                subject="Megatron-LM",
                metric="scaling efficiency",
                value=90.0,
                unit="%",
                setting="GPT-3 1.3B, 8 to 32 A100 GPUs",
                structured=dict(model="GPT-3 1.3B", params_b=1.3, gpus=32, hardware="A100", measure="scaling_efficiency",
                                direction="higher"),
                confidence=0.7,
            ),
        ],
    },
    {
        "title": "Pollux: Co-adaptive Cluster Scheduling for Goodput-Optimized Deep Learning",
        "uri": "papers/pollux.txt",
        "lang": "en",
        "text": (
            "Pollux adapts the resources and batch size of each job. "
            "Pollux reduces average job completion time by 37-50% relative to Optimus. "
            "Pollux improves cluster-wide goodput by 1.2-3.5x over Tiresias."
        ),
        "claims": [
            dict(
                sentence="Pollux reduces",
                span="37-50%",
                subject="Pollux",
                metric="average JCT",
                value_low=37.0,
                value_high=50.0,
                unit="%",
                versus="Optimus",
                qualifier="lower",
                setting="testbed cluster",
                confidence=0.95,
            ),
            dict(
                sentence="Pollux improves",
                span="1.2-3.5x",
                subject="Pollux",
                metric="goodput",
                value_low=1.2,
                value_high=3.5,
                unit="x",
                versus="Tiresias",
                qualifier="higher",
                setting="simulated cluster",
                confidence=0.9,
            ),
        ],
    },
    {
        "title": "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models",
        "uri": "papers/zero.txt",
        "lang": "en",
        "text": (
            "ZeRO removes memory redundancy in data parallelism. "
            "DeepSpeed trains BERT-large 2.3x faster than PyTorch DDP on 8 V100 GPUs. "
            "DeepSpeed cuts peak memory by 60% for GPT-3 1.3B."
        ),
        "claims": [
            dict(
                sentence="DeepSpeed trains",
                span="2.3x faster",
                subject="DeepSpeed",
                metric="throughput",
                value=2.3,
                unit="x",
                versus="PyTorch DDP",
                qualifier="faster",
                setting="BERT-large, 8 V100 GPUs",
                structured=dict(model="BERT-large", gpus=8, hardware="V100", measure="throughput", direction="higher"),
                confidence=0.9,
            ),
            dict(
                sentence="DeepSpeed cuts",
                span="60%",
                subject="DeepSpeed",
                metric="peak memory",
                value=60.0,
                unit="%",
                qualifier="lower",
                setting="GPT-3 1.3B",
                confidence=0.6,
            ),
        ],
    },
    {
        "title": "大规模语言模型训练系统评测",
        "uri": "papers/zh-eval.txt",
        "lang": "zh",
        "text": "我们在 64 张 A100 上评测训练系统。"
        "在 64 张 A100 上，Megatron-LM 的吞吐量是 DeepSpeed 的 1.3 倍。",
        "claims": [
            dict(
                sentence="在 64 张 A100 上，",
                span="1.3 倍",
                subject="Megatron-LM",
                metric="吞吐量",
                value=1.3,
                unit="x",
                versus="DeepSpeed",
                setting="64 张 A100",
                structured=dict(gpus=64, hardware="A100", measure="throughput", direction="higher"),
                confidence=0.8,
            ),
        ],
    },
]

# (run key, framework, model, hardware, world_size, dp, tp, pp, status, tokens/s per GPU, mfu, job_id)
RUNS: list[tuple[str, str, str, str, int, int, int, int, str, float, float, str | None]] = [
    ("meg-gpt-16a", "megatron", "gpt3-1.3b", "A100", 16, 8, 2, 1, "completed", 3000.0, 0.46, None),
    ("meg-gpt-16b", "megatron", "gpt3-1.3b", "A100", 16, 8, 2, 1, "completed", 3100.0, 0.47, None),
    ("ds-gpt-16", "deepspeed", "gpt3-1.3b", "A100", 16, 8, 2, 1, "completed", 2200.0, 0.34, None),
    ("meg-gpt-8", "megatron", "gpt3-1.3b", "A100", 8, 4, 2, 1, "completed", 3200.0, 0.49, None),
    ("meg-gpt-32", "megatron", "gpt3-1.3b", "A100", 32, 16, 2, 1, "completed", 2850.0, 0.44, None),
    ("meg-llama-16", "megatron", "llama-7b", "A100", 16, 2, 4, 2, "failed", 900.0, 0.50, None),
    ("meg-llama-32", "megatron", "llama-7b", "A100", 32, 4, 4, 2, "completed", 880.0, 0.52, None),
    ("ds-bert-8", "deepspeed", "bert-large", "V100", 8, 8, 1, 1, "completed", 5200.0, 0.38, None),
    ("ddp-bert-8", "pytorch-ddp", "bert-large", "V100", 8, 8, 1, 1, "completed", 2300.0, 0.17, None),
    (
        "ray-gpt2-elastic",
        "ray-train",
        "gpt2-small",
        "A100",
        8,
        8,
        1,
        1,
        "running",
        9000.0,
        0.30,
        "job-elastic",
    ),
]
STEPS = 200
FRAMEWORK_LOSS = {"megatron": 0.0, "deepspeed": 0.15, "pytorch-ddp": -0.1, "ray-train": 0.05}
LOGGED_RANKS = 4
SEQ_LEN = 2048


@dataclass
class Sample:
    """What ``fill_sample`` wrote, for tests to refer to."""

    db: Path
    run_ids: dict[str, str] = field(default_factory=dict)  # run key -> run_id
    entity_ids: dict[str, str] = field(default_factory=dict)  # entity name -> entity_id
    claim_ids: list[str] = field(default_factory=list)
    doc_ids: list[str] = field(default_factory=list)
    job_ids: list[str] = field(default_factory=list)
    pipeline_run_ids: list[str] = field(default_factory=list)
    sim_ids: dict[str, str] = field(default_factory=dict)  # "workload/policy" -> sim_id


def _norm(name: str) -> str:
    return re.sub(r"[\W_]+", "", name.casefold())


def entity_id(name: str, type_: str) -> str:
    return stable_id(type_, _norm(name))


def run_id(key: str) -> str:
    return stable_id("sample-run", key)


def _papers(sample: Sample) -> dict[str, list[dict[str, Any]]]:
    documents, claims, mentions, relations = [], [], [], []
    for i, paper in enumerate(PAPERS):
        text = paper["text"]
        doc_id = content_id(text)
        sample.doc_ids.append(doc_id)
        documents.append(
            {
                "doc_id": doc_id,
                "uri": paper["uri"],
                "kind": "paper",
                "title": paper["title"],
                "lang": paper["lang"],
                "n_bytes": len(text.encode()),
                "text": text,
                "ingested_at": T0 + timedelta(minutes=i),
                "pipeline_run_id": stable_id("pr", "papers"),
            }
        )
        for c in paper["claims"]:
            s_start = text.index(c["sentence"])
            s_end = _sentence_end(text, s_start)
            start = text.index(c["span"], s_start)
            end = start + len(c["span"])
            claim_id = stable_id(doc_id, "claims@1", start, end)
            sample.claim_ids.append(claim_id)
            claims.append(
                {
                    "claim_id": claim_id,
                    "doc_id": doc_id,
                    "subject": c["subject"],
                    "metric": c["metric"],
                    "value": c.get("value"),
                    "value_low": c.get("value_low"),
                    "value_high": c.get("value_high"),
                    "unit": c["unit"],
                    "qualifier": c.get("qualifier"),
                    "versus": c.get("versus"),
                    "setting": c.get("setting"),
                    "text": text[start:end],
                    "start": start,
                    "end": end,
                    "operator": "claims",
                    "confidence": c["confidence"],
                    "sentence_start": s_start,
                    "sentence_end": s_end,
                    # the settings the extractor writes as columns (operators/papers/_settings.py)
                    **c.get("structured", {}),
                }
            )
        lowered = text.casefold()
        for name, type_, aliases in ENTITIES:
            for spelling in {name, *aliases}:
                pos = lowered.find(spelling.casefold())
                while pos >= 0:
                    mentions.append(
                        {
                            "entity_id": entity_id(name, type_),
                            "doc_id": doc_id,
                            "start": pos,
                            "end": pos + len(spelling),
                            "text": text[pos : pos + len(spelling)],
                            "operator": "entities",
                        }
                    )
                    pos = lowered.find(spelling.casefold(), pos + 1)
    pairs = [
        ("Megatron-LM", "compared_with", "DeepSpeed", 0),
        ("GPT-3 1.3B", "trained_on", "A100", 0),
        ("LLaMA-7B", "trained_with", "Megatron-LM", 0),
        ("GPT-3 1.3B", "trained_on", "The Pile", 0),
        ("Pollux", "compared_with", "Optimus", 1),
        ("Pollux", "compared_with", "Tiresias", 1),
        ("DeepSpeed", "compared_with", "PyTorch DDP", 2),
        ("BERT-large", "trained_on", "V100", 2),
    ]
    types = {name: type_ for name, type_, _ in ENTITIES}
    for subj, pred, obj, doc in pairs:
        s_id, o_id = entity_id(subj, types[subj]), entity_id(obj, types[obj])
        relations.append(
            {
                "relation_id": stable_id(s_id, pred, o_id, doc),
                "subject_id": s_id,
                "predicate": pred,
                "object_id": o_id,
                "doc_id": sample.doc_ids[doc],
                "start": 0,
                "end": 1,
                "operator": "relations",
                "confidence": 0.8,
            }
        )
    entities = [{"entity_id": entity_id(n, t), "name": n, "type": t, "aliases": a} for n, t, a in ENTITIES]
    sample.entity_ids = {e["name"]: e["entity_id"] for e in entities}
    return {
        "documents": documents,
        "entities": entities,
        "claims": claims,
        "mentions": mentions,
        "relations": relations,
    }


def _sentence_end(text: str, start: int) -> int:
    ends = [p for p in (text.find(". ", start), text.find("。", start)) if p >= 0]
    return min(ends) + 1 if ends else len(text)


def _runs(sample: Sample, steps: int = STEPS) -> dict[str, Any]:
    rng = np.random.default_rng(7)
    runs, events, documents = [], [], []
    cols: dict[str, list[Any]] = {c: [] for c in ("run_id", "step", "name", "value", "rank", "ts", "line_no")}
    for n, (key, fw, model, hw, ws, dp, tp, pp, status, tok_gpu, mfu, job) in enumerate(RUNS):
        rid = run_id(key)
        sample.run_ids[key] = rid
        started = T0 + timedelta(hours=n)
        step_ms = 1000.0 * 8 * dp * SEQ_LEN / (tok_gpu * ws)  # global batch 8*dp sequences
        config = {
            "seq_length": SEQ_LEN,
            "optimizer": {"name": "adam", "lr": 3e-4 if "gpt" in model else 1e-4},
            "precision": "bf16" if hw == "A100" else "fp16",
            "zero_stage": 3 if fw == "deepspeed" else 0,
            "activation_checkpointing": tp > 1,
        }
        log_text = f"synthetic log {key}"
        documents.append(
            {
                "doc_id": content_id(log_text),
                "uri": f"logs/{key}.log",
                "kind": "log",
                "title": key,
                "lang": "en",
                "n_bytes": len(log_text),
                "text": log_text,
                "ingested_at": started,
            }
        )
        n_steps = steps
        runs.append(
            {
                "run_id": rid,
                "source_uri": f"logs/{key}.log",
                "framework": fw,
                "status": status,
                "model": model,
                "world_size": ws,
                "dp": dp,
                "tp": tp,
                "pp": pp,
                "micro_batch_size": 4,
                "global_batch_size": 8 * dp,
                "job_id": job,
                "started_at": started,
                "ended_at": None
                if status == "running"
                else started + timedelta(milliseconds=step_ms * n_steps),
                "doc_id": content_id(log_text),
                "hardware": hw,
                "config": json.dumps(config, sort_keys=True),
            }
        )
        base_loss = {"gpt3-1.3b": 3.2, "llama-7b": 2.6, "bert-large": 1.9, "gpt2-small": 3.6}[model]
        for step in range(n_steps):
            ts = started + timedelta(milliseconds=step_ms * step)
            for rank in range(min(ws, LOGGED_RANKS)):
                noise = rng.normal(0, 0.06)
                loss = (
                    base_loss
                    + FRAMEWORK_LOSS[fw]
                    + 6.0 * math.exp(-step / (30 + 10 * n % 3))
                    + noise
                    + 0.05 * rank
                )
                if key == "ds-bert-8" and 120 <= step < 124:
                    loss = float("nan")
                jitter = 1 + rng.normal(0, 0.03)
                values = {
                    "loss": loss,
                    "lr": 3e-4 * min(1.0, (step + 1) / 20),
                    "grad_norm": abs(rng.normal(1, 0.2)),
                    "tokens_per_s": tok_gpu * ws * jitter,
                    "mfu": mfu * jitter,
                    "step_time_ms": step_ms / jitter,
                }
                for name, value in values.items():
                    cols["run_id"].append(rid)
                    cols["step"].append(step)
                    cols["name"].append(name)
                    cols["value"].append(float(value))
                    cols["rank"].append(rank)
                    cols["ts"].append(ts)
                    cols["line_no"].append(step + 1)
        for step, kind, detail in _events_for(key):
            events.append(
                {
                    "run_id": rid,
                    "step": step,
                    "kind": kind,
                    "detail": detail,
                    "line_no": step + 1,
                    "ts": started + timedelta(milliseconds=step_ms * step),
                }
            )
    return {"runs": runs, "metrics": cols, "events": events, "documents": documents}


def _events_for(key: str) -> list[tuple[int, str, str]]:
    return {
        "meg-llama-16": [
            (100, "checkpoint", "saved iteration 100"),
            (150, "oom", "CUDA out of memory on rank 3"),
            (151, "restart", "resumed from iteration 100"),
            (199, "failure", "exit code 1"),
        ],
        "ds-bert-8": [(120, "nan", "loss is NaN"), (121, "skipped_step", "overflow, loss scale halved")],
        "ray-gpt2-elastic": [(60, "resize", "4 -> 8 workers"), (61, "restart", "worker group restarted")],
    }.get(key, [])


def _scheduler(sample: Sample) -> dict[str, list[dict[str, Any]]]:
    t = T0 + timedelta(days=1)
    m = timedelta(minutes=1)
    jobs_spec = [
        # job_id, name, state, priority, min, max, workers, attempts, submitted, started, finished,
        # allocations (minute, workers, reason)
        (
            "job-elastic",
            "gpt2 elastic",
            "running",
            1,
            2,
            8,
            8,
            1,
            t,
            t + m,
            None,
            [
                (1, 4, "start"),
                (20, 8, "resize: 2 workers joined"),
                (45, 6, "resize: node lost"),
                (50, 8, "resize: grow"),
            ],
        ),
        (
            "job-bert",
            "bert finetune",
            "succeeded",
            0,
            1,
            4,
            0,
            1,
            t + 2 * m,
            t + 3 * m,
            t + 60 * m,
            [(3, 4, "start"), (30, 0, "preempted by job-llama"), (40, 2, "start"), (60, 0, "finished")],
        ),
        (
            "job-llama",
            "llama pretrain",
            "failed",
            2,
            8,
            8,
            0,
            3,
            t + 5 * m,
            t + 30 * m,
            t + 55 * m,
            [(30, 8, "start"), (38, 0, "failure: worker died"), (40, 8, "restart"), (55, 0, "failure: oom")],
        ),
        ("job-sweep", "lr sweep", "queued", 0, 2, 4, 0, 0, t + 50 * m, None, None, []),
        (
            "job-eval",
            "eval suite",
            "preempted",
            1,
            1,
            2,
            0,
            1,
            t + 10 * m,
            t + 12 * m,
            None,
            [(12, 2, "start"), (35, 0, "preempted")],
        ),
    ]
    jobs, allocations = [], []
    for job_id, name, state, prio, lo, hi, workers, attempts, sub, start, fin, allocs in jobs_spec:
        sample.job_ids.append(job_id)
        jobs.append(
            {
                "job_id": job_id,
                "name": name,
                "spec": json.dumps({"workload": name}),
                "state": state,
                "priority": prio,
                "min_workers": lo,
                "max_workers": hi,
                "workers": workers,
                "attempts": attempts,
                "submitted_at": sub,
                "started_at": start,
                "finished_at": fin,
                "error": "oom" if state == "failed" else None,
            }
        )
        for minute, w, reason in allocs:
            allocations.append(
                {
                    "job_id": job_id,
                    "at": t + minute * m,
                    "workers": w,
                    "reason": reason,
                    "plan": json.dumps({"dp": w, "tp": 1, "pp": 1}),
                    "source": "scheduler",
                }
            )
    return {"jobs": jobs, "allocations": allocations}


def _pipelines(sample: Sample) -> dict[str, list[dict[str, Any]]]:
    t = T0 + timedelta(days=2)
    spec = [
        ("papers", "succeeded", 5, 4, 1, 12.5),
        ("logs", "succeeded", 11, 10, 1, 4.0),
        ("papers", "failed", 3, 0, 3, 2.0),
    ]
    pruns, quarantine = [], []
    for i, (name, status, n_in, ok, bad, secs) in enumerate(spec):
        prid = stable_id("pr", name, i)
        sample.pipeline_run_ids.append(prid)
        start = t + timedelta(hours=i)
        pruns.append(
            {
                "pipeline_run_id": prid,
                "pipeline": name,
                "status": status,
                "n_in": n_in,
                "n_ok": ok,
                "n_quarantined": bad,
                "started_at": start,
                "finished_at": start + timedelta(seconds=secs),
                "address": None,
                "n_records": ok,
                "seconds": secs,
            }
        )
        for j in range(bad):
            error = (
                "PdfReadError: EOF marker not found" if name == "papers" else "UnicodeDecodeError: bad byte"
            )
            suffix = "pdf" if name == "papers" else "log"
            quarantine.append(
                {
                    "pipeline_run_id": prid,
                    "source_uri": f"/data/{name}/broken-{i}-{j}.{suffix}",
                    "operator": "pdf_text" if name == "papers" else "read_log",
                    "error": error,
                    "at": start,
                    "level": "input",
                }
            )
        if name == "logs":
            quarantine.append(
                {
                    "pipeline_run_id": prid,
                    "source_uri": "/data/logs/meg-gpt-16a.log",
                    "operator": "parse_megatron",
                    "error": "unparseable line 42",
                    "at": start,
                    "level": "line",
                }
            )
    return {"pipeline_runs": pruns, "quarantine": quarantine}


POLICIES = ["fifo", "tiresias", "assay-goodput"]
PUBLISHED = {"published:pollux": 0.75, "published:optimus": 1.1, "published:tiresias": 1.25}


def _simulations(sample: Sample) -> dict[str, list[dict[str, Any]]]:
    rng = np.random.default_rng(11)
    sim_runs, sim_jobs = [], []
    for w, workload in enumerate(["workload-0", "workload-3"]):
        for p, policy in enumerate([*POLICIES, *PUBLISHED]):
            sim_id = stable_id("sim", workload, policy)
            sample.sim_ids[f"{workload}/{policy}"] = sim_id
            if policy in PUBLISHED:
                avg = 3600 * PUBLISHED[policy] * (1 + 0.1 * w)
                sim_runs.append(
                    {
                        "sim_id": sim_id,
                        "workload": workload,
                        "policy": policy,
                        "gpus": 64,
                        "n_jobs": 160,
                        "avg_jct": avg,
                        "params": json.dumps({"source": "Pollux OSDI'21"}),
                        "created_at": T0,
                    }
                )
                continue
            scale = 3600 * (1.6 - 0.35 * p) * (1 + 0.1 * w)
            jct = rng.gamma(2.0, scale / 2.0, size=40)
            for j, value in enumerate(jct):
                submit = float(j * 60)
                queue = float(rng.exponential(300 * (3 - p)))
                sim_jobs.append(
                    {
                        "sim_id": sim_id,
                        "job_id": f"{workload}-job{j}",
                        "model": ["bert", "resnet"][j % 2],
                        "submit_time": submit,
                        "start_time": submit + queue,
                        "finish_time": submit + float(value),
                        "jct": float(value),
                        "queueing": queue,
                        "num_gpus": int(1 + j % 4),
                        "restarts": int(j % 5 == 0),
                    }
                )
            sim_runs.append(
                {
                    "sim_id": sim_id,
                    "workload": workload,
                    "policy": policy,
                    "gpus": 64,
                    "n_jobs": 40,
                    "avg_jct": float(jct.mean()),
                    "p50_jct": float(np.median(jct)),
                    "p99_jct": float(np.quantile(jct, 0.99)),
                    "makespan": float(40 * 60 + jct.max()),
                    "utilization": 0.6 + 0.1 * p,
                    "fairness": 0.9 - 0.05 * p,
                    "params": json.dumps({"seed": 1}),
                    "created_at": T0,
                    "wall_s": 1.5,
                }
            )
    return {"sim_runs": sim_runs, "sim_jobs": sim_jobs, "sim_allocations": _typed_allocations(sample)}


def _typed_allocations(sample: Sample) -> list[dict[str, Any]]:
    """Allocations of workload-0's first policy on a cluster of two GPU types (sim_allocations.gpu_type, schema
    5): three jobs, one moved from v100 to a100 when a100s freed up; the other simulations have none."""
    sim_id = sample.sim_ids[f"workload-0/{POLICIES[0]}"]
    decisions = [
        ("workload-0-job0", 0.0, 8, "a100"),
        ("workload-0-job1", 600.0, 4, "v100"),
        ("workload-0-job2", 1200.0, 8, "v100"),
        ("workload-0-job0", 3600.0, 0, None),  # finished
        ("workload-0-job1", 3600.0, 8, "a100"),  # moved to the freed a100s
        ("workload-0-job2", 7200.0, 0, None),
        ("workload-0-job1", 9000.0, 0, None),
    ]
    return [
        {"sim_id": sim_id, "job_id": job, "t": t, "workers": w, "batch_size": 32 * w, "reason": "schedule",
         "gpu_type": gpu}
        for job, t, w, gpu in decisions
    ]


def _checks(sample: Sample) -> list[dict[str, Any]]:
    """Verdicts on four of the sample's claims, one of each verdict, with evidence pointing at sample rows:
    the Megatron-LM 1.5x throughput claim has all three kinds (runs and the cost model agree, the
    reproduction does not); the 52% MFU claim is implausible to the cost model; Pollux's JCT claim is
    untestable by runs. The other claims stay unchecked."""
    from assay.checks import Check

    megatron_x, mfu, _, pollux_jct = sample.claim_ids[:4]
    rid = sample.run_ids
    checks = [
        Check(
            megatron_x, "runs", "consistent", "median ratio 1.39x over 1 setting is within 10% of 1.5x",
            claimed=1.5, observed=1.39, low=1.36, high=1.41, unit="x",
            evidence={
                "metric": "tokens_per_s",
                "runs": [
                    {"run_id": rid["meg-gpt-16a"], "role": "claimed system"},
                    {"run_id": rid["meg-gpt-16b"], "role": "claimed system"},
                    {"run_id": rid["ds-gpt-16"], "role": "baseline"},
                ],
                "groups": [{"model": "gpt3-1.3b", "world_size": 16, "layout": "dp8·tp2·pp1", "ratio": 1.39}],
            },
        ),
        Check(
            megatron_x, "cost_model", "consistent", "the fitted model predicts 1.44x for this layout pair",
            claimed=1.5, observed=1.44, low=1.3, high=1.6, unit="x",
            evidence={
                "plan": {"subject": {"dp": 8, "tp": 2, "pp": 1}, "baseline": {"dp": 16, "tp": 1, "pp": 1}},
                "predicted": {"subject_step_time_ms": 310.0, "baseline_step_time_ms": 446.0, "ratio": 1.44},
            },
        ),
        Check(
            megatron_x, "reproduction", "contradicted", "reproduced 1.05x at 8 workers, outside 1.35-1.65x",
            claimed=1.5, observed=1.05, low=1.02, high=1.08, unit="x",
            evidence={
                "jobs": {"subject": ["job-elastic"], "baseline": ["job-bert"]},
                "runs": [{"run_id": rid["ray-gpt2-elastic"], "role": "claimed system"}],
            },
        ),
        Check(
            mfu, "cost_model", "implausible", "52% MFU is above the 45% the model allows at TP=4, PP=2",
            claimed=52.0, observed=41.0, low=35.0, high=45.0, unit="%",
            evidence={"plan": {"dp": 2, "tp": 4, "pp": 2}, "predicted": {"mfu": 0.41}},
        ),
        Check(pollux_jct, "runs", "untestable", "no logged metric measures average JCT"),
    ]
    return [c.row(at=T0 + timedelta(days=2)) for c in checks]


def fill_sample(db: str | Path, steps: int = STEPS, checks: bool = True) -> Sample:
    """Write the representative sample into ``db`` (created if missing) and say what was written; ``checks``:
    with verdicts on some claims (as ``assay check`` writes them)."""
    sample = Sample(db=Path(db))
    papers = _papers(sample)
    runs = _runs(sample, steps)
    tables: dict[str, Any] = {**papers, **runs, "documents": papers["documents"] + runs["documents"]}
    tables.update(_scheduler(sample))
    tables.update(_pipelines(sample))
    tables.update(_simulations(sample))
    tables["cost_model_fits"] = [
        {
            "fit_id": "fit-1",
            "fitted_at": T0,
            "params": json.dumps({"alpha": 0.1}),
            "n_runs": len(RUNS),
            "mape": 0.12,
            "holdout_mape": 0.18,
        }
    ]
    if checks:
        tables["claim_checks"] = _checks(sample)
    write_rows(db, tables)
    return sample


def fill_large(
    db: str | Path, n_metrics: int = 10_000_000, n_claims: int = 100_000, n_runs: int = 40, ranks: int = 8
) -> dict[str, int]:
    """Add bulk rows to ``db`` (after ``fill_sample``) with set-based SQL; returns the table sizes.

    Metrics: ``n_runs`` runs x ``ranks`` ranks x 5 names x as many steps as reach ``n_metrics`` rows, written
    ordered by run (as a log importer writes them). Claims: ``n_claims`` spread over the sample's documents
    and subjects, each pointing at a real span of its document.
    """
    names = ["loss", "tokens_per_s", "mfu", "step_time_ms", "grad_norm"]
    # One long run (a fifth of the rows: its loss on every rank at every step) is the newest, so the Runs
    # view's default selection includes it; the other runs share the rest.
    long_steps = max(1, n_metrics // 5 // ranks)
    steps = max(1, (n_metrics - long_steps * ranks) // (n_runs * ranks * len(names)))
    subjects = [n for n, t, _ in ENTITIES if t == "system"]
    metrics = ["throughput", "MFU", "step time", "memory", "speedup", "average JCT"]
    settings = [
        f"{m}, {g} A100 GPUs, TP={tp}"
        for m in ("GPT-3 1.3B", "LLaMA-7B", "BERT-large")
        for g in (8, 16, 32, 64)
        for tp in (1, 2, 4)
    ]
    with connect(db) as con:
        con.execute("BEGIN TRANSACTION")
        con.execute(f"""
            INSERT INTO runs
            SELECT 'bulk-' || r, 'logs/bulk-' || r || '.log',
                   ['megatron', 'deepspeed', 'pytorch-ddp'][1 + r % 3], 'completed',
                   ['gpt3-1.3b', 'llama-7b', 'bert-large'][1 + (r // 3) % 3],
                   8 * (1 + r % 4), 8 * (1 + r % 4) // 2, 2, 1, 4, 64, NULL,
                   TIMESTAMP '2025-06-01' + to_hours(r), TIMESTAMP '2025-06-01' + to_hours(r + 1), NULL,
                   'A100',
                   '{{"seq_length": 2048, "optimizer": {{"lr": ' || (r % 5 + 1) || 'e-4}}}}'
            FROM range({n_runs}) t(r)""")
        con.execute(f"""
            INSERT INTO metrics
            SELECT 'bulk-' || r, s, n.name,
                   CASE WHEN n.name = 'loss' AND (s * 7919 + r) % 100003 = 0 THEN 'NaN'::DOUBLE
                        WHEN n.name = 'loss' THEN 2.5 + 6 * exp(-s / 500.0) + 0.02 * k + 0.05 * sin(s + k)
                        WHEN n.name = 'tokens_per_s' THEN 3000.0 * 8 * (1 + r % 4) * (1 + 0.02 * sin(s))
                        WHEN n.name = 'mfu' THEN 0.4 + 0.01 * sin(s + r)
                        WHEN n.name = 'step_time_ms' THEN 350 + 5 * cos(s)
                        ELSE 1 + 0.1 * sin(s * k) END,
                   k, TIMESTAMP '2025-06-01' + to_hours(r) + to_milliseconds(s * 350), s + 1
            FROM range({n_runs}) t(r), range({steps}) u(s), range({ranks}) v(k),
                 (SELECT unnest({names!r}) AS name) n
            ORDER BY r""")
        con.execute("""
            INSERT INTO runs VALUES ('bulk-long', 'logs/bulk-long.log', 'megatron', 'running', 'llama-7b', 64,
                8, 4, 2, 1, 512, NULL, TIMESTAMP '2025-09-01', NULL, NULL, 'A100', '{"seq_length": 4096}')""")
        con.execute(f"""
            INSERT INTO metrics
            SELECT 'bulk-long', s, 'loss',
                   CASE WHEN s % 100003 = 17 THEN 'NaN'::DOUBLE
                        ELSE 2.0 + 8 * exp(-s / 20000.0) + 0.03 * k + 0.1 * sin(s / 50.0 + k) END,
                   k, TIMESTAMP '2025-09-01' + to_milliseconds(s * 900), s + 1
            FROM range({long_steps}) u(s), range({ranks}) v(k) ORDER BY s""")
        con.execute(f"""
            INSERT INTO events SELECT 'bulk-long', s, ['restart', 'resize', 'oom'][1 + (s // 50000) % 3],
                   'bulk event', s + 1, TIMESTAMP '2025-09-01' + to_milliseconds(s * 900)
            FROM range(25000, {long_steps}, 50000) u(s)""")
        con.execute(f"""
            INSERT INTO events
            SELECT 'bulk-' || r, s, ['restart', 'nan', 'oom', 'resize', 'checkpoint'][1 + (s // 97) % 5],
                   'bulk event', s + 1, TIMESTAMP '2025-06-01' + to_hours(r) + to_milliseconds(s * 350)
            FROM range({n_runs}) t(r), range(0, {steps}, 97) u(s)""")
        docs = con.execute(
            "SELECT doc_id, text FROM documents WHERE kind = 'paper' ORDER BY doc_id"
        ).fetchall()
        doc_ids = [d for d, _ in docs]
        lengths = [len(t) for _, t in docs]
        prefixes = [t[:5] for _, t in docs]
        con.execute(f"""
            INSERT INTO claims (claim_id, doc_id, subject, metric, value, value_low, value_high, unit, qualifier,
                                versus, setting, text, start, "end", operator, confidence, sentence_start,
                                sentence_end)
            SELECT 'bulk-claim-' || i, doc[1 + i % {len(doc_ids)}], subj[1 + i % {len(subjects)}],
                   met[1 + (i // 7) % {len(metrics)}], 1 + (i % 40) / 10.0, NULL, NULL,
                   CASE WHEN i % 3 = 0 THEN '%' ELSE 'x' END, 'higher', subj[1 + (i + 1) % {len(subjects)}],
                   sett[1 + (i // 11) % {len(settings)}], prefix[1 + i % {len(doc_ids)}], 0, 5, 'claims',
                   0.5 + (i % 50) / 100.0, 0, len_[1 + i % {len(doc_ids)}]
            FROM range({n_claims}) t(i),
                 (SELECT {doc_ids!r} AS doc, {subjects!r} AS subj, {metrics!r} AS met, {settings!r} AS sett,
                         {lengths!r} AS len_, {prefixes!r} AS prefix)""")
        con.execute("COMMIT")
        sizes = {
            t: con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]
            for t in ("metrics", "claims", "runs")
        }
    return sizes
