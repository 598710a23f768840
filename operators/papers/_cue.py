"""The shape of a cue that a number with a ratio unit states no result, and the claim shapes the cues apply to;
the rows are in ``_cues`` (and its settings' rows in ``_setting_cues``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Where a cue is looked for, relative to the number: ``after`` (the text right after the unit), ``clause``
#: (the clause before the number, from the last comma, semicolon or sentence end), ``sentence`` (the
#: sentence before the number, up to a semicolon), ``parenthesis`` (the whole of the brackets the number
#: stands in).
WHERE = ("after", "clause", "sentence", "parenthesis")

# Nouns that count members of a workload (a share of them is a statistic of the workload, not a result).
POPULATION = (
    r"(?:tasks|jobs|blocks|requests|users|workers|threads|kernels|queries|samples|iterations|steps|files|"
    r"experts|tokens|warps|pages|accesses|flows|calls|functions|invocations|operators|layers|models|tenants)"
)


@dataclass(frozen=True)
class Cue:
    """A sign that a number is not a result: its name, the claim shapes it applies to, where it is looked for,
    its pattern(s), whether it holds even when the clause states a result, an own-worded example and the
    claims (value, unit) the example still holds (its results)."""

    name: str
    shapes: frozenset[str]
    where: str
    pattern: re.Pattern[str]
    overrides_result: bool
    example: str
    kept: tuple[tuple[float, str], ...] = ()
    #: Where a result verb keeps the number: its ``clause``, or its ``sentence`` up to it and the rest of its
    #: brackets (a parenthesis cut off from its sentence's verb by "e.g.,").
    result_in: str = "clause"


RATIOS = frozenset({"x", "pct", "times", "fold", "words"})
MULTIPLES = frozenset({"x", "times", "fold"})
