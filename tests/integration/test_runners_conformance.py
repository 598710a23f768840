"""One pipeline, two runners, the same database (Apache Beam's runner conformance, assay's scale).

Every built-in pipeline (each module of ``assay.pipelines`` that defines ``pipeline``), the logs pipeline with
chunks small enough that a log is split, planned in the driver and assembled, and the README's own example
run over the same small inputs (good files, a broken one, a file of a kind the pipeline skips) on the local
runner and on the Ray runner, each into its own database. The two databases must hold the same rows, ids
included, in every table a pipeline writes, the same quarantine rows, and the same counts in the run's
summary and its ``pipeline_runs`` row. Needs real Ray: it is what the local runner is held to. The shared
test session's Ray is started once (``ray_local``) and serves every case.
"""

from __future__ import annotations

import math
import pkgutil
import re
import shutil
from pathlib import Path

import duckdb
import pytest

import assay.pipelines
from assay.dsl import Pipeline, load_pipeline
from assay.runtime import run_pipeline

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "pipelines" / "samples"
#: Columns that say when or in which pipeline run a row was written, not what it holds.
PER_RUN = {"pipeline_run_id", "ingested_at", "at", "seen_at", "superseded_at"}
#: Per pipeline: a few sample inputs of each shape it reads (the rest of a sample folder adds time, not cases).
PICKS = {
    "papers": ("cinder.txt", "pylon.tex", "heron_zh.txt", "larch.md", "brook.pdf", "collection.jsonl",
               "shorts.csv"),
    "logs": ("megatron_gpt_tp2_pp2.log", "deepspeed_zero3.log", "metrics.jsonl", "nanogpt_shakespeare_char.log",
             "hf_checkpoint-100", "lightning_logs", "tensorboard_run"),
}


def readme_example(tmp_path: Path) -> Path:
    """The README's pipeline code block, saved to a file as a user would save it."""
    (block,) = re.findall(r"```python\n(# my_pipeline\.py.*?)```", (ROOT / "README.md").read_text(), re.S)
    path = tmp_path / "user" / "my_pipeline.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(block)
    return path


def builtin_pipelines() -> list[str]:
    names = []
    for module in pkgutil.iter_modules(assay.pipelines.__path__):
        if not module.ispkg and isinstance(getattr(load_or_none(module.name), "name", None), str):
            names.append(module.name)
    return sorted(names)


def load_or_none(name: str) -> Pipeline | None:
    try:
        return load_pipeline(name)
    except Exception:  # noqa: BLE001 -- a module of the package that is no pipeline
        return None


def inputs_for(kind: str, root: Path) -> Path:
    """A folder with a few samples of ``kind``, one broken file and one file the logs pipeline skips."""
    folder = root / kind
    folder.mkdir(parents=True)
    source = SAMPLES / kind
    for name in PICKS.get(kind) or sorted(p.name for p in source.iterdir()):
        (shutil.copytree if (source / name).is_dir() else shutil.copy)(source / name, folder / name)
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pa")  # truncated: quarantined
    (folder / "empty.log").write_bytes(b"")
    if kind == "logs":
        shutil.copy(SAMPLES / "papers" / "pylon.tex", folder)  # a paper among the logs: skipped
    return folder


def tables(db: Path) -> dict[str, list[tuple]]:
    """Every table's rows (per-run columns left out) in a stable order; pipeline_runs as its counts."""
    out = {}
    with duckdb.connect(str(db), read_only=True) as con:
        names = [r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE'").fetchall()]
        for name in sorted(set(names) - {"schema_version"}):  # when the file was made, not what it holds
            if name == "pipeline_runs":
                cols = ["pipeline", "status", "n_in", "n_ok", "n_quarantined", "n_records"]
            else:
                cols = [r[0] for r in con.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
                    "ORDER BY ordinal_position", [name]).fetchall() if r[0] not in PER_RUN]
            if name == "units_written":
                cols = ["unit_key"]
            quoted = ", ".join(f'"{c}"' for c in cols)
            rows = con.execute(f'SELECT {quoted} FROM "{name}"').fetchall()
            out[name] = sorted((tuple(map(comparable, row)) for row in rows), key=repr)
    return out


def comparable(value: object) -> object:
    """NaN as a value equal to itself (the contract stores NaN metric values as NaN)."""
    return "NaN" if isinstance(value, float) and math.isnan(value) else value


def cases(tmp_path: Path) -> list[tuple[str, Pipeline, Path]]:
    return [(name, load_pipeline(name), inputs_for(name, tmp_path / "in")) for name in builtin_pipelines()]


@pytest.mark.parametrize("case", ["builtin", "logs_chunked", "readme"])
def test_both_runners_write_the_same_rows(case, ray_local, tmp_path):
    if case == "builtin":
        runs = cases(tmp_path)
        assert {"papers", "logs"} <= {name for name, _, _ in runs}
    elif case == "logs_chunked":
        from assay.pipelines.logs import build

        runs = [("logs", build(chunk_mb=4 / 1024), inputs_for("logs", tmp_path / "in"))]
    else:
        runs = [("readme", load_pipeline(str(readme_example(tmp_path))), inputs_for("papers", tmp_path / "in"))]
    summaries = {}
    for runner in ("local", "ray"):
        db = tmp_path / f"{runner}.duckdb"
        for name, pipe, folder in runs:
            s = run_pipeline(pipe, [folder], db=db, progress=False, runner=runner, stall_s=90, stall_fail=True)
            assert (s.status, s.runner) == ("completed", runner), name
            assert s.n_quarantined >= 1, name  # the broken file (or the empty log) is in quarantine
            summaries[runner, name] = (s.n_in, s.n_ok, s.n_quarantined, s.n_records, s.n_line_issues)
    for name, _, _ in runs:
        assert summaries["local", name] == summaries["ray", name], name
    local, ray = tables(tmp_path / "local.duckdb"), tables(tmp_path / "ray.duckdb")
    assert local.keys() == ray.keys()
    for table in local:
        assert local[table] == ray[table], f"{case}: table {table} differs between the runners"
    assert local["documents"] and local["quarantine"]
