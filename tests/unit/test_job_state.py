"""The one list of job states: stored as the plain strings, each state in exactly one group but ``waiting``."""

import json

from assay.store.job_state import ACTIVE_STATES, ALL_STATES, FINAL_STATES, WAITING_STATES, JobState


def test_a_state_is_stored_and_printed_as_its_plain_string():
    assert JobState.RESTARTING == "restarting"
    assert f"{JobState.COMPLETED}" == "completed"
    assert json.dumps({"state": JobState.PREEMPTED}) == '{"state": "preempted"}'
    assert JobState("resizing") is JobState.RESIZING


def test_every_state_but_waiting_belongs_to_exactly_one_group():
    groups = [*ACTIVE_STATES, *WAITING_STATES, *FINAL_STATES]
    assert len(groups) == len(set(groups))
    assert set(ALL_STATES) - set(groups) == {JobState.WAITING}
    assert JobState.RESTARTING in ACTIVE_STATES
