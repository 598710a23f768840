"""A parallel-training job's spec as a value: what it trains, on how many workers, in which parallel layout,
and the rules that make it runnable. The type job control, the training workers, the planner's callers and
the checks all speak; it sits in the domain layer so that none of them imports another to get it.

Reading spec files (YAML, the built-in names, a file of several specs) stays with job control
(:mod:`assay.jobs.spec`); this module takes plain data: :func:`from_dict` validates it, and every problem
raises :class:`SpecError` naming the field and the fix. Overrides (``steps=60``, ``model.hidden=128``, ``dp=2``
for ``parallel.dp``) are applied to plain data by :func:`apply_overrides`. Nothing here imports torch or Ray.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import yaml

from assay.domain.layout import DEGREES, Layout
from assay.domain.model_spec import ModelSpec, get_model
from assay.errors import AssayError

WORKLOADS = ("gpt",)
DTYPES = ("float32", "float64", "bfloat16")
SCHEDULES = ("1f1b", "gpipe")
DEVICES = ("auto", "cpu", "cuda")


class SpecError(AssayError, ValueError):
    """A job spec that cannot run as written; ``field`` names the offending key."""

    code = "E060"

    def __init__(self, field_name: str, message: str, fix: str | None = None):
        self.field = field_name
        super().__init__(f"job spec field '{field_name}': {message}", fix)


#: A job's model dims as its spec writes them (``ffn_hidden`` 0 means ``4 * hidden``), and their defaults.
MODEL_DIMS = {"layers": 2, "hidden": 32, "heads": 4, "seq_len": 16, "vocab": 64, "ffn_hidden": 0}
#: The name of a job's model (``ModelSpec.name``): a spec states dims, not a catalogue entry.
JOB_MODEL = "custom"
#: The fields a spec file must state: what to train and for how long. The rest have defaults.
REQUIRED = {"model": "add e.g. `model: {layers: 2, hidden: 32, heads: 4, seq_len: 16, vocab: 64}` "
                     "or a preset name such as `model: gpt-tiny`.",
            "steps": "add `steps: N`, the number of training steps."}


@dataclass(frozen=True)
class JobSpec:
    name: str = "job"
    workload: str = "gpt"
    model: ModelSpec = field(default_factory=lambda: _job_model(MODEL_DIMS))
    #: None means ``auto``: the planner picks the layout for the workers the job gets.
    parallel: Layout | None = field(default_factory=Layout)
    min_workers: int = 1
    max_workers: int = 0  # 0: the layout's world size
    steps: int = 20
    global_batch: int = 8
    micro_batch: int = 0  # 0: the planner's (or the largest that divides the per-replica batch)
    checkpoint_every: int = 10
    priority: int = 0
    max_failures: int = 3
    seed: int = 0
    lr: float = 1e-3
    warmup_steps: int = 0
    weight_decay: float = 0.0
    grad_clip: float = 1.0
    dtype: str = "float32"
    schedule: str = "1f1b"
    device: str = "auto"
    #: ``synthetic`` (a Markov-chain token stream generated from the seed) or a path to a text file,
    #: read as bytes (vocab must then be at least 256).
    data: str = "synthetic"

    # -- derived -------------------------------------------------------------------------------------
    @property
    def auto(self) -> bool:
        return self.parallel is None

    @property
    def requested_workers(self) -> int:
        """The workers the job asks for: its fixed layout's size, else ``max_workers``."""
        if self.parallel is not None:
            return self.parallel.world_size
        return self.max_workers or self.min_workers

    @property
    def tokens_per_step(self) -> int:
        return self.global_batch * self.model.seq_len

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["model"] = model_dims(self.model)
        out["parallel"] = "auto" if self.parallel is None else self.parallel.degrees()
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    def with_overrides(self, overrides: Iterable[str] | Mapping[str, Any]) -> JobSpec:
        return from_dict(apply_overrides(self.to_dict(), overrides))


# -- from plain data ---------------------------------------------------------------------------------

def from_json(text: str) -> JobSpec:
    return from_dict(json.loads(text))


def from_dict(data: Mapping[str, Any]) -> JobSpec:
    """A validated spec from plain data; unknown fields and bad values raise :class:`SpecError`."""
    data = dict(data)
    known = {f.name for f in fields(JobSpec)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise SpecError(unknown[0], "is not a job spec field.", f"use one of: {', '.join(sorted(known))}.")
    values: dict[str, Any] = {}
    for f in fields(JobSpec):
        if f.name not in data:
            continue
        raw = data[f.name]
        if f.name == "model":
            values["model"] = _model(raw)
        elif f.name == "parallel":
            values["parallel"] = _layout(raw)
        else:
            values[f.name] = _coerce(f.name, raw, type(getattr(_DEFAULT, f.name)))
    spec = replace(_DEFAULT, **values)
    validate(spec)
    return spec


def _coerce(name: str, value: Any, kind: type) -> Any:
    if kind is bool:
        return bool(value)
    if kind is int:
        wrong = SpecError(name, f"must be an integer, got {value!r}.", f"write a whole number, e.g. {name}: 10.")
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise wrong
        try:
            number = float(value)
        except ValueError:
            raise wrong from None
        if number != int(number):
            raise wrong
        return int(number)
    if kind is float:
        wrong = SpecError(name, f"must be a number, got {value!r}.", f"write a number, e.g. {name}: 0.001.")
        if isinstance(value, bool):
            raise wrong
        try:
            return float(value)
        except (TypeError, ValueError):
            raise wrong from None
    if value is None or isinstance(value, Mapping | list | bool):
        raise SpecError(name, f"must be a string, got {value!r}.", f"write plain text, e.g. {name}: my-job.")
    return str(value)


def _model(raw: Any) -> ModelSpec:
    if isinstance(raw, str):
        # A preset of the scheduler's model catalogue, e.g. "gpt-tiny".
        try:
            preset = get_model(raw)
        except KeyError as exc:
            raise SpecError("model", str(exc.args[0]) + ".", "give a preset name or a mapping of dims.") from None
        return _job_model(model_dims(preset))
    if not isinstance(raw, Mapping):
        raise SpecError("model", f"must be a mapping of dims or a preset name, got {raw!r}.", REQUIRED["model"])
    unknown = sorted(set(raw) - set(MODEL_DIMS))
    if unknown:
        raise SpecError(f"model.{unknown[0]}", "is not a model field.", f"use one of: {', '.join(sorted(MODEL_DIMS))}.")
    return _job_model({**MODEL_DIMS, **{k: _coerce(f"model.{k}", v, int) for k, v in raw.items()}})


def _job_model(dims: Mapping[str, int]) -> ModelSpec:
    """The model of a job: checked here, so a wrong dim names its spec field (``ModelSpec`` would raise a
    plain ``ValueError`` on it)."""
    for name in ("layers", "hidden", "heads", "seq_len", "vocab"):
        if dims[name] < 1:
            raise SpecError(f"model.{name}", "must be a positive integer.")
    if dims["hidden"] % dims["heads"]:
        raise SpecError("model.hidden", f"{dims['hidden']} is not divisible by model.heads={dims['heads']}.",
                        "pick a hidden size that is a multiple of heads.")
    return ModelSpec(name=JOB_MODEL, **dims)


def model_dims(model: ModelSpec) -> dict[str, int]:
    """A model as a job spec writes it. ``ffn_hidden`` of ``4 * hidden`` is written as 0, as a spec that
    leaves it out says it, so overriding ``model.hidden`` still scales the feed-forward width with it."""
    dims = {name: getattr(model, name) for name in MODEL_DIMS}
    if dims["ffn_hidden"] == 4 * dims["hidden"]:
        dims["ffn_hidden"] = 0
    return dims


def _layout(raw: Any) -> Layout | None:
    if raw is None or (isinstance(raw, str) and raw.strip().lower() == "auto"):
        return None
    if not isinstance(raw, Mapping):
        raise SpecError("parallel", f"must be 'auto' or a mapping {{dp, tp, pp}}, got {raw!r}.",
                        "write `parallel: auto` or e.g. `parallel: {dp: 2, tp: 1, pp: 1}`.")
    unknown = sorted(set(raw) - set(DEGREES))
    if unknown:
        raise SpecError(f"parallel.{unknown[0]}", "is not a parallel dimension.", "use dp, tp and pp.")
    if any(isinstance(v, str) and v.strip().lower() == "auto" for v in raw.values()):
        return None
    return Layout(**{k: _coerce(f"parallel.{k}", v, int) for k, v in raw.items()})


def validate(spec: JobSpec) -> None:
    """Check a spec against the workload's rules; the first problem raises :class:`SpecError`."""
    m = spec.model
    if spec.workload not in WORKLOADS:
        raise SpecError("workload", f"unknown workload {spec.workload!r}.", f"use one of: {', '.join(WORKLOADS)}.")
    for name in ("steps", "global_batch", "checkpoint_every"):
        if getattr(spec, name) < 1:
            raise SpecError(name, "must be at least 1.")
    for name in ("micro_batch", "max_failures", "warmup_steps", "max_workers"):
        if getattr(spec, name) < 0:
            raise SpecError(name, "must not be negative.")
    if spec.min_workers < 1:
        raise SpecError("min_workers", "must be at least 1.")
    if spec.lr <= 0:
        raise SpecError("lr", f"must be positive, got {spec.lr}.")
    if spec.dtype not in DTYPES:
        raise SpecError("dtype", f"unknown dtype {spec.dtype!r}.", f"use one of: {', '.join(DTYPES)}.")
    if spec.schedule not in SCHEDULES:
        raise SpecError("schedule", f"unknown pipeline schedule {spec.schedule!r}.",
                        f"use one of: {', '.join(SCHEDULES)}.")
    if spec.device not in DEVICES:
        raise SpecError("device", f"unknown device {spec.device!r}.", f"use one of: {', '.join(DEVICES)}.")
    if spec.data != "synthetic":
        if not Path(spec.data).exists():
            raise SpecError("data", f"file {spec.data!r} does not exist.", "use 'synthetic' or a text file's path.")
        if m.vocab < 256:
            raise SpecError("model.vocab", "must be at least 256 for a text file (bytes are the tokens).")
    if spec.max_workers and spec.max_workers < spec.min_workers:
        raise SpecError("max_workers", f"{spec.max_workers} is below min_workers={spec.min_workers}.")
    if spec.parallel is not None:
        lay = spec.parallel
        for dim in ("dp", "tp", "pp"):
            if getattr(lay, dim) < 1:
                raise SpecError(f"parallel.{dim}", "must be at least 1.")
        check_layout(spec, lay)
        if spec.max_workers and lay.world_size > spec.max_workers:
            raise SpecError("max_workers", f"is {spec.max_workers} but the layout {lay} needs {lay.world_size}.",
                            f"set max_workers >= {lay.world_size} or a smaller layout.")
        if lay.world_size < spec.min_workers:
            raise SpecError("min_workers", f"is {spec.min_workers} but the layout {lay} has {lay.world_size}.",
                            f"set min_workers <= {lay.world_size}.")
    elif not valid_layouts(spec, spec.max_workers or spec.min_workers):
        raise SpecError("parallel", f"no layout of {spec.max_workers or spec.min_workers} workers fits the model.",
                        "change max_workers or the model shape.")


def check_layout(spec: JobSpec, lay: Layout, micro_batch: int | None = None) -> None:
    """Raise :class:`SpecError` if ``lay`` cannot run ``spec`` (heads, layers, batch divisibility)."""
    m = spec.model
    if m.heads % lay.tp:
        raise SpecError("parallel.tp", f"{lay.tp} does not divide model.heads={m.heads}.",
                        "use a tp that divides the number of heads.")
    if m.ffn_hidden % lay.tp:
        raise SpecError("parallel.tp", f"{lay.tp} does not divide the feed-forward width {m.ffn_hidden}.")
    if lay.pp > m.layers:
        raise SpecError("parallel.pp", f"{lay.pp} stages for {m.layers} layers.", f"use pp <= {m.layers}.")
    if spec.global_batch % lay.dp:
        raise SpecError("global_batch", f"{spec.global_batch} is not divisible by dp={lay.dp}.",
                        f"use a multiple of {lay.dp}.")
    mb = spec.micro_batch if micro_batch is None else micro_batch
    if mb and (spec.global_batch // lay.dp) % mb:
        raise SpecError("micro_batch", f"{mb} does not divide the per-replica batch "
                        f"{spec.global_batch // lay.dp} (global_batch / dp).",
                        "use a divisor of global_batch / dp, or 0 to let assay pick.")


def valid_layouts(spec: JobSpec, workers: int) -> list[Layout]:
    """Every layout of exactly ``workers`` workers that can run ``spec``."""
    out = []
    for tp in _divisors(workers):
        for pp in _divisors(workers // tp):
            lay = Layout(dp=workers // (tp * pp), tp=tp, pp=pp)
            try:
                check_layout(spec, lay, micro_batch=0)
            except SpecError:
                continue
            out.append(lay)
    return out


def micro_batch_for(spec: JobSpec, lay: Layout, preferred: int | None = None) -> int:
    """A micro-batch size that divides the per-replica batch: ``preferred`` (or the spec's) if it does,
    else the largest divisor not above it. Keeps the global batch, so accumulation absorbs any change."""
    per_replica = spec.global_batch // lay.dp
    want = preferred or spec.micro_batch or per_replica
    want = max(1, min(want, per_replica))
    for mb in range(want, 0, -1):
        if per_replica % mb == 0:
            return mb
    return 1


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def apply_overrides(data: Mapping[str, Any], overrides: Iterable[str] | Mapping[str, Any]) -> dict[str, Any]:
    """``key=value`` overrides (dotted keys for nested fields; ``dp``/``tp``/``pp`` for ``parallel.*``)
    applied to a copy of ``data``. Values are parsed as YAML scalars (``10``, ``1e-3``, ``auto``)."""
    out: dict[str, Any] = json.loads(json.dumps(dict(data), default=str))
    items = overrides.items() if isinstance(overrides, Mapping) else (_split(o) for o in overrides)
    for key, value in items:
        if isinstance(value, str):
            try:
                value = yaml.safe_load(value) if value.strip() else value
            except yaml.YAMLError:
                pass
        path = key.split(".")
        if path[0] in ("dp", "tp", "pp"):
            path = ["parallel", *path]
        if path[0] == "model" and len(path) > 1 and isinstance(out.get("model"), str):
            out["model"] = model_dims(_model(out["model"]))
        if path[0] == "parallel" and len(path) > 1 and not isinstance(out.get("parallel"), Mapping):
            out["parallel"] = {"dp": 1, "tp": 1, "pp": 1}
        node = out
        for part in path[:-1]:
            if not isinstance(node.get(part), dict):
                node[part] = {}
            node = node[part]
        node[path[-1]] = value
    return out


def _split(override: str) -> tuple[str, str]:
    key, sep, value = override.partition("=")
    if not sep or not key.strip():
        raise SpecError(override or "--set", "an override must look like key=value.", "e.g. --set steps=60.")
    return key.strip(), value.strip()


_DEFAULT = JobSpec()
