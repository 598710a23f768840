"""nanoGPT (and nanoGPT-style scripts): ``iter 100: loss 4.2345, time 123.45ms, mfu 12.34%`` (MFU is printed
as -100.00% until it has been measured: a placeholder, not data), the evaluation line ``step 100: train loss
4.23, val loss 4.31``, the configuration overrides and the parameter count."""

from __future__ import annotations

import ast
import re

from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._names import canonical_model, humanise_count
from assay.operators.logs._numbers import parse_number

#: The time and MFU parts are optional: a killed job's last line may stop after the loss.
_ITER = re.compile(
    r"^\s?iter (?P<step>\d+): loss (?P<loss>[^\s,]+)(?:, time (?P<time>[\d.]+)(?P<unit>ms|s)"
    r"(?:, mfu (?P<mfu>[-\d.]+)%)?)?"
)
_EVAL = re.compile(r"^\s?step (?P<step>\d+): train loss (?P<train>[^\s,]+), val loss (?P<val>[^\s,]+)")
_PARAMS = re.compile(r"number of parameters: (?P<n>[\d.]+)M")
_TOKENS = re.compile(r"tokens per iteration will be: (?P<n>[\d,]+)")
_INIT = re.compile(r"Initializing from OpenAI GPT-2 weights: (?P<model>\S+)")
_ASSIGN = re.compile(r"^(?:Overriding: )?(?P<key>[a-z_]+) = (?P<value>.+)$")
_ARITHMETIC = re.compile(r"^[\d\s*+\-()]+$")
_SETTINGS = {
    "batch_size": "micro_batch_size",
    "max_iters": "train_iters",
    "block_size": "seq_length",
    "gradient_accumulation_steps": "gradient_accumulation_steps",
    "n_layer": "num_layers",
    "n_embd": "hidden_size",
    "n_head": "num_attention_heads",
    "init_from": "init_from",
    "wandb_run_name": "run_name",
    "dataset": "dataset",
}


def _arithmetic(node: ast.AST) -> int:
    """Integer arithmetic of a config line (``5 * 8``), nothing else."""
    if isinstance(node, ast.Expression):
        return _arithmetic(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult | ast.Add | ast.Sub):
        left, right = _arithmetic(node.left), _arithmetic(node.right)
        return (
            left * right
            if isinstance(node.op, ast.Mult)
            else left + right
            if isinstance(node.op, ast.Add)
            else left - right
        )
    raise ValueError("not integer arithmetic")


def _value(text: str) -> int | float | str:
    text = text.strip().split("#", 1)[0].strip()
    if _ARITHMETIC.match(text):  # gradient_accumulation_steps = 5 * 8
        try:
            return _arithmetic(ast.parse(text, mode="eval"))
        except (SyntaxError, ValueError):
            return text
    number = parse_number(text)
    if number is not None and text.replace(".", "", 1).replace("e-", "").replace("-", "").isalnum():
        return int(number) if float(number).is_integer() else number
    return text.strip("'\"")


@register_parser
class NanoGPTParser(LogParser):
    name = "nanogpt"
    framework = "nanoGPT"
    priority = 6
    interesting = (
        r"^\s?iter \d+: loss|^\s?step \d+: train loss|number of parameters|tokens per iteration|"
        r"Initializing from|^(?:Overriding: )?[a-z_]+ = "
    )

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        if re.search(r"^\s?iter \d+: loss [^\s,]+, time [\d.]+ms", head, re.M):
            return 1.0
        if re.search(r"^\s?step \d+: train loss [^\s,]+, val loss", head, re.M):
            return 1.0
        if "tokens per iteration will be:" in head:
            return 0.7
        return 0.0

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        out = self.out
        m = _ITER.match(text)
        if m:
            step = int(m.group("step"))
            out.metric("loss", step, parse_number(m.group("loss")), line_no, rank)
            if m.group("time") is not None:
                factor = 1.0 if m.group("unit") == "ms" else 1000.0
                out.metric("step_time_ms", step, float(m.group("time")) * factor, line_no, rank)
            if m.group("mfu") is not None:
                out.metric("mfu", step, float(m.group("mfu")), line_no, rank)
            return
        m = _EVAL.match(text)
        if m:
            step = int(m.group("step"))
            out.metric("val_loss", step, parse_number(m.group("val")), line_no, rank)
            # the evaluation's estimate of the training loss (``estimate_loss`` over eval batches): an evaluation
            # value, named with the ``eval_`` prefix every evaluation value carries, not a training step's loss
            out.metric("eval_train_loss", step, parse_number(m.group("train")), line_no, rank)
            return
        m = _PARAMS.search(text)
        if m:
            out.setting("model_params", int(float(m.group("n")) * 1e6), line_no)
            return
        m = _TOKENS.search(text)
        if m:
            out.setting("tokens_per_iteration", int(m.group("n").replace(",", "")), line_no)
            return
        m = _INIT.search(text)
        if m:
            name = canonical_model(m.group("model"))
            out.setting("model", name, line_no)
            out.model(name, line_no)
            return
        m = _ASSIGN.match(text)
        if m and m.group("key") in _SETTINGS:
            out.setting(_SETTINGS[m.group("key")], _value(m.group("value")), line_no)

    def finish(self) -> None:
        out = self.out
        init = out.settings.get("init_from")
        if isinstance(init, str) and init.startswith("gpt2") and "model" not in out.settings:
            name = canonical_model(init)
            out.setting("model", name)
            out.model(name, 0)
        elif "model" not in out.settings and out.settings.get("model_params"):
            out.setting("model", f"GPT {humanise_count(out.settings['model_params'])}")
