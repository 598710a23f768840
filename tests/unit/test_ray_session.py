"""Where assay's one Ray session helper connects: the address given, else RAY_ADDRESS, else embedded Ray."""

from assay.ray_session import cluster_address


def test_an_address_given_wins_over_ray_address(monkeypatch):
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.1:6379")
    assert cluster_address("auto") == "auto"


def test_ray_address_is_honoured_when_no_address_is_given(monkeypatch):
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.1:6379")
    assert cluster_address(None) == "10.0.0.1:6379"


def test_no_address_anywhere_means_embedded_ray(monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert cluster_address(None) is None
    monkeypatch.setenv("RAY_ADDRESS", "")
    assert cluster_address("") is None
