"""One row of the framework-marker table (``_frameworks.MARKERS``) and the names of the frameworks rows run on top of.

The rows themselves are data, kept by domain (``_markers_llm``, ``_markers_vision``, ``_markers_speech_rl``) and the
runners and launchers last in ``_frameworks``; this module holds what they share so that the data modules need not
import the matching code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: The parser frameworks a tool's row can run on top of (``Marker.over``).
HF = "Hugging Face Transformers"
DS = "DeepSpeed"
ELASTIC = "TorchElastic"


@dataclass(frozen=True)
class Marker:
    """One row: the tool's entity name (as papers name it), the pattern (Python ``re``, multi-line, in the subset
    RE2 shares: no look-arounds), an example line written in the tool's shape, and the frameworks this tool runs
    on top of (see ``_frameworks``)."""

    framework: str
    pattern: str
    example: str
    over: tuple[str, ...] = ()
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "regex", re.compile(self.pattern, re.M))
