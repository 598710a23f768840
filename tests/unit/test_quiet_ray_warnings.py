"""Quiet about Ray (issue 30): the Python warnings Ray raises, from its own modules or attributed to the assay
code that calls it (Ray Data warns with stacklevel=2), are hidden by ``quiet_ray`` and shown again with
``quiet_ray(False)`` (what --verbose calls); other libraries' warnings are left alone."""

from __future__ import annotations

import logging
import os
import warnings

import pytest

from assay.ray_session import quiet_ray


@pytest.fixture(autouse=True)
def _own_filters(monkeypatch):
    """The filters, Ray's log-level variables and the ray loggers' levels as they were before the test."""
    for name in ("RAY_BACKEND_LOG_LEVEL", "RAY_DATA_LOG_LEVEL"):
        monkeypatch.setenv(name, os.environ.get(name, "")) if name in os.environ else monkeypatch.delenv(
            name, raising=False)
    levels = {n: logging.getLogger(n).level for n in ("ray", "ray.data", "ray.train", "ray.tune")}
    with warnings.catch_warnings():
        yield
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def _shown(module: str) -> bool:
    with warnings.catch_warnings(record=True) as seen:
        warnings.warn_explicit("a note", UserWarning, "somewhere.py", 1, module=module, registry={})
    return bool(seen)


def test_ray_warnings_are_hidden_unless_verbose():
    quiet_ray()
    try:
        assert not _shown("ray.data.dataset") and not _shown("assay.runtime._run")
        assert _shown("pandas.core.frame") and _shown("rayleigh")
        quiet_ray(False)
        assert _shown("ray.data.dataset")
    finally:
        quiet_ray(False)
