"""From the partial summaries of a log's chunks to its ``runs`` row, its ``documents`` fields and the
entities it links to (framework, model, hardware) with their mentions."""

from __future__ import annotations

import json
import math
import os
from typing import Any

from assay.ids import entity_id, stable_id
from assay.operators.logs._coverage import merge_reports
from assay.operators.logs._events import classify
from assay.operators.logs._names import model_family

TERMINAL = ("completed", "failed", "cancelled", "diverged")
_COMPONENTS = {"Megatron-DeepSpeed": ("Megatron-LM", "DeepSpeed")}


def merge(summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """One summary for the whole file from its chunks' summaries (in any order)."""
    parts = sorted(summaries, key=lambda s: s.get("chunk") or 0)
    first = parts[0]
    settings: dict[str, Any] = {}
    settings_last: dict[str, Any] = {}
    markers: list[Any] = []
    event_lines: list[Any] = []
    events: dict[str, int] = {}
    names: set[str] = set()
    models: list[Any] = []
    hardware: list[Any] = []
    systems: list[str] = []
    loss: dict[str, Any] = {}
    decisions: list[str] = []
    for part in parts:
        # how each chunk chose its steps and loss: the same template decides alike in every chunk
        decisions.extend(d for d in part.get("decisions", []) if d not in decisions)
        for key, value in part.get("settings", {}).items():
            settings.setdefault(key, value)
        settings_last.update(part.get("settings_last", {}))
        markers.extend(part.get("markers", []))
        event_lines.extend(part.get("event_lines", []))
        for kind, n in part.get("events", {}).items():
            events[kind] = events.get(kind, 0) + n
        names.update(part.get("metric_names", []))
        models.extend(m for m in part.get("models", []) if m[0] not in {x[0] for x in models})
        hardware.extend(h for h in part.get("hardware", []) if h[0] not in {x[0] for x in hardware})
        systems.extend(s for s in part.get("systems", []) if s not in systems)
        part_loss = part.get("loss") or {}
        if part_loss:
            loss.setdefault("first", part_loss.get("first"))
            for key in ("last", "last_line", "last_step", "last_finite", "last_finite_line"):
                if key in part_loss:
                    loss[key] = part_loss[key]
            loss["n"] = loss.get("n", 0) + part_loss.get("n", 0)
            if "min" in part_loss:
                loss["min"] = min(loss.get("min", math.inf), part_loss["min"])
    with_steps = [p for p in parts if p.get("last_step") is not None]
    times_first = [p["first_ts"] for p in parts if p.get("first_ts")]
    times_last = [p["last_ts"] for p in parts if p.get("last_ts")]
    framework = next((p["framework"] for p in parts if p.get("framework")), None) or first.get(
        "format_framework"
    )
    return {
        "doc_id": first.get("doc_id"),
        "uri": first.get("uri"),
        "n_bytes": first.get("n_bytes"),
        "format": first.get("format"),
        "framework": framework,
        "systems": systems,
        "settings": settings,
        "settings_last": settings_last,
        "markers": sorted(tuple(m) for m in markers),
        "event_lines": sorted(tuple(e) for e in event_lines)[-200:],
        "events": events,
        "metric_names": sorted(names),
        "steps": sum(p.get("steps", 0) for p in parts),
        "first_step": with_steps[0]["first_step"] if with_steps else None,
        "last_step": with_steps[-1]["last_step"] if with_steps else None,
        "last_step_line": with_steps[-1].get("last_step_line") if with_steps else None,
        "loss": loss,
        "models": models,
        "hardware": hardware,
        "first_ts": times_first[0] if times_first else None,
        "last_ts": times_last[-1] if times_last else None,
        "n_metric_rows": sum(p.get("n_metric_rows", 0) for p in parts),
        "coverage": merge_reports([p["coverage"] for p in parts if p.get("coverage")]),
        "chunks": len(parts),
        "chunk_count": first.get("chunk_count") or 1,
        "decisions": decisions[:20],
    }


def _finite(value: Any) -> bool:
    try:
        return value is not None and math.isfinite(float(value))
    except (TypeError, ValueError):
        return False


def final_status(summary: dict[str, Any]) -> str:
    """The run's status from what its log reports, by one rule (docs/logs.md, "Run status"):

    1. only what follows the last restart counts (a restarted run is judged by its last attempt);
    2. ``failed`` / ``cancelled``: the last terminal report after the last training progress decides: a
       non-zero exit code, a signal, a traceback or an OOM that nothing trained after, a fatal hardware
       fault; a cancellation or preemption. A failure training went on after (a caught OOM, a logged
       traceback) is not terminal;
    3. ``diverged``: the loss is NaN or inf at the end (its last value, or a NaN report after its last
       finite value), unless the run was cancelled: the failure a NaN leads to is its consequence;
    4. ``completed``: an explicit end marker (``Training completed``, the framework's summary) with no
       terminal failure after it, or the configured number of steps reached;
    5. ``unknown``: none of these, a log cut with no signal.
    """
    return _decided(summary)[0]


def _decided(summary: dict[str, Any]) -> tuple[str, tuple[Any, ...] | None]:
    """The run's status (see :func:`final_status`) and the status marker that decided it, if one did."""
    markers = [tuple(m) for m in summary.get("markers", [])]
    restarts = [m[0] for m in markers if m[1] == "restart"]
    since = restarts[-1] if restarts else -1
    last_progress = summary.get("last_step_line") or -1
    terminal = [
        m
        for m in markers
        if m[0] > since and m[1] in TERMINAL and (m[1] in ("completed", "diverged") or m[0] > last_progress)
    ]
    status = terminal[-1][1] if terminal else None
    decider = terminal[-1] if terminal else None
    if status != "cancelled" and _diverged(summary, since):
        status, decider = "diverged", None
    if status is None:
        target = summary.get("settings", {}).get("train_iters")
        last = summary.get("last_step")
        if target and last is not None and last >= int(target):
            status = "completed"
    return status or "unknown", decider


def closing_events(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``failure`` event of a run that failed without one: where the status is ``failed`` and no line
    gave a ``failure`` event (a Slurm step cancelled after the cgroup's OOM kills, an exit code the event
    rules do not word as a failure), one at the line that decided the status, at the last step before it.
    An OOM event says what happened, not that the run ended of it: it stays beside the failure. A fatal
    hardware fault that decided it is the run's end already (the status is ``failed``), no second event. Any
    other status (a clean, a cancelled, an unknown run) gets none."""
    status, decider = _decided(summary)
    if status != "failed" or decider is None or (summary.get("events") or {}).get("failure"):
        return []
    if len(decider) > 2 and classify(str(decider[2])) == "hardware_error":
        return []  # a fatal fault the log ends on (an NCCL watchdog's timeout): its event says what ended the run
    line_no, _kind, detail = (*decider, "")[:3]
    return [
        {
            "run_id": stable_id(summary["doc_id"]),
            "step": summary.get("last_step"),
            "kind": "failure",
            "detail": str(detail)[:200],
            "line_no": line_no,
            "ts": None,
        }
    ]


def _diverged(summary: dict[str, Any], since: int) -> bool:
    """The loss is NaN or inf at the end: its last value, or a NaN report after its last finite value (or,
    with no loss series, after the last training progress)."""
    loss = summary.get("loss") or {}
    if "last" in loss and not _finite(loss["last"]):
        return True
    nans = [line for line, kind in summary.get("event_lines", []) if kind == "nan" and line > since]
    if not nans:
        return False
    after = loss.get("last_finite_line") if "last" in loss else summary.get("last_step_line")
    return nans[-1] > (after or -1)


def _int(value: Any) -> int | None:
    try:
        return int(value) if value is not None and not isinstance(value, bool) else None
    except (TypeError, ValueError):
        return None


def _layout(settings: dict[str, Any]) -> dict[str, int | None]:
    """world_size, dp, tp, pp, filling in what the others imply (world = dp * tp * pp * cp)."""
    world, dp, tp, pp = (_int(settings.get(k)) for k in ("world_size", "dp", "tp", "pp"))
    cp = _int(settings.get("cp")) or 1
    if world is None and None not in (dp, tp, pp):
        world = dp * tp * pp * cp
    if world is not None and dp is None and tp is None and pp is None:
        # Nothing but data parallelism fits the batch sizes (DeepSpeed's train_batch_size = micro batch x
        # accumulation x data-parallel size): every rank is a data-parallel replica.
        micro, batch = _int(settings.get("micro_batch_size")), _int(settings.get("global_batch_size"))
        accumulation = _int(settings.get("gradient_accumulation_steps"))  # unknown: tp x pp could hide in it
        if micro and batch and accumulation and batch == micro * accumulation * world:
            dp = world
    if world is not None:
        tp_, pp_ = tp or 1, pp or 1
        if dp is None and (tp is not None or pp is not None) and world % (tp_ * pp_ * cp) == 0:
            dp = world // (tp_ * pp_ * cp)
        if dp is not None and tp is None and pp is None:
            tp = pp = 1 if dp * cp == world else None
    return {"world_size": world, "dp": dp, "tp": tp, "pp": pp}


def assemble(summary: dict[str, Any], *, operator: str = "log_parse") -> dict[str, Any]:
    """The ``runs`` row, ``documents`` fields, ``entities`` and ``mentions`` of one log file."""
    doc_id = summary["doc_id"]
    uri = summary.get("uri") or ""
    settings = summary.get("settings", {})
    framework = summary.get("framework")
    status = final_status(summary)
    layout = _layout(settings)
    model = str(settings["model"]) if settings.get("model") else None  # parsers name models as papers do
    hardware = [h[0] for h in summary.get("hardware", [])]
    run = {
        "run_id": stable_id(doc_id),
        "source_uri": uri,
        "framework": framework,
        "status": status,
        "model": model,
        **layout,
        "micro_batch_size": _int(settings.get("micro_batch_size")),
        "global_batch_size": _int(settings.get("global_batch_size")),
        "job_id": settings.get("job_id"),
        "started_at": summary.get("first_ts"),
        "ended_at": summary.get("last_ts"),
        "doc_id": doc_id,
        "hardware": hardware[0] if hardware else None,
        "config": json.dumps(_config(summary, status), sort_keys=True, default=str),
    }
    entities: list[dict[str, Any]] = []
    mentions: list[dict[str, Any]] = []

    def link(kind: str, name: str, offset: int | None = None) -> None:
        eid = entity_id(kind, name)
        if all(e["entity_id"] != eid for e in entities):
            entities.append({"entity_id": eid, "name": name, "type": kind, "aliases": []})
        mentions.append(
            {
                "entity_id": eid,
                "doc_id": doc_id,
                "start": offset,
                "end": None if offset is None else offset + len(name),
                "text": name,
                "operator": operator,
            }
        )

    systems = [framework] if framework else []
    systems += [s for name in list(systems) for s in _COMPONENTS.get(name, ())]
    systems += [s for s in summary.get("systems", []) if s not in systems]
    for name in systems:
        link("system", name)
    if model:
        link("model", model, {m[0]: m[2] for m in summary.get("models", [])}.get(model))
        family = model_family(model)
        if family and family.lower() != model.lower():
            link("model", family)
    for name, _line, offset in summary.get("hardware", []):
        link("hardware", name, offset)
    return {
        "runs": [run],
        "entities": entities,
        "mentions": mentions,
        "doc_id": doc_id,
        "uri": uri,
        "kind": "log",
        "title": os.path.basename(uri) or uri,
        "n_bytes": summary.get("n_bytes"),
        "text": None,
    }


def _config(summary: dict[str, Any], status: str) -> dict[str, Any]:
    settings = dict(summary.get("settings", {}))
    args = {k[5:]: settings.pop(k) for k in list(settings) if k.startswith("args.")}
    loss = summary.get("loss") or {}
    return {
        "format": summary.get("format"),
        "settings": settings,
        "args": args or None,
        "summary": {
            "status": status,
            "steps": summary.get("steps"),
            "first_step": summary.get("first_step"),
            "last_step": summary.get("last_step"),
            "first_loss": loss.get("first"),
            "last_loss": loss.get("last"),
            "last_finite_loss": loss.get("last_finite"),
            "min_loss": loss.get("min"),
            "events": summary.get("events"),
            "metrics": summary.get("metric_names"),
            "metric_rows": summary.get("n_metric_rows"),
            "lines": (summary.get("coverage") or {}).get("lines"),
            "unrecognised_lines": (summary.get("coverage") or {}).get("unrecognised"),
            "chunks": summary.get("chunks"),
            "decisions": summary.get("decisions") or None,
            "settings_at_end": {
                k: v
                for k, v in summary.get("settings_last", {}).items()
                if summary.get("settings", {}).get(k) != v and not k.startswith("args.")
            }
            or None,
        },
    }
