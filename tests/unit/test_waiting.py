"""The tests' ``wait_for``: returns as soon as the condition holds, and fails naming what it waited for."""

from __future__ import annotations

import time

import pytest
from waiting import wait_for


def test_returns_the_value_as_soon_as_the_condition_holds():
    calls = iter([0, None, [], "ready"])
    started = time.monotonic()
    assert wait_for(lambda: next(calls), 5, "the fourth call", poll_s=0.01) == "ready"
    assert time.monotonic() - started < 1


def test_fails_naming_what_it_waited_for():
    with pytest.raises(AssertionError, match=r"timed out after 0.05s waiting for the sky to fall \(last: False\)"):
        wait_for(lambda: False, 0.05, "the sky to fall", poll_s=0.01)
