"""One AppTest per dashboard view, on a database filled with sample data: no exception, the key elements
are there, and a filter changes what is shown. Plus the empty and the missing database."""

from __future__ import annotations

from pathlib import Path

import dashboard_data as dd
import pytest
from streamlit.testing.v1 import AppTest

from assay.dashboards import _ui

APP = str(Path(_ui.__file__).resolve().parent / "app.py")
VIEWS = ["overview", "knowledge", "claims", "runs", "scheduler", "pipelines"]


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> dd.Sample:
    return dd.fill_sample(tmp_path_factory.mktemp("views") / "assay.duckdb")


def open_page(monkeypatch, db: Path, view: str) -> AppTest:
    monkeypatch.setenv("ASSAY_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=60).run()
    if view != "overview":
        at.switch_page(f"views/{view}.py").run()
    assert_clean(at)
    return at


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def plots(at: AppTest) -> int:
    return len(at.get("plotly_chart"))


def texts(at: AppTest) -> str:
    parts = [
        e.value for kind in ("info", "warning", "success", "caption", "markdown") for e in getattr(at, kind)
    ]
    return "\n".join(str(p) for p in parts)


def config_diff(at: AppTest):
    return next(d.value for d in at.dataframe if d.value.index.name == "setting")


def test_overview(monkeypatch, sample):
    at = open_page(monkeypatch, sample.db, "overview")
    assert at.title[0].value == "Overview"
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Claims"] == str(len(sample.claim_ids)) and metrics["Runs"] == str(len(dd.RUNS))
    assert plots(at) == 2
    quarantined = at.dataframe[1].value
    assert len(quarantined) == 6
    at.selectbox(key="overview_run").set_value(sample.pipeline_run_ids[1]).run()  # the logs run
    assert_clean(at)
    assert set(at.dataframe[1].value["pipeline"]) == {"logs"} and len(at.dataframe[1].value) == 2


def test_knowledge(monkeypatch, sample):
    at = open_page(monkeypatch, sample.db, "knowledge")
    assert len(at.dataframe[0].value) == len(dd.ENTITIES)
    assert at.header[0].value == "Megatron-LM"  # the most mentioned entity opens first
    marks = [h.proto.body for h in at.get("html")]
    assert any("<mark class='assay-claim'>1.5x higher throughput</mark>" in m for m in marks)
    assert plots(at) == 1  # the neighbour graph
    assert len(at.dataframe[-1].value) == sum(r[1] == "megatron" for r in dd.RUNS)  # runs that used it
    at.text_input(key="entity_search").input("zero").run()
    assert_clean(at)
    assert at.dataframe[0].value["name"].tolist() == ["DeepSpeed"]
    assert at.header[0].value == "DeepSpeed"
    assert at.query_params["entity"] == sample.entity_ids["DeepSpeed"]  # a link to this page
    at.text_input(key="entity_search").input("'; DROP TABLE entities; --").run()
    assert_clean(at)
    assert "No entity matches" in texts(at)


def test_claims(monkeypatch, sample):
    at = open_page(monkeypatch, sample.db, "claims")
    assert len(at.dataframe[0].value) == len(sample.claim_ids)
    assert len(at.get("download_button")) == 1
    measured = {m.label: m.value for m in at.metric}
    assert measured["Measured"] != "—" and measured["Compared on"] == "tokens_per_s"
    assert plots(at) == 1  # the matching runs
    at.multiselect(key="claims_systems").select("Pollux").run()
    assert_clean(at)
    assert set(at.dataframe[0].value["system"]) == {"Pollux"}
    assert "2 claim(s) match" in texts(at)
    at.multiselect(key="claims_systems").unselect("Pollux").run()
    at.text_input(key="claims_text").input('" OR 1=1 --' + "x" * 150).run()
    assert_clean(at)
    assert "No claim matches" in texts(at)


def test_runs(monkeypatch, sample):
    at = open_page(monkeypatch, sample.db, "runs")
    picker = at.multiselect(key="runs_pick")
    assert len(picker.options) == len(dd.RUNS) and len(picker.value) == 3
    assert plots(at) >= 3  # curves, throughput, MFU (and scaling efficiency)
    assert "NaN" in texts(at) or at.selectbox(key="runs_metric").value == "loss"
    at.multiselect(key="runs_fw").select("deepspeed").run()
    assert_clean(at)
    picker = at.multiselect(key="runs_pick")
    assert len(picker.options) == sum(r[1] == "deepspeed" for r in dd.RUNS)
    picker.set_value([dd.run_id(r[0]) for r in dd.RUNS if r[1] == "deepspeed"]).run()
    at.radio(key="runs_x").set_value("tokens").run()
    assert_clean(at)
    diff = config_diff(at)  # of the two deepspeed runs, identical settings hidden
    assert "model" in diff.index and "framework" not in diff.index
    at.toggle(key="runs_show_all").set_value(True).run()
    assert "framework" in config_diff(at).index


def test_scheduler(monkeypatch, sample):
    at = open_page(monkeypatch, sample.db, "scheduler")
    assert {m.label for m in at.metric} == {"running", "queued", "failed", "succeeded", "preempted"}
    assert plots(at) == 4  # timeline, usage, average JCT, JCT distribution
    sims = at.dataframe[-1].value
    assert set(sims["policy"]) == set(dd.POLICIES) | set(dd.PUBLISHED)
    before = sims["avg_jct (h)"].tolist()
    at.selectbox(key="sched_workload").set_value("workload-3").run()
    assert_clean(at)
    assert at.dataframe[-1].value["avg_jct (h)"].tolist() != before
    assert "Utilisation over the timeline" in texts(at)
    at.multiselect(key="sched_states").select("queued").run()
    assert at.dataframe[0].value["job_id"].tolist() == ["job-sweep"]


def test_pipelines(monkeypatch, sample):
    at = open_page(monkeypatch, sample.db, "pipelines")
    assert {m.label: m.value for m in at.metric}["Runs"] == "3"
    assert plots(at) == 1
    at.multiselect(key="pipes_names").select("logs").run()
    assert_clean(at)
    assert {m.label: m.value for m in at.metric}["Runs"] == "1"
    at.radio(key="pipes_level").set_value("line").run()
    assert at.dataframe[-1].value["error"].tolist() == ["unparseable line 42"]


@pytest.mark.parametrize("view", VIEWS)
def test_empty_database_shows_first_steps(monkeypatch, tmp_path, view):
    from assay.store import connect

    with connect(tmp_path / "empty.duckdb"):
        pass  # schema, no rows
    at = open_page(monkeypatch, tmp_path / "empty.duckdb", view)
    assert "assay run" in texts(at) or "assay jobs" in texts(at)


def test_missing_database_is_not_created(monkeypatch, tmp_path):
    at = open_page(monkeypatch, tmp_path / "absent.duckdb", "runs")
    assert "no assay database" in texts(at)
    assert not (tmp_path / "absent.duckdb").exists()


def test_no_dashboard_module_shadows_the_standard_library():
    """`streamlit run app.py` puts dashboards/ on sys.path: a views.py or json.py there would win over the
    standard library for every import in the process (design pitfalls 7 and 9)."""
    import sys

    folder = Path(APP).parent
    names = {p.stem for p in folder.glob("*.py")} | {p.name for p in folder.iterdir() if p.is_dir()}
    names |= {p.stem for p in (folder / "views").glob("*.py")}
    assert not names & set(sys.stdlib_module_names)
    assert {p.stem for p in (folder / "views").glob("*.py")} >= set(VIEWS)
    assert not (folder / "pages").exists(), "pages come from st.navigation, not the legacy pages/ folder"
