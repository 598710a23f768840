"""Log files of the tests' own, written where a test can read them back through the whole ``parse_log`` path."""

from __future__ import annotations

from pathlib import Path


def write_log(folder: Path, lines: list[str], name: str = "train.log") -> str:
    """``lines`` as a log file ``name`` in ``folder`` (one line each, a final newline); its path."""
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)
