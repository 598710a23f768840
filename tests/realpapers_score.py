"""Score the claims the papers operators read from the real-papers measuring set against what a person read.

``python tests/realpapers_score.py [SET_DIR] [--quiet] [--all-mismatches]`` reads every paper of ``SET_DIR/docs`` (default:
``<repo>/../shared/realpapers``) named by ``SET_DIR/gold.jsonl`` (``doc`` = the file's stem) as ``assay run
papers`` does, in this process (``read_paper``, ``segment_text``, ``extract_knowledge`` with the pipeline's
default model), and scores the ratio claims with ``assay.evaluation``, the one definition of a right claim
(``assay eval`` uses it too): values within 0.5 %, one to one; a prediction matching a ``context`` gold
claim is neutral; subject and baseline judged on the matched claims, aliases counting; ``exact`` is "both" with names
compared exactly (``exact_name``: case, spaces and punctuation dropped, no containment).

It prints, per document, precision, recall, subject / baseline / both right, and the totals of the development
and test parts apart (``tests/shared_split.py``) and overall. The mismatches (misses, false positives,
misattributions) are listed for development documents only: the test part is measured, never looked into.
``--quiet`` leaves the mismatches out; ``--all-mismatches`` lists them for every document (a held-out set after
its one measured reading, opened for development).

Beside the totals, each part gets a line on the matched claims whose subject or baseline is wrong: how many of
them have a gold name the document's text (as read) never prints (``attributions``; docs/gold-conventions.md,
section 4), and "both right" over all matched claims and over those whose gold subject and baseline the text
prints; a dev ``attr`` line ends ``[outside text: subject]`` (or ``baseline``) where it is so.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assay.evaluation import Score, corpus_documents, extract_claims, is_context, is_ratio, names_right, score
from assay.evaluation._matching import one_to_one

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SET = REPO.parent / "shared" / "realpapers"
#: The papers pipeline's default spaCy model (``pipelines/papers.py``): what a user gets.
MODEL = "blank"


@dataclass
class Attribution:
    """One matched ratio claim: whether its subject and baseline are right, and whether the text prints the
    gold's subject and baseline (a name or one of its aliases; a baseline the gold leaves empty counts as
    printed, since an empty one is then right)."""

    doc: int
    subject_right: bool
    versus_right: bool
    subject_printed: bool
    versus_printed: bool

    @property
    def both_right(self) -> bool:
        return self.subject_right and self.versus_right

    @property
    def printed(self) -> bool:
        return self.subject_printed and self.versus_printed

    def outside(self) -> list[str]:
        """The wrong names the text never prints: ``subject``, ``baseline``, both or none."""
        return [name for name, right, printed in (
            ("subject", self.subject_right, self.subject_printed),
            ("baseline", self.versus_right, self.versus_printed),
        ) if not right and not printed]


@dataclass
class SetScore:
    """The headline (ratio claims) score of a set, with each document's name and part."""

    total: Score
    names: dict[int, str]
    parts: dict[int, str]
    notes: list[str]
    #: each document's matched ratio claims, in the order ``score`` judged them (its ``misattributed`` order)
    attributions: dict[int, list[Attribution]] = field(default_factory=dict)

    def part(self, name: str) -> Score:
        """The summed score of the documents of one part (``dev`` or ``test``)."""
        out = Score()
        for key, doc in self.total.documents.items():
            if self.parts[key] == name:
                out.add(doc)
        return out


def _sibling(name: str):
    """A module of this folder by file (``shared_split``, ``outside_text``), however this script is loaded."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _split():
    return _sibling("shared_split")


_outside = _sibling("outside_text")


def attributions(
    gold: Mapping[int, Sequence[Mapping[str, Any]]],
    predicted: Mapping[int, Sequence[Mapping[str, Any]]],
    texts: Mapping[int, str],
) -> dict[int, list[Attribution]]:
    """Each document's matched ratio claims as ``score`` matches them (result claims, one to one), with their
    subject and baseline judged and looked up in the document's text (``outside_text.Document``): decided from
    the gold and the text, the prediction only saying which claims matched and whether their names are right."""
    out: dict[int, list[Attribution]] = {}
    for doc in sorted(set(gold) | set(predicted)):
        results = [c for c in gold.get(doc, ()) if is_ratio(c) and not is_context(c)]
        preds = [c for c in predicted.get(doc, ()) if is_ratio(c)]
        text = _outside.Document(texts.get(doc, ""))

        def printed(names: list[Any], text: Any = text) -> bool:
            return any(text.phrase_printed(str(n)) for n in names if n)

        out[doc] = []
        for g, j in one_to_one(preds, results).items():
            want = results[g]
            subject, versus = names_right(preds[j], want)
            no_subject = not str(want.get("subject") or "").strip()
            no_versus = not str(want.get("versus") or "").strip()
            out[doc].append(Attribution(
                doc, subject, versus,
                no_subject or printed([want.get("subject"), *(want.get("aliases") or [])]),
                no_versus or printed([want.get("versus"), *(want.get("versus_aliases") or [])]),
            ))
    return out


def score_set(root: Path = DEFAULT_SET, model: str = MODEL) -> SetScore:
    """Every gold document of the set read, extracted in this process and scored (ratio claims)."""
    docs_dir = root / "docs" if (root / "docs").is_dir() else root
    gold, docs, notes, names = corpus_documents(root / "gold.jsonl", docs_dir)
    predicted = extract_claims(docs, model)
    split = _split()
    result = SetScore(score(gold, predicted), names, {k: split.part(n) for k, n in names.items()}, notes)
    result.attributions = attributions(gold, predicted, {d.key: d.text for d in docs})
    recount = sum(a.both_right for claims in result.attributions.values() for a in claims)
    if recount != result.total.attributed:
        notes.append(f"outside-text counts unsure: {recount} claims both right here, {result.total.attributed} in the score")
    return result


def figures(s: Score) -> str:
    return (
        f"P {s.precision:.3f}  R {s.recall:.3f}  ({s.tp}/{s.n_gold} gold, {s.n_pred} predicted"
        f"{f', {s.neutral} neutral' if s.neutral else ''})  of the matched: subject {s.subject_share:.3f}  "
        f"baseline {s.versus_share:.3f}  both {s.attribution:.3f}  exact {s.attribution_exact:.3f}"
    )


def _mismatches(doc: Score, claims: list[Attribution] | None = None) -> list[str]:
    lines = [f"miss  {m.describe()}" for m in doc.misses]
    lines += [f"false {f.describe()}" for f in doc.false_positives]
    wrong = [a for a in claims or () if not a.both_right]
    tags = [f" [outside text: {', '.join(a.outside())}]" if a.outside() else "" for a in wrong]
    if len(tags) != len(doc.misattributed):
        tags = [""] * len(doc.misattributed)
    lines += [f"attr  {m}{tag}" for m, tag in zip(doc.misattributed, tags, strict=True)]
    return lines


def reachable_line(name: str, claims: list[Attribution]) -> str:
    """A part's matched claims with a wrong subject or baseline, those of them outside the text by name, and
    "both right" over all matched claims and over those whose gold names the text prints."""
    wrong = [a for a in claims if not a.both_right]
    outside = [a for a in wrong if a.outside()]
    subject = sum("subject" in a.outside() for a in outside)
    baseline = sum("baseline" in a.outside() for a in outside)
    right = sum(a.both_right for a in claims)
    printed = [a for a in claims if a.printed]
    right_printed = sum(a.both_right for a in printed)

    def share(n: int, d: int) -> str:
        return f"{n / d:.3f}" if d else "1.000"

    return (
        f"  {name:<4} matched {len(claims)}, subject or baseline wrong {len(wrong)}: outside the text {len(outside)} "
        f"(subject {subject}, baseline {baseline}) ; both right {right}/{len(claims)} = {share(right, len(claims))} ; "
        f"where the text prints the gold subject and baseline: {right_printed}/{len(printed)} = "
        f"{share(right_printed, len(printed))}"
    )


#: The options ``main`` reads; any other is refused, so a mistyped one is not silently ignored.
OPTIONS = ("--quiet", "--all-mismatches")


def main(argv: list[str]) -> int:
    unknown = [a for a in argv if a.startswith("--") and a not in OPTIONS]
    if unknown:
        print(f"unknown option {unknown[0]}: the options are {', '.join(OPTIONS)} (dev mismatches are listed unless --quiet)")
        return 2
    quiet = "--quiet" in argv
    every = "--all-mismatches" in argv
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
        if not quiet and (every or result.parts[key] == split.DEV):
            for line in _mismatches(doc, result.attributions.get(key)):
                print(f"        {line}")
    for note in result.notes:
        print(f"note: {note}")
    for name in (split.DEV, split.TEST):
        n = sum(1 for p in result.parts.values() if p == name)
        print(f"  {name:<4} ({n:>2} docs): {figures(result.part(name))}")
    print(f"  all  ({len(result.names):>2} docs): {figures(result.total)}")
    # beside the totals: wrong names the text never prints, and "both right" where the text prints the gold's
    for name in (split.DEV, split.TEST, "all"):
        claims = [a for key, c in result.attributions.items() for a in c if name in ("all", result.parts.get(key))]
        print(reachable_line(name, claims))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
