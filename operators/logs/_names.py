"""Names: metric keys as frameworks print them -> the contract's standard metric names, and the names of
frameworks, hardware and models -> the entity names the papers extractor writes, with their entity ids.

Why one module: the synonym table and the entity-name table are read together by every name decision (a key
is a metric or an entity name, never both); split, the two would drift apart."""

from __future__ import annotations

import re

from assay.ids import entity_id as entity_id  # re-exported: the id rule lives in assay.ids

#: Words that say which split a line measures. ``cv`` and ``dev`` are the held-out split as speech recipes
#: (Kaldi's heirs) and many NLP loops name it.
EVALUATION_WORDS = frozenset({"test", "testing", "val", "valid", "validation", "eval", "evaluation", "evaluating",
                              "validating", "cv", "dev"})
TRAINING_WORDS = frozenset({"train", "training"})
#: Lines that differ in one of these are records of two series (the template miner keeps them apart), and a
#: key that is one of them is a section, not a value's name.
SPLIT_NAMES = EVALUATION_WORDS | TRAINING_WORDS

#: Standard metric names of the data contract.
STANDARD_METRICS = (
    "loss",
    "val_loss",
    "lr",
    "grad_norm",
    "loss_scale",
    "step_time_ms",
    "samples_per_s",
    "tokens_per_s",
    "tflops",
    "mfu",
    "memory_mb",
)
#: Throughput-like metrics, where a value <= 0 is a placeholder printed before the first measurement.
RATE_METRICS = frozenset(
    {
        "samples_per_s",
        "tokens_per_s",
        "tokens_per_s_per_gpu",
        "samples_per_s_per_gpu",
        "tflops",
        "mfu",
        "step_time_ms",
    }
)

_ALIASES: dict[str, str] = {}


def _alias(standard: str, *keys: str) -> None:
    for key in keys:
        _ALIASES[key] = standard


_alias(
    "loss",
    "loss",
    "lm_loss",
    "train_loss",
    "trainloss",  # the split glued to the name (fairseq-lua's ``trainloss 1.94``, ``validloss 4.36``)
    "training_loss",
    "train_loss_step",
    "loss_step",
    "total_loss",
    "avg_loss",
    "global_avg_loss",
    "loss_metrics_global_avg_loss",
    "train_lm_loss",
    "lm_loss_training",
    "train_loss_avg",
    "tr_loss",
    "train_train_loss",
    "train_avg_loss",
    "reduced_train_loss",
    # cross-entropy under its own names (OpenNMT's ``xent: 2.13``); ``nll_loss`` is not here: beside a ``loss``
    # it is a term of it (fairseq), and alone it is read as a loss by its ending
    "xent",
    "xent_loss",
    "cross_entropy",
    "cross_entropy_loss",
    "ce_loss",
    # the objective function a recipe minimises, under its own name (Kaldi's heirs print ``objf``: ``current
    # batch average objf: 1.35``). Not ``obj``: YOLO's ``box obj cls total`` columns print the objectness term
    # under it, and their total is the loss (a solver's lone ``obj`` is read by ``_losses.lone_criterion``); not a
    # bare ``objective``, which a user's loop prints for what it
    # optimises, a score as often as a loss (kept under its own name)
    "objf",
    "objective_function",
    # the cost a loop minimises, the older word for the loss (Marian's ``Cost 5.20``, Theano- and TF1-era
    # tutorials' ``cost=``); only bare or with the training split: a timing's ``batch_cost``, ``time cost``,
    # ``reader_cost`` keep their names
    "cost",
    # the loss's value, printed as one word (MXNet metrics' ``lossvalue=11.52``)
    "lossvalue",
    "loss_value",
    "train_cost",
    "training_cost",
    "avg_cost",
    # the training loss in three letters (llm.c's ``main.log``: ``s:19250 trl:3.2850 lr:0.0003 norm:0.23``)
    "trl",
)
_alias(
    "val_loss",
    "val_loss",
    "eval_loss",
    "valid_loss",
    "validation_loss",
    "val_lm_loss",
    "lm_loss_value",
    "eval_lm_loss",
    "validation_metrics_loss",
    "lm_loss_validation",
    "val_loss_epoch",
    "test_loss",
    "dev_loss",
    "validloss",
    "valloss",
    "evalloss",
    "testloss",
    "validation_lm_loss",
    "valid_objf",
    "val_objf",
    "val_cost",
    "valid_cost",
    "validation_cost",
    "tel",  # the evaluation's loss in three letters (llm.c's ``s:19552 tel:3.2731``)
)
_alias("lr", "lr", "learning_rate", "train_learning_rate", "learning_rate_training", "lr_0", "current_lr", "cur_lr")
_alias(
    "grad_norm",
    "grad_norm",
    "gradient_norm",
    "train_grad_norm",
    "grad_norm_training",
    "global_grad_norm",
    "grad_norm_total",
    "total_grad_norm",
)
_alias("loss_scale", "loss_scale", "loss_scale_training", "scale", "current_loss_scale", "loss_scaler")
_alias(
    "step_time_ms",
    "elapsed_time_per_iteration_ms",
    "iteration_time_ms",
    "step_time_ms",
    "time_ms",
    "iter_time_ms",
    "elapsed_time_per_iteration",
    "batch_time_ms",
    "time_per_iteration_ms",
    "step_timing_in_s",  # NeMo's bar: train_step_timing in s (seconds; parsers scale by the key's unit)
)
_alias(
    "samples_per_s",
    "samples_per_second",
    "samples_sec",
    "samples_per_sec",
    "train_samples_per_second",
    "throughput_samples_s",
    "samplespersec",
    "currsamplespersec",
    "samples_s",
    "img_sec",
    "images_sec",
)
_alias(
    "tokens_per_s",
    "tokens_per_sec",
    "tokens_per_second",
    "tokens_sec",
    "tokens_s",
    "throughput_tokens_s",
    "train_tokens_per_second",
    "tok_s",
    "tok_sec",
)
_alias(
    "tokens_per_s_per_gpu",
    "tokens_per_sec_per_gpu",
    "tps",
    "wps",
    "throughput_tps",
    "tokens_s_gpu",
    "tokens_per_second_per_device",
    "tokens_per_second_per_gpu",
    "tok_s_gpu",
    "tokens_s_device",  # JAX tools count per device (MaxText's ``Tokens/s/device``)
)
_alias(
    "tflops",
    "tflops",
    "throughput_per_gpu_tflop_s_gpu",
    "model_tflops_per_gpu",
    "tflop_s_gpu",
    "tflops_per_gpu",
    "throughput_per_gpu",
    "tflops_gpu",
    "tflop_s_device",
    "tflops_per_device",
)
_alias("mfu", "mfu", "mfu_pct", "model_flops_utilization")
_alias(
    "memory_mb",
    "memory_mb",
    "mem_mb",
    "max_memory_mb",
    "memory_mib",
    # printed with a unit or none (MiB): detectron2's max_mem: 2845M, YOLOX's mem: 34235Mb, mmengine's memory: 20000
    "mem",
    "max_mem",
    "memory",
    "gpu_mem",
    "peak_mem",
    "peak_memory",
    "max_memory",
    "max_memory_allocated",
)

_NON_WORD = re.compile(r"[^0-9a-z]+")
#: Step keys that count the whole run by their name alone, without a ``global_``/``total_`` qualifier: fairseq's
#: updates; RLlib's environment steps (``num_env_steps_sampled`` since its 2.0 counters).
_RUN_WIDE_STEP_KEYS = frozenset({"num_updates", "timesteps_total", "num_env_steps_sampled"})
_STEP_KEYS = _RUN_WIDE_STEP_KEYS | frozenset(
    {
        "step",
        "_step",
        "global_step",
        "iteration",
        "iter",
        "steps",
        "iters",
        "iterations",
        "it",
        "trainer_global_step",
        "train_global_step",
        "global_steps",
        "train_step",
        "global_iteration",
        # reinforcement learning counts environment steps: Stable-Baselines3 logs at ``total_timesteps``
        "total_timesteps",
        "timesteps",
        # a record per tick of a fixed amount of training (StyleGAN's and EDM's ``tick 12  kimg 48.0``)
        "tick",
    }
)
_UNIT_HINT = re.compile(r"(?:\(\s*(ms|s|sec|seconds)\s*\)|[_ ](ms|s|sec)$)")


def known_words() -> list[str]:
    """Every key of the synonym table and every step key, longest first: what makes a line of an unknown
    format worth mining (the general reader's prefilter is built from it, so a synonym added to the table is
    also found)."""
    words = {w for key in (*_ALIASES, *_STEP_KEYS) if (w := key.strip("_")) and len(w) >= 3}
    return sorted(words, key=lambda w: (-len(w), w))


def key_slug(key: str) -> str:
    """``'elapsed time per iteration (ms)'`` -> ``'elapsed_time_per_iteration_ms'``."""
    return _NON_WORD.sub("_", key.strip().lower()).strip("_")


#: Words that say a rising number counts amounts, not steps (and a measure no loss is): samples, tokens, images, time, memory.
AMOUNT_WORDS = re.compile(r"sample|token|tok|img|image|example|seen|consumed|byte|time|sec|elapsed|mem|size|len", re.I)


#: A step word cut short and marked so by a full stop (Marian's ``Ep. 3 : Up. 14000``, ``It. 200``): the word it
#: stands for. Only with the stop: a bare ``up`` or ``st`` is an ordinary word.
_ABBREVIATED = {"up": "num_updates", "upd": "num_updates", "upds": "num_updates", "it": "iteration",
                "itr": "iteration", "iter": "iteration", "iters": "iterations"}


def unabbreviated(key: str) -> str:
    """``key`` with a step word cut short and marked by its stop written out (``Up.`` -> ``num_updates``)."""
    stripped = key.strip()
    if stripped.endswith(".") and (full := _ABBREVIATED.get(stripped[:-1].lower())):
        return full
    return key


def is_step_key(key: str) -> bool:
    """A step's key, also behind a word that says training (DLLogger's ``Training Iteration: 651``), that
    it counts across epochs (OpenPCDet's ``Acc_iter 1100``, accumulated) or that it is the current one
    (PySlowFast's ``"cur_iter": "10"``), or cut short with a full stop (``Up.``)."""
    key = unabbreviated(key)
    slug = _INDEX_SUFFIX.sub("", key_slug(key))  # Pax's ``step_i``, ``iter_num``, ``step_idx``
    for prefix in ("training_", "train_", "acc_", "accumulated_", "global_", "cur_", "curr_", "current_"):
        if slug.startswith(prefix) and slug[len(prefix) :] in _STEP_KEYS:
            return True
    return slug in _STEP_KEYS or _echoed_run_count(slug) is not None or run_count(key)


#: A counter of the whole run's environment steps, written with a word that says it adds up (reinforcement
#: learning loggers: ``TotalEnvInteracts``, ``CumSteps``, ``total_env_steps``, ``env_steps_total``, Tianshou's
#: ``env_step``): the
#: run's step, as ``total_timesteps`` is. A bare ``total_steps`` or ``num_steps`` is left out: configs print
#: those as settings.
_RUN_COUNT = re.compile(
    r"^(?:(?:cum|cumulative)_(?:env_|environment_)?(?:steps|timesteps|interacts|interactions|frames)"
    r"|(?:(?:total|cum|cumulative)_)?(?:env|environment)_(?:steps?|timesteps?|interacts|interactions|frames)"
    r"|total_(?:env_)?interact(?:s|ions)"
    # rlkit's ``expl/num steps total``: the exploration's environment steps so far; PyMARL's ``t_env``
    r"|num_(?:env_)?steps_total|t_env)(?:_total|_sampled)?$"
)


def run_count(key: str) -> bool:
    """Whether ``key`` (its last ``/`` part, capitals starting words) counts the run's environment steps."""
    last = key.rsplit("/", 1)[-1]
    return bool(_RUN_COUNT.match(key_slug(_CAMEL.sub("_", last))))


#: The splits an evaluation's record prefixes its keys with (fairseq's ``valid_loss`` ... ``valid_num_updates``).
EVAL_PREFIXES = ("valid_", "validation_", "val_", "eval_", "test_")


def _echoed_run_count(slug: str) -> str | None:
    """A run-wide counter an evaluation's record repeats under its split's prefix (``valid_num_updates``,
    ``eval_global_step``): the training's step the evaluation ran at, not a count of the evaluation's own
    batches (``val_step`` stays no step key). The counter's own name, else ``None``."""
    for prefix in EVAL_PREFIXES:
        rest = slug[len(prefix) :]
        if slug.startswith(prefix) and (rest in _RUN_WIDE_STEP_KEYS or rest == "global_step"):
            return rest
    rest = _of_a_subset(slug)
    if rest is not None and (rest in _RUN_WIDE_STEP_KEYS or rest == "global_step"):
        return rest
    return None


#: An evaluation split and the subset it names, before a key (fairseq's records for ``--valid-subset
#: dev_other``: ``dev_other_loss``, ``dev_other_num_updates``; ``valid_clean_loss``).
#: A subset's name is a word of four letters or more: a loss's own term is shorter (``val_kl_loss``, ``dev_ce_loss``).
_SUBSET_PREFIX = re.compile(r"^(?:dev|valid|test)_(?P<subset>[a-z]{4,}\d*)_(?P<rest>[a-z].*)$")


def _of_a_subset(slug: str) -> str | None:
    """The key after an evaluation split's subset (``dev_other_loss``: ``loss``), else ``None``; an aggregate or
    a split is no subset (``test_mean_loss``)."""
    m = _SUBSET_PREFIX.match(slug)
    return m["rest"] if m and m["subset"] not in _AGGREGATES | _SPLITS else None


#: A suffix that says a step word's value is its index or number (``step_i``, ``iter_num``, ``step_idx``).
_INDEX_SUFFIX = re.compile(r"(?<=step|iter)_(?:i|idx|index|num|no|n|id|count)$|(?<=iteration)_(?:i|idx|index|num|no|n|id|count)$")


#: Qualifiers that make a step key count across epochs (``global_step``, OpenPCDet's ``Acc_iter``).
_ACROSS_EPOCHS = ("global_", "acc_", "accumulated_", "total_")


def counts_across_epochs(key: str) -> bool:
    """A step key that says it counts the whole run, not one epoch: it beats an in-epoch ``it 3/50`` on the
    same line (``ep 2 it 3/50 global_step 103``)."""
    key = unabbreviated(key)
    slug = key_slug(key)
    slug = _echoed_run_count(slug) or slug
    return is_step_key(key) and (
        slug.startswith(_ACROSS_EPOCHS) or slug in _RUN_WIDE_STEP_KEYS or run_count(key)
    )


#: A gradient-boosting evaluation list's key, its split and metric joined by a hyphen (XGBoost's ``[40]
#: train-rmse:0.41  eval-rmse:0.52``, ``validation_0-mae``): an error of the booster's objective, so the training
#: split's is the loss and an evaluation split's the validation loss. Not a score that rises (``auc``, ``ndcg``)
#: nor a rate of wrong labels (``error``).
#: The same error with its split joined by an underscore, before or after it (a regression script's
#: ``train_rmse``, DeePMD's learning-curve header ``rmse_trn  rmse_val``): the objective's error on each split.
_ERRORS = r"(?:rmse|mse|mae|rmsle|mape|m?logloss|l1|l2|huber|mphe)"
_SPLIT_WORDS = r"(?:train|training|trn|learn|eval|valid|validation|val|test)"
_BOOSTER_KEY = re.compile(
    rf"^(?P<split>{_SPLIT_WORDS})(?:_\d+)?[-_]{_ERRORS}$|^{_ERRORS}[-_](?P<after>{_SPLIT_WORDS})$", re.I
)


def split_error(key: str) -> bool:
    """Whether ``key`` is such an error of a split, however its words are joined (``test mse``, ``val_mse``,
    ``eval-rmse``)."""
    return _BOOSTER_KEY.match(key_slug(key)) is not None


def metric_name(key: str) -> str | None:
    """The standard name of a printed metric key (``'lm loss'``, ``'train/loss'``, ``'lr-AdamW'``), or
    ``None`` when the key is not one assay knows."""
    slug = key_slug(key)
    if slug in _ALIASES:
        return _ALIASES[slug]
    booster = _BOOSTER_KEY.match(key)
    if booster:
        split = (booster["split"] or booster["after"]).lower()
        return "loss" if split in ("train", "training", "trn", "learn") else "val_loss"
    for prefix in ("train_", "training_", "trn_", "trainer_", "reduced_"):  # reduced: averaged over the ranks
        if slug.startswith(prefix) and slug[len(prefix) :] in _ALIASES:
            return _ALIASES[slug[len(prefix) :]]
        # the training split written after the name (``loss_trn`` beside ``loss_val`` in a data file's header)
        if prefix in ("train_", "training_", "trn_") and slug.endswith("_" + prefix[:-1]) and _ALIASES.get(slug[: -len(prefix)]) == "loss":
            return "loss"
    if _of_a_subset(slug) == "loss":
        return "val_loss"  # the loss of an evaluation split's subset (``dev_other_loss``)
    for prefix in ("eval_", "val_", "vali_", "valid_", "validation_", "test_"):
        if slug.startswith(prefix) and _ALIASES.get(slug[len(prefix) :]) == "loss":
            return "val_loss"
        # the split written after the name (``loss_val``, as a hook that evaluates beside training prints it)
        if slug.endswith("_" + prefix[:-1]) and _ALIASES.get(slug[: -len(prefix)]) == "loss":
            return "val_loss"
    if slug.startswith(("lr_", "lr-")) or slug.startswith("learning_rate_"):
        return "lr"
    if _CAMEL.search(key):  # ``TrainLossPerSample``, ``LearningRate``: the words its capitals start
        return metric_name(_CAMEL.sub("_", key))
    if _PER_UNIT.search(slug):  # ``train_loss_per_sample``: the loss, averaged over what it says (a rate or
        base = metric_name(_PER_UNIT.sub("", slug))  # a size per token is not the rate or the size)
        return base if base in ("loss", "val_loss") else None
    if "/" in key:  # structured names: train/loss, eval/loss, Loss/val, throughput/tokens_per_sec
        parts = [key_slug(p) for p in key.split("/") if p.strip()]
        if len(parts) == 2 and _PER_UNIT.search(f"_per_{parts[1]}"):  # XNMT's ``train_loss/word``: per word
            base = metric_name(parts[0])
            return base if base in ("loss", "val_loss") else None
        words = [p for p in parts if p not in _SPLITS and p not in _AGGREGATES]  # loss/train/total: loss
        base = metric_name(words[-1]) if words and "/" not in words[-1] else None
        if base == "loss" and any(p in _EVAL_SPLITS for p in parts):
            return "val_loss"
        return base
    return None


_EVAL_SPLITS = {"eval", "val", "vali", "valid", "validation", "test", "dev"}
#: Where a key's capitals start its words (``TrainLossPerSample``): between a small letter and a capital.
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
#: What a value is averaged over, written after its name (``loss_per_sample``, ``loss_per_token``): the same metric.
_PER_UNIT = re.compile(r"_per_(?:sample|token|tok|frame|word|example|utterance|image|seq|sequence|sent|sentence)$")
_SPLITS = _EVAL_SPLITS | {"train", "training", "trn"}
_AGGREGATES = {"total", "avg", "mean", "global", "reduced", "all"}


def extra_metric_name(key: str) -> str | None:
    """A name for a numeric key outside the standard set, kept for structured inputs (JSON lines,
    TensorBoard, CSV): its slug, unless it is a step counter."""
    slug = key_slug(key)
    if not slug or slug in _STEP_KEYS or len(slug) > 64:
        return None
    return slug


def time_unit_factor(key: str) -> float:
    """Milliseconds per unit of a time key: ``'iter time (s)'`` -> 1000."""
    m = _UNIT_HINT.search(key.lower())
    if m and (m.group(1) or m.group(2)) in {"s", "sec", "seconds"}:
        return 1000.0
    return 1.0


# -- entities ----------------------------------------------------------------------------------------------

#: Framework (system) names as the papers extractor writes them.
SYSTEMS = {
    "megatron": "Megatron-LM",
    "megatron-deepspeed": "Megatron-DeepSpeed",
    "deepspeed": "DeepSpeed",
    "torchtitan": "TorchTitan",
    "nanogpt": "nanoGPT",
    "hf_trainer": "Hugging Face Transformers",
    "lightning": "PyTorch Lightning",
    "nanotron": "Nanotron",
    "horovod": "Horovod",
    "colossalai": "Colossal-AI",
    "torchelastic": "TorchElastic",
}

_HARDWARE = re.compile(
    r"\b(?:NVIDIA\s+|Tesla\s+|AMD\s+Instinct\s+|Instinct\s+)?"
    r"(?P<name>[ABHLV]\d{2,3}[A-Z]?|GH200|GB200|B200|B100|H20|A800|H800|P100|K80|T4|L4|L40S?|A10G?|A30|A40|"
    r"MI\d{3}[AXH]?|RTX\s?\d{4}(?:\s?Ti)?|TPU\s?v\d[a-z]*|Gaudi\s?\d?)"
    r"(?=[-\s,.)(_:]|$)"
)
#: Accelerator names that are also common tokens; accepted only with a vendor word nearby.
_AMBIGUOUS = {"T4", "L4", "A10", "A30", "A40", "H20", "K80"}


def find_hardware(text: str) -> list[tuple[str, int, int]]:
    """Accelerators named in ``text``: ``(canonical name, start, end)``; ``NVIDIA A100-SXM4-80GB`` -> A100."""
    found = []
    for m in _HARDWARE.finditer(text):
        name = re.sub(r"\s+", " ", m.group("name")).strip()
        if name in _AMBIGUOUS and not re.search(r"NVIDIA|Tesla|GPU|cuda", text, re.I):
            continue
        if name.startswith("RTX"):
            name = "RTX " + name[3:].strip()
        if name.startswith("TPU"):
            name = "TPU " + name[3:].strip()
        found.append((name, m.start("name"), m.end("name")))
    return found


def _size(text: str | None) -> str:
    return f" {text[:-1]}{text[-1].upper()}" if text else ""


def _word(text: str | None, sep: str = " ") -> str:
    return f"{sep}{text.upper() if len(text) <= 2 else text.capitalize()}" if text else ""


_SIZE = r"(\d+(?:\.\d+)?[bmBM])"
#: (pattern over the name without its organisation prefix, how papers write it)
_MODEL_FAMILIES = [
    (rf"llama[-_ ]?(\d(?:\.\d)?)(?:[-_ ]+{_SIZE})?", lambda g: f"Llama {g[0]}{_size(g[1])}"),
    (rf"llama[-_ ]?{_SIZE}?", lambda g: f"LLaMA{_size(g[0])}"),
    (r"gpt-?2(?:[-_ ](xl|large|medium|small))?", lambda g: f"GPT-2{_word(g[0])}"),
    (rf"gpt-?3(?:[-_ ]{_SIZE})?", lambda g: f"GPT-3{_size(g[0])}"),
    (r"resnet[-_ ]?(\d+)", lambda g: f"ResNet-{g[0]}"),
    (r"bert[-_ ]?(base|large)?(?:[-_ ]?(?:un)?cased)?", lambda g: f"BERT{_word(g[0], '-')}"),
    (rf"mistral[-_ ]?{_SIZE}?", lambda g: f"Mistral{_size(g[0])}"),
    (rf"qwen[-_ ]?(\d(?:\.\d)?)?(?:[-_ ]+{_SIZE})?", lambda g: f"Qwen{g[0] or ''}{_size(g[1])}"),
    (r"t5[-_ ]?(small|base|large|3b|11b)?", lambda g: f"T5{_word(g[0], '-')}"),
    (r"vgg[-_ ]?(\d+)", lambda g: f"VGG-{g[0]}"),
    (rf"opt[-_ ]?{_SIZE}", lambda g: f"OPT{_size(g[0])}"),
]
_MODEL_PATTERNS = [(re.compile(p + "$", re.I), f) for p, f in _MODEL_FAMILIES]


def canonical_model(raw: str) -> str:
    """A model name as papers write it: ``'llama3 8B'`` -> ``'Llama 3 8B'``, ``'gpt2-xl'`` -> ``'GPT-2 XL'``,
    ``'meta-llama/Llama-2-7b-hf'`` -> ``'Llama 2 7B'``; unknown names are kept as printed."""
    name = raw.strip().strip("'\"").rstrip("/").rsplit("/", 1)[-1]
    name = re.sub(r"[-_](hf|chat|instruct|v\d+(\.\d+)?)$", "", name, flags=re.I)
    name = re.sub(r"\s+", " ", name)
    for pattern, write in _MODEL_PATTERNS:
        m = pattern.match(name)
        if m:
            return write(m.groups()).strip()
    return name


#: Model families under the names papers use for them, so a run of "Llama 3 8B" links to "LLaMA" as well.
_FAMILIES = [
    (re.compile(p, re.I), family)
    for p, family in (
        (r"^llama", "LLaMA"),
        (r"^gpt-2", "GPT-2"),
        (r"^gpt-3", "GPT-3"),
        (r"^bert", "BERT"),
        (r"^t5\b", "T5"),
        (r"^mistral", "Mistral"),
        (r"^mixtral", "Mixtral"),
        (r"^opt\b", "OPT"),
        (r"^bloom", "BLOOM"),
        (r"^resnet-50$", "ResNet-50"),
        (r"^resnet-101$", "ResNet-101"),
        (r"^resnet", "ResNet"),
        (r"^vgg", "VGG"),
        (r"^gpt-neox", "GPT-NeoX"),
        (r"^gpt-j", "GPT-J"),
    )
]


def model_family(name: str) -> str | None:
    """The family a model belongs to, named as papers name it (``Llama 3 8B`` -> ``LLaMA``)."""
    for pattern, family in _FAMILIES:
        if pattern.search(name):
            return family
    return None


def humanise_count(n: float) -> str:
    """124082688 -> ``'124M'``, 1.3e9 -> ``'1.3B'``: parameter counts as papers write them."""
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")):
        if n >= scale:
            value = n / scale
            text = f"{value:.1f}".rstrip("0").rstrip(".") if value < 10 else f"{value:.0f}"
            return text + suffix
    return f"{n:.0f}"
