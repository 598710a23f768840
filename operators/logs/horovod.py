"""Horovod's synthetic benchmark (``pytorch_synthetic_benchmark.py``, ``tensorflow2_synthetic_benchmark.py``):
``Iter #3: 1234.5 img/sec per GPU`` and ``Total img/sec on 16 GPU(s): 19752.0 +-89.6``, often behind
mpirun's ``[1,0]<stdout>:`` tags."""

from __future__ import annotations

import re

from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._names import canonical_model

_ITER = re.compile(r"Iter #(?P<step>\d+): (?P<rate>[\d.]+) img/sec per (?:GPU|CPU|device)")
_TOTAL = re.compile(
    r"Total img/sec on (?P<n>\d+) (?:GPU|CPU|device)\(s\): (?P<rate>[\d.]+)(?: \+-(?P<ci>[\d.]+))?"
)
_MEAN = re.compile(r"Img/sec per (?:GPU|CPU|device): (?P<rate>[\d.]+)(?: \+-(?P<ci>[\d.]+))?")
_SETUP = re.compile(r"^(?P<key>Model|Batch size|Number of (?:GPUs|CPUs|devices)): (?P<value>\S+)")


@register_parser
class HorovodParser(LogParser):
    name = "horovod"
    framework = "Horovod"
    priority = 6
    interesting = r"Iter #\d+:|img/sec|Img/sec|^Model: |^Batch size: |^Number of (?:GPUs|CPUs|devices): "

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        if _ITER.search(head) or _TOTAL.search(head):
            return 1.0
        return 0.6 if "Running benchmark..." in head and "Model:" in head else 0.0

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        out = self.out
        m = _ITER.search(text)
        if m:
            step = int(m.group("step"))
            out.current_step = step
            out.metric("samples_per_s_per_gpu", step, float(m.group("rate")), line_no, rank)
            return
        m = _TOTAL.search(text)
        if m:
            out.setting("world_size", int(m.group("n")), line_no)
            out.metric("samples_per_s", None, float(m.group("rate")), line_no, rank)
            out.mark("completed", line_no, text)
            return
        m = _MEAN.search(text)
        if m:
            out.setting("img_per_sec_per_gpu", float(m.group("rate")), line_no)
            return
        m = _SETUP.match(text)
        if m:
            key, value = m.group("key"), m.group("value")
            if key == "Model":
                name = canonical_model(value)
                out.setting("model", name, line_no)
                out.model(name, line_no)
            elif key == "Batch size" and value.isdigit():
                out.setting("micro_batch_size", int(value), line_no)
            elif value.isdigit():
                out.setting("world_size", int(value), line_no)
                out.setting("dp", int(value), line_no)

    def finish(self) -> None:
        s = self.out.settings
        if s.get("world_size") and s.get("micro_batch_size"):
            self.out.setting("global_batch_size", s["world_size"] * s["micro_batch_size"])
