"""Philly-shaped synthetic workloads.

The shape follows what is published about Microsoft's Philly trace (Jeon et al., ATC'19) and how Pollux's
artifact samples it: Poisson arrivals; most jobs ask for 1 GPU, some for 2, 4 or 8, few for 16 or more;
heavy-tailed (log-normal) run times. Like Pollux's generator, a job's model follows its GPU-time: short
jobs are small image or recommendation models, long ones ImageNet-sized or GPT models. Each job asks for
its batch as "the initial batch per GPU", the way users scale a recipe, and its ``duration`` is the time
it runs at that size alone.
"""

from __future__ import annotations

import numpy as np

from assay.scheduler.workloads._profiles import get_profile
from assay.scheduler.workloads._trace import TraceJob, Workload

#: (GPUs asked for, share of jobs).
GPU_MIX: tuple[tuple[int, float], ...] = ((1, 0.66), (2, 0.08), (4, 0.13), (8, 0.09), (16, 0.03), (32, 0.01))

#: Models by GPU-hours at the requested size: (upper bound in GPU-hours, models, GPT models).
MODEL_CLASSES: tuple[tuple[float, tuple[str, ...], tuple[str, ...]], ...] = (
    (1.0, ("cifar10", "ncf"), ("gpt-125m",)),
    (10.0, ("deepspeech2", "bert"), ("gpt-350m",)),
    (100.0, ("yolov3",), ("gpt-1.3b",)),
    (float("inf"), ("imagenet",), ("gpt-2.7b",)),
)


def philly_workload(n_jobs: int = 160, seed: int = 0, *, jobs_per_hour: float = 20.0,
                    median_duration_s: float = 1800.0, duration_sigma: float = 1.5,
                    max_duration_s: float = 48 * 3600.0, gpt_share: float = 0.25,
                    gpu_mix: tuple[tuple[int, float], ...] = GPU_MIX) -> Workload:
    """``n_jobs`` jobs arriving at ``jobs_per_hour`` on average (Poisson), deterministic for a ``seed``."""
    if n_jobs < 1:
        raise ValueError("n_jobs must be at least 1")
    if jobs_per_hour <= 0 or median_duration_s <= 0:
        raise ValueError("jobs_per_hour and median_duration_s must be positive")
    rng = np.random.default_rng(seed)
    gaps = rng.exponential(3600.0 / jobs_per_hour, size=n_jobs)
    times = np.round(np.cumsum(gaps) - gaps[0])
    sizes, weights = zip(*gpu_mix, strict=True)
    p = np.asarray(weights, dtype=float) / sum(weights)
    gpus = rng.choice(np.asarray(sizes), size=n_jobs, p=p)
    durations = np.clip(np.exp(rng.normal(np.log(median_duration_s), duration_sigma, size=n_jobs)),
                        60.0, max_duration_s)
    jobs = []
    for i in range(n_jobs):
        gpu_hours = gpus[i] * durations[i] / 3600.0
        plain, gpt = next((m, g) for bound, m, g in MODEL_CLASSES if gpu_hours < bound)
        pool = gpt if rng.random() < gpt_share else plain
        model = str(pool[rng.integers(len(pool))])
        n_gpu = int(gpus[i])
        if model == "ncf" and n_gpu > 1:
            model = "cifar10"  # NCF is a one-GPU job at a fixed batch
        profile, _ = get_profile(model)
        limits = profile.limits
        n_gpu = max(1, min(n_gpu, limits.max_workers()))
        batch = 32768 if model == "ncf" else limits.clip(limits.init_batch * n_gpu, n_gpu)
        jobs.append(TraceJob(
            job_id=f"{model}-{i}",
            submit_time=float(times[i]),
            model=model,
            num_gpus=n_gpu,
            duration=float(round(durations[i])),
            batch_size=int(batch),
            max_workers=1 if model == "ncf" else None,
            fixed_batch=32768 if model == "ncf" else None,
        ))
    return Workload(f"philly-{n_jobs}-seed{seed}", jobs, kind="philly")
