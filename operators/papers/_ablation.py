"""An ablation's comparison: the paper's own system measured against itself with or without one component.

"Makespan falls by a further 8% when using space sharing" compares the system with space sharing against the
same system without it; "without interference avoidance, the average JCT is 1.4x longer" states the result
of the system without the component, against the system with it. Neither clause names another system, so
the paper's default baseline (``_default_baseline``) would be wrong for them, and no baseline at all loses
what the sentence says. A module of its own because it reads the component from the clause and builds both
names from the claim's subject; it runs after the clause-level rules and before the default.

The shapes, each an own-worded example tested through ``segment_text`` -> ``extract_knowledge``:

* a component used, after the number: "... by 12% when using prefetching", "... by 1.3x by using the cache",
  "... 9% lower with pinning enabled" -> subject "<subject> with <component>", versus "<subject> without
  <component>";
* a component left out, opening the clause before the number: "Without the cache, the step time is 1.3x
  longer" -> subject "<subject> without <component>", versus "<subject> with <component>";
* a component right after the change: "throughput rose by 14% with fusion (80 to 91 ...)" -> subject
  "<subject> with fusion", versus "<subject> without fusion"; a setting ("with a larger batch", "with
  similar accuracy", "with 8 GPUs") is no component;
* a component the paragraph measures "with and without" ("Figure 7 shows the throughput with and without
  the bucketing ... We see an improvement of up to 9%"): its comparisons are the system with it against the
  system without it, up to the paragraph's start or a numbered heading line (a PDF's paragraphs); a table's
  caption or header saying so ("Step time of FooSys with and without overlap", "w/ and w/o X") does the same for
  its cells (``_tables``, ``measured_both_ways``);
* the run with a component against the run without it ("throughput with bucketing is 1.6x higher than the
  best throughput achieved without bucketing", whose baseline the clause names): the subject is the system
  with it.

The system's result with the component is named "<subject> with <component>" as the gold sets write such
results ("Gavel w/ space sharing", "AxoNN memory optimization" against "AxoNN without memory optimization").
"""

from __future__ import annotations

import re

from assay.operators.papers._claims import Claim

_COMPONENT = r"(?P<x>[A-Za-z][\w-]*(?:\s+[\w-]+){0,4}?)"
#: The component used, in the number's sentence after it.
_USED_AFTER = re.compile(
    rf"\b(?:(?:when|by|while)\s+using|with)\s+(?:the\s+|our\s+|its\s+)?{_COMPONENT}\s+enabled\b"
    rf"|\b(?:when|by)\s+using\s+(?:the\s+|our\s+|its\s+)?{_COMPONENT.replace('x>', 'y>')}(?=\s*(?:[.;,]|$))",
    re.I | re.M,
)
#: The component left out, opening the number's clause ("However, without X, ...").
_LEFT_OUT_BEFORE = re.compile(
    rf"(?:^|[.;:]\s+|,\s+|\b(?:however|but|in\s+contrast|conversely),?\s+)without\s+(?:the\s+|our\s+|its\s+)?"
    rf"{_COMPONENT},\s+[^,;.]*$",
    re.I,
)
#: The component right after the changed number: "rose by 14% with fusion (...)", "9% higher with pinning."
_WITH_RIGHT_AFTER = re.compile(
    r"\s*with\s+(?:the\s+|our\s+|its\s+)?(?P<x>[A-Za-z][\w/-]*(?:\s+[A-Za-z][\w/-]*){0,3}?)(?=\s*(?:[(.;,]|$))",
    re.I,
)
#: First words of a setting or an outcome after "with", not of a component.
_NOT_COMPONENT = re.compile(
    r"(?:a|an|no|only|similar|comparable|same|negligible|little|minimal|almost|nearly|about|up|more|less|"
    r"fewer|higher|lower|larger|smaller|each|every|all|both|respect|regard|it|them|this|that|these|those|"
    r"its|their|high|low|small|large|different|various|increasing|decreasing|growing|one|two|three|four|"
    r"five|ten|few|several|many|just|some|any|zero|single|minor|modest|full)\b",
    re.I,
)
#: What a run is measured on, not a component: "by 1.1x with distributed jobs", "with long sequences".
_WORKLOAD = re.compile(
    r"(?:jobs|workloads|models|traces|requests|tasks|inputs|batch(?:es)?|sequences|users|clients|nodes|"
    r"GPUs|servers|machines|devices|workers|datasets|queries|prompts)$",
    re.I,
)
#: A paragraph (or a table's caption) measuring a component both ways: "shows the throughput with and without
#: (unoptimized) X for", "w/ and w/o X", "with or without X".
_WITH_AND_WITHOUT = re.compile(
    r"(?:\bwith\s+(?:and|or)\s+without|\bw/\s*(?:and|or)\s*w/o)\s+(?:\([^()\n]{1,30}\)\s+)?(?:the\s+|our\s+|its\s+)?"
    r"(?P<x>[A-Za-z][\w/-]*(?:\s+[A-Za-z][\w/-]*){0,4}?)"
    r"(?=\s+(?:for|on|in|at|across|using|under|when|as|to|over|from)\b|\s*[,.;:()]|\s*$)",
    re.I,
)
#: Where a paragraph starts: a blank line, or a numbered heading line of its own ("5.7 Scatter Optimization").
_PARAGRAPH_START = re.compile(r"\n\s*\n|\n\d+(?:\.\d+)*\.?\s+[A-Z][^\n.]{0,60}\n")
_OWN_SUBJECT = ("proposed", "primary")


def ablations(text: str, claims: list[Claim], is_comparison) -> None:
    """Give an own-system comparison without a baseline the system without (or with) the component its
    clause names, when it names one."""
    for claim in claims:
        if claim.versus is not None or claim.subject_source not in _OWN_SUBJECT or not claim.subject:
            continue
        if not claim.sentence or not is_comparison(text, claim):
            continue
        lo, hi = claim.sentence
        before = _LEFT_OUT_BEFORE.search(text[lo : claim.start].replace("\n", " "))
        if before:
            component = _clean(before.group("x"))
            claim.versus = f"{claim.subject} with {component}"
            claim.subject = f"{claim.subject} without {component}"
            claim.versus_source = "ablation"
            continue
        tail = text[claim.end : hi].replace("\n", " ")
        after = _USED_AFTER.search(tail)
        right_after = _WITH_RIGHT_AFTER.match(tail)
        if after:
            component = _clean(after.group("x") or after.group("y"))
        elif (
            right_after
            and not _NOT_COMPONENT.match(right_after.group("x"))
            and not _WORKLOAD.search(right_after.group("x"))
        ):
            component = _clean(right_after.group("x"))
        else:
            component = _measured_both_ways(text, claim.start)
        if component:
            _with_and_without(claim, component)


def named_system_without(claims: list[Claim]) -> None:
    """A result measured against a named system run without a component ("... with FooChat Hybrid Engine compared
    to FooChat without Hybrid Engine"): the result is that system with the component, unless the claim's
    subject is another system."""
    for claim in claims:
        m = re.match(r"(?P<s>\S.*?)\s+without\s+(?:the\s+|its\s+)?(?P<x>\S.*)$", claim.versus or "")
        if not m or not m.group("s")[:1].isupper():
            continue
        system, component = m.group("s"), _clean(m.group("x"))
        if claim.subject is None or claim.subject.lower() in (system.lower(), f"{system} {component}".lower()):
            claim.subject = f"{system} with {component}"


def runs_with_component(text: str, claims: list[Claim]) -> None:
    """A run with a component measured against the run without it ("throughput with X is 1.6x higher than
    the best throughput achieved without X"): the subject is the system with X (its baseline, the run
    without X, is the clause's phrase)."""
    for claim in claims:
        if claim.subject_source not in _OWN_SUBJECT or not claim.subject or not claim.sentence:
            continue
        without = re.match(r"without\s+(?:the\s+|our\s+|its\s+)?(?P<x>\S.*)$", claim.versus or "", re.I)
        if not without:
            continue
        component = _clean(without.group("x"))
        before = text[claim.sentence[0] : claim.start].replace("\n", " ")
        if re.search(rf"\bwith\s+(?:the\s+|our\s+|its\s+)?{re.escape(component)}\b", before, re.I):
            claim.subject = f"{claim.subject} with {component}"


def _measured_both_ways(text: str, at: int) -> str | None:
    """The component the claim's paragraph, before it, measures "with and without"."""
    lo = max(0, at - 600)
    for start in _PARAGRAPH_START.finditer(text, lo, at):
        lo = start.end()
    found = list(_WITH_AND_WITHOUT.finditer(text[lo:at].replace("\n", " ")))
    return _clean(found[-1].group("x")) if found else None


def measured_both_ways(words: str) -> str | None:
    """The component a table's caption or header measures "with and without" ("Step time of FooSys with and
    without overlap"), or None."""
    found = _WITH_AND_WITHOUT.search(words.replace("\n", " "))
    return _clean(found.group("x")) if found else None


def _with_and_without(claim: Claim, component: str) -> None:
    claim.versus, claim.versus_source = f"{claim.subject} without {component}", "ablation"
    claim.subject = f"{claim.subject} with {component}"


def _clean(component: str) -> str:
    return re.sub(r"\s+", " ", component).strip()
