"""The tests' own helpers (``tests/papers_extract.py``, ``tests/log_files.py`` ...) are imported as top-level
modules (``from papers_extract import ...``): pytest puts ``tests/``, the folder of ``conftest.py``, on the path. An
import as ``tests.papers_extract`` works only where the repository root is on the path too (``python -m
pytest``), and fails to collect under ``make test``'s plain ``pytest``."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def imports_through_the_tests_package(source: str) -> list[str]:
    """The ``tests.*`` modules a test file's source imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "tests":
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "tests"]
    return found


def test_the_check_finds_an_import_through_the_tests_package():
    assert imports_through_the_tests_package("from tests.papers_extract import file_claims\n") == [
        "tests.papers_extract"]
    assert imports_through_the_tests_package("from papers_extract import file_claims\nimport json\n") == []


def test_no_test_imports_a_helper_through_the_tests_package():
    offenders = {
        str(path.relative_to(TESTS)): found
        for path in sorted(TESTS.rglob("*.py"))
        if (found := imports_through_the_tests_package(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}, f"import these as top-level modules (from papers_extract import ...): {offenders}"
