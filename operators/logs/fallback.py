"""Unknown text formats: mine line templates (in the manner of Drain: lines of equal length whose constant
tokens mostly agree share a template, the tokens that differ are its variables) and recover the numeric
series a template carries, named by the word printed before each value: ``step 10 | loss 2.31`` gives
``loss`` at step 10. Only lines that mention a metric-like word and a number are mined."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._collect import Collector
from assay.operators.logs._lines import PrefixStyle
from assay.operators.logs._names import is_step_key, key_slug, metric_name
from assay.operators.logs._numbers import memory_mb, parse_quantity

_TOKEN = re.compile(
    r"[-+]?(?:\d[\d,]*\.?\d*(?:[eE][-+]?\d+)?|\.\d+)(?:[A-Za-z%]+)?"  # numbers, with a unit glued on
    r"|[A-Za-z_][A-Za-z0-9_./()\-]*"  # words and keys (train/loss, lr-AdamW)
    r"|\S"
)
_NUMERIC_WORDS = {"nan", "NaN", "inf", "Inf", "-inf", "-nan"}
_SIMILARITY = 0.5
_MAX_CLUSTERS_PER_LENGTH = 64
_MAX_TOKENS = 80
_TIME_NAMES = {"time", "dt", "iter_time", "step_time", "batch_time", "elapsed"}


@dataclass
class _Cluster:
    template: list[str]  # constants, and "<*>" for variables
    rows: list[tuple[int, int | None, list[str], int | None]] = field(default_factory=list)


def tokens_of(text: str) -> list[str]:
    return _TOKEN.findall(text)[:_MAX_TOKENS]


def _is_variable(token: str) -> bool:
    return (
        token[0].isdigit()
        or (token[0] in "+-." and len(token) > 1 and token[1:2].isdigit())
        or token in _NUMERIC_WORDS
    )


class TemplateMiner:
    """Drain-style clustering of token sequences; each cluster keeps its lines' variable tokens."""

    def __init__(self) -> None:
        self.by_length: dict[int, list[_Cluster]] = {}

    def add(self, tokens: list[str], line_no: int, rank: int | None, step: int | None = None) -> None:
        """Add a line's tokens; ``step`` is the step the log was at, for series that print none."""
        shape = ["<*>" if _is_variable(t) else t for t in tokens]
        clusters = self.by_length.setdefault(len(shape), [])
        best, best_score = None, -1.0
        for cluster in clusters:
            constants = [i for i, t in enumerate(cluster.template) if t != "<*>"]
            if not constants:
                score = 1.0
            else:
                score = sum(cluster.template[i] == shape[i] for i in constants) / len(constants)
            if score > best_score:
                best, best_score = cluster, score
        if best is None or best_score < _SIMILARITY:
            if len(clusters) >= _MAX_CLUSTERS_PER_LENGTH:
                return
            best = _Cluster(shape)
            clusters.append(best)
        else:
            for i, token in enumerate(shape):
                if best.template[i] != token:
                    best.template[i] = "<*>"
        best.rows.append((line_no, rank, tokens, step))

    def clusters(self) -> list[_Cluster]:
        return [c for cs in self.by_length.values() for c in cs]


#: Units printed after a number that name its metric: ``12000 tok/s``.
_RATE_UNITS = {
    "tok/s": "tokens_per_s",
    "tokens/s": "tokens_per_s",
    "tokens/sec": "tokens_per_s",
    "samples/s": "samples_per_s",
    "samples/sec": "samples_per_s",
    "img/s": "samples_per_s",
    "img/sec": "samples_per_s",
    "images/sec": "samples_per_s",
}


def variable_names(template: list[str]) -> dict[int, str]:
    """Each variable position named by the nearest word before it (punctuation skipped), or by a rate
    unit right after it."""
    names: dict[int, str] = {}
    for i, token in enumerate(template):
        if token != "<*>":
            continue
        if i + 1 < len(template) and template[i + 1].lower() in _RATE_UNITS:
            names[i] = template[i + 1].lower()
            continue
        for j in range(i - 1, max(-1, i - 4), -1):
            word = template[j]
            if word == "<*>":
                break
            if word[0].isalpha() or word[0] == "_":
                names[i] = word
                break
    return names


@register_parser
class GenericParser(LogParser):
    """The fallback for formats no parser recognises."""

    name = "generic"
    framework = None
    priority = -100
    interesting = (
        r"(?i:loss|lr|learning|step|iter|epoch|acc|perplex|ppl|throughput|tokens|samples|norm|mfu|flops|mem)"
        r"[^\n]*\d"
    )

    def __init__(self, out: Collector, prefix: PrefixStyle | None = None):
        super().__init__(out, prefix)
        self.miner = TemplateMiner()

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        tokens = tokens_of(text)
        if len(tokens) >= 2:
            self.miner.add(tokens, line_no, rank, self.out.current_step)

    def finish(self) -> None:
        for cluster in self.miner.clusters():
            emit_series(cluster, self.out)


def emit_series(cluster: _Cluster, out) -> None:
    names = variable_names(cluster.template)
    metrics: dict[int, str] = {}
    step_pos = None
    for pos, word in names.items():
        if is_step_key(word) and step_pos is None:
            step_pos = pos
            continue
        name = (
            _RATE_UNITS.get(word)
            or metric_name(word)
            or ("step_time_ms" if key_slug(word) in _TIME_NAMES else None)
        )
        if name is None and key_slug(word).endswith("loss"):
            name = "val_loss" if key_slug(word).startswith(("val", "eval", "valid", "test")) else "loss"
        if name:
            metrics[pos] = name
    if not metrics:
        return
    for ordinal, (line_no, rank, tokens, current) in enumerate(cluster.rows):
        step = current if current is not None else ordinal
        if step_pos is not None:
            parsed = parse_quantity(tokens[step_pos])
            if parsed is None or parsed[0] != parsed[0]:
                continue
            step = int(parsed[0])
        for pos, name in metrics.items():
            parsed = parse_quantity(tokens[pos])
            if parsed is None:
                continue
            value, unit = parsed
            if name == "step_time_ms":
                if unit in ("s", "sec"):
                    value *= 1000.0
                elif unit != "ms":
                    continue
            if name == "memory_mb":
                value = memory_mb(value, unit)
            out.metric(name, step, value, line_no, rank)
