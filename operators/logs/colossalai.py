"""Colossal-AI: the launcher's ``Distributed environment is initialized, data parallel size: 4, pipeline
parallel size: 1, tensor parallel size: 2`` line, the examples' ``[10/100] Loss:2.345, Step time: 1.234s,
TFLOPS: 56.789`` lines and memory reports, and progress bars with ``loss=`` postfixes."""

from __future__ import annotations

import re

from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._collect import Collector
from assay.operators.logs._lines import PrefixStyle
from assay.operators.logs._names import metric_name
from assay.operators.logs._numbers import parse_number
from assay.operators.logs.fallback import TemplateMiner, emit_all, mine_line

_ENV = re.compile(r"Distributed environment is initialized,(?P<rest>.*)")
_SIZES = re.compile(
    r"(?P<kind>world|data parallel|pipeline parallel|tensor parallel|sequence parallel) size: (?P<n>\d+)"
)
_STEP = re.compile(
    r"\[(?P<step>\d+)/(?P<total>\d+)\] Loss: ?(?P<loss>[^\s,]+), Step time: (?P<time>[\d.]+)s"
    r"(?:, TFLOPS: (?P<tflops>[\d.]+))?"
)
_MEMORY = re.compile(r"\[(?P<step>\d+)/\d+\] \w[\w ]* GPU memory usage: (?P<mb>[\d.]+) MB")
_POSTFIX = re.compile(r"(?P<key>[A-Za-z_][\w/.-]*)=(?P<value>[^,\]\s]+)")
_BAR = re.compile(r"(?P<n>\d+)/(?P<total>\d+) \[[^\]]*?(?:it/s|s/it)(?P<post>[^\]]*)\]")
_SETTINGS = {
    "world": "world_size",
    "data parallel": "dp",
    "pipeline parallel": "pp",
    "tensor parallel": "tp",
    "sequence parallel": "sp",
}


@register_parser
class ColossalAIParser(LogParser):
    name = "colossalai"
    framework = "Colossal-AI"
    priority = 5
    # its legacy trainer logs through Rich, which wraps a record's values onto the lines under its epoch
    joins_wrapped = True
    interesting = (
        r"Distributed environment is initialized|\[\d+/\d+\] Loss|GPU memory usage|=[\d.]+[,\]]|"
        r"(?i:loss)"
    )

    def __init__(self, out: Collector, prefix: PrefixStyle | None = None):
        super().__init__(out, prefix)
        self.miner = TemplateMiner()
        self.peak: dict[int, tuple[float, int]] = {}  # step -> (highest memory report, its line)

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        if "colossalai - colossalai -" in head or _ENV.search(head):
            return 0.9
        return 0.6 if re.search(r"colossalai|ColossalAI|Colossal-AI", head) else 0.0

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        out = self.out
        m = _ENV.search(text)
        if m:
            for s in _SIZES.finditer(m.group("rest")):
                out.setting(_SETTINGS[s.group("kind")], int(s.group("n")), line_no)
            return
        m = _STEP.search(text)
        if m:
            step = int(m.group("step"))
            out.setting("train_iters", int(m.group("total")), line_no)
            out.metric("loss", step, parse_number(m.group("loss")), line_no, rank)
            out.metric("step_time_ms", step, float(m.group("time")) * 1000.0, line_no, rank)
            if m.group("tflops"):
                out.metric("tflops", step, float(m.group("tflops")), line_no, rank)
            return
        m = _MEMORY.search(text)
        if m:
            step, mb = int(m.group("step")), float(m.group("mb"))
            if mb > self.peak.get(step, (0.0, 0))[0]:
                self.peak[step] = (mb, line_no)
            return
        for segment in text.split("\r"):
            bar = _BAR.search(segment)
            if bar and "=" in bar.group("post"):
                step = int(bar.group("n"))
                for p in _POSTFIX.finditer(bar.group("post")):
                    name = metric_name(p.group("key"))
                    value = parse_number(p.group("value"))
                    if name and value is not None:
                        out.metric(name, step, value, line_no, rank)
                return
        if "loss" in text.lower():
            mine_line(self.miner, text, line_no, rank, self.out)

    def finish(self) -> None:
        for step, (mb, line_no) in self.peak.items():
            self.out.metric("memory_mb", step, mb, line_no)
        emit_all(self.miner, self.out)
        s = self.out.settings
        if "world_size" not in s and all(k in s for k in ("dp", "tp", "pp")):
            self.out.setting("world_size", s["dp"] * s["tp"] * s["pp"])
