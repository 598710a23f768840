"""What ``assay simulate`` calls: a workload by name, and one workload under several policies, recorded with
the published figures only where they compare (Pollux's cluster)."""

from __future__ import annotations

import pytest

from assay.scheduler.simulator import PUBLISHED_SETTING, compare_policies, policy_names
from assay.scheduler.workloads import WorkloadError, named_workload
from assay.store import connect


def test_a_workload_by_name_generated_packaged_or_a_file(tmp_path):
    assert len(named_workload("philly:12", seed=3).jobs) == 12
    assert named_workload("adaptdl:2").name == "adaptdl/workload-2"
    with pytest.raises(WorkloadError, match="1..8"):
        named_workload("adaptdl:9")
    with pytest.raises(WorkloadError, match="philly:N"):
        named_workload("trace:3")
    own = tmp_path / "mine.csv"
    own.write_text("job_id,submit_time,num_gpus,duration,model\nj1,0,2,600,resnet18\nj2,30,4,900,bert\n")
    assert [j.job_id for j in named_workload(str(own)).jobs] == ["j1", "j2"]


def test_all_is_the_builtin_policies_and_an_unknown_one_is_named():
    assert policy_names("all") == ["fifo", "tiresias", "goodput"]
    assert policy_names("tiresias") == ["tiresias"]
    with pytest.raises(KeyError, match="'lifo'.*goodput"):
        policy_names("lifo")


def _policies(db) -> list[str]:
    with connect(db, read_only=True) as con:
        return sorted(p for (p,) in con.execute("SELECT policy FROM sim_runs").fetchall())


def test_published_figures_are_stored_only_beside_a_replay_on_their_cluster(tmp_path):
    workload = named_workload("adaptdl:1")
    workload.jobs = workload.jobs[:8]  # a short replay: what is stored, not the figures, is under test
    elsewhere = tmp_path / "elsewhere.duckdb"
    small = {**PUBLISHED_SETTING, "gpus": 16}
    comparison = compare_policies(workload, "fifo", db=elsewhere, **small)
    assert comparison.references and _policies(elsewhere) == ["fifo"]

    theirs = tmp_path / "theirs.duckdb"
    compare_policies(workload, "all", db=theirs, **PUBLISHED_SETTING)
    stored = _policies(theirs)
    assert {"fifo", "tiresias", "goodput", "published:pollux"} <= set(stored)
    assert set(compare_policies(workload, "goodput", store=False).figures("goodput")) >= {"avg_jct", "wall_s"}
