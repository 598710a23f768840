"""The error catalogue: one code per entry, every code the source raises catalogued, every catalogued class
carrying its code, and errors that stay what they were (a ValueError is still
caught as one) while the command line prints them as one line with their code. (test_cli_reference.py checks
that docs/errors.md is what the catalogue writes.)"""

from __future__ import annotations

import importlib
import pickle
import re
from pathlib import Path

import pytest

from assay.errors import CATALOGUE, ENTRIES, AssayError, code_of, one_line

ROOT = Path(__file__).resolve().parents[2]


def _resolve(public_name: str) -> type:
    module, _, name = public_name.rpartition(".")
    return getattr(importlib.import_module(module), name)


def test_every_code_is_unique_and_well_formed():
    codes = [e.code for e in ENTRIES]
    assert sorted({c for c in codes if codes.count(c) > 1}) == []
    assert all(re.fullmatch(r"E\d{3}", c) for c in codes)
    assert all(e.title and e.fix for e in ENTRIES)


def test_every_code_raised_in_the_source_is_catalogued():
    used = set()
    for folder in ("platform/assay", "operators", "pipelines"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            used |= set(re.findall(r'(?:PipelineError|Problem)\(\s*"(E\d{3})"', text))
            used |= set(re.findall(r'^\s+code = "(E\d{3})"', text, re.M))
    assert {"E001", "E011", "E031", "E060"} <= used  # the scan finds both ways of raising a code
    assert sorted(used - set(CATALOGUE)) == []


def test_every_catalogued_class_exists_and_carries_its_code():
    for entry in ENTRIES:
        cls = _resolve(entry.raised_by)
        assert issubclass(cls, Exception), entry
        if issubclass(cls, AssayError) and cls.code:  # PipelineError gives its code per instance
            assert cls.code == entry.code, entry


def test_errors_keep_their_python_bases():
    from assay.jobs import SpecError
    from assay.registry import UnknownName
    from assay.runtime import ClusterError, InputError
    from assay.scheduler.workloads import WorkloadError

    assert issubclass(SpecError, ValueError) and issubclass(InputError, ValueError)
    assert issubclass(ClusterError, ConnectionError) and issubclass(UnknownName, KeyError)
    with pytest.raises(ValueError, match="philly:N"):
        raise WorkloadError("'trace:3': use a CSV path, philly:N or adaptdl:N")


def test_an_error_crosses_a_process_boundary_with_its_code_and_fix():
    from assay.dsl import PipelineError
    from assay.jobs import SpecError

    for error in (PipelineError("E011", "Step 1 needs 'text'.", "add a reader."),
                  SpecError("steps", "must be at least 1.", "write steps: 10.")):
        back = pickle.loads(pickle.dumps(error))
        assert (type(back), back.code, back.message, back.fix, str(back)) == (
            type(error), error.code, error.message, error.fix, str(error))


def test_one_line_names_the_code_the_message_and_the_fix():
    from assay.jobs import SpecError
    from assay.store import DatabaseBusy

    line = one_line(SpecError("steps", "must be at least 1", "write a positive number,\n e.g. steps: 10."))
    assert line == "error [E060]: job spec field 'steps': must be at least 1. Fix: write a positive number, e.g. steps: 10."
    busy = DatabaseBusy("assay.duckdb stayed locked", "set ASSAY_LOCK_TIMEOUT")
    assert code_of(busy) == "E050" and isinstance(busy, RuntimeError)
    assert one_line(busy) == "error [E050]: assay.duckdb stayed locked. Fix: set ASSAY_LOCK_TIMEOUT"
    assert one_line(OSError("disk full")) == "error: disk full"
