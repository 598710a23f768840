"""Hugging Face Trainer: stdout dict lines (``{'loss': 2.31, 'grad_norm': 1.2, 'learning_rate': 4.9e-05,
'epoch': 0.1}``, also after a ``[rank0]:`` prefix or a tqdm bar's carriage return), the ``***** Running
training *****`` block (``trainer_state.json`` is ``hf_trainer_state``'s).

The stdout dicts carry no step: it is taken from the training progress bar (``10/375 [...]``) when one is
printed, else from the epoch (``epoch * total steps / epochs``), else the dicts are numbered."""

from __future__ import annotations

import re

from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._collect import Collector
from assay.operators.logs._dict_steps import buffered_steps, saved_steps
from assay.operators.logs._hf_evidence import EVIDENCE, NAMED
from assay.operators.logs._lines import PrefixStyle
from assay.operators.logs._names import canonical_model, extra_metric_name, is_step_key, metric_name
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
_RATE_NOT_ITERATIONS = re.compile(r"[\d?]\s*(?!it/s\b)[A-Za-z]+/s\b|\ds/(?!it\b)[A-Za-z]+\b")
_SETUP = {
    "num examples": "num_examples",
    "num epochs": "num_epochs",
    "instantaneous batch size per device": "micro_batch_size",
    "total train batch size (w. parallel, distributed & accumulation)": "global_batch_size",
    "gradient accumulation steps": "gradient_accumulation_steps",
    "total optimization steps": "train_iters",
    "total steps": "train_iters",
    "batch size per device": "micro_batch_size",
    "total batch size": "global_batch_size",
    "data parallel gpus": "dp",
    "number of trainable parameters": "model_params",
}
#: One part of a row of settings: its name in words, after whatever the margin holds.
_SETUP_PART = re.compile(r"(?P<key>[A-Z][a-z][\w .()]*?) = (?P<value>\d[\d,]*)\s*$")
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


def _last_bar(segment: str) -> re.Match[str] | None:
    """The bar a segment ends on: a copy that lost the carriage returns holds every redraw of a bar run
    together (``0/42 [..]  2%|▏ | 1/42 [..]``), and the last one drawn is the step."""
    last = None
    for last in _BAR.finditer(segment):  # noqa: B007 -- the loop keeps the last match
        pass
    return last


#: The most dicts kept to the end to tell a buffered stdout (``_dict_steps``); a longer log goes out as printed.
_HELD_AT_MOST = 200_000

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
        r"\{'|\d+/\d+ \[|Running training|Num examples|Num Epochs|[Bb]atch size per device|Total steps = |[A-Za-z] = \d[\d,]* \| |"
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
        # Dicts printed after a bar, each with the bar's step then, kept to the end: whether they came in
        # bursts (``_dict_steps``) shows only across the file. Past ``_HELD_AT_MOST`` they go out as printed.
        self.held: list[tuple[dict, int, int | None, int]] | None = []
        # with no bar yet, each save into ``checkpoint-N`` and the epoch of the dict printed just before it
        self.saves: list[tuple[int, float]] = []
        self.trained_at: int | None = None  # the step of the last training dict placed by ``_step``

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        """How sure the file is the Trainer's, from the evidence it gives (``EVIDENCE``): its own log
        record, its module paths, or its banner block with its bare bars. One line a user's script copies
        (the banner printed once, a ``{'loss': ...}`` dict of its own) is no evidence alone."""
        score = sum(row.weight for row in EVIDENCE if row.regex.search(head))
        return min(0.9, score) if score >= NAMED else 0.0

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        for segment in text.split("\r"):
            if not segment.strip():
                continue
            # anything after a cut record says it was not the last line (a wrapped record's first half)
            self.cut = None
            m = _last_bar(segment)
            if m and "%|" in segment and not _RATE_NOT_ITERATIONS.search(segment, m.end()) and self._progress(int(m.group("n")), int(m.group("total"))):
                self.out.gave_step(line_no)
            saved = _SAVED_AT.search(segment)
            if saved and self.bar_step is not None and int(saved[1]) > self.bar_step:
                self.bar_step = int(saved[1])  # the bar is drawn every few seconds; the save says where it is
            elif saved and self.bar_step is None:
                self._saved(int(saved[1]))
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
        if step is None and self.saves:
            steps = saved_steps([e.get("epoch") for e, *_ in self.waiting], self.saves)
            if steps is not None:
                for (entry, line_no, rank, _ordinal), at in zip(self.waiting, steps, strict=True):
                    emit_log_entry(entry, at, line_no, rank, self.out)
                self.waiting = []
                return
        last = next((e["epoch"] for e, *_ in reversed(self.waiting) if e.get("epoch")), None)
        for entry, line_no, rank, _ordinal in self.waiting:
            epoch = entry.get("epoch")
            at = round(step * epoch / last) if step is not None and last and epoch and 0 < epoch < last else step
            emit_log_entry(entry, at, line_no, rank, self.out)
        self.waiting = []

    def _saved(self, step: int) -> None:
        """A save with no bar drawn: the step of the dict printed last (``_dict_steps.saved_steps``)."""
        epoch = next((e["epoch"] for e, *_ in reversed(self.waiting) if e.get("epoch")), None)
        if epoch and (not self.saves or self.saves[-1][0] != step):
            self.saves.append((step, epoch))

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
        if self.ordinal == 0 or _a_training_log(entry):
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
        if self.bar_step is not None and self.held is not None and not self._epoch_step(entry):
            self.held.append((entry, line_no, rank, self.bar_step))
            if len(self.held) > _HELD_AT_MOST:
                self._release_held()
            return
        emit_log_entry(entry, self._step(entry), line_no, rank, self.out)

    def _release_held(self) -> None:
        """The dicts kept after the bars, at the steps their bursts give where stdout was buffered, else each
        at the bar drawn before it (``_after_the_bar``), but at no step where a burst's steps would pass the bar's
        total (``_past_the_total``); none are kept after this."""
        held, self.held = self.held or [], None
        steps = buffered_steps([(entry.get("epoch"), bar) for entry, _, _, bar in held])
        current = self.bar_step
        buffered = _past_the_total(held, self.bar_total)
        for i, (entry, line_no, rank, bar) in enumerate(held):
            if steps is not None:  # (bursts before this one tell the interval)
                emit_log_entry(entry, steps[i], line_no, rank, self.out)
            elif bar in buffered:
                emit_log_entry(entry, None, line_no, rank, self.out)  # (the summary with them, as in ``_step``)
            else:
                self.bar_step = bar
                emit_log_entry(entry, self._after_the_bar(entry), line_no, rank, self.out)
        self.bar_step = current

    def _step(self, entry: dict) -> int:
        """The bar's step, unless the epoch says otherwise: with the steps of an epoch known, a dict whose epoch
        is further from the bar than its two printed decimals allow was printed later than it was logged
        (stdout buffered behind the bar), and its epoch gives its step."""
        if "train_runtime" in entry and self.trained_at is not None:
            return self.trained_at  # the summary closes the last training log's step
        by_epoch = self._epoch_step(entry)
        at = by_epoch or self.ordinal
        if self.bar_step is not None:
            bar = self._after_the_bar(entry)
            per_epoch = self.out.settings.get("train_iters", 0) / (self.out.settings.get("num_epochs") or 1)
            if by_epoch is None or abs(bar - by_epoch) <= per_epoch * 0.005 + 1:
                at = bar
        if _a_training_log(entry):
            self.trained_at = at
        return at

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
        if body.count(" = ") >= 2 and " | " in body:
            self._setup_row(body, line_no)
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

    def _setup_row(self, body: str, line_no: int) -> None:
        """The training block printed as rows of settings parted by bars, after a logo drawn in the margin
        (``Num examples = 168 | Num Epochs = 1 | Total steps = 42``): each part its own setting line, a
        formula in its name left out (``Total batch size (1 x 4 x 1) = 4``)."""
        for part in body.split(" | "):
            m = _SETUP_PART.search(part)
            if m:
                key = m.group("key").strip().lower()
                setting = _SETUP.get(key) or _SETUP.get(key.split(" (")[0])
                if setting:
                    self.out.setting(setting, int(m.group("value").replace(",", "")), line_no)

    def finish(self) -> None:
        if self.cut is not None:
            self._read_cut()
        self._release(None)
        if self.held:
            self._release_held()
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


def _past_the_total(held: list[tuple[dict, int, int | None, int]], total: int | None) -> set[int]:
    """The bars under which training logs of rising epochs were printed in one burst that, each at the bar and
    on by its epoch (``_after_the_bar``), would go past the bar's total: stdout was buffered, the bar is the
    step of the burst's last log or later, and the text gives none of their steps (the logging interval is
    printed nowhere in it). A bar at its total (training over) with two such logs after it is one."""
    epochs: dict[int, list[float]] = {}
    for entry, _, _, bar in held:
        if _a_training_log(entry) and entry.get("epoch"):
            epochs.setdefault(bar, []).append(entry["epoch"])
    return {
        bar
        for bar, seen in epochs.items()
        if total and len(set(seen)) >= 2 and bar * max(seen) / seen[0] > total
    }


def _a_training_log(entry: dict) -> bool:
    """A dict the Trainer logs during training (no evaluation's, no closing summary's)."""
    return not any(k.startswith(("eval_", "test_", "train_runtime")) for k in entry)
