"""Hugging Face Trainer: stdout dict lines (``{'loss': 2.31, 'grad_norm': 1.2, 'learning_rate': 4.9e-05,
'epoch': 0.1}``, also after a ``[rank0]:`` prefix or a tqdm bar's carriage return), the ``***** Running
training *****`` block, and ``trainer_state.json`` with its ``log_history``.

The stdout dicts carry no step: it is taken from the training progress bar (``10/375 [...]``) when one is
printed, else from the epoch (``epoch * total steps / epochs``), else the dicts are numbered."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field

from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._collect import Collector
from assay.operators.logs._lines import PrefixStyle
from assay.operators.logs._names import canonical_model, extra_metric_name, is_step_key, key_slug, metric_name
from assay.operators.logs._numbers import parse_number

_DICT = re.compile(r"\{'(?:loss|eval_|train_runtime|learning_rate|grad_norm|epoch)[^{}]*\}")
#: A record cut before its closing brace (the last line of an excerpt, a log whose writer was killed).
_CUT_DICT = re.compile(r"\{'(?:loss|eval_|train_runtime|learning_rate|grad_norm|epoch)[^{}]*$")
#: A record's second half on a line of its own (a console wrapped it): its first half was no cut record.
_DICT_TAIL = re.compile(r"^\s*'[^'{}]+':[^{}]*\}\s*$")
_PAIR = re.compile(r"'(?P<key>[^']+)':\s*(?P<value>tensor\([^)]*\)|np\.\w+\([^)]*\)|'[^']*'|[^,}]+)")
_BAR = re.compile(r"(?P<n>\d+)/(?P<total>\d+) \[")
#: A bar's rate in a unit other than iterations (``126.32 examples/s``, ``3.1ba/s``): the ``datasets`` library's
#: bars over a dataset's rows (``Map``, ``Tokenizing``, ``Filter``), drawn before training, which count no steps.
_RATE_NOT_ITERATIONS = re.compile(r"\d\s*(?!it/s\b)[A-Za-z]+/s\b|\ds/(?!it\b)[A-Za-z]+\b")
_SETUP = {
    "num examples": "num_examples",
    "num epochs": "num_epochs",
    "instantaneous batch size per device": "micro_batch_size",
    "total train batch size (w. parallel, distributed & accumulation)": "global_batch_size",
    "gradient accumulation steps": "gradient_accumulation_steps",
    "total optimization steps": "train_iters",
    "number of trainable parameters": "model_params",
}
_SETUP_LINE = re.compile(r"^\s*(?P<key>[A-Z][\w .(),&]+?) = (?P<value>[\d,]+)\s*$")
_MODEL = re.compile(
    r"\"_name_or_path\": \"(?P<a>[^\"]+)\"|model_name_or_path[=:] ?'?(?P<b>[\w./-]+)|"
    r"models--(?P<org>[\w.-]+)--(?P<name>[\w.-]+)"
)
_DONE = re.compile(r"Training completed\. Do not forget")
_DEEPSPEED = re.compile(r"DeepSpeed info: version=|\[deepspeed\]|deepspeed\.runtime", re.I)
_SUMMARY_KEYS = {
    "train_runtime",
    "train_samples_per_second",
    "train_steps_per_second",
    "total_flos",
    "train_loss",
}
_SKIP = {
    "total_flos",
    "eval_runtime",
    "eval_samples_per_second",
    "eval_steps_per_second",
    "train_runtime",
    "num_input_tokens_seen",
    "step",
}


@dataclass(frozen=True)
class Evidence:
    """One row of the Trainer's evidence: what it is, its weight, its pattern (multi-line) and an example line
    in the Trainer's shape (``tests/unit/test_logs_hf_evidence.py`` runs each through ``parse_log``)."""

    name: str
    weight: float
    pattern: str
    example: str
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "regex", re.compile(self.pattern, re.M))


#: The Trainer's evidence in a file's head, each row with its weight: the file is the Trainer's from ``_NAMED`` on.
#: Its log record (``loss``, ``learning_rate`` and ``epoch`` together, or an evaluation's or the summary's
#: timing keys) and its module paths (``transformers/trainer.py``, the ``transformers.trainer`` logger,
#: ``[INFO|trainer.py:2128]``) name it alone; its banner, the settings block under the banner and its bare
#: tqdm bars (``  3%|▎   | 10/375 [00:05<...``) only together, as a copy of one of them does not.
_EVIDENCE: tuple[Evidence, ...] = (
    Evidence(
        "record",
        0.85,
        r"\{'loss': [^{}]*'learning_rate': [^{}]*'epoch': |\{'eval_[a-z_]+': [^{}]*'eval_runtime': "
        r"|\{'train_runtime': [^{}]*'train_samples_per_second': ",
        "{'loss': 1.734, 'grad_norm': 2.2, 'learning_rate': 3.1e-05, 'epoch': 0.42}",
    ),
    Evidence(
        "module",
        0.85,
        r"transformers[./]trainer\b|\[(?:INFO|WARNING)\|trainer\.py:\d+\]",
        "[INFO|trainer.py:2314] 2025-02-03 04:05:06,789 >> Saving model checkpoint to out/checkpoint-500",
    ),
    Evidence("banner", 0.4, r"\*{5} Running training \*{5}", "***** Running training *****"),
    Evidence(
        "settings",
        0.3,
        r"^\s*(?:Total optimization steps|Instantaneous batch size per device|Gradient Accumulation steps) = ",
        "  Total optimization steps = 1,200",
    ),
    Evidence(
        "bars",
        0.3,
        r"^\s*\d{1,3}%\|[^|\n]*\| *\d+/\d+ \[\d",
        " 12%|█▏        | 144/1200 [01:02<07:31,  2.34it/s]",
    ),
)
#: The evidence that names the Trainer (one record or module path; the banner with its block and its bars).
_NAMED = 0.85

#: A step printed with its total as one value (``'78/176'``).
_STEP_OF = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


def emit_log_entry(entry: dict, step: int | None, line_no: int, rank: int | None, out) -> None:
    """One ``Trainer.log`` dict as metrics, in the contract's names where there is one."""
    for key, value in entry.items():
        if key in _SKIP or isinstance(value, bool):
            continue
        number = value if isinstance(value, int | float) else parse_number(str(value))
        if number is None:
            continue
        if key == "train_loss":
            name = "train_loss_mean"  # the mean over the run, printed at its end: not a point of the curve
        elif key == "train_samples_per_second":
            name = "samples_per_s"
        elif key.startswith("eval_") and key != "eval_loss":
            name = extra_metric_name(key)
        else:
            name = metric_name(key) or extra_metric_name(key)
        if name:
            out.metric(name, step, float(number), line_no, rank)
    if _SUMMARY_KEYS & entry.keys() and "train_runtime" in entry:
        out.mark("completed", line_no, "train_runtime reported")


#: A save into the folder the Trainer names by the global step (``Saving model checkpoint to out/checkpoint-500``,
#: ``Configuration saved in out/checkpoint-500/config.json``): the run is at that step, whatever the last bar
#: drawn said (a dict logged at the same step follows the save).
_SAVED_AT = re.compile(r"(?i)\bsav(?:e|ed|ing)\b.*\bcheckpoint-(\d+)(?=/|\\|\s|$)")


@register_parser
class HFTrainerParser(LogParser):
    name = "hf_trainer"
    framework = "Hugging Face Transformers"
    priority = 7
    interesting = (
        r"\{'|\d+/\d+ \[|Running training|Num examples|Num Epochs|batch size per device|"
        r"Total train batch size|Gradient Accumulation steps|Total optimization steps|"
        r"Number of trainable parameters|Training completed|_name_or_path|models--|DeepSpeed info|"
        r"\[deepspeed\]|^\s*'[^'{}]+':[^{}]*\}\s*$|checkpoint-\d"
    )

    def __init__(self, out: Collector, prefix: PrefixStyle | None = None):
        super().__init__(out, prefix)
        self.bar_step: int | None = None
        self.bar_total: int | None = None
        self.at_bar: tuple[int, float | None] | None = None  # the bar's step and the epoch of the first dict there
        self.ordinal = 0
        # Dicts printed before the first training bar wait for it: the bar drawn right after a dict shows
        # the step it was logged at (numbering them would call the first one step 1).
        self.waiting: list[tuple[dict, int, int | None, int]] = []
        # a record cut before its closing brace, read at the end if no line came after it (the file's last)
        self.cut: tuple[str, int, int | None] | None = None
        self.named_steps: list[int] = []  # the steps the records named themselves, in order

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        """How sure the file is the Trainer's, from the evidence it gives (``_EVIDENCE``): its own log
        record, its module paths, or its banner block with its bare bars. One line a user's script copies
        (the banner printed once, a ``{'loss': ...}`` dict of its own) is no evidence alone."""
        score = sum(row.weight for row in _EVIDENCE if row.regex.search(head))
        return min(0.9, score) if score >= _NAMED else 0.0

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        for segment in text.split("\r"):
            if not segment.strip():
                continue
            # anything after a cut record says it was not the last line (a wrapped record's first half)
            self.cut = None
            m = _BAR.search(segment)
            if m and "%|" in segment and not _RATE_NOT_ITERATIONS.search(segment, m.end()) and self._progress(int(m.group("n")), int(m.group("total"))):
                self.out.gave_step(line_no)
            saved = _SAVED_AT.search(segment)
            if saved and self.bar_step is not None and int(saved[1]) > self.bar_step:
                self.bar_step = int(saved[1])  # the bar is drawn every few seconds; the save says where it is
            d = _DICT.search(segment)
            if d:
                self._log_dict(d.group(0), line_no, rank)
                continue
            cut = _CUT_DICT.search(segment)
            if cut:
                self.cut = (cut.group(0), line_no, rank)
                continue
            self._setup(segment, line_no)

    def _progress(self, n: int, total: int) -> bool:
        """Only the training bar gives the step (True when this one did); evaluation bars count batches."""
        expected = self.out.settings.get("train_iters")
        if (expected and total == expected) or (not expected and total >= (self.bar_total or 0)):
            self.bar_step, self.bar_total = n, total
            self._release(n)
            return True
        return False

    def _release(self, step: int | None) -> None:
        """The waiting dicts at the bar's step; with no bar ever drawn their step is unknown (``None``): their
        order is no step (TRL's dicts every ``logging_steps`` would read as steps 1, 2, 3). Several dicts before
        one bar (an excerpt, a console that kept no bar between them) are apart by their epochs: the bar's step
        is the last one's, and the Trainer's epoch is its step over the steps of an epoch, so an earlier dict's
        step is the bar's scaled by its epoch (``'epoch': 0.14`` ... ``0.19`` before ``19/98``: steps 14 ... 19)."""
        last = next((e["epoch"] for e, *_ in reversed(self.waiting) if e.get("epoch")), None)
        for entry, line_no, rank, _ordinal in self.waiting:
            epoch = entry.get("epoch")
            at = round(step * epoch / last) if step is not None and last and epoch and 0 < epoch < last else step
            emit_log_entry(entry, at, line_no, rank, self.out)
        self.waiting = []

    def _read_cut(self) -> None:
        """The complete pairs of a record cut on the file's last line (``{'loss': 0.41, 'epoch': 0.5, 'glo``):
        the cut pair is dropped. Where the records before it named their steps, its own was cut: it goes on
        from theirs by their stride."""
        text, line_no, rank = self.cut
        self.cut = None
        pairs = list(_PAIR.finditer(text))
        if pairs and pairs[-1].end() >= len(text.rstrip()):
            pairs = pairs[:-1]  # the last pair runs to the cut: its value may be short (``0.4`` of ``0.41``)
        text = "{" + ", ".join(m.group(0) for m in pairs) + "}"
        named = self.named_steps
        own = any(is_step_key(m.group("key").split("/")[0]) for m in pairs)
        if len(named) >= 2 and named[-1] > named[-2] and not own:
            self._log_dict(text, line_no, rank, step=named[-1] + named[-1] - named[-2])
        elif pairs:
            self._log_dict(text, line_no, rank)

    def _log_dict(self, text: str, line_no: int, rank: int | None, step: int | None = None) -> None:
        entry = {}
        counted = step
        for m in _PAIR.finditer(text):
            value = m.group("value").strip().strip("'")
            of = _STEP_OF.match(value)
            if of and is_step_key(m.group("key").split("/")[0]):
                counted = int(of.group(1))  # ``'global_step/max_steps': '78/176'`` (ms-swift): step 78 of 176
                continue
            number = parse_number(value)
            if number is not None:
                entry[m.group("key")] = number
        if not entry:
            self.out.issue(f"a Trainer log dict without numbers: {text[:120]!r}", line_no)
            return
        # Numbering the dicts counts training logs only: an evaluation or the end-of-training summary
        # belongs to the step of the training log before it.
        if self.ordinal == 0 or not any(k.startswith(("eval_", "test_", "train_runtime")) for k in entry):
            self.ordinal += 1
        # a step the dict names itself (``'global_step': 150``) is its step, whatever the bars drawn around it
        named = next((int(v) for k, v in entry.items() if is_step_key(k) and float(v).is_integer()), counted)
        if named is not None:
            if step is None:
                self.named_steps.append(named)
            entry = {k: v for k, v in entry.items() if not is_step_key(k)}
            emit_log_entry(entry, named, line_no, rank, self.out)
            return
        if self.bar_step is None and not self._epoch_step(entry) and not self.out.settings.get("train_iters"):
            self.waiting.append((entry, line_no, rank, self.ordinal))
            return
        emit_log_entry(entry, self._step(entry), line_no, rank, self.out)

    def _step(self, entry: dict) -> int:
        if self.bar_step is not None:
            return self._after_the_bar(entry)
        return self._epoch_step(entry) or self.ordinal

    def _after_the_bar(self, entry: dict) -> int:
        """The step of a dict printed after the last bar drawn: the bar's, unless a dict already took that step
        at a smaller epoch (a console that printed the next dicts without drawing the bar again): the Trainer's
        epoch is its step over the steps of an epoch, so the step goes on from that dict's by the epochs'
        ratio (``'epoch': 0.0147`` at bar 20, then ``'epoch': 0.0221`` alone: step 30)."""
        epoch = entry.get("epoch")
        step, first = self.bar_step, self.at_bar
        if first is None or first[0] != step:
            self.at_bar = (step, epoch)
            return step
        if epoch and first[1] and epoch > first[1] and step:
            return round(step * epoch / first[1])
        return step

    def _epoch_step(self, entry: dict) -> int | None:
        settings = self.out.settings
        epoch, total, epochs = entry.get("epoch"), settings.get("train_iters"), settings.get("num_epochs")
        if epoch is not None and total and epochs:
            return round(epoch * total / epochs)
        return None

    def _setup(self, text: str, line_no: int) -> None:
        out = self.out
        body = text.split(">>", 1)[1] if ">>" in text else text  # [INFO|trainer.py:2128] 2024-... >> ...
        m = _SETUP_LINE.match(body)
        if m:
            setting = _SETUP.get(m.group("key").strip().lower())
            if setting:
                out.setting(setting, int(m.group("value").replace(",", "")), line_no)
            return
        if _DONE.search(body):
            out.mark("completed", line_no, body)
            return
        if _DEEPSPEED.search(body):
            out.system("DeepSpeed")
            return
        m = _MODEL.search(body)
        if m and "model" not in out.settings:
            raw = m.group("a") or m.group("b") or f"{m.group('org')}/{m.group('name')}"
            if not raw.startswith(("/", ".")):
                name = canonical_model(raw)
                out.setting("model", name, line_no)
                out.model(name, line_no)

    def finish(self) -> None:
        if self.cut is not None:
            self._read_cut()
        self._release(None)
        s = self.out.settings
        total, micro, accum = (
            s.get("global_batch_size"),
            s.get("micro_batch_size"),
            s.get("gradient_accumulation_steps"),
        )
        if total and micro and "world_size" not in s:
            world = total // (micro * (accum or 1))
            if world:
                self.out.setting("world_size", world)
                self.out.setting("dp", world)


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
