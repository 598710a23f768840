"""Hugging Face Trainer's ``trainer_state.json``: its own record of the run's log history, read whole."""

from __future__ import annotations

import json
import os

from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._names import key_slug
from assay.operators.logs.hf_trainer import emit_log_entry


@register_parser
class HFTrainerStateParser(LogParser):
    """``trainer_state.json``: the Trainer's own record of its log history."""

    name = "hf_trainer_state"
    framework = "Hugging Face Transformers"
    chunkable = False
    priority = 20

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        if os.path.basename(path) == "trainer_state.json":
            return 1.0
        if not head.lstrip().startswith("{") or '"log_history"' not in head:
            return 0.0
        # a JSON lines file whose last line holds a trainer's state (ms-swift's ``logging.jsonl``) is read line by
        # line: its first line is an object of its own, with no history in it
        try:
            first = json.loads(head.lstrip().split("\n", 1)[0])
        except json.JSONDecodeError:
            return 0.9  # the first line opens the state (``{`` of a pretty-printed ``trainer_state.json``)
        return 0.9 if isinstance(first, dict) and "log_history" in first else 0.0

    def parse_file(self, path: str) -> None:
        out = self.out
        with open(path, encoding="utf-8", errors="replace") as f:
            try:
                state = json.load(f)
            except json.JSONDecodeError as exc:
                out.issue(f"trainer_state.json is not valid JSON ({exc.msg}); truncated?", exc.lineno)
                return
        for index, entry in enumerate(state.get("log_history") or []):
            if isinstance(entry, dict):
                emit_log_entry(entry, entry.get("step", index), index + 1, None, out)
        for key, setting in (
            ("max_steps", "train_iters"),
            ("train_batch_size", "micro_batch_size"),
            ("num_train_epochs", "num_epochs"),
            ("logging_steps", "logging_steps"),
        ):
            if isinstance(state.get(key), int | float):
                out.setting(setting, state[key])
        if state.get("max_steps") and state.get("global_step", 0) >= state["max_steps"]:
            out.mark("completed", 1, "global_step reached max_steps")
        if state.get("best_model_checkpoint"):
            out.setting("best_model_checkpoint", state["best_model_checkpoint"])
        out.setting("source", key_slug(os.path.basename(path)))
