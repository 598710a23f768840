"""Connecting to a cluster with token authentication (Ray 2.60): the token is used when one is at hand, and
a refusal is one line that says what to do."""

from __future__ import annotations

import pytest

from assay import ray_session
from assay.runtime import prefer_token_auth


@pytest.fixture
def clean_auth_env(monkeypatch, tmp_path):
    for var in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def test_a_token_file_turns_token_mode_on_for_a_cluster_address(clean_auth_env, monkeypatch):
    (clean_auth_env / ".ray").mkdir()
    (clean_auth_env / ".ray" / "auth_token").write_text("a" * 64)
    import os

    assert prefer_token_auth(None) is False and "RAY_AUTH_MODE" not in os.environ  # embedded: no token
    assert prefer_token_auth("10.0.0.1:6379") is True
    assert os.environ["RAY_AUTH_MODE"] == "token"
    monkeypatch.delenv("RAY_AUTH_MODE")


def test_no_token_and_an_explicit_mode_are_left_alone(clean_auth_env, monkeypatch):
    import os

    assert prefer_token_auth("10.0.0.1:6379") is False
    assert "RAY_AUTH_MODE" not in os.environ
    monkeypatch.setenv("RAY_AUTH_TOKEN", "b" * 64)
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    assert prefer_token_auth("10.0.0.1:6379") is False
    assert os.environ["RAY_AUTH_MODE"] == "disabled"


def test_a_refused_token_is_one_line_with_the_fix():
    try:
        try:
            raise RuntimeError("RPC error: InvalidAuthToken: Authentication token is missing or incorrect.")
        except RuntimeError as inner:
            raise ConnectionError("Failed to connect to Ray cluster at 10.0.0.1:6379") from inner
    except ConnectionError as exc:
        message = ray_session._connection_problem("10.0.0.1:6379", exc)
    assert "\n" not in message and message.startswith("--address 10.0.0.1:6379")
    assert "RAY_AUTH_MODE=token" in message and "auth_token" in message


def test_no_cluster_at_the_address_says_how_to_start_one():
    message = ray_session._connection_problem("10.0.0.1:6379", ConnectionError("Failed to connect"))
    assert "ray start --head" in message and "\n" not in message


def test_a_mode_set_after_ray_was_imported_is_told_to_be_set_before_python_starts(clean_auth_env, monkeypatch):
    """Ray reads RAY_AUTH_MODE once, on import, and has no public way to read it again: assay sets it before
    Ray's first import, and where a caller imported Ray first, a refusal says what to do."""
    import os
    import sys
    import types

    monkeypatch.setenv("RAY_AUTH_TOKEN", "c" * 64)
    monkeypatch.delitem(sys.modules, "ray", raising=False)
    assert ray_session.use_cluster_token("10.0.0.1:6379") is True  # Ray not imported yet: it will read it
    assert os.environ["RAY_AUTH_MODE"] == "token"
    monkeypatch.delenv("RAY_AUTH_MODE")
    monkeypatch.setitem(sys.modules, "ray", types.ModuleType("ray"))
    assert ray_session.use_cluster_token("10.0.0.1:6379") is False  # Ray imported before: too late
    monkeypatch.delenv("RAY_AUTH_MODE")
    monkeypatch.setitem(ray_session._late_token, "mode_set_after_import", True)
    refused = RuntimeError("InvalidAuthToken: Authentication token is missing")
    message = ray_session._connection_problem("10.0.0.1:6379", refused)
    assert "before starting Python" in message and "\n" not in message
