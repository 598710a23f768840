"""The claims table: filters, facets, sorted pages and the CSV download, with each claim's verdicts.

The verdicts come from ``claim_checks`` in SQL: the page is chosen first (a verdict filter is a semi-join on
the checks, a sort by verdict joins each claim's worst rank), then only the page's checks are pivoted to
one row per claim and joined to it. A page of 1,000 out of 100,000 claims with 300,000 checks never pulls
the checks into pandas, nor pivots the checks of claims it does not show. A file from before the checks
existed reads as "no claim checked".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import duckdb
import pandas as pd

from assay.store._connection import connect
from assay.store._read import PathLike, _in, _search, execute, read
from assay.store.queries_checks import (
    CHECK_KINDS,
    SEVERITY_SQL,
    UNCHECKED,
    VERDICTS,
    checks_relation,
    has_checks,
    verdict_pivot,
)


@dataclass(frozen=True)
class ClaimFilter:
    """What the claims table is narrowed to; empty lists mean no restriction."""

    systems: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()
    baselines: tuple[str, ...] = ()
    settings: tuple[str, ...] = ()
    text: str = ""
    min_confidence: float = 0.0
    #: Verdicts (of ``VERDICTS``, or ``UNCHECKED``) a claim must have from at least one of ``kinds``.
    verdicts: tuple[str, ...] = ()
    #: Kinds of evidence (of ``CHECK_KINDS``) the verdict filter looks at; empty: every kind.
    kinds: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name, values, allowed in (
            ("verdicts", self.verdicts, (*VERDICTS, UNCHECKED)),
            ("kinds", self.kinds, CHECK_KINDS),
        ):
            unknown = sorted(set(values) - set(allowed))
            if unknown:
                raise ValueError(f"{name} must be among {', '.join(allowed)}, not {', '.join(unknown)}")

    def where(self) -> tuple[str, list[Any]]:
        clauses, params = [], []
        for column, values in (
            ("subject", self.systems),
            ("metric", self.metrics),
            ("versus", self.baselines),
            ("setting", self.settings),
        ):
            if values:
                clauses.append(f"c.{column} IN {_in(values)}")
                params += list(values)
        needle = _search(self.text).casefold()
        if needle:
            clauses.append(
                "strpos(lower(concat_ws(' ', c.text, c.subject, c.metric, c.setting, c.versus)), ?) > 0"
            )
            params.append(needle)
        if self.min_confidence > 0:
            clauses.append("coalesce(c.confidence, 0) >= ?")
            params.append(float(self.min_confidence))
        if self.verdicts:
            clauses.append(self._verdict_clause())
        return ("WHERE " + " AND ".join(clauses)) if clauses else "", params

    def _verdict_clause(self) -> str:
        # Reads the relation ``cc`` (claim_id, kind, verdict) that the queries below define. Kinds and
        # verdicts come from the fixed lists checked in __post_init__, never from user text. One check per
        # claim and kind (``Check.check_id``) makes "has a check of kind k with verdict v" the claim's verdict.
        given = [v for v in self.verdicts if v != UNCHECKED]
        kinds = f" AND cc.kind IN ({', '.join(repr(k) for k in self.kinds)})" if self.kinds else ""
        either = []
        if given:
            either.append(
                f"c.claim_id IN (SELECT cc.claim_id FROM cc WHERE cc.verdict IN "
                f"({', '.join(repr(v) for v in given)}){kinds})"
            )
        if UNCHECKED in self.verdicts:
            # Not checked by one of the chosen kinds; with no kind chosen, not checked at all.
            either += [
                f"NOT EXISTS (SELECT 1 FROM cc WHERE cc.claim_id = c.claim_id AND cc.kind = {k!r})"
                for k in self.kinds
            ] or ["NOT EXISTS (SELECT 1 FROM cc WHERE cc.claim_id = c.claim_id)"]
        return "(" + " OR ".join(either) + ")"


#: Sort keys offered to the user, mapped to SQL chosen here (the user's choice never becomes SQL text).
CLAIM_SORTS: dict[str, str] = {
    "confidence": "c.confidence",
    "value": "coalesce(c.value, (c.value_low + c.value_high) / 2, c.value_low, c.value_high)",
    "system": "c.subject",
    "metric": "c.metric",
    "baseline": "c.versus",
    "document": "d.title",
    # descending: contradicted, implausible, consistent, inconclusive, untestable, then unchecked
    "verdict": "s.severity",
}
_CLAIM_COLUMNS = """c.claim_id, c.subject AS system, c.metric, c.value, c.value_low, c.value_high, c.unit,
    c.versus AS baseline, c.setting, c.qualifier, c.text, c.confidence, d.title AS document, d.uri, c.doc_id,
    c.start, c."end", {measure} AS measure"""
_VERDICT_COLUMNS = ", ".join(f"v.verdict_{k}" for k in CHECK_KINDS) + ", v.verdict"


def _read_with_checks(db: PathLike, query: str, params: list[Any]) -> pd.DataFrame:
    """``query`` with ``{checks}`` standing for the checks relation and ``{measure}`` for the claims' measure
    column: the table and the column, or, on a file from before them (schema 2), no rows and NULL (tried
    only when the first query fails, so the common case opens the file once)."""

    def run(present: bool) -> pd.DataFrame:
        sql = query.replace("{checks}", checks_relation(present))
        return read(db, sql.replace("{measure}", "c.measure" if present else "NULL::VARCHAR"), params)

    try:
        return run(True)
    except (duckdb.CatalogException, duckdb.BinderException):
        if has_checks(db):
            raise
        return run(False)


_FACETS = (("systems", "subject"), ("metrics", "metric"), ("baselines", "versus"), ("settings", "setting"))


def claim_facets(db: PathLike, limit: int = 500) -> dict[str, list[str]]:
    """The most frequent values of each claim filter (system, metric, baseline, setting)."""
    # One query for the four (each open of the file costs tens of milliseconds on a busy machine).
    union = " UNION ALL ".join(
        f"""SELECT '{key}' AS facet, "{column}" AS v, row_number() OVER (ORDER BY count(*) DESC, "{column}") AS i
            FROM current_claims WHERE "{column}" IS NOT NULL GROUP BY "{column}" QUALIFY i <= ?"""
        for key, column in _FACETS
    )
    df = read(db, f"SELECT * FROM ({union}) ORDER BY facet, i", [int(limit)] * len(_FACETS))
    return {key: df.loc[df["facet"] == key, "v"].tolist() for key, _ in _FACETS}


def claims(
    db: PathLike,
    flt: ClaimFilter = ClaimFilter(),
    sort: str = "confidence",
    descending: bool = True,
    limit: int | None = 1000,
) -> pd.DataFrame:
    """Claims matching ``flt`` with their document and their verdicts (``verdict_<kind>`` per kind of
    evidence, ``verdict`` the worst), sorted by one of ``CLAIM_SORTS``, ties by confidence (highest first)."""
    if sort not in CLAIM_SORTS:
        raise ValueError(f"sort must be one of {', '.join(CLAIM_SORTS)}, not {sort!r}")
    where, params = flt.where()
    direction = "DESC" if descending else "ASC"
    # The worst verdict's rank per claim, joined before the page is cut only when the page is sorted by it.
    severity = (
        f"LEFT JOIN (SELECT claim_id, max({SEVERITY_SQL}) AS severity FROM cc GROUP BY 1) s USING (claim_id)"
        if sort == "verdict"
        else ""
    )
    tail = "LIMIT ?" if limit is not None else ""
    return _read_with_checks(
        db,
        f"""
        WITH cc AS ({{checks}}),
             page AS MATERIALIZED (
                 SELECT {_CLAIM_COLUMNS}, {CLAIM_SORTS[sort]} AS _key
                 FROM current_claims c LEFT JOIN current_documents d USING (doc_id) {severity} {where}
                 ORDER BY _key {direction} NULLS LAST, c.confidence DESC NULLS LAST, c.claim_id {tail}),
             v AS ({verdict_pivot("cc", "claim_id IN (SELECT claim_id FROM page)")})
        SELECT page.* EXCLUDE (_key), {_VERDICT_COLUMNS}
        FROM page LEFT JOIN v USING (claim_id)
        ORDER BY page._key {direction} NULLS LAST, page.confidence DESC NULLS LAST, page.claim_id""",
        [*params, *([int(limit)] if limit is not None else [])],
    )


def claims_count(db: PathLike, flt: ClaimFilter = ClaimFilter()) -> int:
    where, params = flt.where()
    # The checks are read only when the filter asks about verdicts: a plain count stays a scan of claims.
    if not flt.verdicts:
        return int(read(db, f"SELECT count(*) AS n FROM current_claims c {where}", params)["n"].iloc[0])
    query = f"WITH cc AS ({{checks}}) SELECT count(*) AS n FROM current_claims c {where}"
    return int(_read_with_checks(db, query, params)["n"].iloc[0])


def claims_csv(
    db: PathLike, flt: ClaimFilter = ClaimFilter(), sort: str = "confidence", descending: bool = True
) -> str:
    """Every claim matching ``flt`` as CSV (the download; the table on screen is capped)."""
    return claims(db, flt, sort, descending, limit=None).to_csv(index=False)


#: The fields of a stored claim that ``assay eval`` scores.
SCORED_FIELDS = ("unit", "value", "value_low", "value_high", "text", "subject", "versus", "section")


def claims_of_texts(db: PathLike, docs: Sequence[tuple[str, str]]) -> list[list[dict[str, Any]] | None]:
    """For each ``(doc_id, text)``: the claims stored for that document (that content, current or
    superseded), else those inside the current stored document that contains the text (a file of abstracts
    ingested as one document), in text order; None when the database holds neither."""
    cols = ", ".join(f'"{f}"' for f in SCORED_FIELDS)

    def scored(con: duckdb.DuckDBPyConnection, where: str, params: list[Any]) -> list[dict[str, Any]]:
        rows = con.execute(f"SELECT {cols} FROM claims WHERE {where} ORDER BY start", params).fetchall()
        return [dict(zip(SCORED_FIELDS, row, strict=True)) for row in rows]

    out: list[list[dict[str, Any]] | None] = []
    with connect(db, read_only=True) as con:
        known = {r[0] for r in con.execute("SELECT doc_id FROM documents WHERE doc_id IN (SELECT unnest(?))",
                                           [[d for d, _ in docs]]).fetchall()}
        for doc_id, text in docs:
            if doc_id in known:
                out.append(scored(con, "doc_id = ?", [doc_id]))
                continue
            hit = execute(con, "SELECT doc_id, strpos(text, ?) - 1 FROM current_documents WHERE contains(text, ?) "
                              "LIMIT 1", [text, text]).fetchall()
            if not hit:
                out.append(None)
                continue
            holder, offset = hit[0]
            # strpos counts characters, as the claims' offsets do.
            out.append(scored(con, 'doc_id = ? AND start >= ? AND "end" <= ?', [holder, offset, offset + len(text)]))
    return out
