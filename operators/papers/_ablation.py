"""An ablation's comparison: the paper's own system measured against itself with or without one component.

"Makespan falls by a further 8% when using space sharing" compares the system with space sharing against the
same system without it; "without interference avoidance, the average JCT is 1.4x longer" states the result
of the system without the component, against the system with it. Neither clause names another system, so
the paper's default baseline (``_default_baseline``) would be wrong for them, and no baseline at all loses
what the sentence says. A module of its own because it reads the component from the clause and builds both
names from the claim's subject; it runs after the clause-level rules and before the default.

The shapes, each an own-worded example tested through ``segment_text`` -> ``extract_knowledge``:

* a component used, after the number: "... by 12% when using prefetching", "... by 1.3x by using the cache",
  "... 9% lower with pinning enabled" -> versus "<subject> without <component>";
* a component left out, opening the clause before the number: "Without the cache, the step time is 1.3x
  longer" -> subject "<subject> without <component>", versus "<subject> with <component>".
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
        after = _USED_AFTER.search(text[claim.end : hi].replace("\n", " "))
        if after:
            component = _clean(after.group("x") or after.group("y"))
            claim.versus, claim.versus_source = f"{claim.subject} without {component}", "ablation"


def _clean(component: str) -> str:
    return re.sub(r"\s+", " ", component).strip()
