"""Drain-style line templates for the generic reader: a line's tokens (numbers with their units, keys, single
marks), and clusters of lines of equal length whose constant tokens mostly agree (their differing tokens are
the template's variables). Kept apart from the reader so the step and field inference can share it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assay.operators.logs._names import SPLIT_NAMES

_TOKEN = re.compile(
    r"[-+]?\d\.#(?:QNAN|SNAN|IND|INF)\d*"  # MSVC's non-finite floats (1.#QNAN0, -1.#INF00), one token
    # a duration written in parts (``12m 16s``, ``1h 02m 05s``), one token as ``58s`` is: a line keeps its template
    # when its time grows past a minute
    r"|\d+[dhm]\s\d+[hms](?:\s\d+[ms])?(?![\w.])"
    # numbers, with a unit glued on; letters glued to a decimal that a colon follows are the next field's key, not
    # a unit (a fixed-width column that overflowed: ``learn 0.6355974416passed: 17.4 sec``); a whole number keeps
    # them (ESPnet's ``1-100batch:``)
    r"|[-+]?(?:\d[\d,]*\.\d*(?:[eE][-+]?\d+)?|\.\d+)(?:[A-Za-z%]+(?![A-Za-z%:]))?"
    # a comma inside a whole number separates its thousands (``135,000``); one after it separates the fields
    # (``Time 85, Performance``) as it does after a decimal
    r"|[-+]?\d(?:\d|,(?=\d))*(?:[eE][-+]?\d+)?(?:[A-Za-z%]+)?"
    # a non-finite value that ends a sentence (``Loss is NaN.``): the full stop is no part of the value
    r"|-?(?:nan|NaN|inf|Inf)(?=\.(?:\s|$))"
    # words and keys (train/loss, lr-AdamW, Acc@1, mAP@0.5, memory(GiB)); a parenthesis opens a word's unit only with a
    # letter (``Batch(100/1879)`` is a counter word and its counter)
    # (a plus inside a word joins it: ``results/CKPT+2024-01-01+10-00`` is a folder's name, not a key and values)
    # (a backslash before a word's character joins a Windows path's parts: ``logs\32k\G_6000.pth`` is one name, not a
    # key ``logs`` and its value ``32k``; an escaped quote, ``\"``, stays apart)
    r"|[A-Za-z_](?:[A-Za-z0-9_./\-]|\+(?=\w)|\\(?=\w))*(?:\([A-Za-z][\w/%.\-]*\))?[A-Za-z0-9_./\-]*(?:@\d+(?:\.\d+)?)?"
    r"|\S"
)
_NUMERIC_WORDS = {"nan", "NaN", "inf", "Inf", "-inf", "-nan"}
_SIMILARITY = 0.5
_MAX_CLUSTERS_PER_LENGTH = 64
#: Tokens read of a line: enough for a record of a dozen keys after a logger's prefix (a JSON object of ten
#: fields is ~100 tokens; at 80 its later fields were lost), still a bound on a config dump's length.
_MAX_TOKENS = 200


@dataclass
class Cluster:
    template: list[str]  # constants, and "<*>" for variables
    rows: list[tuple[int, int | None, list[str], int | None]] = field(default_factory=list)
    typed: tuple[dict[int, str], int | None, set[int]] | None = None  # step_of's answer, once rows are all in
    # numbered by the epoch that another template's finer records print beside their step: the epoch's values
    epoch_of_finer: bool = False


#: A progress bar's drawn part (``██████▌``, ``━━━━``): one token, whatever its length, so that a long bar
#: neither uses up the tokens a line is read for nor makes lines of one template differ in length.
_BAR_GLYPHS = re.compile(r"[\u2500-\u259f]+")


def tokens_of(text: str) -> list[str]:
    return _TOKEN.findall(_BAR_GLYPHS.sub("\u2588", text))[:_MAX_TOKENS]


def _is_variable(token: str) -> bool:
    return (
        token[0].isdigit()
        or (token[0] in "+-." and len(token) > 1 and token[1:2].isdigit())
        or token in _NUMERIC_WORDS
    )


def shape_of(tokens: list[str]) -> list[str]:
    """A line's tokens with each value as ``<*>``: the template it would start."""
    return ["<*>" if _is_variable(t) else t for t in tokens]


def _key_positions(shape: list[str]) -> set[int]:
    """Where a line prints a value's name: a word before ``:``/``=`` (in quotes too) or right before a value (nnU-Net's
    ``train_loss 0.27`` and ``val_loss 0.05`` are two series), and the word that qualifies such a name
    (``train loss : -0.66`` and ``validation loss: -0.72``); a label before the bar of a column its value ends
    the line in."""
    keys = set()
    for i in range(len(shape) - 1):
        word = shape[i]
        if word == "<*>" or not (word[0].isalpha() or word[0] == "_"):
            continue
        if word.lower().rstrip(":.") in SPLIT_NAMES:  # (also abbreviated: ``Train.`` and ``Val.``)
            keys.add(i)  # ``Training of Epoch 3 - loss`` and ``Validation of Epoch 3 - loss``: two series
            continue
        # a key in quotes (a JSON object's ``"train loss": 0.6,`` and ``"train samples": 11000,``) too
        # ... or before the bar of a label column that the value ends the line in (``eval  Accuracy |  0.54``)
        label = shape[i + 1] == "|" and shape[i + 2 :] == ["<*>"]
        if label or shape[i + 1] in (":", "=", "<*>") or (
            shape[i + 1] in ('"', "'") and shape[i + 2 : i + 3] in ([":"], ["="])
        ):
            keys.add(i)
            if i and (shape[i - 1][0].isalpha() or shape[i - 1][0] == "_"):
                keys.add(i - 1)
    return keys


class TemplateMiner:
    """Drain-style clustering of token sequences; each cluster keeps its lines' variable tokens."""

    def __init__(self) -> None:
        self.by_length: dict[int, list[Cluster]] = {}

    def add(
        self, tokens: list[str], line_no: int, rank: int | None, step: int | None = None, shape: list[str] | None = None
    ) -> None:
        """Add a line's tokens; ``step`` is the step the log was at, for series that print none; ``shape``: the
        tokens' ``shape_of``, where the caller has it already."""
        shape = shape if shape is not None else shape_of(tokens)
        clusters = self.by_length.setdefault(len(shape), [])
        best, best_score = None, -1.0
        keys = _key_positions(shape)
        for cluster in clusters:
            constants = [i for i, t in enumerate(cluster.template) if t != "<*>"]
            if not constants:
                score = 1.0
            elif any(cluster.template[i] != shape[i] and i in keys for i in constants):
                continue  # a different key before its value (``loss: 2.1`` vs ``time: 9``): another series
            else:
                score = sum(cluster.template[i] == shape[i] for i in constants) / len(constants)
            if score > best_score:
                best, best_score = cluster, score
        if best is None or best_score < _SIMILARITY:
            if len(clusters) >= _MAX_CLUSTERS_PER_LENGTH:
                return
            best = Cluster(shape)
            clusters.append(best)
        else:
            for i, token in enumerate(shape):
                if best.template[i] != token:
                    best.template[i] = "<*>"
        best.rows.append((line_no, rank, tokens, step))

    def clusters(self) -> list[Cluster]:
        return [c for cs in self.by_length.values() for c in cs]
