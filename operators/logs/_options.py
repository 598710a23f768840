"""A run's settings from the options a script prints once before it trains: a block of ``key: value`` lines
under a banner (``==== Options ====``), an argparse ``Namespace(batch_size=64, lr=0.1)`` or an
``args: {'batch_size': 64}`` dict. The general reader has no framework to name its settings, so the keys that
say the run's layout are read into the same settings the framework parsers fill (``micro_batch_size``,
``global_batch_size``, ``world_size``, ``tp``, ``pp``, ``gradient_accumulation_steps``); their values never
become metric series. Only before the file's first record: a batch size printed beside a step is that
step's."""

from __future__ import annotations

import re

#: Option keys (as scripts name them) -> the run's setting, with what a script prints.
OPTION_SETTINGS = {
    "batch_size": "micro_batch_size",  # per process, as a loop's DataLoader takes it: ``batch_size: 192``
    "micro_batch_size": "micro_batch_size",
    "per_device_train_batch_size": "micro_batch_size",
    "batch_size_per_gpu": "micro_batch_size",  # DINO's and the scripts built on it: ``batch_size_per_gpu: 64``
    "train_micro_batch_size_per_gpu": "micro_batch_size",
    "global_batch_size": "global_batch_size",
    "total_batch_size": "global_batch_size",
    "world_size": "world_size",  # ``Namespace(world_size=8, ...)``
    "gradient_accumulation_steps": "gradient_accumulation_steps",
    "tensor_model_parallel_size": "tp",
    "pipeline_model_parallel_size": "pp",
}
_KEYS = "|".join(sorted(OPTION_SETTINGS, key=len, reverse=True))
#: A line that is one option (``batch_size: 192``, ``  world_size = 4``, ``--batch_size 32``).
#: An option's dashes, or a list's bullet (``- world_size=24`` under a logger's line announcing them).
_LEAD = r"(?:-{0,2}|[-*]\s+)"
_ALONE = re.compile(rf"^\s*{_LEAD}(?P<key>{_KEYS})\s*(?:[:=]\s*|\s+)(?P<value>\d+)\s*,?\s*$")
#: A process's coordinates printed as it joins the group (``init_process_group ... rank=0 world_size=24``): the
#: world size the run was launched with.
_JOIN = r"\brank\s*[:=]\s*\d+[,;]?\s+(?:[\w.]+\s*[:=]\s*\S+[,;]?\s+)?world_size\s*[:=]\s*"
_JOINING = re.compile(rf"{_JOIN}(?P<value>\d+)")
#: A one-line dump of a script's arguments: ``Namespace(...)``, ``args: {...}``, ``Options(...)``.
#: The words a script names a dump of its arguments with (``_settings_lines`` reads the same words, and more).
DUMP_WORDS = ("args", "arguments", "options", "opts", "config", "hparams", "flags")
_DUMP = re.compile(rf"(?i)(?:\bnamespace\(|\b(?:{'|'.join(DUMP_WORDS)})\s*[:=]?\s*[({{])")
#: One option inside such a dump (``batch_size=192``, ``'batch_size': 192``).
_IN_DUMP = re.compile(rf"(?<![\w.])['\"]?(?P<key>{_KEYS})['\"]?\s*[:=]\s*(?P<value>\d+)(?![\w.])")


#: A batch size written in words, as a trainer's start-up banner prints it (``Instantaneous batch size per device =
#: 8``, ``Total train batch size (w. parallel, distributed & accumulation) = 64``, several on a line apart by ``|``):
#: per device, or of the whole step where a word says so (total, global, effective); and the GPUs it runs on
#: (``Num GPUs = 1``, ``World size = 2``), its world size. Each stands alone between separators (``|``, ``,``)
#: or at the line's end.
_PER_DEVICE = r" per (?:device|gpu|process|rank|worker)"
_BATCH_AFTER = r"(?: \([^)]*\))?\s*[:=]\s*"
_GPUS = r"(?:(?:num|number of) gpus|world size)\s*[:=]\s*"
_WORDED_BATCH = re.compile(
    # (its product shown before the total: LeRobot's ``Effective batch size: 32 x 1 = 32``)
    rf"(?<![\w'])(?P<words>(?:[A-Za-z]+ ){{0,3}})batch size(?P<per>{_PER_DEVICE})?{_BATCH_AFTER}"
    r"(?:\d+(?:\s*[x×*]\s*\d+)+\s*=\s*)?(?P<value>\d+)"
    r"\s*(?=\||,|$)",
    re.I,
)
_WORDED_GPUS = re.compile(rf"(?<![\w']){_GPUS}(?P<value>\d+)\s*(?=\||,|$)", re.I)
#: The GPUs a launch says it spreads the run over, in a sentence (``Distributing across 4 GPUs...``, ``Training on
#: 8 GPUs``, ``Using 2 GPUs``, ``Let's use 4 GPUs!``): its world size as stated.
_SPREAD = (
    r"(?:(?:distribut|train|runn|launch|spawn)ing\s+(?:\w+\s+)?(?:across|on|over|with|using)|^\W*using|let's use)"
    r"\s+(?P<value>\d+)\s+(?:GPUs?|devices|processes)\b"
)
_SPREAD_GPUS = re.compile(_SPREAD, re.I | re.M)
_WHOLE_STEP = {"total", "global", "effective"}

#: The lines that may hold options, for the reader's line selection (RE2: no look-around); the worded forms
#: from the same pieces as the patterns that read them.
OPTION_LINES = (
    rf"^\s*{_LEAD}(?:{_KEYS})\s*[:= ]|(?i:namespace)\(|{_JOIN}\d"
    rf"|(?i:batch size(?:{_PER_DEVICE})?{_BATCH_AFTER}|{_GPUS})\d+|(?i:{_SPREAD.replace('?P<value>', '')})"
)


#: A process's rank out of the world, tagged after a logger's source (k2 and icefall's ``INFO [train.py:1055]
#: (0/2) Epoch 1, ...``): the world is the number after the slash.
_RANK_TAG = re.compile(r"\]\s+\((?P<rank>\d+)/(?P<value>\d+)\)\s+[A-Z]")


def _rank_of_world(text: str) -> re.Match[str] | None:
    tag = _RANK_TAG.search(text)
    return tag if tag and int(tag["rank"]) < int(tag["value"]) else None


def options_of(text: str) -> dict[str, int]:
    """The settings a line of printed options says (``{'micro_batch_size': 192}``); none for any other line."""
    alone = _ALONE.match(text)
    if alone:
        return {OPTION_SETTINGS[alone.group("key")]: int(alone.group("value"))}
    found: dict[str, int] = {}
    for worded in _WORDED_BATCH.finditer(text):  # after a logger's prefix, which the style may not have peeled
        whole = not worded.group("per") and bool(_WHOLE_STEP & set(worded.group("words").lower().split()))
        found.setdefault("global_batch_size" if whole else "micro_batch_size", int(worded.group("value")))
    gpus = _WORDED_GPUS.search(text) or _SPREAD_GPUS.search(text) or _JOINING.search(text) or _rank_of_world(text)
    if gpus:
        found["world_size"] = int(gpus.group("value"))
    if found:
        return found
    if not _DUMP.search(text):
        return {}
    for m in _IN_DUMP.finditer(text):
        found.setdefault(OPTION_SETTINGS[m.group("key")], int(m.group("value")))
    return found
