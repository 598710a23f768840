"""PyTorch Lightning: the CSVLogger's ``metrics.csv`` (sparse rows: a column per logged name, ``step`` and
``epoch``), and Lightning's stdout (progress bar postfixes ``loss=2.31``, the distributed setup and the
``Trainer.fit stopped`` line), which is also how NeMo reports training (its bar, its process groups)."""

from __future__ import annotations

import csv
import os
import re

from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._collect import Collector
from assay.operators.logs._lines import PrefixStyle
from assay.operators.logs._names import (
    extra_metric_name,
    is_step_key,
    key_slug,
    metric_name,
    time_unit_factor,
)
from assay.operators.logs._numbers import parse_number
from assay.operators.logs._records import bar_draws

#: ``Epoch 0:  50%|#####     | 1/2 [00:00<00:00, 10.00it/s, v_num=0, train_loss=1.23]``; NeMo's bar has a
#: second colon and no rate: ``Epoch 0: :   1%|    | 10/1000 [00:50<1:22:30, reduced_train_loss=10.40, ...]``.
#: A bar cut at the terminal's width has no closing bracket (``..., train_loss=3.400, gen_ex``); one a log collector
#: stored off a terminal may have lost its drawn part (``Epoch 0:  50% 1/2 [00:00<00:00, loss=2.29, v_num=0]``).
_BAR = re.compile(
    r"Epoch (?P<epoch>\d+):[^|\n]*?\d+%(?:\|[^|]*\|\s*|[ \t]+)(?P<i>\d+)/(?P<n>\d+) \[(?P<post>[^\]\r\n]*)(?P<end>\])?"
)
#: ``key=value`` items of the bar's postfix; NeMo's keys may hold spaces (``train_step_timing in s=4.95``).
_POSTFIX = re.compile(r"(?:^|,)\s*(?P<key>[A-Za-z_][^=,\]]*?)\s*=\s*(?P<value>[^,\]\s]+)")
#: NeMo's (Megatron core's) process groups: ``Rank 0 has tensor model parallel group: [0, 4]``.
_NEMO_GROUP = re.compile(
    r"Rank \d+ has (?P<kind>data|tensor model|pipeline model) parallel group\s*:\s*\[(?P<ranks>[\d,\s]*)\]"
)
_GROUP_SETTING = {"data": "dp", "tensor model": "tp", "pipeline model": "pp"}
_DIST = re.compile(r"Initializing distributed: GLOBAL_RANK: \d+, MEMBER: \d+/(?P<world>\d+)")
#: Keys only NeMo's (Megatron GPT's) bar shows.
_NEMO_BAR = re.compile(r"[\[,]\s*(?:reduced_train_loss|consumed_samples|train_step_timing in s)=")
_STOPPED = re.compile(r"`Trainer\.fit` stopped: (?P<why>.+)")
_DEVICES = re.compile(r"GPU available: True \((?P<kind>\w+)\), used: True")


def _metric(key: str) -> str | None:
    slug = key_slug(key)
    if slug in ("epoch", "v_num") or is_step_key(key):
        return None
    if slug.endswith("_epoch") and metric_name(slug[: -len("_epoch")]):
        return slug  # the epoch mean of a metric logged per step: kept under its own name
    if slug.endswith("_step") and metric_name(slug[: -len("_step")]):
        return metric_name(slug[: -len("_step")])  # logged on each step (``total_loss_step``): the metric itself
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
    interesting = (
        r"Epoch \d+:|Initializing distributed|Trainer\.fit` stopped|GPU available|LOCAL_RANK|"
        r"has (?:data|tensor model|pipeline model) parallel group"
    )

    def __init__(self, out: Collector, prefix: PrefixStyle | None = None):
        super().__init__(out, prefix)
        self.last: tuple[int, int] | None = None
        self.recorded: set[str] = set()

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
                "[NeMo ",
            )
            if p in head
        )
        if _BAR.search(head) and hits:
            return 0.85
        bar = _BAR.search(head)
        if bar and _POSTFIX.search(bar.group("post")):
            return 0.6  # the bar alone, with its logged values (a tail, an excerpt)
        return 0.5 if hits >= 2 else 0.0

    @classmethod
    def framework_for(cls, head: str) -> str:
        return "NeMo" if re.search(r"\[NeMo [IWE] ", head) or _NEMO_BAR.search(head) else cls.framework

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        out = self.out
        for segment in bar_draws(text):
            m = _BAR.search(segment)
            if m:
                epoch, i, n = int(m.group("epoch")), int(m.group("i")), int(m.group("n"))
                if i == 0:
                    continue  # a bar drawn again at an epoch's start shows the values of the step before it
                if (epoch, i) != self.last:
                    self.last, self.recorded = (epoch, i), set()
                # A redraw at the same position repeats its values; only a key new there (the val_loss
                # shown after validation) is recorded.
                found = list(_POSTFIX.finditer(m.group("post")))
                items = [(p.group("key"), p.group("value")) for p in found]
                if not m.group("end") and found and found[-1].end() == len(m.group("post").rstrip()):
                    # the bar was cut in its last value, which may be cut short (``gen_expr=1``); one cut in the
                    # key after it (``loss=2.29, v_nu``) left the value whole
                    items = items[:-1]
                # The trainer's own step counter where the bar shows it (NeMo: global_step=9.000), else the
                # bar's position.
                printed = next((v for k, v in items if key_slug(k) == "global_step"), None)
                step = exact_step(printed, epoch * n + i)
                items = [(k, v) for k, v in items if k not in self.recorded]
                self.recorded.update(k for k, _ in items)
                # Lightning's own ``loss=`` is a running mean over recent steps; beside a logged training
                # loss (NeMo's reduced_train_loss) it is another series, not the loss.
                names = [_metric(k) for k, _ in items]
                running = names.count("loss") > 1
                for (key, text_value), name in zip(items, names, strict=True):
                    if running and name == "loss" and key_slug(key) == "loss":
                        name = "loss_running_mean"
                    value = parse_number(text_value)
                    if name and value is not None:
                        if name == "step_time_ms":
                            value *= time_unit_factor(key)
                        out.metric(name, step, value, line_no, rank)
                continue
            g = _NEMO_GROUP.search(segment)
            if g:
                ranks = [r for r in g.group("ranks").split(",") if r.strip()]
                out.setting(_GROUP_SETTING[g.group("kind")], len(ranks), line_no)
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


def exact_step(printed: str | None, position: int) -> int:
    """The step of a bar: the trainer's printed counter, unless it is rounded (``global_step=3.2e+4``) and the
    bar's exact position agrees with it within its rounding."""
    value = parse_number(printed) if printed else None
    if value is None or value != value:
        return position
    m = re.fullmatch(r"[-+]?\d+(?:\.(?P<frac>\d*))?[eE](?P<exp>[-+]?\d+)", printed.strip())
    if m:
        half_unit = 0.5 * 10 ** (int(m.group("exp")) - len(m.group("frac") or ""))
        if abs(value - position) <= half_unit:
            return position
    return int(value)
