"""A project's README as the paper (issue 26): its badges (``[![PyPI](https://img.shields.io/...)](...)``) are no
prose and never its title or its system, and the package it tells its reader to install (``pip install
quokka-serve``) names its own system as the text writes it (``QuokkaServe``), also where no sentence says "we
present". Own-written READMEs in English and Chinese, read as a user's files."""

from __future__ import annotations

from pathlib import Path

import pytest
from papers_extract import file_claims

from assay.operators.papers._markdown import markdown_to_text

_HEAD = """<div align="center">
  <img src="docs/logo.svg" width="450"/>

[![PyPI](https://img.shields.io/pypi/v/quokka-serve)](https://pypi.org/project/quokka-serve)
![PyPI - Downloads](https://img.shields.io/pypi/dm/quokka-serve)
[![license](https://img.shields.io/github/license/acme/quokka-serve.svg)](https://github.com/acme/quokka-serve)

</div>
"""

_EN = _HEAD + """
## News

- [2025/06] Paged KV caches land: serving throughput is now 1.8x that of vLLM on Llama-3-8B.
- [2025/03] PyPI now hosts the prebuilt wheels.

## Install

pip install quokka-serve

QuokkaServe runs on A100 and H100 GPUs.
"""

_ZH = _HEAD + """
## 最新进展

- [2025/06] 支持分页 KV 缓存，推理性能是 vLLM 的 1.8 倍。
- [2025/03] PyPI 已恢复预编译安装包上传。

## 安装

pip install quokka-serve

QuokkaServe 支持 A100 和 H100。
"""


def test_badges_are_no_prose():
    text, _ = markdown_to_text(_EN)
    assert "PyPI - Downloads" not in text and "license" not in text.split("News")[0]


@pytest.mark.parametrize(("source", "number"), [(_EN, "1.8x"), (_ZH, "1.8 倍")])
def test_the_installed_package_names_the_readmes_system(tmp_path: Path, source: str, number: str):
    claims = {c["text"]: c for c in file_claims(tmp_path, source, "README.md")}
    assert claims[number]["subject"] == "QuokkaServe" and claims[number]["versus"] == "vLLM"


def test_a_link_whose_target_holds_parentheses_leaves_only_its_text():
    text, _ = markdown_to_text(
        "| Model | Notebook | Speed |\n|---|---|---|\n"
        "| **Tern (7B)** | [▶️ Open](https://example.org/nb/Tern_(7B)-Vision_DPO.ipynb) | 1.5x faster |\n"
    )
    assert "Vision" not in text and "DPO" not in text and "Open | 1.5x faster" in text


def test_a_deficit_in_a_table_row_is_no_clause_of_another_rows_name(tmp_path):
    text = (
        "# Quokka\n\nQuokka trains models faster with less memory.\n\n"
        "| Model | Notebook | Performance | Memory use |\n|---|---|---|---|\n"
        "| **Tern (7B)** | [Open](https://example.org/a.ipynb) | 1.5x faster | 50% less |\n"
        "| **Tern: FastGRPO** | [Open](https://example.org/b.ipynb) | 2x faster | 80% less |\n"
        "| **Wren (3B)** | [Open](https://example.org/c.ipynb) | 2x faster | 70% less |\n"
    )
    memory = [c for c in file_claims(tmp_path, text, "README.md") if c["unit"] == "%"]
    assert [c["value"] for c in memory] == [50.0, 80.0, 70.0]
    assert {c["subject"] for c in memory} == {"Quokka"}
