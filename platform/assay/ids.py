"""Deterministic ids: the same content, operator and version always give the same id, so a retried task
or a re-run of a pipeline produces rows with the same keys, which the store writes once."""

from __future__ import annotations

import hashlib
from typing import Any


def stable_id(*parts: Any, length: int = 16) -> str:
    """A hex id of ``length`` characters from the parts' text (None and numbers included)."""
    h = hashlib.blake2b(digest_size=max(8, length // 2 + length % 2))
    for part in parts:
        h.update(repr(part).encode("utf-8", "surrogatepass"))
        h.update(b"\x1f")
    return h.hexdigest()[:length]


def content_id(data: bytes | str) -> str:
    """The id of a document: a hash of its bytes, so the same file ingested twice is one document."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).hexdigest()
