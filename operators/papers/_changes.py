"""A before/after change read as one claim: "rises from 41% to 85%", "to 85% from 41%", "从41%提高到85%", "from a
0.95x slowdown to a 1.03x speedup", "grows from 2.9% for 1 thread to 12% for 16 threads". The value reached is the
claim's, both ends are its ``value_low``/``value_high`` (a ratio's words between the ends make one range). A
module of its own: it reads pairs of claims already found, where ``_claims`` finds each number."""

from __future__ import annotations

import re
from typing import Any

#: A found claim (``_claims.Claim``, not imported: that module imports this one).
Claim = Any

# "rises to 85% from 41%", "从41%提高到85%": the earlier value is where the change started, not a claim.
_TO_FROM_GAP = re.compile(r"^[ \t]+from[ \t]+$", re.IGNORECASE)
# "from a 0.95x slowdown to a 1.03x speedup", "从0.95倍的减速到1.03倍的加速": ratios with words between the
# ends, one range.
_RATIO_FROM = re.compile(r"(?:\bfrom[ \t]+(?:an?[ \t]+)?|从[ \t]*)$", re.I)
_RATIO_TO_GAP = re.compile(
    r"^[ \t]*(?:的)?[^\d,.;，。；]{0,30}?(?:\([^)\d]{0,30}\))?[ \t]*(?:\bto[ \t]+(?:an?[ \t]+)?|到|至)[ \t]*$",
    re.I,
)
_ZH_FROM_TO_GAP = re.compile(
    r"^[ \t]*(?:提高|提升|增加|增长|上升|跃升|攀升|飙升|升|降低|减少|下降|下滑|回落|降|缩短)了?(?:到|至)[ \t]*$"
)
#: "从" before a change's first end, an emphasis mark or a blank between them ("从 **8% 跃升至 94%**").
_ZH_FROM_BEFORE = re.compile(r"从[ \t*_]{0,4}$")
#: "from 2.9% for 1 thread to 12% for 16 threads": the two ends each qualified by its setting.
_QUALIFIED_TO_GAP = re.compile(r"^[ \t]+(?:for|on|with|at|in|under|using)[ \t]+[^,;:.()%x×\n]{1,30}?[ \t]+to[ \t]+$", re.I)


def merge_changes(text: str, claims: list[Claim]) -> list[Claim]:
    """Fold the start value of a before/after pair into the claim of the value reached."""
    drop: set[int] = set()
    for i in range(1, len(claims)):
        first, second = claims[i - 1], claims[i]
        if first.unit != second.unit or first.value is None or second.value is None:
            continue
        gap = text[first.end : second.start]
        if (
            first.unit == "x"
            and _RATIO_TO_GAP.match(gap)
            and _RATIO_FROM.search(text, max(0, first.start - 8), first.start)
        ):
            first.end, first.text = second.end, text[first.start : second.end]
            first.value_low, first.value_high = sorted((first.value, second.value))
            first.value = None
            drop.add(i)
        elif _QUALIFIED_TO_GAP.match(gap) and _RATIO_FROM.search(text, max(0, first.start - 8), first.start):
            keep_ends(second, first.value, first.text)  # "grows from 2.9% for 1 thread to 12% for 16 threads"
            drop.add(i - 1)
        elif _TO_FROM_GAP.match(gap):  # "to 85% from 41%"
            keep_ends(first, second.value, second.text)
            drop.add(i)
        elif (
            _ZH_FROM_TO_GAP.match(gap) and _ZH_FROM_BEFORE.search(text, max(0, first.start - 5), first.start)
        ):  # "从41%提高到85%"
            keep_ends(second, first.value, first.text)
            drop.add(i - 1)
    return [c for i, c in enumerate(claims) if i not in drop]


def keep_ends(claim: Claim, start_value: float, start_text: str) -> None:
    """A before/after change keeps both ends: ``value`` is the value reached, ``value_low``/``value_high`` the
    two ends in order, and the start stays in ``setting`` as written ("from 18%")."""
    assert claim.value is not None
    claim.value_low, claim.value_high = sorted((start_value, claim.value))
    claim.notes.append(f"from {start_text}")
