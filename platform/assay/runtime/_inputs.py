"""Turning the user's --input arguments into the list of files a pipeline reads."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from assay.errors import AssayError


class InputError(AssayError, ValueError):
    """An --input that names nothing readable."""

    code = "E040"


def expand_inputs(inputs: Iterable[str | os.PathLike[str]]) -> list[str]:
    """Absolute paths of the files under ``inputs`` (directories walked recursively, hidden entries and
    the database's own files skipped), sorted so two runs see the same order."""
    files: set[str] = set()
    for item in inputs:
        path = Path(item).expanduser()
        if path.is_dir():
            for root, dirs, names in os.walk(path):
                dirs[:] = [d for d in dirs if not d.startswith(".") and d != "__pycache__"]
                files.update(
                    str(Path(root, n).resolve())
                    for n in names
                    if not n.startswith(".") and not n.endswith((".duckdb", ".duckdb.wal"))
                )
        elif path.is_file():
            files.add(str(path.resolve()))
        else:
            raise InputError(f"--input {item}: no such file or directory.", "give a file or a folder that exists.")
    return sorted(files)


def skip_unread(files: list[str], suffixes: Iterable[str]) -> tuple[list[str], list[str]]:
    """``files`` split into those a pipeline reads and those whose suffix it declares it does not read
    (a folder of logs that also holds the papers they belong to)."""
    skip = tuple(s.lower() for s in suffixes)
    if not skip:
        return files, []
    kept = [f for f in files if not f.lower().endswith(skip)]
    return kept, [f for f in files if f.lower().endswith(skip)]
