"""Deterministic ids: the same content, operator and version always give the same id, so a retried task
or a re-run of a pipeline produces rows with the same keys, which the store writes once."""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from typing import Any

_SPACES = re.compile(r"\s+")


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


def normalise_name(name: str) -> str:
    """The form two spellings of one entity name share: lower case, whitespace collapsed to single spaces."""
    return _SPACES.sub(" ", name.strip()).lower()


@lru_cache(maxsize=65536)
def entity_id(entity_type: str, name: str) -> str:
    """The id of an entity: ``stable_id(type, normalised name)``. Every extractor uses it, so a system a paper
    names and the framework a training log shows are one entity."""
    return stable_id(entity_type, normalise_name(name))
