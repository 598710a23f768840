"""The time as assay stores it: naive UTC, the type of every ``TIMESTAMP`` column (DuckDB's ``TIMESTAMP``
has no zone; a zone-aware value would be shifted by the reader's local zone)."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> datetime:
    """Now, in UTC, without a zone."""
    return datetime.now(UTC).replace(tzinfo=None)
