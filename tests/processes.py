"""This machine's processes as the tests look at them, read from /proc: who is whose child, under what
title (Ray names its worker processes ``ray::IDLE``, ``ray::<Actor>``, ...)."""

from __future__ import annotations

from pathlib import Path


def children_by_parent() -> dict[int, list[tuple[int, str]]]:
    """Every live process as (pid, title) under its parent's pid; the title is the first word of its
    command line, as ``ps`` shows it (a process may have changed it, as Ray's workers do)."""
    children: dict[int, list[tuple[int, str]]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            title = (entry / "cmdline").read_text().split("\0")[0].strip()
        except (OSError, IndexError, ValueError):  # gone meanwhile, or a kernel thread
            continue
        children.setdefault(ppid, []).append((int(entry.name), title))
    return children


def descendants(pid: int) -> list[tuple[int, str]]:
    """The processes below ``pid`` (children, theirs, ...), as (pid, title)."""
    children, out, below = children_by_parent(), [], [pid]
    while below:
        for child, title in children.get(below.pop(), []):
            out.append((child, title))
            below.append(child)
    return out
