"""When a predicted claim is a gold claim, and when its subject and baseline are right.

A predicted claim matches a gold claim of the same document when the units agree (after normalising ×,
times, 倍, ％) and the value (or both ends of a range) agree within 0.5 %; matching is one-to-one
(``one_to_one``). A subject or baseline is right when it names what the gold one does (``same_name``),
its aliases counting; ``exact_name`` is the strict reading reported beside it. A module of its own because
it is the one definition of a right claim that the scores, the verdicts and the calibration share.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

RATIO_UNITS = ("x", "%")
TOLERANCE = 0.005
_X_UNITS = {"x", "×", "times", "倍", "fold", "-fold"}
_PCT_UNITS = {"%", "％", "percent", "per cent"}


def normalise_unit(unit: str | None) -> str:
    u = " ".join(str(unit or "").replace("\\", "").split()).strip().lower()
    if u in _X_UNITS:
        return "x"
    if u in _PCT_UNITS:
        return "%"
    return u


def is_ratio(claim: Mapping[str, Any]) -> bool:
    return normalise_unit(claim.get("unit")) in RATIO_UNITS


def _close(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return False
    a, b = float(a), float(b)
    return abs(a - b) <= TOLERANCE * max(abs(a), abs(b)) or a == b


def claims_match(pred: Mapping[str, Any], gold: Mapping[str, Any]) -> bool:
    """Same unit, and the same value or the same range ends, within 0.5 %. A before/after change ("grows from
    2.9% to 12%") is written with both ends, in the gold in the order the text states them; a prediction of it
    also carries the value reached (one of its ends), and matches by the two ends in either order."""
    if normalise_unit(pred.get("unit")) != normalise_unit(gold.get("unit")):
        return False
    if present(gold.get("value")):
        return present(pred.get("value")) and _close(pred["value"], gold["value"])
    low, high = pred.get("value_low"), pred.get("value_high")
    if not present(pred.get("value")):
        return _close(low, gold.get("value_low")) and _close(high, gold.get("value_high"))
    if not (_close(pred["value"], low) or _close(pred["value"], high)):
        return False  # a value beside ends it is neither of: no change
    ends = (gold.get("value_low"), gold.get("value_high"))
    return (_close(low, ends[0]) and _close(high, ends[1])) or (_close(low, ends[1]) and _close(high, ends[0]))


_NAME_NOISE = re.compile(r"[\s\-_.,;:()'\"“”‘’`~]+|^(?:the|a|an)\s+", re.I)
_WORD = re.compile(r"[A-Za-z0-9]+|[\u3400-\u9fff]")


def same_name(pred: Any, gold: Any) -> bool:
    """Whether a predicted subject or baseline names what the gold one does: both empty, or equal after
    dropping case, spaces and punctuation, or one holding the other, or sharing most of their words
    (CJK characters count as words), so "the Megatron-LM baseline" names "Megatron-LM"."""
    p, g = _key(pred), _key(gold)
    if not p or not g:
        return not p and not g
    if p == g or (min(len(p), len(g)) >= 2 and (p in g or g in p)):
        return True
    pw, gw = set(_WORD.findall(str(pred).lower())), set(_WORD.findall(str(gold).lower()))
    return bool(pw and gw) and len(pw & gw) / min(len(pw), len(gw)) >= 0.6


def exact_name(pred: Any, gold: Any) -> bool:
    """Whether two names are the same name once case, spaces, punctuation and a leading article are
    dropped: the strict reading beside ``same_name``, which also takes one name holding the other (so
    ``PipeDream`` passes for ``PipeDream-2BW`` there, not here)."""
    return _key(pred) == _key(gold)


def names_right(
    pred: Mapping[str, Any], gold: Mapping[str, Any], same: Callable[[Any, Any], bool] = same_name
) -> tuple[bool, bool]:
    """Whether the predicted subject and baseline name the gold claim's, its ``aliases`` and
    ``versus_aliases`` counting as the same system (a paper names its system and baselines several ways).
    ``same`` judges two names (``same_name``, or ``exact_name`` for the strict reading)."""
    subjects = [gold.get("subject"), *(gold.get("aliases") or [])]
    baselines = [gold.get("versus"), *(gold.get("versus_aliases") or [])]
    subject = any(same(pred.get("subject"), name) for name in subjects)
    # an empty baseline is only right when the gold has none (an alias list never makes it right)
    if not _key(pred.get("versus")):
        return subject, not _key(gold.get("versus"))
    versus = any(same(pred.get("versus"), name) for name in baselines if _key(name))
    return subject, versus


def is_context(claim: Mapping[str, Any]) -> bool:
    """A gold claim that states background (prior work, cluster statistics), not a result: neutral."""
    return str(claim.get("type") or "").lower() == "context"


def _key(name: Any) -> str:
    return _NAME_NOISE.sub("", str(name or "")).lower()


def present(v: Any) -> bool:
    return v is not None and not (isinstance(v, float) and v != v)


_STATEMENT_WORD = re.compile(r"[a-z0-9]{3,}|[\u3400-\u9fff]")


def same_statement(sentence: Any, quote: Any) -> bool:
    """Whether a prediction's sentence is the one a gold claim quotes: most of the quote's words (CJK characters
    counting as words) are in it. A quote may join pieces with "..." or be set differently from the text as read
    (a PDF's line breaks), so words are compared, not strings."""
    if not sentence or not quote:
        return False
    said = set(_STATEMENT_WORD.findall(str(sentence).lower()))
    quoted = _STATEMENT_WORD.findall(str(quote).lower())
    return bool(quoted) and sum(w in said for w in quoted) >= 0.8 * len(quoted)


def one_to_one(preds: Sequence[Mapping[str, Any]], golds: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """A maximum matching gold index -> prediction index (augmenting paths; the sets are small)."""
    # Among equal values, a prediction read from the sentence the gold quotes is tried first, then one from the
    # same section with the same subject and baseline, so a value stated in the abstract and the conclusion (or
    # twice in one section) is paired with its own statement.
    options = [
        sorted(
            (j for j, p in enumerate(preds) if claims_match(p, g)),
            key=lambda j, g=g: (
                not same_statement(preds[j].get("statement"), g.get("text")),
                preds[j].get("section") != g.get("section"),
                not same_name(preds[j].get("subject"), g.get("subject")),
                not same_name(preds[j].get("versus"), g.get("versus")),
            ),
        )
        for g in golds
    ]
    owner: dict[int, int] = {}

    def assign(g: int, seen: set[int]) -> bool:
        for j in options[g]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or assign(owner[j], seen):
                owner[j] = g
                return True
        return False

    for g in range(len(golds)):
        assign(g, set())
    return {g: j for j, g in owner.items()}
