"""Keys written in shapes other than a word before its value: in brackets (``[Loss] 0.41 | [step]  1574``), and a
metric named with the split it is of, in the possessive (``train's l2: 0.09``, ``valid_1's auc: 0.81``), as
gradient-boosting libraries print their evaluation lists."""

from __future__ import annotations

import re

from assay.operators.logs._names import metric_name

_POSSESSOR = re.compile(r"^[A-Za-z]\w*$")


def possessive_name(template: list[str], j: int) -> str | None:
    """The name of the value after ``template[j]`` where the words before it are ``<split> ' s``: the booster's
    own key where it is one (``train-l2``, read as the training split's objective), else the split as a prefix
    (``valid_1_binary_logloss``); ``None`` where no possessive stands there."""
    if j < 3 or template[j - 2 : j] != ["'", "s"] or not _POSSESSOR.match(template[j - 3]):
        return None
    booster = f"{template[j - 3]}-{template[j]}"
    return booster if metric_name(booster) else f"{template[j - 3]}_{template[j]}"


#: Bracketed words that tag a line rather than name a value (``[INFO] 2024-...``).
_TAGS = {"info", "warning", "warn", "error", "debug", "critical", "trace", "fatal", "notice"}


def bracketed_keys(template: list[str], names: dict[int, str]) -> None:
    """Keys printed in brackets before their values (``[Loss] 0.41 | [step]  1574``): where a template prints
    at least two values so, each bracketed word names the value after it. One alone may be a tag (a logger's
    ``[train] 12``) and names nothing."""
    found = {
        i: template[i - 2]
        for i, token in enumerate(template)
        if token == "<*>" and i >= 3 and template[i - 1] == "]" and template[i - 3] == "["
        and _is_word_key(template[i - 2])
    }
    if len(found) >= 2:
        for i, word in found.items():
            names.setdefault(i, word)


def _is_word_key(token: str) -> bool:
    return (token[:1].isalpha() or token[:1] == "_") and token != "<*>" and token.lower() not in _TAGS
