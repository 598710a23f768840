"""TorchElastic / torchrun agent output: the launch configuration block, rendezvous results (world size,
``restart_count``), worker group starts, failures (``failed (exitcode: -9)``, ``ChildFailedError``) and
restarts. The agent only launches: the training script's own lines, in whatever shape it prints them (a loss
line, a record over several indented ``key=value`` lines under its step), are the general reader's, so this
format is that reader with the agent's lines read first. (Failures, restarts and signals are events for every
format; see ``_events``.)"""

from __future__ import annotations

import re

from assay.operators.logs._base import register_parser
from assay.operators.logs.fallback import GenericParser

_CONFIG = re.compile(
    r"^\s*(?P<key>entrypoint|min_nodes|max_nodes|nproc_per_node|run_id|rdzv_backend|"
    r"max_restarts|monitor_interval)\s*:\s*(?P<value>\S.*?)\s*$"
)
_RESULT = re.compile(
    r"^\s*(?P<key>group_world_size|role_world_sizes|global_world_sizes|restart_count)="
    r"(?P<value>\S+)"
)
_SUCCESS = re.compile(
    r"worker group successfully finished|Local worker group finished \((?:WorkerState\.)?SUCCEEDED\)", re.I
)
_AGENT = re.compile(
    r"torch\.distributed\.elastic|torch/distributed/elastic|torch/distributed/run\.py|"
    r"Starting elastic_operator with launch configs|\[default\] Starting worker group"
)


@register_parser
class TorchElasticParser(GenericParser):
    name = "torchelastic"
    framework = "TorchElastic"
    priority = 1
    interesting = (
        r"^\s*(?:entrypoint|min_nodes|max_nodes|nproc_per_node|run_id|rdzv_backend|max_restarts|"
        r"monitor_interval)\s*:|_world_sizes?=|restart_count=|successfully finished|SUCCEEDED|"
        + GenericParser.interesting
    )

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        hits = len(_AGENT.findall(head))
        return 0.75 if hits >= 2 else 0.4 if hits else 0.0

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        out = self.out
        m = _CONFIG.match(text)
        if m:
            key, value = m.group("key"), m.group("value")
            out.setting(key, int(value) if value.isdigit() else value, line_no)
            return
        m = _RESULT.match(text)
        if m:
            key, value = m.group("key"), m.group("value")
            if key == "global_world_sizes":
                sizes = re.findall(r"\d+", value)
                if sizes:
                    out.setting("world_size", int(sizes[0]), line_no)
            elif key == "restart_count" and value.isdigit():
                out.setting("restart_count", int(value), line_no)
            return
        if _SUCCESS.search(text):
            out.mark("completed", line_no, text)
            return
        super().parse_line(text, line_no, rank)
