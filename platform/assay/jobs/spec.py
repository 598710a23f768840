"""Job spec files: reading a job's spec from YAML (or a built-in name such as ``gpt-dp``, found under
``pipelines/jobs/``), applying ``key=value`` overrides and validating it into a :class:`JobSpec`::

    name: gpt-dp
    workload: gpt
    model: {layers: 4, hidden: 64, heads: 4, seq_len: 32, vocab: 256}
    parallel: {dp: 2, tp: 1, pp: 1}     # or: parallel: auto
    min_workers: 1
    max_workers: 4
    steps: 40
    global_batch: 16
    micro_batch: 4
    checkpoint_every: 10

Every field can be overridden with ``key=value`` strings (``steps=60``, ``model.hidden=128``,
``dp=2`` for ``parallel.dp``). A wrong field raises :class:`SpecError` naming the field and the fix.

The spec type and its rules live in the domain layer (:mod:`assay.domain.job_spec`), where the training
workers and the scheduler's callers import them without importing job control; they are re-exported here,
so ``from assay.jobs.spec import JobSpec, from_dict, check_layout`` keeps working. Nothing here imports torch
or Ray.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from assay.domain.job_spec import (
    DEVICES,
    DTYPES,
    JOB_MODEL,
    MODEL_DIMS,
    REQUIRED,
    SCHEDULES,
    WORKLOADS,
    JobSpec,
    SpecError,
    apply_overrides,
    check_layout,
    from_dict,
    from_json,
    micro_batch_for,
    model_dims,
    valid_layouts,
    validate,
)
from assay.registry import REGISTRY, UnknownName

__all__ = [
    "DEVICES", "DTYPES", "JOB_MODEL", "MODEL_DIMS", "NAMESPACE", "REQUIRED", "SCHEDULES", "WORKLOADS", "JobSpec",
    "SpecError", "apply_overrides", "builtin_dir", "builtin_names", "check_layout", "from_dict", "from_json",
    "load_spec", "load_specs", "micro_batch_for", "model_dims", "resolve", "valid_layouts", "validate",
]


# -- loading ------------------------------------------------------------------------------------------

def builtin_dir() -> Path:
    """Where the example specs shipped with assay live (``pipelines/jobs``)."""
    return Path(str(resources.files("assay.pipelines") / "jobs"))


#: The job specs' namespace of the one registry (``assay.registry``): name -> the YAML file's path. The
#: examples shipped with assay are registered here; ``assay.registry.register("job_specs", name, path)`` adds one.
NAMESPACE = "job_specs"
for _example in sorted(builtin_dir().glob("*.yaml")):
    REGISTRY.register(NAMESPACE, _example.stem, _example)


def builtin_names() -> list[str]:
    return sorted(REGISTRY.names(NAMESPACE))


def resolve(name_or_path: str | Path) -> Path:
    """A spec file from a path or a registered name; :class:`SpecError` listing the names otherwise."""
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml") or path.exists():
        if not path.exists():
            raise SpecError("spec", f"file {str(path)!r} does not exist.", "give a path to a YAML job spec.")
        return path
    try:
        return Path(REGISTRY.get(NAMESPACE, str(name_or_path)))
    except UnknownName as exc:
        close = f" (did you mean {', '.join(exc.suggestions)}?)" if exc.suggestions else ""
        raise SpecError(
            "spec", f"{str(name_or_path)!r} is neither a file nor a built-in spec{close}.",
            f"use a path to a YAML file or one of: {', '.join(builtin_names())}.",
        ) from None


_FIELDS_HINT = "write the job's fields (at least model and steps); `assay jobs specs` lists examples."


def load_spec(name_or_path: str | Path, overrides: Iterable[str] | Mapping[str, Any] = ()) -> JobSpec:
    """Read, override and validate a spec (a path or a built-in name) holding one job."""
    path = resolve(name_or_path)
    entries = _entries(path)
    if len(entries) != 1:
        if all(isinstance(e, Mapping) for e in entries):
            raise SpecError("spec", f"{path} holds {len(entries)} specs, one was expected.",
                            "`assay jobs submit` (or load_specs) takes a file of several; else one per file.")
        raise SpecError("spec", f"{path} must hold a mapping of fields, not a list.", _FIELDS_HINT)
    return _spec_of(path, entries[0], path.stem, overrides)


def load_specs(name_or_path: str | Path,
               overrides: Iterable[str] | Mapping[str, Any] = ()) -> list[JobSpec | SpecError]:
    """Every spec in a file (one mapping, a list of them, or several YAML documents separated by ``---``),
    each validated on its own: a :class:`JobSpec`, or the :class:`SpecError` that refuses it. A file with no
    spec at all (empty, ``[]``) raises :class:`SpecError`."""
    path = resolve(name_or_path)
    entries = _entries(path)
    overrides = dict(overrides) if isinstance(overrides, Mapping) else list(overrides)  # read once per spec
    out: list[JobSpec | SpecError] = []
    for i, entry in enumerate(entries, 1):
        name = path.stem if len(entries) == 1 else f"{path.stem}-{i}"
        try:
            out.append(_spec_of(path, entry, name, overrides))
        except SpecError as exc:
            out.append(exc)
    return out


def _entries(path: Path) -> list[Any]:
    """The specs a file holds, unchecked; :class:`SpecError` if it holds none."""
    try:
        docs = list(yaml.safe_load_all(path.read_text()))
    except yaml.YAMLError as exc:
        raise SpecError("spec", f"{path} is not valid YAML ({exc}).") from None
    if len(docs) == 1 and isinstance(docs[0], list):
        docs = docs[0]
        if not docs:
            raise SpecError("spec", f"{path} holds an empty list: no job to run.", _FIELDS_HINT)
    if not docs or all(d is None for d in docs):
        raise SpecError("spec", f"{path} is empty: no job to run.", _FIELDS_HINT)
    return docs


def _spec_of(path: Path, data: Any, name: str, overrides: Iterable[str] | Mapping[str, Any]) -> JobSpec:
    if data is None:
        raise SpecError("spec", f"{path} has an empty document: no job to run.", _FIELDS_HINT)
    if not isinstance(data, Mapping):
        raise SpecError("spec", f"{path} must hold a mapping of fields, not {type(data).__name__}.", _FIELDS_HINT)
    if not data:
        raise SpecError("spec", f"{path} has no fields ({{}}): no job to run.", _FIELDS_HINT)
    data = apply_overrides({"name": name, **data}, overrides)
    for key, fix in REQUIRED.items():
        if data.get(key) is None:
            raise SpecError(key, f"is missing in {path}.", fix)
    return from_dict(data)
