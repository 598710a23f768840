"""The logs pipeline into a real DuckDB file: the samples into the graph, a large file split into chunks and
assembled again, and a re-run that adds nothing, on the local runner (what the pipeline extracts; the Ray
runner is held to the same rows by test_runners_conformance); a user's own format from a pipeline file on
real Ray, whose workers must receive the user's parser class."""

from __future__ import annotations

import json
import math
import random
import textwrap
from pathlib import Path

import duckdb
import pytest

from assay.dsl import load_pipeline
from assay.ids import stable_id
from assay.operators.logs import parse_log
from assay.pipelines.logs import build
from assay.runtime import run_pipeline

pytestmark = pytest.mark.integration

SAMPLES = Path(__file__).resolve().parents[2] / "pipelines" / "samples" / "logs"


def query(db: Path, sql: str) -> list[tuple]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql).fetchall()


def test_samples_into_the_graph(tmp_path):
    db = tmp_path / "assay.duckdb"
    summary = run_pipeline(load_pipeline("logs"), [SAMPLES], db=db, progress=False, runner="local")
    n_files = sum(1 for p in SAMPLES.rglob("*") if p.is_file())
    assert (summary.status, summary.n_in, summary.n_ok) == ("completed", n_files, n_files)

    runs = {
        Path(r[0]).name: r[1:]
        for r in query(db, "select source_uri, framework, world_size, dp, tp, pp, status from runs")
    }
    assert len(runs) == n_files
    assert runs["megatron_gpt_tp2_pp2.log"] == ("Megatron-LM", 8, 2, 2, 2, "completed")
    assert runs["megatron_deepspeed_nan.log"][-1] == "diverged"
    assert runs["torchtitan_llama3_8b.log"][0] == "TorchTitan"
    assert runs["deepspeed_pipeline_cancelled.log"][-1] == "cancelled"

    assert (
        query(db, "select count(*) from metrics where name = 'loss' and isnan(value)")[0][0] > 0
    )  # NaN kept
    kinds = {k for (k,) in query(db, "select distinct kind from events")}
    assert {
        "oom",
        "nan",
        "skipped_step",
        "restart",
        "failure",
        "cancelled",
        "hardware_error",
        "checkpoint",
    } <= kinds
    # one document per file, kind 'log', no text
    assert query(
        db, "select count(*), count(distinct doc_id), count(text) from documents where kind = 'log'"
    )[0] == (n_files, n_files, 0)
    # a run links to its system by the papers' entity id, through the document
    rows = query(
        db,
        f"""select r.source_uri from entities e join mentions m using (entity_id)
                         join runs r on r.doc_id = m.doc_id
                         where e.entity_id = '{stable_id("system", "deepspeed")}'""",
    )
    assert {Path(r[0]).name for r in rows} >= {"deepspeed_zero3.log", "megatron_deepspeed_nan.log"}
    issues = query(db, "select error, level from quarantine")
    assert any("JSON" in e and level == "line" for e, level in issues)

    counts = query(
        db,
        "select (select count(*) from metrics), (select count(*) from events), "
        "(select count(*) from entities), (select count(*) from mentions)",
    )
    again = run_pipeline(load_pipeline("logs"), [SAMPLES], db=db, progress=False, runner="local")
    assert again.status == "completed"
    assert query(db, "select count(*) from runs")[0][0] == n_files  # nothing written twice
    assert (
        query(
            db,
            "select (select count(*) from metrics), (select count(*) from events), "
            "(select count(*) from entities), (select count(*) from mentions)",
        )
        == counts
    )


def _megatron(path: Path, iterations: int) -> None:
    rng = random.Random(1)
    lines = [
        "using world size: 16, data-parallel size: 4, context-parallel size: 1, tensor-model-parallel size: 2, "
        "pipeline-model-parallel size: 2 "
    ]
    for it in range(1, iterations + 1):
        lines.append(
            f" [2024-02-02 10:{it // 60 % 60:02d}:{it % 60:02d}] iteration {it:8d}/{iterations:8d} | "
            f"consumed samples: {it * 128:12d} | elapsed time per iteration (ms): {700 + rng.random():.1f} | "
            f"learning rate: 1.000000E-04 | global batch size:   128 | lm loss: {8 - it / iterations:.6E} | "
            f"loss scale: 1.0 | grad norm: {rng.random():.3f} | number of skipped iterations:   0 | "
            f"number of nan iterations:   0 |"
        )
    path.write_text("\n".join(lines) + "\n[after training is done] datetime: 2024-02-02 12:00:00\n")


def test_large_file_is_split_and_assembled(tmp_path):
    log = tmp_path / "logs" / "big.log"
    log.parent.mkdir()
    _megatron(log, 12000)
    db = tmp_path / "assay.duckdb"
    summary = run_pipeline(build(chunk_mb=0.5), [log.parent], db=db, progress=False, runner="local")
    assert (summary.n_in, summary.n_ok, summary.n_quarantined) == (1, 1, 0)

    whole = parse_log(log)  # one process, one record
    stored = query(db, "select * from runs")
    assert len(stored) == 1
    columns = [
        d[0] for d in duckdb.connect(str(db), read_only=True).execute("select * from runs").description
    ]
    row = dict(zip(columns, stored[0], strict=True))
    for key in (
        "run_id",
        "framework",
        "status",
        "world_size",
        "dp",
        "tp",
        "pp",
        "global_batch_size",
        "doc_id",
    ):
        assert row[key] == whole.run[key], key
    assert json.loads(row["config"])["summary"]["chunks"] > 3
    assert query(db, "select count(*) from metrics")[0][0] == whole.metrics.num_rows
    assert query(db, "select min(step), max(step), count(distinct step) from metrics where name = 'loss'")[
        0
    ] == (1, 12000, 12000)
    assert query(db, "select count(*) from documents")[0][0] == 1


def test_user_format_from_a_pipeline_file(ray_local, tmp_path):
    """A user's parser class lives only in their pipeline file; it must reach the Ray workers."""
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "acme.log").write_text(
        "".join(f"ACME step={i} objective={3 - i / 10} gpus=4\n" for i in range(20))
    )
    pipeline_file = tmp_path / "acme_pipeline.py"
    pipeline_file.write_text(
        textwrap.dedent("""
        import re
        from assay.operators.logs import LogParser
        from assay.pipelines.logs import build

        STEP = re.compile(r"^ACME step=(?P<step>\\d+) objective=(?P<loss>\\S+) gpus=(?P<gpus>\\d+)")

        class AcmeParser(LogParser):
            name = "acme"
            framework = "AcmeTrain"
            interesting = r"^ACME step="

            @classmethod
            def sniff(cls, head, path):
                return 1.0 if "ACME step=" in head else 0.0

            def parse_line(self, text, line_no, rank):
                m = STEP.match(text)
                if m:
                    self.out.metric("loss", int(m["step"]), float(m["loss"]), line_no, rank)
                    self.out.setting("world_size", int(m["gpus"]), line_no)

        pipeline = build(parsers=[AcmeParser], name="acme-logs")
    """)
    )
    db = tmp_path / "assay.duckdb"
    summary = run_pipeline(load_pipeline(str(pipeline_file)), [tmp_path / "logs"], db=db, progress=False,
                           runner="ray")
    assert (summary.pipeline, summary.n_ok, summary.n_quarantined) == ("acme-logs", 1, 0)
    assert query(db, "select framework, world_size from runs") == [("AcmeTrain", 4)]
    losses = query(db, "select step, value from metrics where name = 'loss' order by step")
    assert len(losses) == 20 and math.isclose(losses[-1][1], 1.1)
