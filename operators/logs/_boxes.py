"""Boxed key/value reports in a text log: a box of ``| key | value |`` rows per report, with section rows
(Stable-Baselines3's logger). Read apart from the line templates: a box is one record spread over lines."""

from __future__ import annotations

import re

from assay.operators.logs._collect import Collector
from assay.operators.logs._fields import pick_loss, series_name
from assay.operators.logs._names import is_step_key
from assay.operators.logs._numbers import parse_quantity

#: A row of a boxed table of one key and one value (Stable-Baselines3's ``|    loss    | 0.0227 |``), or a
#: section row with no value (``| train/   |        |``).
BOX_ROW = re.compile(r"^\s*\|\s+(?P<key>[A-Za-z_][\w/.\-]*)\s+\|\s*(?P<value>[^|\s]*)\s*\|\s*$")


def _whole(value: str) -> int | None:
    """A step printed whole (``400``) or in ``%g`` notation (``5e+04``, as a logger that formats every value
    alike prints it); a fraction is no step."""
    if value.isdigit():
        return int(value)
    try:
        number = float(value)
    except ValueError:
        return None
    return int(number) if number.is_integer() and number >= 0 else None


class BoxTables:
    """Tables printed as a box of ``| key | value |`` rows, one box per report: the box's step is its step-key
    row (``total_timesteps``, ``step``); section rows (``train/``, ``eval/``) qualify the keys under them. A box
    ends where a key it already holds comes again, or at the end of the file."""

    def __init__(self, out: Collector) -> None:
        self.out = out
        self.section: str = ""
        self.rows: list[tuple[str, str, int, int | None]] = []  # (section/key, value, line, rank)

    def see(self, text: str, line_no: int, rank: int | None) -> bool:
        m = BOX_ROW.match(text)
        if not m:
            return False
        key, value = m.group("key"), m.group("value")
        if not value:
            self.section = key if key.endswith("/") else f"{key}/"
            return True
        full = self.section + key
        if any(k == full for k, _, _, _ in self.rows):
            self.flush()
        self.rows.append((full, value, line_no, rank))
        return True

    def flush(self) -> None:
        rows, self.rows, self.section = self.rows, [], ""
        step = next((w for k, v, _, _ in rows if is_step_key(k.rsplit("/", 1)[-1]) and (w := _whole(v)) is not None), None)
        if step is None:
            return  # a box that names no step is a settings table, not a report
        keys = {i: k.rsplit("/", 1)[-1] for i, (k, _, _, _) in enumerate(rows) if not is_step_key(k.rsplit("/", 1)[-1])}
        metrics = {i: name for i, k in keys.items() if (name := series_name(k))}
        pick_loss(metrics, keys)
        for i, name in metrics.items():
            key, value, line_no, rank = rows[i]
            parsed = parse_quantity(value)
            if parsed is None:
                continue
            if key.startswith(("eval/", "val/", "valid/", "validation/", "test/")) and not name.startswith("val_"):
                name = f"val_{name}"
            self.out.metric(name, step, parsed[0], line_no, rank)
