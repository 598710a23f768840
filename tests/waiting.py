"""Waiting on a condition instead of sleeping: a test goes on the moment what it needs is true, and fails
with what it waited for when it never becomes true.

    from waiting import wait_for
    wait_for(lambda: job_state(db, job_id) == "running", 60, "the job to run")
    pid = wait_for(find_raylet, 30, "the raylet")      # the predicate's (truthy) value is returned
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_for(predicate: Callable[[], T], timeout_s: float, what: str, *, poll_s: float = 0.05) -> T:
    """Call ``predicate`` every ``poll_s`` seconds until it returns something truthy, and return that;
    ``AssertionError`` naming ``what`` (and the last value seen) after ``timeout_s`` seconds."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s:g}s waiting for {what} (last: {value!r})")
        time.sleep(poll_s)
