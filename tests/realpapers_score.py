"""Score the claims the papers operators read from the real-papers measuring set against what a person read.

``python tests/realpapers_score.py [SET_DIR] [--quiet]`` reads every paper of ``SET_DIR/docs`` (default:
``<repo>/../shared/realpapers``) named by ``SET_DIR/gold.jsonl`` (``doc`` = the file's stem) as ``assay run
papers`` does, in this process (``read_paper``, ``segment_text``, ``extract_knowledge`` with the pipeline's
default model), and scores the ratio claims with ``assay.evaluation``, the one definition of a right claim
(``assay eval`` uses it too): values within 0.5 %, one to one; a prediction matching a ``context`` gold
claim is neutral; subject and baseline judged on the matched claims, aliases counting; ``exact`` is "both" with names
compared exactly (``exact_name``: case, spaces and punctuation dropped, no containment).

It prints, per document, precision, recall, subject / baseline / both right, and the totals of the development
and test parts apart (``tests/shared_split.py``) and overall. The mismatches (misses, false positives,
misattributions) are listed for development documents only: the test part is measured, never looked into.
``--quiet`` leaves the mismatches out.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

from assay.evaluation import Score, corpus_documents, extract_claims, score

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SET = REPO.parent / "shared" / "realpapers"
#: The papers pipeline's default spaCy model (``pipelines/papers.py``): what a user gets.
MODEL = "blank"


@dataclass
class SetScore:
    """The headline (ratio claims) score of a set, with each document's name and part."""

    total: Score
    names: dict[int, str]
    parts: dict[int, str]
    notes: list[str]

    def part(self, name: str) -> Score:
        """The summed score of the documents of one part (``dev`` or ``test``)."""
        out = Score()
        for key, doc in self.total.documents.items():
            if self.parts[key] == name:
                out.add(doc)
        return out


def _split():
    spec = importlib.util.spec_from_file_location("shared_split", Path(__file__).with_name("shared_split.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def score_set(root: Path = DEFAULT_SET, model: str = MODEL) -> SetScore:
    """Every gold document of the set read, extracted in this process and scored (ratio claims)."""
    docs_dir = root / "docs" if (root / "docs").is_dir() else root
    gold, docs, notes, names = corpus_documents(root / "gold.jsonl", docs_dir)
    predicted = extract_claims(docs, model)
    split = _split()
    return SetScore(score(gold, predicted), names, {k: split.part(n) for k, n in names.items()}, notes)


def figures(s: Score) -> str:
    return (
        f"P {s.precision:.3f}  R {s.recall:.3f}  ({s.tp}/{s.n_gold} gold, {s.n_pred} predicted"
        f"{f', {s.neutral} neutral' if s.neutral else ''})  of the matched: subject {s.subject_share:.3f}  "
        f"baseline {s.versus_share:.3f}  both {s.attribution:.3f}  exact {s.attribution_exact:.3f}"
    )


def _mismatches(doc: Score) -> list[str]:
    lines = [f"miss  {m.describe()}" for m in doc.misses]
    lines += [f"false {f.describe()}" for f in doc.false_positives]
    lines += [f"attr  {m}" for m in doc.misattributed]
    return lines


#: The options ``main`` reads; any other is refused, so a mistyped one is not silently ignored.
OPTIONS = ("--quiet",)


def main(argv: list[str]) -> int:
    unknown = [a for a in argv if a.startswith("--") and a not in OPTIONS]
    if unknown:
        print(f"unknown option {unknown[0]}: the options are {', '.join(OPTIONS)} (dev mismatches are always listed)")
        return 2
    quiet = "--quiet" in argv
    args = [a for a in argv if not a.startswith("--")]
    root = Path(args[0]) if args else DEFAULT_SET
    if not (root / "gold.jsonl").exists():
        print(f"no gold.jsonl under {root}; nothing to score")
        return 2
    result = score_set(root)
    split = _split()
    width = max(len(n) for n in result.names.values())
    for key, doc in sorted(
        result.total.documents.items(), key=lambda kv: (result.parts[kv[0]], result.names[kv[0]])
    ):
        print(f"{result.parts[key]:<4} {result.names[key]:<{width}}  {figures(doc)}")
        if not quiet and result.parts[key] == split.DEV:
            for line in _mismatches(doc):
                print(f"        {line}")
    for note in result.notes:
        print(f"note: {note}")
    for name in (split.DEV, split.TEST):
        n = sum(1 for p in result.parts.values() if p == name)
        print(f"  {name:<4} ({n:>2} docs): {figures(result.part(name))}")
    print(f"  all  ({len(result.names):>2} docs): {figures(result.total)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
