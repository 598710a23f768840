"""The DuckDB store: the only door to the data. DDL and migrations, every write (``transaction`` and the
one-call forms ``write_rows``, ``rewind_run``, ``set_state_if``; the exactly-once bookkeeping of pipeline
runs is ``Transaction.claim_units``) and every query: ``assay.store.queries`` and one module per domain,
``queries_knowledge``, ``queries_claims``, ``queries_runs``, ``queries_checks``, ``queries_jobs``,
``queries_scheduler``, ``queries_pipelines``, ``queries_costmodel``.

Every process opens the file for one short unit of work and closes it (see ``_connection``), so a
dashboard reads while a pipeline and the scheduler write.
"""

from assay.store._connection import DatabaseBusy, connect, default_db_path, migrate
from assay.store._read import NoDatabase, text_of
from assay.store._schema import PRIMARY_KEYS, SCHEMA_VERSION, TABLES
from assay.store._types import column_types, type_problem
from assay.store._writer import Transaction, rewind_run, set_state_if, to_arrow, transaction, write_rows

__all__ = [
    "PRIMARY_KEYS",
    "SCHEMA_VERSION",
    "TABLES",
    "DatabaseBusy",
    "NoDatabase",
    "column_types",
    "connect",
    "default_db_path",
    "Transaction",
    "migrate",
    "rewind_run",
    "set_state_if",
    "text_of",
    "to_arrow",
    "transaction",
    "type_problem",
    "write_rows",
]
