"""The single store writer: buffers records from the workers and commits them in short transactions.

Only this object (in the driver process) writes the database during a pipeline run; Ray workers never
open it. Each flush is one store transaction: it claims the records' units of work
(``Transaction.claim_units``: exactly once across retried tasks and re-runs), inserts the rows of the units
not written before, records the document versions read (``Transaction.see_documents``), and commits, so
readers (the dashboard, ``assay query``) get their turn between flushes.

With ``background=True`` (what ``run_pipeline`` uses) the timed flushes of :meth:`maybe_flush` commit in one
writer thread while the caller goes on: a flush is mostly DuckDB's (opening the file, inserting, the
checkpoint and its fsync at close, all without the GIL), time in which the local runner's operators, or the
Ray driver's reading of the next blocks, can run. One flush at most is in flight, in order; the next waits
for it (so memory stays bounded), and :meth:`flush` returns only when everything added is committed. A
background flush's error is raised in the caller at the next flush.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pyarrow as pa

from assay.clock import utc_now
from assay.store import to_arrow, transaction, type_problem

#: Flushes take at most about this share of the writer's time: after a flush of ``d`` seconds the next one
#: waits ``d / FLUSH_SHARE``, if that is longer than ``flush_every_s``. Each flush opens, checkpoints and
#: closes the file (0.1-0.2 s once it holds millions of rows), so a heavy stream (a large log's metric
#: rows) writes fewer, larger batches; ``flush_mb`` still bounds what waits in memory.
FLUSH_SHARE = 0.25
TABLE_FIELDS = ("entities", "mentions", "claims", "relations", "runs", "metrics", "events")
#: What a table field of a record may hold: rows as dicts, a dict of columns, an Arrow table (or nothing).
_ROW_CONTAINERS = (list, tuple, dict, pa.Table, type(None))
DOCUMENT_FIELDS = ("doc_id", "uri", "kind", "title", "lang", "n_bytes", "text")


def unit_key(record: dict[str, Any], scope: str = "") -> str:
    """The exactly-once key of a record's unit of work: its document (or chunk) within one pipeline's scope,
    so a second pipeline over the same files (a user's own tagger after ``papers``) still writes its rows."""
    if record.get("unit_key"):
        base = str(record["unit_key"])
    else:
        base = str(record.get("doc_id") or record.get("source_uri") or "?")
        if record.get("chunk") is not None:
            base = f"{base}#{record['chunk']}"
    return f"{scope}/{base}" if scope else base


class Sink:
    def __init__(
        self,
        db: str | os.PathLike[str],
        pipeline_run_id: str,
        *,
        flush_every_s: float = 1.0,
        flush_rows: int = 4_000_000,
        flush_mb: float = 128,
        keep_fields: tuple[str, ...] = (),
        group_by: str | None = None,
        scope: str = "",
        background: bool = False,
    ):
        self.db = db
        self.background = background
        self._writer: ThreadPoolExecutor | None = None
        self._inflight: Future[None] | None = None
        self.scope = scope
        self.run_id = pipeline_run_id
        self.flush_every_s = flush_every_s
        self.flush_rows = flush_rows
        # Rows are counted in bytes too: a few wide rows (abstracts' text) or many narrow ones (metrics)
        # must not pile up in the driver between flushes.
        self.flush_bytes = int(flush_mb * (1 << 20))
        self.keep_fields = keep_fields
        self.group_by = group_by
        self.groups: dict[Any, list[dict[str, Any]]] = defaultdict(list)
        self.ok_units: set[str] = set()
        self.failed_units: set[str] = set()
        self.n_records = 0
        #: quarantine rows about single lines or rows of an input that was otherwise read (a malformed JSON
        #: line): the input counts as ok, the row is in `quarantine`, and the headline says both
        self.n_line_issues = 0
        self._seen_keys: set[str] = set()
        self._pending: list[dict[str, Any]] = []
        self._quarantine: list[dict[str, Any]] = []
        self._pending_rows = 0
        self._pending_bytes = 0
        self._last_flush = time.monotonic()
        self._flush_interval = flush_every_s

    # -- accepting records -------------------------------------------------------------------------------
    def add(self, record: dict[str, Any]) -> None:
        failure = record.get("_failure")
        if failure is not None:
            self.failed_units.add(str(failure.get("unit")))
            self._quarantine.append(
                {
                    "pipeline_run_id": self.run_id,
                    "source_uri": failure.get("source_uri"),
                    "operator": failure.get("operator"),
                    "error": failure.get("error"),
                    "at": utc_now(),
                    "level": "input",
                }
            )
            return
        misshapen = next((f for f in TABLE_FIELDS if not isinstance(record.get(f), _ROW_CONTAINERS)), None)
        if misshapen is not None:  # cheap here; column types are checked only when the database refuses
            self.add({"_failure": {
                "source_uri": record.get("source_uri"), "operator": "contract",
                "unit": record.get("_unit") or record.get("doc_id") or record.get("source_uri"),
                "error": type_problem(misshapen, record[misshapen]),
            }})
            return
        self.n_records += 1
        unit = str(record.get("_unit") or record.get("doc_id") or record.get("source_uri"))
        self.ok_units.add(unit)
        if any(issue.get("level") == "file" for issue in record.get("issues") or ()):
            # a file the pipeline read to nothing (a log with no metric series, a binary file skipped) has its
            # reason in `quarantine`: the run's counts say so too
            self.failed_units.add(unit)
        if self.group_by is not None and record.get(self.group_by) is not None:
            kept = {k: record[k] for k in (*self.keep_fields, self.group_by, "source_uri", "_unit") if k in record}
            self.groups[record[self.group_by]].append(kept)
        key = unit_key(record, self.scope)
        if key in self._seen_keys:  # a retried task delivered this unit again
            return
        self._seen_keys.add(key)
        self._pending.append(record)
        self._pending_rows += sum(_n_rows(record.get(f)) for f in TABLE_FIELDS)
        self._pending_bytes += sum(_n_bytes(record.get(f)) for f in TABLE_FIELDS)

    def maybe_flush(self) -> None:
        if (
            self._pending_rows >= self.flush_rows
            or self._pending_bytes >= self.flush_bytes
            or time.monotonic() - self._last_flush >= self._flush_interval
        ):
            self._start_flush(wait=not self.background)

    # -- writing --------------------------------------------------------------------------------------
    def flush(self) -> None:
        """Commit everything added so far; returns when it is in the database."""
        self._start_flush(wait=True)

    def _start_flush(self, wait: bool) -> None:
        self._join()  # one flush in flight at most, committed in order; its error is raised here
        self._last_flush = time.monotonic()
        if not self._pending and not self._quarantine:
            return
        records, self._pending, self._pending_rows, self._pending_bytes = self._pending, [], 0, 0
        quarantine, self._quarantine = self._quarantine, []
        if wait:
            self._write(records, quarantine)
            return
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="assay-sink")
        self._inflight = self._writer.submit(self._write, records, quarantine)

    def _join(self) -> None:
        inflight, self._inflight = self._inflight, None
        if inflight is not None:
            inflight.result()

    def close(self) -> None:
        """Wait for a flush in flight (raising its error) and stop the writer thread."""
        try:
            self._join()
        finally:
            if self._writer is not None:
                self._writer.shutdown(wait=True)
                self._writer = None

    def _write(self, records: list[dict[str, Any]], quarantine: list[dict[str, Any]]) -> None:
        started = time.monotonic()
        try:
            self._commit(records, quarantine)
            self._flush_interval = max(self.flush_every_s, (time.monotonic() - started) / FLUSH_SHARE)
        except Exception:
            # One record whose fields do not fit the contract's types must not lose the batch: find it,
            # quarantine it with the column and the types, and write the rest.
            problems = {id(r): p for r in records if (p := record_type_problem(r))}
            if not problems:
                raise
            for rec in records:
                if id(rec) in problems:
                    self.failed_units.add(str(rec.get("_unit") or rec.get("doc_id") or rec.get("source_uri")))
                    quarantine.append({
                        "pipeline_run_id": self.run_id, "source_uri": rec.get("source_uri"),
                        "operator": "contract", "error": problems[id(rec)], "at": utc_now(), "level": "input",
                    })
            self._commit([r for r in records if id(r) not in problems], quarantine)

    def _commit(self, records: list[dict[str, Any]], quarantine: list[dict[str, Any]]) -> None:
        keys = [unit_key(r, self.scope) for r in records]
        with transaction(self.db) as tx:
            fresh = tx.claim_units(keys, self.run_id)
            for table, arrow in self._tables([r for r, k in zip(records, keys, strict=True) if k in fresh]).items():
                tx.insert(table, arrow)
            tx.insert("quarantine", quarantine)
            # Every document read, written now or before: a file whose content changed supersedes its
            # older version, and one moved back to an earlier content brings that version back.
            tx.see_documents(((r["doc_id"], r.get("uri") or r.get("source_uri")) for r in records
                              if _is_document(r)), self.run_id)

    def _tables(self, records: list[dict[str, Any]]) -> dict[str, pa.Table]:
        # Row lists of all records are gathered per table and converted once: converting each record's few
        # rows on its own costs more than the rows themselves (thousands of small abstracts per flush).
        parts: dict[str, list[pa.Table]] = defaultdict(list)
        dict_rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
        now = utc_now()
        documents = []
        issues = []
        for rec in records:
            if _is_document(rec):
                row = {f: rec.get(f) for f in DOCUMENT_FIELDS}
                row["uri"] = row["uri"] or rec.get("source_uri")
                row.update(ingested_at=now, pipeline_run_id=self.run_id)
                documents.append(row)
            for f in TABLE_FIELDS:
                rows = rec.get(f)
                if rows is None or not _n_rows(rows):
                    continue
                if isinstance(rows, pa.Table | dict):
                    if dict_rows[f]:  # keep the records' order: the first row of a key is the one kept
                        parts[f].append(to_arrow(f, dict_rows.pop(f)))
                    arrow = to_arrow(f, _columns_table(rows) if isinstance(rows, dict) else rows)
                    if arrow is not None:
                        parts[f].append(arrow)
                else:
                    dict_rows[f].extend(rows)
            for issue in rec.get("issues") or ():
                line = issue.get("line_no")
                where = f"line {line}: " if line is not None else ""
                issues.append({
                    "pipeline_run_id": self.run_id,
                    "source_uri": rec.get("source_uri"),
                    "operator": issue.get("operator"),
                    "error": where + str(issue.get("error")),
                    "at": now,
                    "level": issue.get("level", "line"),
                })
        for f, rows in dict_rows.items():
            if rows:
                parts[f].append(to_arrow(f, rows))
        out = {t: _concat(p) for t, p in parts.items()}
        if documents:
            out["documents"] = to_arrow("documents", documents)
        if issues:
            out["quarantine"] = to_arrow("quarantine", issues)
            self.n_line_issues += sum(issue["level"] != "file" for issue in issues)
        return out

    # -- accounting -------------------------------------------------------------------------------------
    @property
    def n_quarantined(self) -> int:
        return len(self.failed_units)

    @property
    def n_ok(self) -> int:
        return len(self.ok_units - self.failed_units)

    @property
    def n_in(self) -> int:
        return len(self.ok_units | self.failed_units)


def record_type_problem(record: dict[str, Any]) -> str | None:
    """Why a record's rows do not fit the contract's column types (table.column, expected, received)."""
    for field in TABLE_FIELDS:
        if (problem := type_problem(field, record.get(field))) is not None:
            return problem
    if record.get("doc_id") and record.get("kind"):
        return type_problem("documents", [{f: record.get(f) for f in DOCUMENT_FIELDS}])
    return None


def _is_document(record: dict[str, Any]) -> bool:
    """Whether the record is a whole document (its ``documents`` row), not a chunk of one."""
    return bool(record.get("doc_id") and record.get("chunk") is None and record.get("kind"))


def _n_rows(rows: Any) -> int:
    if rows is None:
        return 0
    if isinstance(rows, pa.Table):
        return rows.num_rows
    if isinstance(rows, dict):
        return max((len(v) for v in rows.values()), default=0)
    return len(rows)


def _columns_table(columns: dict[str, Any]) -> pa.Table | dict[str, Any]:
    """A dict of equal-length columns (numpy arrays, Arrow arrays or lists) as an Arrow table without a
    Python object per value; columns Arrow cannot take as they are go through ``to_arrow``'s row rules."""
    if any(isinstance(v, list | tuple) and any(isinstance(x, dict) for x in v) for v in columns.values()):
        return columns  # dict values are stored as JSON text: to_arrow's rule
    try:
        return pa.table({k: v if isinstance(v, pa.Array | pa.ChunkedArray) else pa.array(v)
                         for k, v in columns.items()})
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):
        return columns


def _plain(table: pa.Table) -> pa.Table:
    """Dictionary-encoded columns cast to their value type, so tables of one store table concatenate
    whichever encoding each producer chose."""
    for i, field in enumerate(table.schema):
        if pa.types.is_dictionary(field.type):
            table = table.set_column(i, field.name, table.column(i).cast(field.type.value_type))
    return table


def _concat(tables: list[pa.Table]) -> pa.Table:
    """One table of the parts; dictionary-encoded columns stay encoded (DuckDB reads them as text) unless
    the parts disagree on a column's type."""
    if len(tables) == 1:
        return tables[0]
    if all(t.schema.equals(tables[0].schema) for t in tables[1:]):
        return pa.concat_tables(tables)
    return pa.concat_tables([_plain(t) for t in tables], promote_options="permissive")


def _n_bytes(rows: Any) -> int:
    """The Arrow size of a table's rows; rows in Python objects are estimated (they are small and few)."""
    if isinstance(rows, pa.Table):
        return rows.nbytes
    return 200 * _n_rows(rows)
