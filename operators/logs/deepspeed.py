"""DeepSpeed: the engine's ``[Rank 0] step=10, skipped=0, lr=[...]`` line, the throughput timer
(``RunningAvgSamplesPerSec=...``), the pipeline engine's ``steps: 10 loss: 2.31 iter time (s): ...
samples/sec: ...``, the flops profiler block, the engine configuration dump and the launcher's world info.
Loss lines a user's script prints in its own words are mined as in unknown formats."""

from __future__ import annotations

import re

from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._collect import Collector
from assay.operators.logs._lines import PrefixStyle
from assay.operators.logs._names import key_slug
from assay.operators.logs._numbers import memory_mb, parse_number, parse_quantity
from assay.operators.logs._options import OPTION_LINES, options_of
from assay.operators.logs._records import BAR_GLUED
from assay.operators.logs.fallback import TemplateMiner, emit_all, mine_line

_ENGINE_STEP = re.compile(
    r"\[Rank (?P<rank>\d+)\] step=(?P<step>\d+), skipped=(?P<skipped>\d+), lr=\[(?P<lr>[^\]]*)\]"
)
_TIMER = re.compile(
    r"global_step=(?P<step>\d+), RunningAvgSamplesPerSec=(?P<avg>[\d.eE+-]+), "
    r"CurrSamplesPerSec=(?P<cur>[\d.eE+-]+)(?:, MemAllocated=(?P<mem>[\d.]+)(?P<u1>[KMGT]?B), "
    r"MaxMemAllocated=(?P<maxmem>[\d.]+)(?P<u2>[KMGT]?B))?"
)
# The throughput timer of DeepSpeed before 0.3.11 (deepspeed/utils/timer.py ThroughputTimer.stop:
# '{}/{}, SamplesPerSec={}'.format(epoch_count, local_step_count, avg_samples_per_sec())): the epoch, the step
# within it (the run's step in epoch 0), the running average of samples per second.
_OLD_TIMER = re.compile(
    r"(?m)\[timer\.py:\d+:stop\] (?P<epoch>\d+)/(?P<step>\d+), SamplesPerSec=(?P<avg>[\d.eE+-]+)\s*$"
)
#: The pipeline engine's per-step line (``deepspeed.PipelineEngine``), which Megatron-style runs print too.
PIPE_LINE = re.compile(
    r"\bsteps?: *(?P<step>\d+)(?: */ *(?P<total>\d+))? +loss: *(?P<loss>\S+)(?P<rest>.*?)"
    r"iter time \(s\): *(?P<time>[\d.]+) +samples/sec: *(?P<sps>[\d.]+)"
)
_EXTRA_LOSS = re.compile(r"(?P<key>[A-Za-z_][\w ]*? loss): *(?P<value>\S+)")
_PROFILE_AT = re.compile(r"Profile Summary at step (?P<step>\d+)")
_PROFILE = {
    "world size": "world_size",
    "data parallel size": "dp",
    "model parallel size": "mp",
    "batch size per gpu": "micro_batch_size",
}
_PROFILE_LINE = re.compile(r"^(?P<key>[A-Za-z][\w +*/=()-]*?):\s+(?P<value>[\d.]+)\s*(?P<unit>[A-Za-z]*)\s*$")
_CONFIG = re.compile(r"\[config\.py:\d+:print\]\s+(?P<key>\w+) (?:\.+ |\s+)(?P<value>.*)$")
_CONFIG_SETTINGS = {
    "train_batch_size": "global_batch_size",
    "train_micro_batch_size_per_gpu": "micro_batch_size",
    "world_size": "world_size",
    "gradient_accumulation_steps": "gradient_accumulation_steps",
    "zero_optimization_stage": "zero_stage",
}
_WORLD = re.compile(r"dist_world_size=(?P<n>\d+)")
_WORLD_INFO = re.compile(r"WORLD INFO DICT: (?P<info>\{.*\})")
_DONE = re.compile(r"Process \d+ exits successfully")
#: DeepSpeed's own log lines (``[2024-03-04 10:00:01,001] [INFO] [file.py:12:fn] ...``), not a
#: user's loss print.
#: DeepSpeed's own logger records (its overflow notices, its timers) are read by the rules above, never mined; a
#: tqdm bar may be glued in front of one (``| 32/63645 [01:08<37:43:25, 2.13s/it][2021-06-08 12:03:34,071] ...``).
_DS_LOGGER = re.compile(r"^(?:[^\n]*?\d+/\d+ \[[^\]]*\])?\[[\d\- :,]+\] \[[A-Z]+\] \[[\w.]+:\d+:\w+\]")


@register_parser
class DeepSpeedParser(LogParser):
    name = "deepspeed"
    framework = "DeepSpeed"
    priority = 5
    interesting = (
        r"\] step=\d+, skipped=|RunningAvgSamplesPerSec|SamplesPerSec=|steps?: *\d+.*loss:.*samples/sec|"
        r"Profile Summary at step|"
        r"Flops Profiler|samples/second|FLOPS per GPU|iter latency|params per gpu|^world size:|"
        r"^data parallel size:|^model parallel size:|^batch size per GPU:|config\.py:\d+:print|"
        r"dist_world_size|"
        r"WORLD INFO DICT|exits successfully|(?i:loss)|" + OPTION_LINES
    )

    def __init__(self, out: Collector, prefix: PrefixStyle | None = None):
        super().__init__(out, prefix)
        self.profile_step: int | None = None
        self.miner = TemplateMiner()

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        if re.search(r"\[Rank \d+\] step=\d+, skipped=\d+", head) or "RunningAvgSamplesPerSec" in head:
            return 0.9
        if _OLD_TIMER.search(head):
            return 0.85
        if re.search(
            r"DeepSpeed info: version=|DeepSpeedEngine configuration|deepspeed\.launcher|"
            r"\[deepspeed\] OVERFLOW|DeepSpeed Flops Profiler",
            head,
        ):
            return 0.8
        return 0.0

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        out = self.out
        m = _ENGINE_STEP.search(text)
        if m:
            step = int(m.group("step"))
            out.current_step = step
            lr = parse_number(m.group("lr").split(",")[0])
            out.metric("lr", step, lr, line_no, int(m.group("rank")))
            return
        m = _TIMER.search(text)
        if m:
            step = int(m.group("step"))
            out.metric("samples_per_s", step, float(m.group("cur")), line_no, rank)
            if m.group("maxmem"):
                out.metric(
                    "memory_mb", step, memory_mb(float(m.group("maxmem")), m.group("u2")), line_no, rank
                )
            return
        m = _OLD_TIMER.search(text) if "SamplesPerSec=" in text else None
        if m:
            step = int(m.group("step"))
            out.current_step = step
            out.metric("samples_per_s", step, float(m.group("avg")), line_no, rank)
            return
        m = PIPE_LINE.search(text)
        if m:
            step = int(m.group("step"))
            out.current_step = step
            if m.group("total"):
                out.setting("train_iters", int(m.group("total")), line_no)
            out.metric("loss", step, parse_number(m.group("loss")), line_no, rank)
            for extra in _EXTRA_LOSS.finditer(m.group("rest")):
                out.metric(
                    key_slug(extra.group("key")), step, parse_number(extra.group("value")), line_no, rank
                )
            out.metric("step_time_ms", step, float(m.group("time")) * 1000.0, line_no, rank)
            out.metric("samples_per_s", step, float(m.group("sps")), line_no, rank)
            return
        if self._profile(text, line_no, rank) or self._config(text, line_no):
            return
        if _DONE.search(text):
            out.mark("completed", line_no, text)
            return
        if not out.n_metric_rows:  # a script's start-up options say the run's layout (``_options``)
            for setting, value in options_of(text).items():
                out.setting(setting, value, line_no)
        if "loss" in text.lower():
            if _DS_LOGGER.match(text):
                # the engine's record glued after a script's bar: the bar's own values are the script's record
                glued = BAR_GLUED.search(text)
                text = text[: glued.end()] if glued and "loss" in text[: glued.end()].lower() else ""
            if text:
                mine_line(self.miner, text, line_no, rank, self.out)

    def _profile(self, text: str, line_no: int, rank: int | None) -> bool:
        out = self.out
        m = _PROFILE_AT.search(text)
        if m:
            self.profile_step = int(m.group("step"))
            return True
        m = _PROFILE_LINE.match(text.strip())
        if not m:
            return False
        key, value, unit = m.group("key").strip().lower(), float(m.group("value")), m.group("unit")
        step = self.profile_step
        if key in _PROFILE:
            out.setting(_PROFILE[key], int(value), line_no)
        elif key.startswith("fwd+bwd flops per gpu") and unit.upper().endswith("FLOPS"):
            scale = {"T": 1.0, "G": 1e-3, "P": 1e3}.get(unit[:1].upper(), None)
            if scale is not None:
                out.metric("tflops", step, value * scale, line_no, rank)
        elif key == "iter latency":
            factor = {"ms": 1.0, "s": 1000.0, "us": 1e-3}.get(unit, None)
            if factor is not None:
                out.metric("step_time_ms", step, value * factor, line_no, rank)
        elif key == "samples/second":
            out.metric("samples_per_s", step, value, line_no, rank)
        elif key == "params per gpu":
            parsed = parse_quantity(f"{value}{unit[:1]}")
            if parsed:
                out.setting("params_per_gpu", int(parsed[0]), line_no)
        else:
            return False
        return True

    def _config(self, text: str, line_no: int) -> bool:
        out = self.out
        m = _CONFIG.search(text)
        if m:
            setting = _CONFIG_SETTINGS.get(m.group("key"))
            number = parse_number(m.group("value"))
            if setting and number is not None and number == number:
                out.setting(setting, int(number), line_no)
            return True
        m = _WORLD.search(text)
        if m:
            out.setting("world_size", int(m.group("n")), line_no)
            return True
        m = _WORLD_INFO.search(text)
        if m:
            out.setting("world_info", m.group("info"), line_no)
            return True
        return False

    def finish(self) -> None:
        emit_all(self.miner, self.out)
