"""JSON lines: one object per line (W&B-style history, custom metric loggers, ``{"step": 10, "loss": 2.3}``).
The step is the first of ``step``, ``_step``, ``global_step``, ``iteration``, ``iter`` the object has, else
the first whole number under a key the step table knows by its words (``current_steps``, ``num_updates``, a
section's ``Progress/tick``), else
its whole ``epoch``, else unknown (a line's position is no step: a progress record printed twice or every few
seconds would invent steps). Every numeric field becomes a metric (standard names where known). An evaluation's
record (one that says its split, ``"mode": "val"``, or one without the training's loss and learning rate whose
counter is behind the training's) is at the training step before it. A line that is not JSON is recorded as an
issue and skipped."""

from __future__ import annotations

import datetime as dt
import json
import re

from assay.operators.logs._base import LogParser, head_lines, register_parser
from assay.operators.logs._collect import Collector
from assay.operators.logs._lines import PrefixStyle
from assay.operators.logs._losses import pick_loss
from assay.operators.logs._names import EVALUATION_WORDS, extra_metric_name, is_step_key, metric_name
from assay.operators.logs._numbers import parse_number

_STEP_KEYS = ("step", "_step", "global_step", "iteration", "iter", "trainer/global_step", "train/global_step")
_TIME_KEYS = ("_timestamp", "timestamp", "time", "wall_time")
_SKIP = {"_runtime", "_timestamp", "timestamp", "time", "wall_time", "epoch_time"}


#: The parts of a statistic reduced over a record's interval (``{"num": 8, "mean": 0.41, "std": 0.02}``, as
#: NVlabs' ``training_stats`` writes every key of its ``stats.jsonl``): the value is its mean.
_STATISTIC_PARTS = frozenset({"num", "count", "mean", "std", "min", "max", "sum"})


def _flatten(obj: dict, prefix: str = "") -> dict:
    flat = {}
    for key, value in obj.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and "mean" in value and set(value) <= _STATISTIC_PARTS:
            flat[name] = value["mean"]
        elif isinstance(value, dict):
            flat.update(_flatten(value, name + "/"))
        else:
            flat[name] = value
    return flat


#: A checkpoint folder named by its step (``.../checkpoint-400``), as a trainer's summary names its saves.
_SAVED = re.compile(r"\bcheckpoint-(\d+)/?$")
#: A counter written as text, done of total (ms-swift: ``"global_step/max_steps": "100/1230"``).
_OF_TOTAL = re.compile(r"\s*(\d+)\s*/\s*\d+\s*")


#: Keys whose text says which split a record measures (MMCV's ``"mode": "val"``, ``"split": "test"``).
_SPLIT_KEYS = ("mode", "split", "phase", "stage", "subset")


def _evaluation_split(flat: dict) -> str | None:
    """The prefix of a record that says it is an evaluation's (``val_``, ``test_``), else ``None``."""
    for key in _SPLIT_KEYS:
        value = flat.get(key)
        if isinstance(value, str) and value.strip().lower() in EVALUATION_WORDS:
            return "test_" if value.strip().lower().startswith("test") else "val_"
    return None


def _counted_step(flat: dict) -> int | None:
    """The step of a record whose step key holds ``done/total`` as text, the key naming both
    (``global_step/max_steps``) or the step alone."""
    for key, value in flat.items():
        if isinstance(value, str) and (m := _OF_TOTAL.fullmatch(value)) and is_step_key(key.split("/")[0]):
            return int(m[1])
    return None


@register_parser
class JSONLinesParser(LogParser):
    name = "jsonl"
    framework = None
    priority = 3
    interesting = r"^\s*\{"

    def __init__(self, out: Collector, prefix: PrefixStyle | None = None):
        super().__init__(out, prefix)
        self.position = 0
        self.steps: list[int] = []  # the steps of the records before, for a cut record's implied step
        self.trained_keys: set[str] = set()  # the training keys (loss, lr) of the record that set the last step

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        lines = head_lines(head, 20, 1)
        objects = []
        for ln in lines:
            try:
                value = json.loads(ln)
            except json.JSONDecodeError:
                continue
            if isinstance(value, dict):
                objects.append(value)
        if not objects or len(objects) < 0.8 * len(lines):  # a stray malformed line is allowed
            return 0.0
        keys = {k for o in objects for k in _flatten(o)}
        numeric = any(isinstance(v, int | float) for o in objects for v in _flatten(o).values())
        if numeric and any(metric_name(k) or is_step_key(k) for k in keys):
            return 0.8
        return 0.3 if numeric and len(objects) > 1 else 0.0

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            self.out.issue(f"not a JSON object ({exc.msg})", line_no)
            obj = _cut_object(text)
            if obj is None:
                return
            steps = self.steps[-2:]
            if len(steps) == 2 and steps[1] > steps[0] and not any(k in obj for k in (*_STEP_KEYS, "epoch")):
                obj["step"] = steps[1] + steps[1] - steps[0]  # its step key was cut: it goes on by the stride
        if not isinstance(obj, dict):
            return
        flat = _flatten(obj)
        split = _evaluation_split(flat)
        if split is not None:
            # an evaluation's record: its counters count the evaluation's batches (MMCV's ``"iter": 18`` of the
            # validation loader), so it is at the training step before it, its values under the split's names; the
            # epoch and the learning rate it repeats are the training's
            step = self.steps[-1] if self.steps else None
            flat = {
                key if key in _SKIP else split + key: value
                for key, value in flat.items()
                if key not in _STEP_KEYS and key != "epoch" and metric_name(key) != "lr"
            }
            ts = _time(next((flat[k] for k in _TIME_KEYS if k in flat), None))
            self._values(flat, step, None, False, line_no, rank, ts)
            return
        step = next((int(flat[k]) for k in _STEP_KEYS if isinstance(flat.get(k), int | float)), None)
        if step is None:
            step = _counted_step(flat)
        step_key = None
        if step is None:  # a key the step table knows by its words (``current_steps``, ``num_updates``)
            step_key = next((k for k, v in flat.items() if _whole(v) and is_step_key(k.rsplit("/", 1)[-1])), None)
            step = int(flat[step_key]) if step_key is not None else None
        by_epoch = False
        if step is None:  # a record per epoch (a whole epoch number) is stepped by it; a line's position in the
            # file is no step (a record printed twice, or every 5 s, would count twice): the step stays unknown
            epoch = flat.get("epoch")
            by_epoch = isinstance(epoch, int) and not isinstance(epoch, bool)
            step = epoch if by_epoch else None
        trained = {k for k in flat if (name := metric_name(k)) and (name == "lr" or "loss" in name)}
        if step is not None and self.steps and step < self.steps[-1] and self.trained_keys and not trained:
            # a record without the training's loss and learning rate whose counter is behind the training's
            # (MMEngine's evaluation entries number their epoch, ``"step": 265`` after iteration 1590): another
            # series' count, no restart; it is at the training step before it
            step = self.steps[-1]
        elif step is not None:
            self.steps = [*self.steps[-1:], step]
            self.trained_keys = trained
        ts = _time(next((flat[k] for k in _TIME_KEYS if k in flat), None))
        self.out.saw_time(ts)
        summary = "train_runtime" in flat  # a trainer's end-of-training summary (ms-swift, Hugging Face's)
        if summary:
            self.out.mark("completed", line_no, "train_runtime reported")
        for key, value in flat.items():
            saved = _SAVED.search(value) if isinstance(value, str) and key.endswith("checkpoint") else None
            if saved:  # the summary's ``best_model_checkpoint`` / ``last_model_checkpoint``: saves at their steps
                self.out.event("checkpoint", line_no, f"{key}: {value}", rank=rank, step=int(saved[1]))
        self._values(flat, step, step_key, by_epoch, line_no, rank, ts, summary)

    def _values(
        self,
        flat: dict,
        step: int | None,
        step_key: str | None,
        by_epoch: bool,
        line_no: int,
        rank: int | None,
        ts: dt.datetime | None,
        summary: bool = False,
    ) -> None:
        """A record's numeric fields as metrics at ``step`` (standard names where known, the loss by meaning)."""
        keys, values = [], []
        for key, value in flat.items():
            if key in _SKIP or key in _STEP_KEYS or key == step_key or isinstance(value, bool) or (
                by_epoch and key == "epoch"
            ):
                continue  # (the epoch that steps the record is no series of its own)
            if isinstance(value, str):
                value = (
                    parse_number(value)
                    if re.fullmatch(r"\s*-?(?:nan|inf|infinity)\s*", value, re.I)
                    else None
                )
            if not isinstance(value, int | float):
                continue
            keys.append(key)
            values.append(float(value))
        names = {i: name for i, key in enumerate(keys) if (name := metric_name(key) or extra_metric_name(key))}
        if summary:  # its ``train_loss`` is the mean over the run, not a point of the curve
            names = {i: "train_loss_mean" if keys[i] == "train_loss" else n for i, n in names.items()}
        pick_loss(names, dict(enumerate(keys)))  # the loss by meaning, as in text logs
        for i, name in names.items():
            self.out.metric(name, step, values[i], line_no, rank, ts)


def _whole(value) -> bool:
    """A whole number (a count), not a flag: ``12`` or ``12.0``."""
    return isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()


def _cut_object(text: str) -> dict | None:
    """The complete pairs of an object cut short (``{"loss": 1.08, "epoch": 4,`` at a pasted log's end): up to
    its last comma, closed; the pair the cut runs into is dropped (``1.0`` may be ``1.08``)."""
    head = text.rstrip()
    if not head.startswith("{") or head.endswith("}"):
        return None
    comma = head.rfind(",")
    try:
        obj = json.loads(head[:comma] + "}") if comma > 0 else None
    except json.JSONDecodeError:
        return None
    return obj if isinstance(obj, dict) and obj else None


def _time(value) -> dt.datetime | None:
    if isinstance(value, int | float) and 1e9 < value < 1e11:  # seconds since the epoch
        return dt.datetime.fromtimestamp(value, dt.UTC).replace(tzinfo=None)
    if isinstance(value, str):
        try:
            return dt.datetime.fromisoformat(value.replace("Z", "+00:00")).replace(tzinfo=None)
        except ValueError:
            return None
    return None
