"""Configurations named in a text: hardware counts ("64 GPUs", "1,024 A100 GPUs", "16个GPU") and model sizes
("GPT-3 175B", "a 530B model", "260亿参数"). Each is an entity of its own, so a claim's setting and an
``evaluated_on`` relation can point at it."""

from __future__ import annotations

import re
from itertools import islice

from assay.operators.papers._mentions import COUNT_SOURCE, Mention

# -- hardware counts --------------------------------------------------------------------------------------
# "64 GPUs", "64~GPUs" (LaTeX's non-breaking space), "8x A100", "8×A100", "$8\\times$A100", "16个GPU".
# A line may wrap between the count and the noun ("on 64\nGPUs"), not a paragraph.
_GAP = r"[ \t~]*(?:\n[ \t~]*)?"
_COUNT = (
    rf"(?<![A-Za-z0-9_.,])(?P<n>\d{{1,3}}(?:,\d{{3}})+|\d+){_GAP}"
    rf"(?:[个块台张颗]|[xX×]|\$?[ \t]*\\times[ \t]*\$?)?{_GAP}"
)
#: The nouns a count of machines is written with ("64 GPUs", "8 nodes").
DEVICE_WORDS = (
    r"GPUs?|TPUs?|NPUs?|IPUs?|nodes?|machines?|servers?|accelerators?|chips?|devices?|"
    r"workers?|processors?|cards?|instances?|cores?|hosts?"
)
_DEVICE_NOUN = rf"(?P<noun>{DEVICE_WORDS})(?![A-Za-z0-9])"
# "2 CPU workers", "8 GPU servers": the kind of device is kept in the name, so a count of CPU workers is
# told from one of GPU workers.
_COUNT_OF_DEVICES = re.compile(
    rf"(?=\d){_COUNT}(?:(?:NVIDIA|AMD|Intel|Tesla|GeForce|Habana|AI)[ \t]+)?(?:(?P<kind>CPU|GPU)[ \t]+)?"
    rf"{_DEVICE_NOUN}",
    re.IGNORECASE,
)
_COUNT_BEFORE = re.compile(rf"{_COUNT}(?:(?:NVIDIA|AMD|Intel|Tesla|Habana)[ \t]+)?$")
_NOUN_AFTER = re.compile(rf"[ \t]*{_DEVICE_NOUN}", re.IGNORECASE)


def hardware_counts(text: str, known: list[Mention], limit: int) -> list[Mention]:
    """Configurations: "64 GPUs", "16个GPU", and counts of a named device ("1,024 A100 GPUs", "8x V100")."""
    out = []
    for m in islice(_COUNT_OF_DEVICES.finditer(text), limit):
        n = int(m.group("n").replace(",", ""))
        noun = f"{m.group('kind').upper()} {m.group('noun')}" if m.group("kind") else m.group("noun")
        out.append(
            Mention(m.start(), m.end(), m.group(), "hardware", _count_name(n, noun), 0.9, COUNT_SOURCE)
        )
    for device in known:
        if device.type != "hardware" or device.source == COUNT_SOURCE:
            continue
        count = _COUNT_BEFORE.search(text, max(0, device.start - 16), device.start)
        if not count:
            continue
        noun = _NOUN_AFTER.match(text, device.end)
        end = noun.end() if noun else device.end
        n = int(count.group("n").replace(",", ""))
        name = f"{device.name} {noun.group('noun')}" if noun else device.name
        out.append(
            Mention(
                count.start(),
                end,
                text[count.start() : end],
                "hardware",
                _count_name(n, name),
                0.9,
                COUNT_SOURCE,
            )
        )
    return out


def _count_name(n: int, device: str) -> str:
    """One name per configuration: "1,024 A100 GPUs" -> "1024 A100 GPUs", "16个GPU" -> "16 GPUs"."""
    words = device.split()
    last = words[-1]
    if last.lower().rstrip("s") in {
        "gpu",
        "tpu",
        "npu",
        "ipu",
        "node",
        "machine",
        "server",
        "accelerator",
        "chip",
        "device",
        "worker",
        "processor",
        "card",
        "instance",
        "core",
        "host",
    }:
        singular = last[:-1] if last.endswith("s") else last
        words[-1] = singular + ("s" if n != 1 else "")
    return f"{n} {' '.join(words)}"


# -- model sizes ------------------------------------------------------------------------------------------
_SIZE_AFTER_MODEL = re.compile(r"[ \t-]*\(?[ \t]*(\d+(?:\.\d+)?)[ \t]?([BMT])(?![A-Za-z0-9])\)?")
_MAGNITUDES = {
    "b": 1e9,
    "billion": 1e9,
    "m": 1e6,
    "million": 1e6,
    "t": 1e12,
    "trillion": 1e12,
    "亿": 1e8,
    "万亿": 1e12,
    "百万": 1e6,
    "千万": 1e7,
}
_UNNAMED_MODEL = re.compile(
    r"(?=\d)(?:(?<![\w.])(?P<num>\d+(?:\.\d+)?)[ \t]?"
    r"(?:(?P<mag>[BMT])(?![A-Za-z0-9])|(?P<word>billion|million|trillion)\b)"
    r"(?:[ \t-]*param(?:eter)?s?)?[ \t-]+(?:parameter[ \t]+)?(?:language[ \t]+)?"
    r"(?:models?|LLMs?|transformers?)\b"
    r"|(?<![\w.])(?P<num2>\d+(?:\.\d+)?)[ \t]?(?P<word2>billion|million|trillion)[ \t-]+param(?:eter)?s\b"
    r"|(?<![\d.])(?P<num3>\d+(?:\.\d+)?)[ \t]*(?P<zh>万亿|亿|百万|千万)[ \t]*(?:个)?参数)",
    re.IGNORECASE,
)


def sized_models(text: str, mentions: list[Mention], limit: int) -> list[Mention]:
    """Model mentions with their size ("GPT-3 175B") and unnamed models of a stated size ("a 530B model")."""
    out = []
    for m in mentions:
        if m.type != "model":
            continue
        size = _SIZE_AFTER_MODEL.match(text, m.end, min(len(text), m.end + 16))
        if size:
            label = f"{_format_size(float(size.group(1)) * _MAGNITUDES[size.group(2).lower()])}"
            out.append(
                Mention(
                    m.start,
                    size.end(),
                    text[m.start : size.end()],
                    "model",
                    f"{m.name} {label}",
                    0.9,
                    COUNT_SOURCE,
                )
            )
    taken = [(m.start, m.end) for m in out]
    for found in islice(_UNNAMED_MODEL.finditer(text), limit):
        if any(s <= found.start() < e for s, e in taken):
            continue
        num = found.group("num") or found.group("num2") or found.group("num3")
        mag = found.group("mag") or found.group("word") or found.group("word2") or found.group("zh")
        params = float(num) * _MAGNITUDES[mag.lower()]
        out.append(
            Mention(
                found.start(),
                found.end(),
                found.group(),
                "model",
                f"{_format_size(params)}-parameter model",
                0.7,
                COUNT_SOURCE,
            )
        )
    return out


def _format_size(params: float) -> str:
    for unit, scale in (("T", 1e12), ("B", 1e9), ("M", 1e6)):
        if params >= scale:
            value = params / scale
            return f"{value:g}{unit}"
    return f"{params:g}"
