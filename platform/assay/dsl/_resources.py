"""CPU planning for a whole pipeline against the nodes of a cluster, so no stage can starve another.

Ray Data gives an actor pool the CPUs it asks for and keeps them; a task stage (a reader, a splitter) and
the repartition between stages then wait for a CPU that never frees, and the run hangs without an error.
The plan therefore keeps a slice of every node for task stages and sizes the actor pools to the rest:
``concurrency`` actors of the largest CPU share (at most one CPU) that fits, fractional where that is what
it takes, and an error naming the step when even the smallest share does not fit.

Pure arithmetic on a list of per-node CPU counts: no Ray, so ``Pipeline.check(nodes=...)`` and the tests
use it as the runtime does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from assay.dsl._errors import PipelineError

#: CPUs a task of a stateless stage (a reader, a splitter, the repartition before a per-record pool)
#: reserves; the same slice of every node is kept free of actors so such a task always finds one.
TASK_CPUS = 0.25
#: The smallest CPU share an actor is given; below it a pool of that size would only thrash.
MIN_ACTOR_CPUS = 0.25
#: Actors a pool starts with when it may grow: a small input on a big cluster does not start an actor per CPU.
INITIAL_POOL_CAP = 8


@dataclass(frozen=True)
class PoolPlan:
    """The actor pool of one stateful step: its size bounds and the CPU share of each actor."""

    step: str
    min_size: int
    max_size: int
    initial_size: int
    cpus_per_actor: float


def slots(budgets: list[float], cpus: float) -> int:
    """Actors of ``cpus`` each that fit in the per-node ``budgets`` (an actor cannot span nodes)."""
    return sum(math.floor(b / cpus + 1e-9) for b in budgets)


def _largest_share(budgets: list[float], n: int, cap: float) -> float:
    """The largest per-actor share <= ``cap`` with which ``n`` actors fit; 0 when none does."""
    candidates = {cap} | {b / m for b in budgets for m in range(1, n + 1) if b > 0}
    for share in sorted((c for c in candidates if c <= cap), reverse=True):
        if slots(budgets, share) >= n:
            return share
    return 0.0


def plan_pools(pools: list[tuple[str, int | None, float | None]], nodes: list[float]) -> list[PoolPlan]:
    """Size each actor pool, given as (step name, asked concurrency, asked CPUs per actor), on ``nodes``.

    Each node keeps ``TASK_CPUS`` for task stages; the rest is shared equally by the pools. A pool with no
    asked concurrency grows to one actor per CPU of its share, rounded up (at least one per node).
    Raises :class:`PipelineError` for the first pool that cannot fit.
    """
    plans, problems = plan_all_pools(pools, nodes)
    if problems:
        raise problems[0][1]
    return plans


def plan_all_pools(pools: list[tuple[str, int | None, float | None]],
                   nodes: list[float]) -> tuple[list[PoolPlan], list[tuple[str, PipelineError]]]:
    """:func:`plan_pools` that goes on past a pool that cannot fit: the plans of those that fit, and
    (step name, error) for each that does not (``Pipeline.analyze`` reports them all at once)."""
    if not pools:
        return [], []
    nodes = [float(c) for c in nodes if c > 0] or [1.0]
    budgets = [max(0.0, c - TASK_CPUS) / len(pools) for c in nodes]
    plans, problems = [], []
    for name, asked, cpus in pools:
        try:
            plans.append(_plan_pool(name, asked, cpus, nodes, budgets))
        except PipelineError as exc:
            problems.append((name, exc))
    return plans, problems


def _plan_pool(name: str, asked: int | None, cpus: float | None, nodes: list[float],
               budgets: list[float]) -> PoolPlan:
    total = sum(nodes)
    if asked is not None and asked < 1:
        raise PipelineError("E030", f"Step {name!r} asks for concurrency={asked}.",
                            "give concurrency=1 or more, or leave it out to let the pool size itself.")
    target = asked or max(len(nodes), sum(math.ceil(b - 1e-9) for b in budgets))
    if cpus is not None:
        fit = slots(budgets, cpus)
        if fit < (asked or 1):
            raise PipelineError(
                "E031",
                f"Step {name!r} asks for {asked or 1} actor(s) of num_cpus={cpus:g}, but the cluster "
                f"({_describe(nodes)}) fits {fit} beside the other stages (each node keeps "
                f"{TASK_CPUS:g} CPU for reading and splitting).",
                f"lower concurrency to {fit} or num_cpus to {_largest_share(budgets, asked or 1, 1.0):.2g}."
                if fit else "lower num_cpus, or run on a bigger cluster (--address).",
            )
        share, size = cpus, min(target, fit)
    else:
        share = _largest_share(budgets, target, 1.0)
        if share < MIN_ACTOR_CPUS:
            most = slots(budgets, MIN_ACTOR_CPUS)
            if asked is not None:
                raise PipelineError(
                    "E032",
                    f"Step {name!r} asks for concurrency={asked} actors, but the cluster "
                    f"({_describe(nodes)}, {total:g} CPUs) fits at most {most} beside the other stages "
                    f"(each actor needs at least {MIN_ACTOR_CPUS:g} CPU; each node keeps {TASK_CPUS:g} "
                    "CPU for reading and splitting).",
                    f"lower concurrency to {most} or less, or run on a bigger cluster (--address)."
                    if most else "run on a cluster with more CPUs (--address).",
                )
            target = max(1, most)
            share = _largest_share(budgets, target, 1.0) or MIN_ACTOR_CPUS
        size = target
    low = size if asked else 1
    return PoolPlan(name, low, size, size if asked else min(size, INITIAL_POOL_CAP), share)


def _describe(nodes: list[float]) -> str:
    if len(nodes) == 1:
        return f"1 node of {nodes[0]:g} CPUs"
    return f"{len(nodes)} nodes of {', '.join(f'{c:g}' for c in nodes)} CPUs"
