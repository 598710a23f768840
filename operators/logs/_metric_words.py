"""The words that make a log line worth the general reader's mining, as one RE2 prefilter: a metric's word
(``loss``, ``lr``, ``throughput`` and every key of the synonym table) with a number after it."""

from __future__ import annotations

import re

from assay.operators.logs._names import known_words


def _shortest(words: list[str]) -> list[str]:
    """The words none of the others is part of: a prefilter that finds ``loss`` needs no ``train_loss``. A short
    word only counts as a word of its own (see ``METRIC_WORD``): ``acc`` covers ``acc_top1`` but neither ``xacc``
    nor ``accuracy``."""
    words = sorted(set(words), key=len)
    kept: list[str] = []
    for word in words:
        if not any(
            k in word if len(k) > _SHORT else re.search(rf"(?<![a-z0-9]){re.escape(k)}(?![a-z])", word) for k in kept
        ):
            kept.append(word)
    return kept


#: Words of this length or less are abbreviations (``lr``, ``f1``, ``acc``, ``mem``, ``tok``) that occur by
#: chance inside other words and numbers; longer ones are metric words also inside a compound (``logloss``,
#: ``minibatches``).
_SHORT = 3
#: Words that make a line worth mining, with a number after them: these, and every key of the synonym table
#: and step key (``xent``, ``wps``, ``num_updates``), so that a synonym added to the table is also mined.
_WORDS = _shortest(
    [
        *"loss lr learning step iter epoch batch acc accuracy perplex ppl throughput tokens samples norm mfu flops"
        " mem memory metric entropy reward score grad bleu f1 wer tok update rmse mse mae t_env".split(),
        *known_words(),
    ]
)
_ABBREVIATIONS = [w for w in _WORDS if len(w) <= _SHORT]
#: A metric word: a long one anywhere, an abbreviation only as a word of its own (not ``f1`` in a pointer
#: ``0xaf19000``, ``lr`` in ``already``, ``mem`` in ``memcpy``): it starts at the line's start, after a separator
#: or ``_`` (``val_acc``), or at a CamelCase hump (``valAcc``), and no letter follows it (``acc1``, ``tok/s``).
#: RE2 (the vectorised line selection) has no look-around, so the boundaries are matched.
_WORD_END = "(?:[^A-Za-z]|$)"
METRIC_WORD = (
    "(?:(?i:" + "|".join(re.escape(w) for w in _WORDS if len(w) > _SHORT) + ")"
    + "|(?:^|[^A-Za-z0-9])(?i:" + "|".join(re.escape(w) for w in _ABBREVIATIONS) + ")" + _WORD_END
    + "|[a-z](?:" + "|".join(re.escape(w[0].upper()) + f"(?i:{re.escape(w[1:])})" for w in _ABBREVIATIONS) + ")"
    + _WORD_END + ")"
)
