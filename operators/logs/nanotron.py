"""Nanotron: ``iteration: 10 / 100 | consumed_tokens: 10.2M | elapsed_time_per_iteration_ms: 1.23K |
tokens_per_sec: 11.4K | ... | lm_loss: 7.365868E+00 | ...`` with human-formatted numbers, the ``Config``
dump (``ParallelismArgs(dp=..., pp=..., tp=...)``), the model config and the ``[Start training]`` line."""

from __future__ import annotations

import re

import numpy as np

from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._bulk import Field, KeyValueLines
from assay.operators.logs._collect import Collector
from assay.operators.logs._lines import LineBlock, PrefixStyle
from assay.operators.logs._names import humanise_count, key_slug, metric_name
from assay.operators.logs._numbers import parse_number, to_floats

_ITERATION = re.compile(r"iteration: *\d+ */ *\d+ *\| *consumed_tokens")
_PARALLELISM = re.compile(r"ParallelismArgs\((?P<rest>.*)")
_ASSIGN = re.compile(r"\b(?P<key>dp|pp|tp|expert_parallel_size)=(?P<value>\d+)")
_MODEL_CONFIG = re.compile(r"(?P<family>[A-Z]\w*?)Config\(")
_PARAMS = re.compile(r"Total number of parameters: (?P<n>[\d.]+[KMGTB]?)")
_START = re.compile(
    r"\[Start training\].*?mbs: (?P<mbs>\d+).*?global_batch_size: (?P<gbs>\d+).*?"
    r"train_steps: (?P<steps>\d+)"
)
_VALIDATION = re.compile(
    r"(?:validation|eval)[^|]*?(?:iteration|step): *(?P<step>\d+).*?lm_loss: *(?P<loss>\S+)", re.I
)


def _bytes_to_mb(values: list[bytes]) -> list[float | None]:
    """Nanotron prints memory as a human-formatted byte count (``520M``)."""
    return [None if v is None else v / 2**20 for v in to_floats(values)]


def nanotron_field(key: str) -> Field | None:
    slug = key_slug(key)
    if slug == "cuda_max_memory_reserved":
        return Field(metric="memory_mb", convert=_bytes_to_mb)
    if slug == "global_batch_size":
        return Field(setting="global_batch_size")
    if slug == "model_tflops_per_gpu":
        return Field(metric="tflops")
    if slug == "hardware_tflops_per_gpu":
        return Field(metric="hardware_tflops")
    if slug.startswith(("consumed", "cuda_", "hd_")):
        return None
    name = metric_name(key)
    if name:
        return Field(metric=name)
    return Field(metric=slug) if slug.endswith("loss") else None


@register_parser
class NanotronParser(LogParser):
    name = "nanotron"
    framework = "Nanotron"
    priority = 9
    interesting = (
        r"iteration: *\d+ */|ParallelismArgs\(|(?:^|\s)(?:dp|pp|tp|expert_parallel_size)=\d+|Config\(|"
        r"Total number of parameters|\[Start training\]|(?i:validation|eval).*lm_loss"
    )

    def __init__(self, out: Collector, prefix: PrefixStyle | None = None):
        super().__init__(out, prefix)
        self.lines = KeyValueLines(
            r"iteration: *\d+ */ *\d+", r"iteration: *(?P<step>\d+) */ *(?P<total>\d+)", nanotron_field
        )
        self.in_parallelism = False
        self.family: str | None = None

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        if _ITERATION.search(head):
            return 1.0
        if re.search(r"\[(?:INFO|WARNING)\|DP=\d+\|PP=\d+\|TP=\d+", head):
            return 0.9
        return 0.0

    def bulk(self, block: LineBlock) -> np.ndarray | None:
        return self.lines.run(block, self.out, self.prefix)

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        out = self.out
        body = text.split("]: ", 1)[1] if "]: " in text[:80] else text  # drop "date [INFO|DP=0|PP=0|TP=0]: "
        m = _VALIDATION.search(body)
        if m:
            out.metric("val_loss", int(m.group("step")), parse_number(m.group("loss")), line_no, rank)
            return
        if self.lines.parse_one(body, line_no, rank, out):
            return
        m = _PARALLELISM.search(body)
        if m:
            self.in_parallelism = True
            body = m.group("rest")
        if self.in_parallelism:
            for a in _ASSIGN.finditer(body):
                key = {"expert_parallel_size": "ep"}.get(a.group("key"), a.group("key"))
                out.setting(key, int(a.group("value")), line_no)
            if ")" in body:
                self.in_parallelism = False
            return
        m = _MODEL_CONFIG.search(body)
        if m and self.family is None and m.group("family") not in ("Parallelism", "Model"):
            self.family = m.group("family")
            return
        m = _PARAMS.search(body)
        if m:
            params = parse_number(m.group("n"))
            if params:
                out.setting("model_params", int(params), line_no)
            return
        m = _START.search(body)
        if m:
            out.setting("micro_batch_size", int(m.group("mbs")), line_no)
            out.setting("global_batch_size", int(m.group("gbs")), line_no)
            out.setting("train_iters", int(m.group("steps")), line_no)

    def finish(self) -> None:
        out = self.out
        s = out.settings
        if "world_size" not in s and all(k in s for k in ("dp", "tp", "pp")):
            out.setting("world_size", s["dp"] * s["tp"] * s["pp"])
        if self.family and s.get("model_params"):
            out.setting("model", f"{self.family} {humanise_count(s['model_params'])}")
