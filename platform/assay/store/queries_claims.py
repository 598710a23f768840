"""The claims table: filters, facets, sorted pages and the CSV download."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from assay.store._read import PathLike, _in, _search, read


@dataclass(frozen=True)
class ClaimFilter:
    """What the claims table is narrowed to; empty lists mean no restriction."""

    systems: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()
    baselines: tuple[str, ...] = ()
    settings: tuple[str, ...] = ()
    text: str = ""
    min_confidence: float = 0.0

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
        return ("WHERE " + " AND ".join(clauses)) if clauses else "", params


#: Sort keys offered to the user, mapped to SQL chosen here (the user's choice never becomes SQL text).
CLAIM_SORTS: dict[str, str] = {
    "confidence": "c.confidence",
    "value": "coalesce(c.value, (c.value_low + c.value_high) / 2, c.value_low, c.value_high)",
    "system": "c.subject",
    "metric": "c.metric",
    "baseline": "c.versus",
    "document": "d.title",
}
_CLAIM_COLUMNS = """c.claim_id, c.subject AS system, c.metric, c.value, c.value_low, c.value_high, c.unit,
    c.versus AS baseline, c.setting, c.qualifier, c.text, c.confidence, d.title AS document, d.uri, c.doc_id,
    c.start, c."end\""""


def claim_facets(db: PathLike, limit: int = 500) -> dict[str, list[str]]:
    """The most frequent values of each claim filter (system, metric, baseline, setting)."""
    out: dict[str, list[str]] = {}
    for key, column in (
        ("systems", "subject"),
        ("metrics", "metric"),
        ("baselines", "versus"),
        ("settings", "setting"),
    ):
        df = read(
            db,
            f'SELECT "{column}" AS v FROM claims WHERE "{column}" IS NOT NULL '
            f"GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT ?",
            [int(limit)],
        )
        out[key] = df["v"].tolist()
    return out


def claims(
    db: PathLike,
    flt: ClaimFilter = ClaimFilter(),
    sort: str = "confidence",
    descending: bool = True,
    limit: int | None = 1000,
) -> pd.DataFrame:
    """Claims matching ``flt`` with their document, sorted by one of ``CLAIM_SORTS``."""
    if sort not in CLAIM_SORTS:
        raise ValueError(f"sort must be one of {', '.join(CLAIM_SORTS)}, not {sort!r}")
    where, params = flt.where()
    order = f"{CLAIM_SORTS[sort]} {'DESC' if descending else 'ASC'} NULLS LAST, c.claim_id"
    tail = "LIMIT ?" if limit is not None else ""
    return read(
        db,
        f"SELECT {_CLAIM_COLUMNS} FROM claims c LEFT JOIN documents d USING (doc_id) {where} "
        f"ORDER BY {order} {tail}",
        [*params, *([int(limit)] if limit is not None else [])],
    )


def claims_count(db: PathLike, flt: ClaimFilter = ClaimFilter()) -> int:
    where, params = flt.where()
    return int(read(db, f"SELECT count(*) AS n FROM claims c {where}", params)["n"].iloc[0])


def claims_csv(
    db: PathLike, flt: ClaimFilter = ClaimFilter(), sort: str = "confidence", descending: bool = True
) -> str:
    """Every claim matching ``flt`` as CSV (the download; the table on screen is capped)."""
    return claims(db, flt, sort, descending, limit=None).to_csv(index=False)
