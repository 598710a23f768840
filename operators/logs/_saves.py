"""One checkpoint saved as several files: a trainer that writes each of its models' states on its own line
(a GAN's ``G_5500.pth`` then ``D_5500.pth``) saves one checkpoint, so those lines are one ``checkpoint`` event."""

from __future__ import annotations

from typing import Any


def one_event_per_save(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` without the saves that go on the save of the line before (in place; also returned): a
    ``checkpoint`` on the next line, of the same process, at the same step, is the same checkpoint's next
    file. Saves apart by other lines, or at another step, stay events of their own."""
    kept: list[dict[str, Any]] = []
    last: dict[tuple[Any, Any], dict[str, Any]] = {}  # (rank, step) -> the latest save, where it is kept
    for ev in events:
        if ev.get("kind") == "checkpoint":
            key = (ev.get("rank"), ev.get("step"))
            before = last.get(key)
            last[key] = ev
            if before is not None and ev.get("line_no") == before.get("line_no", -2) + 1:
                continue
        kept.append(ev)
    events[:] = kept
    return events
