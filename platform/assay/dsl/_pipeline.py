"""Pipelines: an immutable list of steps, each one operator with its configuration.

Every call returns a new :class:`Pipeline` (as Ray Data's ``Dataset`` does), so a pipeline can be
extended without changing the original. :meth:`Pipeline.analyze` lists, before anything runs, every
problem of a pipeline at once (unknown operators, required fields no earlier step produces, actor pools that
cannot fit the cluster); :meth:`Pipeline.check` raises the first.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from assay.dsl._errors import PipelineError
from assay.dsl._operator import MissingOperator, Operator, list_operators, resolve_operator
from assay.dsl._resources import PoolPlan, plan_all_pools, plan_pools

#: Fields every record has when it leaves the source: the input file it came from.
SOURCE_FIELDS = ("source_uri",)


@dataclass(frozen=True)
class Step:
    op: Operator
    config: dict[str, Any] = field(default_factory=dict)
    concurrency: int | None = None
    batch_size: int | None = None
    num_cpus: float | None = None

    @property
    def name(self) -> str:
        return self.op.name


@dataclass(frozen=True)
class Problem:
    """One thing that stops a pipeline from running as written: its catalogue code (``assay.errors``), the
    step it is about (None: the pipeline as a whole), what is wrong and the fix."""

    code: str
    message: str
    fix: str | None = None
    step: str | None = None

    def error(self) -> PipelineError:
        return PipelineError(self.code, self.message, self.fix)


@dataclass(frozen=True)
class Pipeline:
    """A named, ordered set of operator steps over records, plus an optional per-group combine step.

    >>> Pipeline("mine").then("read_paper").then(my_operator, threshold=0.5)
    """

    name: str
    steps: tuple[Step, ...] = ()
    combiner: Step | None = None
    combine_by: str | None = None
    description: str = ""
    source_module: str | None = None
    #: File suffixes this pipeline does not read: such files under an --input folder are skipped and counted.
    skips: tuple[str, ...] = ()
    #: ``report(db, pipeline_run_id) -> str``: what `assay run` prints after the run (a per-file table).
    report: Callable[[Any, str], str] | None = None

    def then(
        self,
        op: str | Operator,
        *,
        concurrency: int | None = None,
        batch_size: int | None = None,
        num_cpus: float | None = None,
        **config: Any,
    ) -> Pipeline:
        """Append a step. ``op`` is an operator or a registered name; ``config`` goes to the operator.

        For a stateful operator (a class, built once per worker), ``concurrency`` fixes the number of its
        actors (by default the pool sizes itself to the cluster) and ``num_cpus`` each actor's CPU share;
        without ``num_cpus`` an actor gets the largest share up to one CPU that leaves every node a slice for
        the other stages, so ``concurrency=2`` on a 2-CPU laptop runs two actors of 0.875 CPU.
        ``batch_size`` is the number of records per call. A name nobody registered is kept and reported by
        :meth:`analyze` (code E001) with the pipeline's other problems.
        """
        step = Step(resolve_operator(op), dict(config), concurrency, batch_size, num_cpus)
        return replace(self, steps=(*self.steps, step))

    def combine(self, op: str | Operator, *, by: str = "doc_id", **config: Any) -> Pipeline:
        """After all records have streamed, call ``op`` once per group of records sharing ``by``.

        Only the fields ``op`` requires are kept for it, so large per-record payloads (metric series)
        are written as they stream and never held. Used, for example, to assemble one run from the
        chunks of a large log that were parsed in parallel.
        """
        return replace(self, combiner=Step(resolve_operator(op), dict(config)), combine_by=by)

    @property
    def fingerprint(self) -> str:
        """The pipeline's name and a hash of its steps (operators with their versions and configuration):
        what a re-run must match to count a file as already done."""
        import hashlib

        steps = [(s.op.qualified_name, sorted(s.config.items(), key=str)) for s in self.steps]
        if self.combiner is not None:
            steps.append((self.combiner.op.qualified_name, sorted(self.combiner.config.items(), key=str)))
        # Without object addresses: a configuration holding an instance must fingerprint the same each run.
        digest = hashlib.sha256(re.sub(r" at 0x[0-9a-fA-F]+", "", repr(steps)).encode()).hexdigest()[:12]
        return f"{self.name}:{digest}"

    def reporting(self, report: Callable[[Any, str], str]) -> Pipeline:
        """After a run, `assay run` prints ``report(db, pipeline_run_id)`` (e.g. what each input file gave)."""
        return replace(self, report=report)

    def skipping(self, *suffixes: str) -> Pipeline:
        """Files with these suffixes under an input folder are not read by this pipeline (and are counted)."""
        return replace(self, skips=(*self.skips, *suffixes))

    def analyze(self, available: tuple[str, ...] = SOURCE_FIELDS, *,
                nodes: list[float] | None = None) -> list[Problem]:
        """Every problem of this pipeline, in step order, without running anything: no steps (E010), an
        operator nobody registered (E001), each field a step (E011) or the combine step (E012) requires and no
        earlier step produces, and, given the CPUs of each node of a cluster (``nodes=[2]`` for a 2-CPU
        laptop), each step whose ``concurrency``/``num_cpus`` cannot fit beside the other stages (E030-E032).

        A missing field is assumed present after its report, so the steps after it are still checked; after
        an unknown operator, whose fields nobody knows, missing fields are not reported."""
        problems: list[Problem] = []
        if not self.steps:
            problems.append(Problem("E010", f"Pipeline {self.name!r} has no steps.", "add one with .then(...)"))
        have = set(available)
        after_unknown = False
        for index, step in enumerate(self.steps):
            if isinstance(step.op, MissingOperator):
                problems.append(_unknown(step, f"Step {index + 1} of pipeline {self.name!r}: "))
                after_unknown = True
                continue
            for missing in (f for f in step.op.requires if f not in have):
                if not after_unknown:
                    problems.append(Problem(
                        "E011",
                        f"Step {index + 1} ({step.name!r}) of pipeline {self.name!r} requires field {missing!r}, "
                        f"which no earlier step produces (available: {', '.join(sorted(have))}).",
                        _producer_hint(missing, step.name), step.name))
                have.add(missing)
            have.update(step.op.produces)
        if self.combiner is not None:
            problems += self._combine_problems(have, after_unknown)
        if nodes is not None:
            _, unfit = plan_all_pools(self._pools(), nodes)
            problems += [Problem(e.code, e.message, e.fix, step) for step, e in unfit]
        return problems

    def _combine_problems(self, have: set[str], after_unknown: bool) -> list[Problem]:
        combiner = self.combiner
        assert combiner is not None
        if isinstance(combiner.op, MissingOperator):
            return [_unknown(combiner, "The combine step: ")]
        if after_unknown:
            return []
        return [Problem("E012", f"The combine step {combiner.name!r} requires field {f!r}, which no step produces.",
                        _producer_hint(f, combiner.name), combiner.name)
                for f in dict.fromkeys([*combiner.op.requires, self.combine_by]) if f not in have]

    def check(self, available: tuple[str, ...] = SOURCE_FIELDS, *, nodes: list[float] | None = None) -> None:
        """Raise :class:`PipelineError` for the first problem :meth:`analyze` finds (the first step whose
        inputs no earlier step produces, or, given ``nodes``, a step whose actors cannot fit). ``assay run``
        checks both against the cluster it runs on before it starts."""
        problems = self.analyze(available, nodes=nodes)
        if problems:
            raise problems[0].error()

    def plan_resources(self, nodes: list[float]) -> list[PoolPlan]:
        """The actor pool of each stateful step on a cluster with ``nodes`` (CPUs per node): its size and
        each actor's CPU share, planned so that every stage keeps a CPU (see ``assay.dsl._resources``)."""
        return plan_pools(self._pools(), nodes)

    def _pools(self) -> list[tuple[str, int | None, float | None]]:
        return [(s.name, s.concurrency, s.num_cpus) for s in self.steps if s.op.stateful]

    def describe(self) -> str:
        lines = [f"pipeline {self.name}: {self.description}".rstrip(": ")]
        for i, step in enumerate(self.steps, 1):
            lines.append(
                f"  {i}. {step.op.qualified_name}  needs {list(step.op.requires)} -> {list(step.op.produces)}"
            )
        if self.combiner:
            lines.append(f"  combine by {self.combine_by}: {self.combiner.op.qualified_name}")
        return "\n".join(lines)


def _unknown(step: Step, where: str) -> Problem:
    error = step.op.error if isinstance(step.op, MissingOperator) else None
    assert error is not None
    return Problem(error.code, where + error.message, error.fix, step.name)


def _producer_hint(field_name: str, consumer: str) -> str:
    producers = [op.name for op in list_operators() if field_name in op.produces]
    if producers:
        return f"add a step that produces {field_name!r} before {consumer!r}, e.g. .then({producers[0]!r})."
    return f"add an operator with produces=[{field_name!r}] before {consumer!r}."


def load_pipeline(name_or_path: str) -> Pipeline:
    """A built-in pipeline by name (``papers``, ``logs``) or the ``pipeline`` defined in a user's .py file."""
    path = Path(name_or_path)
    if path.suffix == ".py":
        if not path.is_file():
            raise PipelineError("E020", f"No pipeline file at {name_or_path}.", "check the path.")
        module_name = f"assay_user_pipeline_{abs(hash(str(path.resolve())))}"
        spec = importlib.util.spec_from_file_location(module_name, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(f"assay.pipelines.{name_or_path}")
        except ModuleNotFoundError as exc:
            if not exc.name or not exc.name.startswith("assay.pipelines"):
                raise
            raise PipelineError(
                "E021",
                f"No built-in pipeline named {name_or_path!r}.",
                "use `papers` or `logs`, or the path to a .py file that defines `pipeline = Pipeline(...)`.",
            ) from None
    pipeline = getattr(module, "pipeline", None)
    if not isinstance(pipeline, Pipeline):
        raise PipelineError(
            "E022",
            f"{name_or_path} defines no `pipeline` of type assay.Pipeline.",
            "end the file with `pipeline = Pipeline('name').then(...)`.",
        )
    return replace(pipeline, source_module=module.__name__)
