"""One AppTest per dashboard view, on a database filled with sample data: no exception, the key elements
are there, and a filter changes what is shown. Plus the empty and the missing database."""

from __future__ import annotations

from pathlib import Path

import dashboard_data as dd
import pytest
from streamlit.testing.v1 import AppTest

from assay.dashboards import _ui
from assay.store import queries_knowledge

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


@pytest.fixture(scope="module")
def unchecked(tmp_path_factory) -> dd.Sample:
    return dd.fill_sample(tmp_path_factory.mktemp("unchecked") / "assay.duckdb", checks=False)


def test_overview(monkeypatch, sample):
    at = open_page(monkeypatch, sample.db, "overview")
    assert at.title[0].value == "Overview"
    assert "Claims checked: 3** of 8 — 1 ❌ contradicted · 1 ⚠️ implausible · 1 ➖ untestable" in texts(at)
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
    # It opens on the system the most claims are about (the most mentioned entity may be a GPU).
    most = queries_knowledge.most_claimed_entity(sample.db)
    assert most == sample.entity_ids["Megatron-LM"] and at.header[0].value == "Megatron-LM"
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
    claims = at.dataframe[0].value
    assert len(claims) == len(sample.claim_ids)
    assert len(at.get("download_button")) == 1
    megatron_x = claims.set_index("claim_id").loc[sample.claim_ids[0]]
    assert megatron_x[["runs", "cost model", "reproduction"]].tolist() == [
        "✅ consistent",
        "✅ consistent",
        "❌ contradicted",
    ]
    at.multiselect(key="claims_systems").select("Pollux").run()
    assert_clean(at)
    assert set(at.dataframe[0].value["system"]) == {"Pollux"}
    assert "2 claim(s) match" in texts(at)
    at.multiselect(key="claims_systems").unselect("Pollux").run()
    at.text_input(key="claims_text").input('" OR 1=1 --' + "x" * 150).run()
    assert_clean(at)
    assert "No claim matches" in texts(at)


def test_claim_verdicts_side_by_side_with_their_evidence(monkeypatch, sample):
    at = open_page(monkeypatch, sample.db, "claims")
    # The claim with verdicts that say something opens first: the Megatron-LM 1.5x throughput claim.
    assert at.selectbox(key="claims_pick").value == sample.claim_ids[0]
    figures = {m.label: m.value for m in at.metric}
    assert figures == {
        "Claimed": "1.5x",
        "Measured (runs)": "1.39x",
        "Predicted (cost model)": "1.44x",
        "Reproduced": "1.05x",
    }
    shown = texts(at)
    assert "reproduced 1.05x at 8 workers" in shown and "❌ contradicted" in shown
    assert [e.label.split(" · ")[0] for e in at.expander] == [
        "Evidence: measured (runs)",
        "Evidence: predicted (cost model)",
        "Evidence: reproduced",
    ]
    # The intervals beside the claim; runs: medians and curves of the matching runs; reproduction: its runs
    # and the jobs' timeline.
    assert plots(at) == 6
    frames = [d.value for d in at.dataframe]
    plan = next(f for f in frames if "side" in f.columns and "tp" in f.columns)
    assert plan.set_index("side").loc["baseline", "dp"] == "16"
    jobs = next(f for f in frames if "side" in f.columns and "job_id" in f.columns)
    assert jobs.set_index("job_id").loc["job-elastic", "state"] == "running"
    assert len(at.get("page_link")) == 1  # to the Scheduler, narrowed to these jobs


def test_claim_filtered_by_verdict_and_an_unchecked_claim(monkeypatch, sample):
    at = open_page(monkeypatch, sample.db, "claims")
    at.multiselect(key="claims_verdicts").select("implausible").run()
    assert_clean(at)
    assert at.dataframe[0].value["claim_id"].tolist() == [sample.claim_ids[1]]
    assert {m.label: m.value for m in at.metric}["Predicted (cost model)"] == "41%"
    assert {m.label: m.value for m in at.metric}["Measured (runs)"] == "—"  # not checked by runs
    at.multiselect(key="claims_kinds").select("runs").run()
    assert "No claim matches" in texts(at)
    at.multiselect(key="claims_kinds").unselect("runs").run()
    at.multiselect(key="claims_verdicts").unselect("implausible").select("unchecked").run()
    assert_clean(at)
    assert "No verdict on this claim yet" in texts(at) and "assay check" in texts(at)
    # Without a stored runs verdict the claim can still be compared with the runs on the spot.
    at.multiselect(key="claims_verdicts").unselect("unchecked").run()
    at.selectbox(key="claims_pick").set_value(sample.claim_ids[1]).run()  # 52% MFU: cost model only
    at.toggle(key="claims_live").set_value(True).run()
    assert_clean(at)
    live = [(m.label, m.value) for m in at.metric][-3:]  # after the stored verdicts' side-by-side
    assert live == [("Claimed", "52%"), ("Measured (runs)", "51%"), ("Verdict", "✅ consistent")]


def test_claims_and_overview_before_any_check(monkeypatch, unchecked):
    at = open_page(monkeypatch, unchecked.db, "claims")
    assert len(at.dataframe[0].value) == len(unchecked.claim_ids)
    assert (at.dataframe[0].value[["runs", "cost model", "reproduction"]] == "").all().all()
    assert "No verdict on this claim yet" in texts(at) and "assay check" in texts(at)
    assert not at.expander
    at = open_page(monkeypatch, unchecked.db, "overview")
    assert "No claim has a verdict yet" in texts(at) and "assay check" in texts(at)


def test_claims_on_a_file_from_before_the_checks(monkeypatch, tmp_path):
    from assay.store import connect

    old = dd.fill_sample(tmp_path / "old.duckdb", checks=False)
    with connect(old.db) as con:
        con.execute("DROP TABLE claim_checks")
    at = open_page(monkeypatch, old.db, "claims")
    assert len(at.dataframe[0].value) == len(old.claim_ids)
    at.multiselect(key="claims_verdicts").select("consistent").run()
    assert_clean(at)
    assert "No claim matches" in texts(at)
    assert "No claim has a verdict yet" in texts(open_page(monkeypatch, old.db, "overview"))


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
    # timeline, usage, average JCT, JCT distribution, and workers per GPU type: workload-0 opens first (its
    # own simulations are as new as workload-3's: by name) and one of its policies ran on two GPU types.
    assert plots(at) == 5
    assert at.selectbox(key="sched_workload").value == "workload-0"
    assert "Allocation per GPU type" in [h.value for h in at.subheader]
    sims = at.dataframe[-1].value
    assert set(sims["policy"]) == set(dd.POLICIES) | set(dd.PUBLISHED)
    before = sims["avg_jct (h)"].tolist()
    at.selectbox(key="sched_workload").set_value("workload-3").run()
    assert_clean(at)
    assert at.dataframe[-1].value["avg_jct (h)"].tolist() != before
    assert plots(at) == 4  # one GPU type there: no per-type chart
    assert "Utilisation over the timeline" in texts(at)
    at.multiselect(key="sched_states").select("queued").run()
    assert at.dataframe[0].value["job_id"].tolist() == ["job-sweep"]


def test_scheduler_narrowed_to_a_reproductions_jobs(monkeypatch, sample):
    """The Claims page links to ``scheduler?jobs=a,b``: only those jobs, until *Show all jobs*."""
    monkeypatch.setenv("ASSAY_DB", str(sample.db))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["jobs"] = "job-elastic,job-bert"
    at.run()
    at.switch_page("views/scheduler.py").run()
    assert_clean(at)
    assert sorted(at.dataframe[0].value["job_id"]) == ["job-bert", "job-elastic"]
    assert "2 job(s) of a claim's reproduction" in texts(at)
    at.button(key="sched_all_jobs").click().run()
    assert_clean(at)
    assert len(at.dataframe[0].value) == len(sample.job_ids)


def test_pipelines(monkeypatch, sample):
    at = open_page(monkeypatch, sample.db, "pipelines")
    assert {m.label: m.value for m in at.metric}["Runs"] == "3"
    # "Quarantined" heads the rows listed under it; the level filter offers the levels those rows hold.
    assert {m.label: m.value for m in at.metric}["Quarantined"] == str(len(at.dataframe[-1].value))
    assert at.radio(key="pipes_level").options == ["all", *sorted(set(at.dataframe[-1].value["level"]))]
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
