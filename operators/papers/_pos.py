"""The trained pipeline's part-of-speech assignments, applied without its ``attribute_ruler``.

The parse rules (``_parse``) read one thing the ``attribute_ruler`` writes: each token's coarse part of speech
(``pos_``, mapped from the tagger's fine tag and a few words). spaCy's ruler runs a ``Matcher`` of about 180
patterns over every token, its word lists (``{"IN": [...]}``) checked in Python, and it also writes
morphology and lemmas that nothing here reads: about as much time as the dependency parser itself on the
sentences we parse. :class:`PosRules` keeps the ruler's patterns that set ``POS``, indexed by the tag of the
token they assign, and gives each token the ``POS`` of the last matching pattern, as the ruler does (its
matches are applied in the order the patterns were added, so the last one wins).

Only the pattern shapes the ruler's table uses are read (fixed-length token patterns over ``TAG``, ``LOWER``,
``ORTH``, ``DEP`` and ``IS_SPACE``, each a value, an ``IN`` or a ``NOT_IN`` list); a table with anything else (an operator,
another attribute) makes :meth:`PosRules.from_ruler` return None, and the caller keeps spaCy's ruler.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_GETTERS = {
    "TAG": lambda t: t.tag_,
    "LOWER": lambda t: t.lower_,
    "ORTH": lambda t: t.orth_,
    "DEP": lambda t: t.dep_,
    "IS_SPACE": lambda t: t.is_space,
}
#: A token spec: the (getter, values, negated) it checks: the attribute is among the values, or with
#: ``negated`` (``NOT_IN``) not among them.
_Spec = tuple[tuple[Any, frozenset[Any], bool], ...]


class _Rule:
    __slots__ = ("order", "pos", "index", "specs")

    def __init__(self, order: int, pos: str, index: int, specs: list[_Spec]):
        self.order, self.pos, self.index, self.specs = order, pos, index, specs

    def holds(self, tokens: list[Token], at: int) -> bool:
        """Whether the pattern matches with its assigned token at position ``at``."""
        first = at - self.index
        if first < 0 or first + len(self.specs) > len(tokens):
            return False
        for offset, spec in enumerate(self.specs):
            token = tokens[first + offset]
            for get, values, negated in spec:
                if (get(token) in values) is negated:
                    return False
        return True


class PosRules:
    """The ``POS`` half of an ``attribute_ruler``: call it on a parsed doc."""

    def __init__(self, rules: list[_Rule]):
        self.by_tag: dict[str | None, list[_Rule]] = {}
        for rule in rules:
            tags = next(
                (v for get, v, negated in rule.specs[rule.index] if get is _GETTERS["TAG"] and not negated), None
            )
            for tag in tags if tags is not None else (None,):
                self.by_tag.setdefault(tag, []).append(rule)
        for tag, found in self.by_tag.items():
            if tag is not None:
                found.extend(self.by_tag.get(None, ()))
            found.sort(key=lambda r: -r.order)  # the last added first: it wins

    @classmethod
    def from_ruler(cls, patterns: Iterable[dict[str, Any]]) -> PosRules | None:
        """From an ``AttributeRuler``'s ``patterns`` (in the order added), or None for a shape not read here."""
        rules = []
        for order, group in enumerate(patterns):
            pos = group["attrs"].get("POS")
            if pos is None:
                continue
            for pattern in group["patterns"]:
                specs = [_spec(token) for token in pattern]
                if not specs or any(s is None for s in specs):
                    return None
                index = group.get("index", 0)
                index = index + len(specs) if index < 0 else index
                if not 0 <= index < len(specs):
                    return None
                rules.append(_Rule(order, pos, index, specs))  # type: ignore[arg-type]
        return cls(rules)

    def __call__(self, doc: Doc) -> Doc:
        tokens = list(doc)
        fallback = self.by_tag.get(None, [])
        for i, token in enumerate(tokens):
            for rule in self.by_tag.get(token.tag_, fallback):
                if rule.holds(tokens, i):
                    token.pos_ = rule.pos
                    break
        return doc


def _spec(token: dict[str, Any]) -> _Spec | None:
    out = []
    for key, value in token.items():
        get = _GETTERS.get(key)
        if get is None:
            return None
        if isinstance(value, dict):
            if len(value) != 1 or next(iter(value)) not in ("IN", "NOT_IN"):
                return None
            (how, values), = value.items()
            out.append((get, frozenset(values), how == "NOT_IN"))
        elif isinstance(value, (str, bool)):
            out.append((get, frozenset([value]), False))
        else:
            return None
    return tuple(out)
