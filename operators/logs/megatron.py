"""Megatron-LM and Megatron-DeepSpeed: the ``iteration N/ M | key: value | ...`` line (with or without a
loss: skipped fp16 warm-up steps print none), validation lines, the ``arguments`` dump, the ``using world
size`` line, per-rank memory reports and parameter counts. Under DeepSpeed's pipeline engine (GPT-NeoX,
Megatron-DeepSpeed with pipeline stages) each step also prints the engine's ``steps: N loss: X iter time (s):``
line: it gives the loss of a step whose iteration line printed none (a cut last line, a loss not logged)."""

from __future__ import annotations

import re

import numpy as np
import pyarrow.compute as pc

from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._bulk import Field, KeyValueLines
from assay.operators.logs._collect import Collector
from assay.operators.logs._lines import LineBlock, PrefixStyle
from assay.operators.logs._names import humanise_count, key_slug, metric_name, time_unit_factor
from assay.operators.logs._numbers import parse_number
from assay.operators.logs.deepspeed import PIPE_LINE

_ITERATION = re.compile(r"iteration\s+\d+\s*/\s*\d+\s*\|")
_ARGS_HEADER = re.compile(r"-{3,} arguments -{3,}")
_ARGS_END = re.compile(r"-{3,} end of arguments -{3,}")
_ARG = re.compile(r"^\s{1,4}(?P<key>[A-Za-z_][\w]*)\s*\.*\s+(?P<value>.*?)\s*$")
_WORLD = re.compile(r"using world size:\s*(?P<world>\d+)(?P<rest>.*)", re.I)
_SIZES = re.compile(
    r"(data|tensor-model|pipeline-model|context|expert-model|model)[- ]parallel[- ]size:\s*(\d+)"
)
_VALIDATION = re.compile(r"validation loss at (?:iteration|step)\s+(?P<step>\d+)[^|]*\|(?P<rest>.*)", re.I)
_MEMORY = re.compile(r"\[Rank (?P<rank>\d+)\] \(after (?P<step>\d+) iterations\) memory \(MB\)(?P<rest>.*)")
_PARAMS_SHARD = re.compile(
    r"number of parameters on \(tensor, pipeline\) model parallel rank "
    r"\((?P<t>\d+), (?P<p>\d+)\): (?P<n>\d+)"
)
_PARAMS_TOTAL = re.compile(r"Total number of parameters in billions:\s*(?P<b>[\d.]+)")
_BUILDING = re.compile(r"building (?P<family>\w+) model")
_LOAD = re.compile(r"load(?:ing|ed)? checkpoint from .* at iteration\s+(?P<step>\d+)", re.I)
_DONE = re.compile(r"\[after training is done\]")
#: Fields only Megatron-DeepSpeed's iteration line prints (upstream Megatron-LM has none of them).
_FORK_FIELDS = re.compile(r"iteration\s+\d+\s*/.*\| (?:consumed tokens|actual seqlen|curriculum seqlen|tgs):")
#: NeMo 2.0's (Megatron core's) training line: ``Training epoch 0, iteration 8/29 | ... | reduced_train_loss: ``
_NEMO_FIELDS = re.compile(
    r"Training epoch \d+, iteration \d+/\d+ \||\| (?:reduced_train_loss|train_step_timing in s): "
)

#: Run settings from the arguments dump, by argument name.
_ARG_SETTINGS = {
    "world_size": "world_size",
    "data_parallel_size": "dp",
    "tensor_model_parallel_size": "tp",
    "pipeline_model_parallel_size": "pp",
    "context_parallel_size": "cp",
    "expert_model_parallel_size": "ep",
    "micro_batch_size": "micro_batch_size",
    "global_batch_size": "global_batch_size",
    "train_iters": "train_iters",
    "seq_length": "seq_length",
    "num_layers": "num_layers",
    "hidden_size": "hidden_size",
    "num_attention_heads": "num_attention_heads",
    "padded_vocab_size": "vocab_size",
    "ffn_hidden_size": "ffn_hidden_size",
}
_SIZE_SETTINGS = {
    "data": "dp",
    "tensor-model": "tp",
    "pipeline-model": "pp",
    "context": "cp",
    "expert-model": "ep",
    "model": "mp",
}


def megatron_field(key: str) -> Field | None:
    """The meaning of a key of Megatron's iteration line."""
    slug = key_slug(key)
    if slug in ("number_of_skipped_iterations", "skipped_iterations"):
        return Field(event="skipped_step")
    if slug in ("number_of_nan_iterations", "nan_iterations"):
        return Field(event="nan")
    if slug in ("global_batch_size", "batch_size"):
        return Field(setting="global_batch_size")
    if slug in ("params_norm",):
        return Field(metric="params_norm")
    if "token" in slug and ("gpu" in slug or "device" in slug):
        return Field(metric="tokens_per_s_per_gpu")
    if "token" in slug and ("per_sec" in slug or "per_second" in slug or slug.endswith("_s")):
        return Field(metric="tokens_per_s")
    if "tflop" in slug:
        return Field(metric="tflops")
    name = metric_name(key)
    if (
        name == "step_time_ms"
        or slug.startswith(("elapsed_time_per_iteration", "iter_time", "iteration_time"))
        or "step_timing" in slug
    ):
        return Field(metric="step_time_ms", scale=time_unit_factor(key))
    if name:
        return Field(metric=name)
    if slug in ("tgs", "tokens_per_gpu_per_second"):  # Megatron-DeepSpeed: tokens per GPU per second
        return Field(metric="tokens_per_s_per_gpu")
    if slug and not slug[0].isdigit():
        # kept under their own names, never dropped: extra loss terms (mtp_1 loss, load_balancing_loss),
        # a fork's fields (consumed tokens, actual seqlen), consumed samples
        return Field(metric=slug)
    return None


@register_parser
class MegatronParser(LogParser):
    name = "megatron"
    framework = "Megatron-LM"
    priority = 10
    interesting = (
        r"iteration\s+\d+\s*/|validation loss at|^  [A-Za-z_]\w* (?:\.+ | )\S|-- arguments --|"
        r"end of arguments|using world size|building \w+ model|number of parameters on|"
        r"Total number of parameters in billions|memory \(MB\)|after training is done|checkpoint from|"
        r"DeepSpeed general environment|deepspeed info|iter time \(s\)"
    )

    def __init__(self, out: Collector, prefix: PrefixStyle | None = None):
        super().__init__(out, prefix)
        self.lines = KeyValueLines(
            r"iteration +\d+ */ *(?:\d|inf)",
            r"iteration +(?P<step>\d+) */ *(?P<total>\d+|infinity)",
            megatron_field,
        )
        self.in_args = False
        self.shards: dict[tuple[int, int], int] = {}
        self.family: str | None = None
        #: The pipeline engine's losses by step, with their line and rank, for steps whose iteration line has none.
        self.pipe_losses: dict[int, tuple[float, int, int | None]] = {}

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        if _ITERATION.search(head) and re.search(
            r"consumed[ _]samples|elapsed time per iteration|"
            r"train_step_timing",
            head,
        ):
            return 1.0
        if _ARGS_HEADER.search(head) and "tensor_model_parallel_size" in head:
            return 0.95
        if re.search(r"using world size: \d+, data-parallel", head, re.I):
            return 0.9
        return 0.0

    @classmethod
    def framework_for(cls, head: str) -> str:
        if re.search(r"\[NeMo [IWE] ", head) or _NEMO_FIELDS.search(head):
            return "NeMo"
        if re.search(
            r"^\s+deepspeed \.+ True|DeepSpeed general environment info|deepspeed_config \.", head, re.M
        ) or _FORK_FIELDS.search(head):
            return "Megatron-DeepSpeed"
        return "Megatron-LM"

    def bulk(self, block: LineBlock) -> np.ndarray | None:
        return self.lines.run(block, self.out, self.prefix)

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        out = self.out
        if self.in_args:
            if _ARGS_END.search(text):
                self.in_args = False
                return
            m = _ARG.match(text)
            if m:
                self._argument(m.group("key"), m.group("value"), line_no)
                return
        if "iteration" in text:
            m = _VALIDATION.search(text)
            if m:
                self._validation(int(m.group("step")), m.group("rest"), line_no, rank)
                return
            if self.lines.parse_one(text, line_no, rank, out):
                return
            m = _MEMORY.search(text)
            if m:
                self._memory(m, line_no)
                return
        if "iter time" in text:
            m = PIPE_LINE.search(text)
            if m:
                loss = parse_number(m.group("loss"))
                if loss is not None:
                    self.pipe_losses[int(m.group("step"))] = (loss, line_no, rank)
                return
        if _ARGS_HEADER.search(text):
            self.in_args = True
            return
        m = _WORLD.search(text)
        if m:
            out.setting("world_size", int(m.group("world")), line_no)
            for kind, size in _SIZES.findall(m.group("rest")):
                out.setting(_SIZE_SETTINGS[kind], int(size), line_no)
            return
        m = _PARAMS_SHARD.search(text)
        if m:
            self.shards[(int(m.group("t")), int(m.group("p")))] = int(m.group("n"))
            return
        m = _PARAMS_TOTAL.search(text)
        if m:
            out.setting("model_params", int(float(m.group("b")) * 1e9), line_no)
            return
        m = _BUILDING.search(text)
        if m:
            self.family = self.family or m.group("family").upper()
            return
        if _DONE.search(text):
            out.mark("completed", line_no, text)
            return
        m = _LOAD.search(text)
        if m:
            out.setting("resumed_from_step", int(m.group("step")), line_no)
            return
        if "DeepSpeed general environment" in text or "deepspeed info" in text:
            out.framework = "Megatron-DeepSpeed"

    def _argument(self, key: str, value: str, line_no: int) -> None:
        out = self.out
        out.setting(f"args.{key}", value, line_no)
        if key == "deepspeed" and value == "True":
            out.framework = "Megatron-DeepSpeed"
        setting = _ARG_SETTINGS.get(key)
        if setting:
            number = parse_number(value)
            if number is not None and not np.isnan(number):
                out.setting(setting, int(number), line_no)

    def _validation(self, step: int, rest: str, line_no: int, rank: int | None) -> None:
        for piece in rest.split("|"):
            key, _, value = piece.partition(":")
            number = parse_number(value)
            if number is None:
                continue
            slug = key_slug(key)
            if slug.endswith("ppl"):
                self.out.metric("val_ppl", step, number, line_no, rank)
            elif "loss" in slug:
                name = (
                    "val_loss"
                    if slug in ("lm_loss_value", "loss_value", "lm_loss", "loss")
                    else "val_" + slug.removesuffix("_value")
                )
                self.out.metric(name, step, number, line_no, rank)

    def _memory(self, m: re.Match[str], line_no: int) -> None:
        fields = {
            key_slug(k): parse_number(v)
            for k, _, v in (p.partition(":") for p in m.group("rest").split("|"))
            if v.strip()
        }
        value = fields.get("max_reserved") or fields.get("max_allocated")
        if value is not None:
            self.out.metric("memory_mb", int(m.group("step")), value, line_no, int(m.group("rank")))

    def finish(self) -> None:
        out = self.out
        if self.pipe_losses:
            self._losses_of_the_engine()
        if self.shards and "model_params" not in out.settings:
            out.setting("model_params", sum(self.shards.values()))
        params = out.settings.get("model_params")
        if self.family and params:
            out.setting("model", f"{self.family} {humanise_count(params)}")
        elif self.family:
            out.setting("model_family", self.family)

    def _losses_of_the_engine(self) -> None:
        """The pipeline engine's loss for each step no iteration line gave one to: the two lines name the same
        step, so one loss per step, the iteration line's where it printed one."""
        metrics = self.out.metrics_table()
        named = metrics.filter(pc.equal(metrics.column("name"), "loss")).column("step").to_pylist()
        have = set(named)
        for step, (loss, line_no, rank) in sorted(self.pipe_losses.items()):
            if step not in have:
                self.out.metric("loss", step, loss, line_no, rank)
