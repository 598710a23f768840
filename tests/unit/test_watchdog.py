"""The watchdog on Ray's public API: Ray Data's no-progress guard set for a run that asks to fail on a stall,
its error turned into assay's StalledError naming the stuck stage, the process's setting given back."""

from __future__ import annotations

import pytest

from assay.runtime import StalledError
from assay.runtime._watchdog import Watchdog, ray_datas_timeout_error, stages_in_ray_datas_error

# Ray Data's message, as its guard words it for one operator that stopped moving (Ray 2.60).
RAY_DATA_SAYS = (
    "Dataset execution made no progress for at least 3s of scheduling time (timeout: 3s).\n"
    "Operators still running:\n"
    "  - MapBatches(stuck_reader): 1 active task(s), 0 finished, 0 outputs taken\n"
    "If this is expected, raise the timeout for this Dataset.")


def test_the_stages_ray_data_still_runs_are_read_from_its_error():
    assert stages_in_ray_datas_error(RuntimeError(RAY_DATA_SAYS)) == [
        "MapBatches(stuck_reader): 1 active task(s), 0 finished, 0 outputs taken"]
    assert stages_in_ray_datas_error(RuntimeError("no list here")) == []


def test_ray_datas_no_progress_error_becomes_a_stalled_error_naming_the_stage():
    error = ray_datas_timeout_error()

    def batches():
        yield "first"
        raise error(RAY_DATA_SAYS)

    watchdog = Watchdog("stuck", 3, fail=True, plan=["reader: 1-2 actors of 0.875 CPU"])
    seen = []
    with pytest.raises(StalledError) as err:
        for batch in watchdog.watch(batches()):
            seen.append(batch)
    assert seen == ["first"] and watchdog.tripped is err.value
    text = str(err.value)
    assert text.startswith("stuck: no record has moved for")
    assert "  stage MapBatches(stuck_reader): 1 active task(s)" in text
    assert "  planned: reader: 1-2 actors of 0.875 CPU" in text
    assert "Still waiting" not in text  # it fails instead


def test_failing_on_a_stall_sets_ray_datas_guard_for_the_run_only():
    import ray

    ctx = ray.data.DataContext.get_current()
    if not hasattr(ctx, "execution_no_progress_timeout_s"):  # make test-compat's oldest Ray: no such guard
        pytest.skip("this Ray Data has no no-progress guard; the watchdog's thread is the backstop")
    kept = ctx.execution_no_progress_timeout_s
    with Watchdog("p", 7, fail=True):
        assert ray.data.DataContext.get_current().execution_no_progress_timeout_s == 7
    assert ctx.execution_no_progress_timeout_s == kept
    with Watchdog("p", 7, fail=False):  # only reports: Ray Data's own setting stays
        assert ctx.execution_no_progress_timeout_s == kept


def test_a_report_without_stage_state_says_so_and_that_the_run_waits_on():
    text = Watchdog("p", 5, plan=[]).message(12)
    assert text.startswith("p: no record has moved for 12 s")
    assert "no stage state at hand" in text and "Still waiting" in text


def test_a_stall_noticed_as_the_run_ends_interrupts_nothing_after_it():
    # The thread notices the stall, then takes its time over the message (the state API can take seconds);
    # the run ends meanwhile. An interrupt sent now would land in whatever the process runs next.
    import threading
    import time

    composing, release = threading.Event(), threading.Event()

    def slow_where():
        composing.set()
        release.wait(5)
        return ["stage: a batch"]

    watchdog = Watchdog("p", 0.2, fail=True, local=slow_where)
    with watchdog:
        assert composing.wait(5), "the thread never noticed the stall"
    release.set()
    try:
        time.sleep(0.5)
    except KeyboardInterrupt:
        pytest.fail("the watchdog interrupted the process after the run had ended")
    assert watchdog.tripped is None
