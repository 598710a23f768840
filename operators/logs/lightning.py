"""PyTorch Lightning: the CSVLogger's ``metrics.csv`` (sparse rows: a column per logged name, ``step`` and
``epoch``), and Lightning's stdout (progress bar postfixes ``loss=2.31``, the distributed setup and the
``Trainer.fit stopped`` line)."""

from __future__ import annotations

import csv
import os
import re

from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._collect import Collector
from assay.operators.logs._lines import PrefixStyle
from assay.operators.logs._names import extra_metric_name, key_slug, metric_name
from assay.operators.logs._numbers import parse_number

_BAR = re.compile(
    r"Epoch (?P<epoch>\d+):\s+\d+%\|[^|]*\|\s*(?P<i>\d+)/(?P<n>\d+) \[[^\]]*?(?:it/s|s/it)(?P<post>[^\]]*)\]"
)
_POSTFIX = re.compile(r"(?P<key>[A-Za-z_][\w/.-]*)=(?P<value>[^,\]\s]+)")
_DIST = re.compile(r"Initializing distributed: GLOBAL_RANK: \d+, MEMBER: \d+/(?P<world>\d+)")
_STOPPED = re.compile(r"`Trainer\.fit` stopped: (?P<why>.+)")
_DEVICES = re.compile(r"GPU available: True \((?P<kind>\w+)\), used: True")


def _metric(key: str) -> str | None:
    slug = key_slug(key)
    if slug in ("step", "epoch", "v_num"):
        return None
    if slug.endswith("_epoch") and metric_name(slug[: -len("_epoch")]):
        return slug  # the epoch mean of a metric logged per step: kept under its own name
    return metric_name(key) or extra_metric_name(key)


@register_parser
class LightningCSVParser(LogParser):
    """The CSVLogger's ``metrics.csv``."""

    name = "lightning_csv"
    framework = "PyTorch Lightning"
    chunkable = False
    priority = 15

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        first = head.split("\n", 1)[0].strip()
        columns = [c.strip() for c in first.split(",")]
        if (
            len(columns) >= 2
            and "step" in columns
            and ("epoch" in columns or os.path.basename(path) == "metrics.csv")
        ):
            return 0.95
        return 0.0

    def parse_file(self, path: str) -> None:
        out = self.out
        with open(path, encoding="utf-8", errors="replace", newline="") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if not header:
                return
            names = [_metric(c) for c in header]
            step_col = header.index("step") if "step" in header else None
            for line_no, row in enumerate(reader, start=2):
                if len(row) != len(header):
                    out.issue(f"row has {len(row)} fields, the header {len(header)}", line_no)
                    continue
                step = None
                if step_col is not None and row[step_col]:
                    number = parse_number(row[step_col])
                    step = int(number) if number is not None and number == number else None
                for name, cell in zip(names, row, strict=True):
                    if name and cell != "":
                        value = parse_number(cell)
                        if value is None:
                            out.issue(f"not a number in column {name!r}: {cell!r}", line_no)
                            continue
                        out.metric(name, step, value, line_no)


@register_parser
class LightningParser(LogParser):
    """Lightning's stdout."""

    name = "lightning"
    framework = "PyTorch Lightning"
    priority = 4
    interesting = r"Epoch \d+:|Initializing distributed|Trainer\.fit` stopped|GPU available|LOCAL_RANK"

    def __init__(self, out: Collector, prefix: PrefixStyle | None = None):
        super().__init__(out, prefix)
        self.last: tuple[int, int] | None = None

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        hits = sum(
            1
            for p in (
                "GPU available:",
                "TPU available:",
                "`Trainer.fit` stopped",
                "LOCAL_RANK: ",
                "| Name ",
                "lightning",
            )
            if p in head
        )
        if _BAR.search(head) and hits:
            return 0.85
        return 0.5 if hits >= 2 else 0.0

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        out = self.out
        for segment in text.split("\r"):
            m = _BAR.search(segment)
            if m:
                epoch, i, n = int(m.group("epoch")), int(m.group("i")), int(m.group("n"))
                step = epoch * n + i
                if (epoch, i) == self.last:
                    continue
                self.last = (epoch, i)
                for p in _POSTFIX.finditer(m.group("post")):
                    name = _metric(p.group("key"))
                    value = parse_number(p.group("value"))
                    if name and value is not None:
                        out.metric(name, step, value, line_no, rank)
                continue
            d = _DIST.search(segment)
            if d:
                out.setting("world_size", int(d.group("world")), line_no)
                continue
            s = _STOPPED.search(segment)
            if s:
                out.mark("completed", line_no, segment)
                continue
            g = _DEVICES.search(segment)
            if g:
                out.setting("accelerator", g.group("kind"), line_no)
