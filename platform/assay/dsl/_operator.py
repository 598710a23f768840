"""Operators: named, versioned transformations of records (plain dicts).

An operator is a plain function ``record -> record | list[record] | None`` or a class whose instance
is built once per worker (to load a model once) and then called the same way. With ``batch=True`` it
receives and returns a list of records, which suits models with a batched API such as ``nlp.pipe``.
Each operator declares the record fields it ``requires`` and ``produces`` so a pipeline can be checked
before it runs.
"""

from __future__ import annotations

import inspect
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from assay.dsl._errors import PipelineError
from assay.registry import REGISTRY, UnknownName

Record = dict[str, Any]

#: The operators' namespace of the one registry (``assay.registry``); built-ins load on the first miss.
NAMESPACE = "operators"


@dataclass(frozen=True)
class Failure:
    """One record an operator could not process: kept, with the reason, for the quarantine."""

    record: Record
    operator: str
    error: str


@dataclass(frozen=True)
class Operator:
    name: str
    impl: Callable[..., Any]
    requires: tuple[str, ...] = ()
    produces: tuple[str, ...] = ()
    version: str = "1"
    batch: bool = False
    stateful: bool = False
    planning: bool = False
    description: str = ""
    defaults: dict[str, Any] = field(default_factory=dict)

    def __call__(self, record: Record, **config: Any) -> Any:
        """Run the operator on one record (or one batch when ``batch=True``); for tests and notebooks."""
        return self.instantiate(**config)(record)

    def instantiate(self, **config: Any) -> Callable[[Any], Any]:
        """The callable that processes a record (or a batch): a built instance for class operators."""
        params = {**self.defaults, **config}
        if self.stateful:
            return self.impl(**params)
        if not params:
            return self.impl
        return lambda item: self.impl(item, **params)

    def run(self, records: Sequence[Record], **config: Any) -> tuple[list[Record], list[Failure]]:
        """Apply to ``records`` with per-record error isolation; see :class:`BoundOperator`."""
        return self.bind(**config).process(records)

    def bind(self, **config: Any) -> BoundOperator:
        return BoundOperator(self, self.instantiate(**config))

    @property
    def qualified_name(self) -> str:
        return f"{self.name}@{self.version}"


@dataclass(frozen=True)
class MissingOperator(Operator):
    """A step that names an operator nobody registered. The pipeline keeps it, so that
    :meth:`Pipeline.analyze` reports it beside every other problem; running it raises ``error``."""

    error: PipelineError | None = None


def resolve_operator(name_or_op: str | Operator) -> Operator:
    """:func:`get_operator`, or a :class:`MissingOperator` standing for a name that is not registered."""
    try:
        return get_operator(name_or_op)
    except PipelineError as exc:
        if exc.code != "E001":
            raise
        error = exc
    return MissingOperator(name=str(name_or_op), impl=_Raise(error), error=error)


@dataclass(frozen=True)
class _Raise:
    """The body of a missing operator: calling it raises why it is missing."""

    error: PipelineError

    def __call__(self, *_: Any, **__: Any) -> Any:
        raise self.error


class BoundOperator:
    """An operator with its instance built: processes records, turning exceptions into failures."""

    def __init__(self, op: Operator, fn: Callable[[Any], Any]):
        self.op = op
        self.fn = fn

    def process(self, records: Sequence[Record]) -> tuple[list[Record], list[Failure]]:
        if self.op.batch:
            try:
                return _as_list(self.fn(list(records))), []
            except Exception:  # noqa: BLE001 -- one bad record must not sink the batch: isolate it
                pass
        out: list[Record] = []
        failures: list[Failure] = []
        for record in records:
            try:
                result = self.fn([record]) if self.op.batch else self.fn(record)
                out.extend(_as_list(result))
            except Exception as exc:  # noqa: BLE001 -- routed to the quarantine with its reason
                failures.append(Failure(record, self.op.name, _describe(exc)))
        return out, failures


def _as_list(result: Any) -> list[Record]:
    if result is None:
        return []
    if isinstance(result, dict):
        return [result]
    if isinstance(result, Iterable):
        return list(result)
    raise TypeError(f"an operator must return a dict, a list of dicts or None, not {type(result).__name__}")


def _describe(exc: BaseException) -> str:
    where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f" (at {where.filename.rsplit('/', 1)[-1]}:{where.lineno})" if where else ""
    return f"{type(exc).__name__}: {exc}{at}"[:2000]


def operator(
    impl: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    requires: Sequence[str] = (),
    produces: Sequence[str] = (),
    version: str = "1",
    batch: bool = False,
    planning: bool = False,
    register: bool = True,
    **defaults: Any,
) -> Any:
    """Declare an operator. Use bare (``@operator``) or with its field contract::

        @operator(requires=["text"], produces=["shout"])
        def shout(record):
            return {**record, "shout": record["text"].upper()}

    A class becomes a stateful operator: it is built once per worker, then called per record (or batch).
    Extra keyword arguments are the operator's default configuration, overridable per pipeline step.

    ``planning=True`` marks a step that only plans the work on an input file (checks its format, hashes it,
    cuts it into chunk records) at a small cost beside the steps after it. While Ray starts (or the driver
    connects to a cluster), the runtime runs a pipeline's leading planning steps in the driver, the way Ray
    Data plans its reads there; the files not planned by the time Ray is up are planned by Ray tasks.
    """

    def wrap(target: Callable[..., Any]) -> Operator:
        op_name = name or _snake(target.__name__)
        op = Operator(
            name=op_name,
            impl=target,
            requires=tuple(requires),
            produces=tuple(produces),
            version=str(version),
            batch=batch,
            stateful=inspect.isclass(target),
            planning=planning,
            description=(inspect.getdoc(target) or "").split("\n\n")[0],
            defaults=dict(defaults),
        )
        if register:
            REGISTRY.register(NAMESPACE, op_name, op)
        return op

    return wrap(impl) if impl is not None else wrap


def _snake(name: str) -> str:
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


def get_operator(name_or_op: str | Operator) -> Operator:
    """The operator registered under ``name`` (built-ins are found without importing them first)."""
    if isinstance(name_or_op, Operator):
        return name_or_op
    try:
        return REGISTRY.get(NAMESPACE, name_or_op)
    except UnknownName as exc:
        hint = f" Did you mean {', '.join(exc.suggestions)}?" if exc.suggestions else ""
        raise PipelineError(
            "E001",
            f"No operator named {name_or_op!r}.{hint}",
            "register it with @assay.operator, or pick one of `assay operators`.",
        ) from None


def list_operators() -> list[Operator]:
    ops = REGISTRY.entries(NAMESPACE)
    return [ops[n] for n in sorted(ops)]
