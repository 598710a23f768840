"""A figure that sets up a run rather than states what it achieved: the resources a run is given ("with 4x more
accelerators", "once there are 4x more micro-batches") and the length it is set to ("when the baseline is run for
20% fewer iterations"). A resource comparative is a result where the sentence credits the saving to the system ("enables us
to train X with 16x fewer GPUs") or sets it against a baseline ("with 8x fewer GPUs than ZeRO-3").

A module of its own: these rules read the words around one figure, before any claim is made of it (``_claims``)."""

from __future__ import annotations

import re

# "with 4x more accelerators", "once there are 4x more micro-batches": the resources of a setting.
_X_RESOURCE = re.compile(
    r"[ \t]+(?:more|fewer|as\s+many)[ \t]+(?:[\w-]+[ \t]+)?(?:GPUs?|TPUs?|accelerators?|devices?|nodes?|"
    r"machines?|workers?|servers?|micro-?batch(?:es)?|partitions?|cores?|chips?|data|samples|memory|"
    r"bandwidth|storage|budget|resources)\b",
    re.I,
)
_RESOURCE_LEAD = re.compile(r"(?:\bwith|\bfor|\busing|\bgiven|\bthere\s+are|\bon|\bat)[ \t]+$", re.I)
# What makes "with 16x fewer GPUs" a result rather than a run's setting: a verb before it saying the system makes it
# possible ("enables us to train X with 16x fewer GPUs", "allows ... on 8x fewer nodes"), or a baseline after it
# ("... with 8x fewer GPUs than ZeRO-3").
_ENABLING_BEFORE = re.compile(r"\b(?:enabl(?:e|es|ed|ing)|allow(?:s|ed|ing)?|lets?|permit(?:s|ted|ting)?)\b[^.;:\n]{0,60}$", re.I)
_THAN_AFTER = re.compile(r"^[^.;:\n]{0,30}?\b(?:than|compared\s+(?:to|with))\b", re.I)


def _resource_saved(text: str, start: int, rest: str) -> bool:
    """Whether a resource comparative after "with" (``with 16x fewer GPUs``) states a result: a saving the
    sentence credits to the system, not a setting a run is given."""
    return bool(_ENABLING_BEFORE.search(text, max(0, start - 80), start) or _THAN_AFTER.match(rest))


# "when the baseline is run for 20% fewer iterations": the length a run is set to, not what it achieved.
_RUN_FOR = re.compile(r"\b(?:run|runs|ran|trained|trains|train|training)[ \t]+for[ \t]+$", re.I)
_RUN_LENGTH = re.compile(r"[ \t]+(?:more|fewer|less|longer)[ \t]+(?:iterations?|steps?|epochs?|rounds?|updates?)\b", re.I)


def run_setting(text: str, start: int, after: str, kind: str) -> bool:
    """Whether the figure at ``start`` (``kind``: ``x``, ``pct``, ...; ``after``: the text right after it) gives a
    run's resources or length, no result."""
    resource = _X_RESOURCE.match(after) if kind == "x" else None
    if resource and _RESOURCE_LEAD.search(text, max(0, start - 16), start):
        if not _resource_saved(text, start, after[resource.end() :]):
            return True
    return kind in ("x", "pct") and bool(_RUN_LENGTH.match(after)) and bool(_RUN_FOR.search(text, max(0, start - 16), start))
