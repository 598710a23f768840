"""The paper's default baseline: what a comparison of the paper's own system that names no baseline is
measured against.

A paper measures most of its results against one or two systems and names them in some statements only:
"FooSched cuts JCT by 2.1x over BarSched" in the abstract, then "it also cuts the tail JCT by 1.6x" in
the evaluation. A reader takes the second against BarSched too. So after every clause-level rule has run
(``_baselines``), a claim that

* is a result of the paper's own system (its subject came from the proposal or the paper's main name),
* is a comparison (a speedup, a multiple, a reduction or an improvement: not a level such as "91%
  scaling efficiency" or a share of peak), and
* found no baseline in its clause,

takes the baseline the paper names most often for its own system's results, in the claim's block (a
sub-section: a numbered heading, or a sub-heading a LaTeX or Markdown reader leaves on a line of its own)
when one dominates there, else in its section, as its ``versus``; the one named most often in the whole paper,
or a baseline the paper declares by description, is its ``implied_versus`` instead (the statement does not
name it: what a check compares with, not what the sentence says). A section's or the paper's default
that is named in one other sub-section of the claim's section only is that sub-section's baseline (its
setup, "we compare the native scheduler against ours", in an evaluation that compares each workload with
its own baseline), not the section's. "Most often" asks for two statements at least and a clear
first (a tie says the paper has no single default), so a text that names a baseline once (an abstract)
gives none to its other sentences. A module of its own because it reads the document as a whole, after
the clause-level rules, and shares nothing with them but the claim's fields.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter

from assay.operators.papers._claims import Claim
from assay.operators.papers._sections import Structure

#: Where a baseline counts as named by the paper: the clause's own phrase, a respectively list, a list
#: sharing its phrase, a "we compare A against B" setup.
_NAMED_SOURCES = ("phrase", "respectively", "list", "setup")
_OWN_SUBJECT = ("proposed", "primary")
#: The units of a comparison's amount: a rate or a size stated against another ("900GBps vs. 150GBps for the
#: link") sets two specifications side by side; its phrase is no baseline of the paper's results.
_COMPARISON_UNITS = frozenset({"x", "%", "percentage points", "orders of magnitude"})
#: Baselines that are not systems: the hardware's peak, an ideal, a bare "baseline" (which one is unsaid; a
#: capitalised "Baseline" is what a paper named its baseline system, "compared to Baseline").
#: A baseline that is a procedure ("simply selecting the largest batch", "running without X", as written after
#: "w.r.t."): it is what one statement compares with, not a system the paper's other results are measured against.
_PROCEDURE = re.compile(r"^(?:[a-z]+ly\s+)?[a-z]+ing\b")
_NOT_A_SYSTEM = re.compile(
    r"^(?:the\s+)?(?:(?:theoretical|hardware|maximum)\s+)?(?:[a-z]+-)?(?:peak|ideal|optim(?:al|um)|potential|"
    r"(?:linear|perfect)\s+(?:scaling|speed-?ups?)|(?-i:baselines?)|it|them|this|that)\b",
    re.I,
)
#: A self-comparison: the clause moves along a scale ("going from 64 to 400 GPUs, throughput per GPU rises
#: by 2.3x") or compares the system with and without a feature ("the search is 3x faster with pruning").
_SCALE_BEFORE = re.compile(
    r"\bfrom\s+\S+\s+(?:\S+\s+)?to\s+\S+|\bas\s+(?:the\s+)?[\w-]+\s+(?:grows|increases|rises)", re.I
)
_FEATURE_AFTER = re.compile(
    r"\s*(?:\w+\s+){0,2}?(?:faster|slower|higher|lower|better|worse|smaller|larger|shorter|longer)"
    r"\s+(?:with|when\s+using|by\s+using|thanks\s+to)\b",
    re.I,
)
#: ... or after the number ("the batch grows by 1.84x as the number of stages doubles").
_SCALE_AFTER = re.compile(
    r"[^.;]{0,60}?\bas\s+(?:the\s+)?(?:number\s+of\s+)?[\w-]+(?:\s+[\w-]+){0,3}?\s+"
    r"(?:grows|increases|rises|doubles|scales|shrinks)\b"
    # "throughput increases by up to 1.3x with a larger microbatch size": a setting turned up or down.
    r"|\s*(?:[\w-]+\s+){0,3}?(?:with|using|at)\s+(?:a\s+|an\s+)?(?:larger|smaller|bigger|higher|lower|longer|"
    r"shorter|more|fewer)\s+[\w-]+",
    re.I,
)
#: A number with a citation right after it ("can be longer than X by up to 4x [54, 83]") states other works'
#: finding: what it is measured against says nothing of the paper's own default.
_CITED_AFTER = re.compile(r"\s*(?:[\w-]+\s+){0,2}?\[\d+(?:\s*[,–-]\s*\d+)*\]")
#: Sections whose results are left as written: an abstract names its own baselines, and a text made of an
#: abstract alone has too few statements to tell a default from a one-off comparison.
_OWN_STATEMENTS = ("abstract",)
#: Sections that sum up the paper's results, wherever its setup declares its baseline.
_SUMMARIES = ("abstract", "introduction", "conclusion")
#: The number is the amount of a change ("falls by 44%", "by up to 30%") ...
_CHANGE_BEFORE = re.compile(
    r"\bby\s+(?:(?:up\s+to|about|around|nearly|almost|over|roughly|a\s+factor\s+of|a\s+further|an\s+additional"
    r"|another)\s+)?$",
    re.I,
)
#: ... or of a comparative right after it ("15% less energy", "2x sooner", "30% fewer GPUs").
_COMPARATIVE_AFTER = re.compile(
    r"\s*(?:less|more|fewer|lower|higher|faster|slower|sooner|later|smaller|larger|shorter|longer|better|"
    r"cheaper)\b",
    re.I,
)
#: A sub-heading: a short line of its own after a blank line, a capital first, no sentence inside it, at
#: most a closing full stop (a paragraph's run-in title), no table cell.
_SUBHEADING = re.compile(r"(?:\A|\n[ \t]*\n)[ \t]*([A-Z][^\n.!?|&:;]{1,80}?\.?)[ \t]*\n")
_HEAD_WORDS = 9
#: Results a baseline must be named with, at least, to be a default.
MIN_STATEMENTS = 2


def _key(name: str) -> str:
    return re.sub(r"[\s_\-’'`]+", " ", name).strip().lower()


def is_comparison(text: str, claim: Claim) -> bool:
    """A claim whose number says how much better or worse than something else, not a level: its metric has
    a direction, or the number is the amount of a change ("drops by 44%") or of a comparative ("15% less
    energy", "2x sooner")."""
    metric = claim.metric or ""
    if metric == "speedup" or metric.endswith(("reduction", "improvement")):
        return True
    lo = claim.sentence[0] if claim.sentence else max(0, claim.start - 40)
    hi = claim.sentence[1] if claim.sentence else claim.end + 40
    return bool(
        _CHANGE_BEFORE.search(text, max(lo, claim.start - 40), claim.start)
        or _COMPARATIVE_AFTER.match(text, claim.end, hi)
    )


def _default(counts: Counter[str]) -> str | None:
    ranked = counts.most_common(2)
    if not ranked or ranked[0][1] < MIN_STATEMENTS:
        return None
    if len(ranked) == 2 and ranked[1][1] == ranked[0][1]:
        return None
    return ranked[0][0]


def default_baselines(claims: list[Claim], structure: Structure) -> None:
    """Give each own-system comparison without a baseline its block's, else its section's default as its
    ``versus``, else the paper's (or the declared one) as its ``implied_versus``; a section's or the paper's
    default named only inside one other block is that block's."""
    named: dict[str, str] = {}  # key -> the name as first written
    by_section: dict[int, Counter[str]] = {}
    by_block: dict[int, Counter[str]] = {}
    blocks_of: dict[str, set[int]] = {}  # key -> the blocks that name it
    paper: Counter[str] = Counter()
    blocks = _blocks(structure)
    for claim in claims:
        if (
            claim.versus
            and claim.versus_source in _NAMED_SOURCES
            and claim.subject_source in _OWN_SUBJECT
            and claim.unit in _COMPARISON_UNITS
            and not _NOT_A_SYSTEM.match(claim.versus)
            and not _PROCEDURE.match(claim.versus)
            and not _CITED_AFTER.match(structure.text, claim.end)
        ):
            key = _key(claim.versus)
            named.setdefault(key, claim.versus)
            paper[key] += 1
            by_section.setdefault(_section(structure, claim.start), Counter())[key] += 1
            block = bisect.bisect_right(blocks, claim.start)
            by_block.setdefault(block, Counter())[key] += 1
            blocks_of.setdefault(key, set()).add(block)
    found = declared(structure.text)
    # The declared baseline holds for the results of the section that declares it and after (the setup's
    # evaluation), and for those of the sections that sum them up (abstract, introduction, conclusion); not
    # for the motivation's or the design's measurements before it.
    described, at = found if found else (None, 0)
    since = structure.starts[_section(structure, at) - 1] if _section(structure, at) else 0
    summaries = (*_SUMMARIES, structure.section(at))  # and the declaring part's earlier sub-sections
    if not paper and not described:
        return
    overall = _default(paper)
    for claim in claims:
        if (
            claim.versus is not None
            or claim.subject_source not in _OWN_SUBJECT
            or not is_comparison(structure.text, claim)
            or _self_comparison(structure.text, claim)
        ):
            continue
        if claim.section in _OWN_STATEMENTS or not paper:
            if described and (claim.section in summaries or claim.start >= since):
                claim.implied_versus = described
            continue
        block = bisect.bisect_right(blocks, claim.start)
        key = _default(by_block.get(block, Counter()))
        if key is None:
            key = _default(by_section.get(_section(structure, claim.start), Counter()))
            if key and _sibling_only(blocks_of[key], block, blocks, structure, claim.start):
                key = None  # named only in one other sub-section: that sub-section's baseline
        if key:
            claim.versus, claim.versus_source = named[key], "default"
            continue
        paper_wide = overall if overall and not _sibling_only(blocks_of[overall], block, blocks, structure, claim.start) else None
        if paper_wide:
            claim.implied_versus = named[paper_wide]
        elif described and (claim.section in summaries or claim.start >= since):
            claim.implied_versus = described


#: A paper's setup declaring its baseline by a description: "The baseline is a monolithic deployment where
#: ...", "Our baseline was plain data parallelism", and "the full training baseline", "the vanilla baseline":
#: a baseline named by what it is, which a result stating none is measured against.
_DECLARED = (
    re.compile(
        r"\b(?:[Tt]he|[Oo]ur)\s+baseline\s+(?:is|was)\s+(?:an?\s+|the\s+)?"
        r"(?P<b>[\w-]+(?:[ \t]+[\w-]+){0,3}?)"
        r"(?=[ \t]+(?:where|which|that|in|with|on|for|using|as|from|and|running|backed)\b|\s*[,.;:(\n]|$)"
    ),
    re.compile(
        r"\bthe\s+(?P<b>(?:full|vanilla|default|standard|original|unmodified|plain|native)"
        r"(?:[ \t]+[a-z][\w-]*){0,2}?[ \t]+baseline)\b",
        re.I,
    ),
)


def declared(text: str) -> tuple[str, int] | None:
    """The baseline the paper declares by description, the one it declares most often (a shorter form, "the
    full baseline", counting for the longer, "the full training baseline"), with where it is first declared;
    none on a tie."""
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    for pattern in _DECLARED:
        for m in pattern.finditer(text):
            name = " ".join(m.group("b").split())
            counts[name] += 1
            first[name] = min(first.get(name, m.start()), m.start())
    for short in list(counts):
        words = set(short.lower().split())
        longer = [n for n in counts if n != short and words < set(n.lower().split())]
        if len(longer) == 1:
            counts[longer[0]] += counts.pop(short)
            first[longer[0]] = min(first[longer[0]], first[short])
    ranked = counts.most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[1][1] == ranked[0][1]):
        return None
    return ranked[0][0], first[ranked[0][0]]


def _sibling_only(named_in: set[int], block: int, blocks: list[int], structure: Structure, pos: int) -> bool:
    """Whether a baseline is named in one block only, another sub-section of the claim's own section: that
    sub-section's setup ("We compare the native scheduler against ours"), not the section's default."""
    if len(named_in) != 1 or block in named_in:
        return False
    (other,) = named_in
    return other > 0 and _section(structure, blocks[other - 1]) == _section(structure, pos)


def _blocks(structure: Structure) -> list[int]:
    """Where each block starts: the sections, and the sub-headings a reader leaves as a line of their own
    between paragraphs ("Case Studies", "Expert Offloading (FooModel)."), which PDFs number."""
    heads = {
        m.start(1) for m in _SUBHEADING.finditer(structure.text) if len(m.group(1).split()) <= _HEAD_WORDS
    }
    return sorted(heads.union(structure.starts))


def _self_comparison(text: str, claim: Claim) -> bool:
    lo = claim.sentence[0] if claim.sentence else max(0, claim.start - 200)
    hi = claim.sentence[1] if claim.sentence else claim.end + 80
    return bool(
        _SCALE_BEFORE.search(text, lo, claim.start)
        or _FEATURE_AFTER.match(text, claim.end, hi)
        or _SCALE_AFTER.match(text, claim.end, hi)
    )


def _section(structure: Structure, pos: int) -> int:
    return bisect.bisect_right(structure.starts, pos)
