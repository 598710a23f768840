"""TensorBoard event files (``events.out.tfevents.*``): TFRecord framing (length, masked CRC-32C of the
length, payload, CRC of the payload) around ``Event`` protocol buffers, decoded here from the wire format so
that reading logs needs neither TensorFlow nor TensorBoard. Scalars are read both as ``simple_value`` (what
``SummaryWriter.add_scalar`` writes) and as scalar tensors (TF2 ``tf.summary.scalar``, ``new_style=True``)."""

from __future__ import annotations

import datetime as dt
import os
import struct
from collections.abc import Iterator

from assay.operators.logs._base import LogParser, register_parser
from assay.operators.logs._names import extra_metric_name, metric_name

_CRC_TABLE: list[int] = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC_TABLE.append(_c)


def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def is_tfrecord(head: bytes) -> bool:
    """A TFRecord starts with a length whose masked CRC follows it."""
    return len(head) >= 12 and struct.unpack("<I", head[8:12])[0] == masked_crc(head[:8])


# -- protocol buffer wire format ---------------------------------------------------------------------------


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7


def fields(buf: bytes) -> Iterator[tuple[int, int, int | bytes]]:
    """``(field number, wire type, value)`` of each field of a serialised message."""
    pos, end = 0, len(buf)
    while pos < end:
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 1:
            value, pos = buf[pos : pos + 8], pos + 8
        elif wire == 2:
            length, pos = _varint(buf, pos)
            value, pos = buf[pos : pos + length], pos + length
        elif wire == 5:
            value, pos = buf[pos : pos + 4], pos + 4
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        yield number, wire, value


_DTYPES = {1: ("<f", 4), 2: ("<d", 8), 3: ("<i", 4), 9: ("<q", 8), 19: ("<e", 2)}


def _tensor_scalar(buf: bytes) -> float | None:
    """The value of a TensorProto that holds one number (no dimensions, or all of size 1)."""
    dtype, content, values = None, None, []
    for number, wire, value in fields(buf):
        if number == 1:
            dtype = value
        elif number == 2:
            for dim_no, _w, dim in fields(value):
                if dim_no == 2 and any(n == 1 and size != 1 for n, _x, size in fields(dim)):
                    return None
        elif number == 4:
            content = value
        elif number in (5, 6) and wire == 2:
            fmt, size = ("<f", 4) if number == 5 else ("<d", 8)
            values.extend(struct.unpack(f"<{len(value) // size}{fmt[1]}", value))
        elif number == 5 and wire == 5:
            values.append(struct.unpack("<f", value)[0])
        elif number == 6 and wire == 1:
            values.append(struct.unpack("<d", value)[0])
        elif number in (7, 10) and wire == 0:
            values.append(value)
        elif number in (7, 10) and wire == 2:
            pos = 0
            while pos < len(value):
                v, pos = _varint(value, pos)
                values.append(v)
    if content is not None and dtype in _DTYPES:
        fmt, size = _DTYPES[dtype]
        if len(content) == size:
            return float(struct.unpack(fmt, content)[0])
        return None
    return float(values[0]) if len(values) == 1 else None


def scalars(event: bytes) -> tuple[float | None, int, list[tuple[str, float]]]:
    """``(wall time, step, [(tag, value)])`` of a serialised Event."""
    wall, step, found = None, 0, []
    for number, _wire, value in fields(event):
        if number == 1:
            wall = struct.unpack("<d", value)[0]
        elif number == 2:
            step = value
        elif number == 5:
            for v_no, _w, v in fields(value):
                if v_no == 1:
                    item = _value(v)
                    if item is not None:
                        found.append(item)
    return wall, step, found


def _value(buf: bytes) -> tuple[str, float] | None:
    tag, simple, tensor, plugin = None, None, None, None
    for number, _wire, value in fields(buf):
        if number == 1:
            tag = value.decode("utf-8", "replace")
        elif number == 2:
            simple = struct.unpack("<f", value)[0]
        elif number == 8:
            tensor = value
        elif number == 9:
            for m_no, _w, m in fields(value):
                if m_no == 1:
                    plugin = next((p.decode() for p_no, _x, p in fields(m) if p_no == 1), None)
    if tag is None:
        return None
    if simple is not None:
        return tag, float(simple)
    if tensor is not None and plugin in (None, "scalars"):
        number = _tensor_scalar(tensor)
        return (tag, number) if number is not None else None
    return None


# -- tags to metrics ---------------------------------------------------------------------------------------

_TAGS = {
    "learning-rate": ("lr", 1.0),
    "loss-scale": ("loss_scale", 1.0),
    "grad-norm": ("grad_norm", 1.0),
    "iteration-time": ("step_time_ms", 1000.0),
    "lm loss": ("loss", 1.0),
    "lm loss validation": ("val_loss", 1.0),
    "throughput": ("tflops", 1.0),
    "throughput(tps)": ("tokens_per_s_per_gpu", 1.0),
    "mfu(%)": ("mfu", 1.0),
    "memory/max_reserved(gib)": ("memory_mb", 1024.0),
    "time_metrics/end_to_end(s)": ("step_time_ms", 1000.0),
    "loss_metrics/global_avg_loss": ("loss", 1.0),
    "validation_metrics/loss": ("val_loss", 1.0),
}
#: Tag sets only one framework writes.
_FRAMEWORK_TAGS = [
    ({"lm loss", "learning-rate"}, "Megatron-LM"),
    ({"loss_metrics/global_avg_loss"}, "TorchTitan"),
    ({"train/learning_rate", "train/epoch", "train/loss"}, "Hugging Face Transformers"),
]


def tag_metric(tag: str) -> tuple[str, float] | None:
    """A TensorBoard tag's metric name and unit factor; ``None`` for tags to skip."""
    low = tag.strip().lower()
    if " vs samples" in low or " vs tokens" in low or low.startswith("batch-size"):
        return None
    last = low.rsplit("/", 1)[-1]
    for key in (low, last):
        if key in _TAGS:
            return _TAGS[key]
    name = metric_name(tag)
    if name:
        return name, 1.0
    extra = extra_metric_name(tag)
    return (extra, 1.0) if extra else None


@register_parser
class TensorBoardParser(LogParser):
    name = "tensorboard"
    framework = None
    binary = True
    chunkable = False
    priority = 30

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        if "tfevents" in os.path.basename(path):
            return 1.0
        return 0.9 if is_tfrecord(head.encode("utf-8", "surrogateescape")[:12]) else 0.0

    def parse_file(self, path: str) -> None:
        out = self.out
        names: dict[str, tuple[str, float] | None] = {}
        with open(path, "rb") as f:
            record = 0
            while True:
                offset = f.tell()
                header = f.read(12)
                if not header:
                    break
                record += 1
                if len(header) < 12:
                    out.issue(f"event file ends inside a record header at byte {offset} (truncated)", record)
                    break
                length = struct.unpack("<Q", header[:8])[0]
                if struct.unpack("<I", header[8:12])[0] != masked_crc(header[:8]):
                    out.issue(
                        f"corrupt record length at byte {offset}; the rest of the file is skipped", record
                    )
                    break
                payload = f.read(length)
                footer = f.read(4)
                if len(payload) < length or len(footer) < 4:
                    out.issue(f"event file ends inside record {record} at byte {offset} (truncated)", record)
                    break
                try:
                    wall, step, values = scalars(payload)
                except (ValueError, IndexError, struct.error) as exc:
                    out.issue(f"undecodable event at byte {offset}: {exc}", record)
                    continue
                ts = dt.datetime.fromtimestamp(wall, dt.UTC).replace(tzinfo=None) if wall else None
                out.saw_time(ts)
                for tag, value in values:
                    if tag not in names:
                        names[tag] = tag_metric(tag)
                    meaning = names[tag]
                    if meaning is not None:
                        out.metric(meaning[0], step, value * meaning[1], record, None, ts)
        tags = {t.lower() for t in names}
        out.framework = next((name for needed, name in _FRAMEWORK_TAGS if needed <= tags), None)
