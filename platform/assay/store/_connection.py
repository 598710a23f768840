"""Opening the DuckDB file under its one-writer-process rule.

DuckDB lets one process at a time hold a file read-write, and that process blocks every other one,
readers included. assay's strategy is short transactions: every process (pipeline writer, scheduler,
dashboard, ``assay query``) opens the file, does one unit of work and closes it, retrying while another
process holds it. No process keeps the file open between units of work.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from assay.errors import AssayError
from assay.store._schema import MIGRATIONS, SCHEMA_VERSION

DEFAULT_DB = "assay.duckdb"
#: How long a caller waits for another process to let go of the file before giving up.
DEFAULT_LOCK_TIMEOUT_S = float(os.environ.get("ASSAY_LOCK_TIMEOUT", "120"))


class DatabaseBusy(AssayError, RuntimeError):
    """Another process held the database for longer than the caller was willing to wait."""

    code = "E050"


def default_db_path() -> Path:
    return Path(os.environ.get("ASSAY_DB", DEFAULT_DB))


def _is_lock_error(exc: Exception) -> bool:
    text = str(exc).lower()
    # The last: one process holding the file read-write and opening it read-only again (or the reverse)
    # at the same moment, e.g. a dashboard thread beside a writer thread; it clears when the other closes.
    return ("lock" in text or "conflicting" in text or "being used by another process" in text
            or "different configuration than existing connections" in text)


@contextmanager
def connect(
    path: str | os.PathLike[str] | None = None,
    *,
    read_only: bool = False,
    timeout_s: float = DEFAULT_LOCK_TIMEOUT_S,
) -> Iterator[duckdb.DuckDBPyConnection]:
    """Open ``path`` (retrying while another process holds it), yield the connection, close it.

    A read-only open of a file that does not exist yet, or has no schema, first creates the schema.
    """
    db = Path(path) if path is not None else default_db_path()
    if read_only and not db.exists():
        with connect(db, read_only=False, timeout_s=timeout_s):
            pass
    deadline = time.monotonic() + timeout_s
    delay = 0.005
    while True:
        try:
            con = duckdb.connect(str(db), read_only=read_only, config={"autoinstall_known_extensions": False,
                                                                         "autoload_known_extensions": False})
            break
        except duckdb.Error as exc:
            if not _is_lock_error(exc) or time.monotonic() > deadline:
                if _is_lock_error(exc):
                    raise DatabaseBusy(
                        f"{db} stayed locked by another process for {timeout_s:.0f}s",
                        "wait for the other writer to finish, or set ASSAY_LOCK_TIMEOUT to wait longer",
                    ) from exc
                raise
            time.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 1.6, 0.25)
    try:
        if not read_only:
            migrate(con)
        yield con
    finally:
        con.close()


def migrate(con: duckdb.DuckDBPyConnection) -> int:
    """Bring the schema up to ``SCHEMA_VERSION``; returns the version found before."""
    con.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER, applied_at TIMESTAMP)")
    row = con.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchall()[0]
    current = int(row[0])
    if current >= SCHEMA_VERSION:
        return current
    con.execute("BEGIN TRANSACTION")
    try:
        for version, sql in MIGRATIONS:
            if version > current:
                con.execute(sql)
                con.execute("INSERT INTO schema_version VALUES (?, now())", [version])
        con.execute("COMMIT")
    except Exception:
        con.execute("ROLLBACK")
        raise
    return current
