"""How much of what the papers reader gets right survives rewrites of a source that change none of its meaning.

``python tests/realpapers_rewritten.py [SET_DIR ...] [--rewrites NAME,NAME]`` copies every Markdown, LaTeX and
text paper of each set (default: ``<repo>/../shared/realpapers``) with its gold line, rewrites the copy (wrapped
at 72 columns as an editor wraps a source, ``×`` written ``x``, Unicode dashes and quotes written in ASCII,
Markdown emphasis and links dropped), scores both with ``realpapers_score`` and prints, per rewrite, the claims
matched and both-right as read and rewritten, with each document that changed. The gold is the same for both
(claims match by value), so a change is the reader's alone. PDFs are left out: their text is the layout's.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import realpapers_score as rps  # noqa: E402  -- a sibling script, run from anywhere
from named_option import names_and_sets  # noqa: E402

_TEXT_FORMATS = (".md", ".tex", ".txt")
_HAN = re.compile(r"[\u3400-\u9fff]")


def _wrap(text: str) -> str:
    """Each long prose line wrapped at 72 columns; tables, headings, commands and Chinese lines as they are."""
    out: list[str] = []
    for line in text.split("\n"):
        prose = len(line) > 80 and "|" not in line and "&" not in line and not _HAN.search(line)
        if prose and not line.lstrip().startswith(("#", "\\begin", "\\end")):
            out += textwrap.wrap(line, 72, break_long_words=False, break_on_hyphens=False) or [line]
        else:
            out.append(line)
    return "\n".join(out)


REWRITES: dict[str, Callable[[str], str]] = {
    "wrap72": _wrap,
    "ascii times": lambda text: text.replace("×", "x"),
    "ascii dashes": lambda text: text.replace("–", "-").replace("—", " - "),
    "ascii quotes": lambda text: text.replace("’", "'").replace("“", '"').replace("”", '"'),
    "plain markdown": lambda text: re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", text.replace("**", "")),
}


def _copies(root: Path, folder: Path) -> list[Path]:
    """Each text paper of ``root`` as a set of its own under ``folder`` (its file and its gold line)."""
    sets = []
    for line in (root / "gold.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        gold = json.loads(line)
        found = [p for p in (root / "docs").iterdir() if p.stem == gold["doc"] and p.suffix in _TEXT_FORMATS]
        if not found:
            continue
        one = folder / gold["doc"]
        (one / "docs").mkdir(parents=True)
        shutil.copy(found[0], one / "docs" / found[0].name)
        (one / "gold.jsonl").write_text(line + "\n")
        sets.append(one)
    return sets


def _figures(one: Path) -> tuple[int, int]:
    """Claims matched and both right, of one paper's set."""
    total = rps.score_set(one).total
    return total.tp, total.attributed


def main(argv: list[str]) -> int:
    rewrites, roots = names_and_sets(argv, "--rewrites", REWRITES, rps.DEFAULT_SET)
    totals = {name: [0, 0, 0, 0] for name in rewrites}  # matched, both right: as read, rewritten
    with tempfile.TemporaryDirectory() as work:
        for root in roots:
            for one in _copies(root, Path(work) / root.name):
                plain = _figures(one)
                source = next((one / "docs").iterdir())
                original = source.read_text("utf-8")
                for name in rewrites:
                    source.write_text(REWRITES[name](original), "utf-8")
                    got = _figures(one)
                    totals[name] = [a + b for a, b in zip(totals[name], (*plain, *got), strict=True)]
                    if got != plain:
                        print(f"{name:15s} {root.name}/{one.name}: matched, both right {plain} -> {got}")
                source.write_text(original, "utf-8")
    for name, (matched, both, matched_after, both_after) in totals.items():
        print(f"{name:15s} matched {matched} -> {matched_after}, both right {both} -> {both_after}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
