"""The DuckDB store: the only place with DDL and SQL writes. Read queries live in
``assay.store.queries`` and one module per domain: ``queries_knowledge``, ``queries_claims``, ``queries_runs``,
``queries_claim_match``, ``queries_checks``, ``queries_jobs``, ``queries_scheduler``, ``queries_pipelines``, ``queries_costmodel``.

Every process opens the file for one short unit of work and closes it (see ``_connection``), so a
dashboard reads while a pipeline and the scheduler write.
"""

from assay.store._connection import DatabaseBusy, connect, default_db_path, migrate
from assay.store._read import NoDatabase
from assay.store._schema import PRIMARY_KEYS, SCHEMA_VERSION, TABLES
from assay.store._types import column_types, type_problem
from assay.store._writer import insert, to_arrow, write_rows

__all__ = [
    "PRIMARY_KEYS",
    "SCHEMA_VERSION",
    "TABLES",
    "DatabaseBusy",
    "NoDatabase",
    "column_types",
    "connect",
    "default_db_path",
    "insert",
    "migrate",
    "to_arrow",
    "type_problem",
    "write_rows",
]
