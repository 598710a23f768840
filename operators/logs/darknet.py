"""Darknet (pjreddie's and AlexeyAB's, the YOLO v2-v4 trainers): one line an iteration, its numbers named by the
words after them: ``1200: 3.4512, 3.6021 avg, 0.001000 rate, 4.12 seconds, 76800 images`` (AlexeyAB's fork writes
``avg loss`` and adds the hours left). The first number is the iteration's loss, ``avg`` its running average;
``Region 82 Avg IOU: ...`` diagnostics before it are per layer, no record of the run. The mAP the fork measures
every so often is an evaluation at the iteration before it; ``Saving weights to`` is a checkpoint (an event for
every format)."""

from __future__ import annotations

import re

from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._numbers import parse_number

_NUM = r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|nan|-?inf)"
_ITER = re.compile(
    rf"^\s*(?P<step>\d+):\s*(?P<loss>{_NUM}),\s*(?P<avg>{_NUM})\s+avg(?:\s+loss)?,\s*(?P<lr>{_NUM})\s+rate,"
    rf"\s*(?P<sec>{_NUM})\s+seconds,\s*(?P<images>\d+)\s+images",
    re.I,
)
#: AlexeyAB's evaluation: ``mean average precision (mAP@0.50) = 0.612345`` (a share), or the chart's ``Last
#: accuracy mAP@0.5 = 61.23 %``.
_MAP = re.compile(r"mean average precision \(mAP@0?\.5+0*\)\s*=\s*(?P<share>[\d.]+)|Last accuracy mAP@0?\.5\s*=\s*(?P<pct>[\d.]+)\s*%")


@register_parser
class DarknetParser(LogParser):
    name = "darknet"
    framework = "Darknet"
    priority = 5
    interesting = r"^\s*\d+:\s*[-+\d.naif]+,\s*[-+\d.naif]+\s+avg|mean average precision \(mAP@|Last accuracy mAP@"

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        hits = sum(1 for line in head.splitlines() if _ITER.match(line))
        return 0.95 if hits >= 2 else 0.6 if hits == 1 else 0.0

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        out = self.out
        m = _ITER.match(text)
        if m:
            step = int(m["step"])
            out.current_step = step
            out.metric("loss", step, parse_number(m["loss"]), line_no, rank)
            out.metric("loss_running_avg", step, parse_number(m["avg"]), line_no, rank)
            out.metric("lr", step, parse_number(m["lr"]), line_no, rank)
            out.metric("step_time_ms", step, parse_number(m["sec"]) * 1000.0, line_no, rank)
            out.metric("samples_seen", step, float(m["images"]), line_no, rank)
            return
        m = _MAP.search(text)
        if m:
            value = float(m["share"]) if m["share"] else float(m["pct"]) / 100.0
            out.metric("val_map50", out.current_step, value, line_no, rank)
