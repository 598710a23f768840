"""Whether reading the first part of a log gives the first part of its reading, as a live job's log is read.

``python tests/reallogs_prefixes.py [REALLOGS_DIR ...] [--cuts 0.5,0.75]`` reads every text log of each set
(default: ``<repo>/../shared/reallogs``) whole, then cut at a line boundary after each share of its lines (a
job still running, or one that died there), and compares the metric rows of the cut file with the whole file's
rows on the same lines: rows only the cut reading has (``extra``), rows on its lines only the whole reading has
(``missing``; the last two lines, which a record may continue past, are left out) and kinds of event only the
cut reading has. No gold is needed. A record whose step is printed after its values (a YAML block, a table with
its counter at the bottom) misses its step when cut inside it; a kind of event only the cut reading has was
invented (a restart read from a configuration's numbers).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reallogs_score as rs  # noqa: E402  -- a sibling script, run from anywhere

_NOT_TEXT = (".json", ".jsonl", ".csv", ".tsv")
#: Shortest log cut (in lines): a cut of a few lines says little.
_MIN_LINES = 8


def _rows(log) -> set[tuple]:
    table = log.metrics
    return set(zip(*(table.column(c).to_pylist() for c in ("line_no", "step", "name")), strict=True))


def _kinds(log) -> set[str]:
    return {e["kind"] for e in log.events}


def cut_differences(root: Path, cuts: list[float]) -> tuple[int, list[str]]:
    """The number of cut readings compared, and a line per one that is not a prefix of the whole reading."""
    from assay.operators.logs import parse_log

    compared, lines_out = 0, []
    for line in (root / "gold.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        path = root / "logs" / json.loads(line)["file"]
        if path.suffix in _NOT_TEXT or ".tfevents" in path.name:
            continue
        lines = path.read_text("utf-8", errors="replace").split("\n")
        if len(lines) < _MIN_LINES:
            continue
        whole = parse_log(str(path))
        rows, kinds = _rows(whole), _kinds(whole)
        for share in cuts:
            k = int(len(lines) * share)
            with tempfile.TemporaryDirectory() as folder:
                cut = Path(folder) / path.name
                cut.write_text("\n".join(lines[:k]) + "\n", "utf-8")
                part = parse_log(str(cut))
            compared += 1
            mine = {r for r in rows if r[0] <= k}
            extra = _rows(part) - mine
            missing = {r for r in mine if r[0] < k - 2} - _rows(part)
            invented = _kinds(part) - kinds
            if extra or missing or invented:
                lines_out.append(
                    f"{root.name}/{path.name} cut at {share:.0%}: {len(extra)} extra {sorted(extra, key=str)[:2]}, "
                    f"{len(missing)} missing {sorted(missing, key=str)[:2]}, invented events {sorted(invented)}"
                )
    return compared, lines_out


def main(argv: list[str]) -> int:
    cuts = [0.5, 0.75]
    if "--cuts" in argv:
        i = argv.index("--cuts")
        try:
            cuts = [float(c) for c in argv[i + 1].split(",")]
        except (IndexError, ValueError):
            print("--cuts takes shares of a log's lines: --cuts 0.5,0.75")
            return 2
        argv = argv[:i] + argv[i + 2 :]
    total, differing = 0, 0
    for root in [Path(a) for a in argv] or [rs.DEFAULT_SET]:
        compared, found = cut_differences(root, cuts)
        total, differing = total + compared, differing + len(found)
        for line in found:
            print(line)
    print(f"{total - differing} of {total} cut readings are the first part of the whole reading")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
