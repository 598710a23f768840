"""TorchTitan: ``step: 10  loss:  8.1234  grad_norm:  1.2  memory: 30.12GiB(31.70%)  tps: 6,647
tflops: 385.01  mfu: 38.93%`` (ANSI colours stripped before parsing), validation lines, the model and
device-mesh lines."""

from __future__ import annotations

import re

import numpy as np

from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._bulk import Field, KeyValueLines
from assay.operators.logs._collect import Collector
from assay.operators.logs._lines import LineBlock, PrefixStyle
from assay.operators.logs._names import canonical_model, metric_name
from assay.operators.logs._numbers import memory_mb, parse_number, parse_quantity

_STEP = re.compile(r"(?<!validate )step: *\d+ +loss: ")
_VALIDATE = re.compile(r"validate step: *(?P<step>\d+) +loss: *(?P<loss>\S+)")
_BUILDING = re.compile(r"Building (?P<family>[\w.]+) (?P<flavor>[\w.]+) with")
_MODEL = re.compile(r"Model (?P<family>[\w.]+) (?P<flavor>[\w.]+) size: (?P<n>[\d,]+) total parameters")
_MESH = re.compile(r"Building (?P<dims>\d+)-D device mesh with \[(?P<names>[^\]]*)\], \[(?P<sizes>[^\]]*)\]")
#: Later torchtitan names each degree (``Building device mesh with parallelism: pp=1, dp_replicate=1, dp_shard=8, cp=1,
#: tp=1, ep=1``).
_MESH_DEGREES = re.compile(r"Building device mesh with parallelism: (?P<pairs>(?:\w+=\d+(?:, )?)+)")
_BATCH = re.compile(
    r"local batch size (?P<local>\d+), global batch size (?P<global>\d+).*?"
    r"(?:sequence length (?P<seq>\d+), )?total steps (?P<steps>\d+)"
)
_DONE = re.compile(r"Training completed")
_JOB = re.compile(r"Starting job: (?P<job>.+)")


def _memory(values: list[bytes]) -> list[float | None]:
    out = []
    for v in values:
        parsed = parse_quantity(v)
        out.append(memory_mb(parsed[0], parsed[1], "GiB") if parsed else None)
    return out


def titan_field(key: str) -> Field | None:
    if key == "memory":
        return Field(metric="memory_mb", convert=_memory)
    if key in ("tps", "wps"):
        return Field(metric="tokens_per_s_per_gpu")
    name = metric_name(key)
    return Field(metric=name) if name else None


@register_parser
class TorchTitanParser(LogParser):
    name = "torchtitan"
    framework = "TorchTitan"
    priority = 8
    interesting = (
        r"step: *\d+ +loss:|Building \S+ \S+ with|Model \S+ \S+ size:|device mesh|local batch size|"
        r"Training completed|Starting job|Training starts at step"
    )

    def __init__(self, out: Collector, prefix: PrefixStyle | None = None):
        super().__init__(out, prefix)
        self.lines = KeyValueLines(
            r"step: *\d+ +loss: ",
            r"(?<!validate )step: *(?P<step>\d+)",
            titan_field,
            pair=r"\s(?P<key>[A-Za-z_][\w()%/]*): *(?P<value>\S+)",
        )

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        if "[titan]" in head:
            return 0.95
        if _STEP.search(head) and re.search(r"\b(?:tps|wps|mfu):", head):
            return 0.9
        return 0.6 if "torchtitan" in head else 0.0

    def bulk(self, block: LineBlock) -> np.ndarray | None:
        return self.lines.run(block, self.out, self.prefix)

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        out = self.out
        m = _VALIDATE.search(text)
        if m:
            out.metric("val_loss", int(m.group("step")), parse_number(m.group("loss")), line_no, rank)
            return
        if self.lines.parse_one(text, line_no, rank, out):
            return
        m = _MESH_DEGREES.search(text)
        if m:
            self._degrees(dict((k, int(v)) for k, v in re.findall(r"(\w+)=(\d+)", m.group("pairs"))), line_no)
            return
        m = _MODEL.search(text) or _BUILDING.search(text)
        if m:
            name = canonical_model(f"{m.group('family')} {m.group('flavor')}")
            out.setting("model", name, line_no)
            out.model(name, line_no)
            if "n" in m.groupdict() and m.group("n"):
                out.setting("model_params", int(m.group("n").replace(",", "")), line_no)
            return
        m = _MESH.search(text)
        if m:
            self._mesh(m, line_no)
            return
        m = _BATCH.search(text)
        if m:
            out.setting("micro_batch_size", int(m.group("local")), line_no)
            out.setting("global_batch_size", int(m.group("global")), line_no)
            out.setting("train_iters", int(m.group("steps")), line_no)
            if m.group("seq"):
                out.setting("seq_length", int(m.group("seq")), line_no)
            return
        if _DONE.search(text):
            out.mark("completed", line_no, text)
            return
        m = _JOB.search(text)
        if m:
            out.setting("job_name", m.group("job").strip(), line_no)

    def _mesh(self, m: re.Match[str], line_no: int) -> None:
        names = [n.strip().strip("'\"") for n in m.group("names").split(",") if n.strip()]
        sizes = [int(s) for s in re.findall(r"\d+", m.group("sizes"))]
        self._degrees(dict(zip(names, sizes, strict=False)), line_no)

    def _degrees(self, dims: dict[str, int], line_no: int) -> None:
        """The layout a mesh's degrees give (the expert degree ``ep`` shares the data-parallel ranks: no factor
        of the world)."""
        out = self.out
        world = 1
        for name, size in dims.items():
            world *= size if name != "ep" else 1
        out.setting("world_size", world, line_no)
        dp = dims.get("dp", 1) * dims.get("dp_shard", 1) * dims.get("dp_replicate", 1)
        out.setting("dp", dp, line_no)
        out.setting("tp", dims.get("tp", 1), line_no)
        out.setting("pp", dims.get("pp", 1), line_no)
        out.setting("cp", dims.get("cp", 1), line_no)
        out.setting("mesh", dims, line_no)
