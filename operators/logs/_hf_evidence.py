"""The evidence that a file is the Hugging Face Trainer's, as data: each row a pattern, its weight and an
example line in the Trainer's shape (``tests/unit/test_logs_hf_evidence.py`` runs each through ``parse_log``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Evidence:
    """One row of the Trainer's evidence: what it is, its weight, its pattern (multi-line) and an example line
    in the Trainer's shape (``tests/unit/test_logs_hf_evidence.py`` runs each through ``parse_log``)."""

    name: str
    weight: float
    pattern: str
    example: str
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "regex", re.compile(self.pattern, re.M))


#: The Trainer's evidence in a file's head, each row with its weight: the file is the Trainer's from ``NAMED`` on.
#: Its log record (``loss``, ``learning_rate`` and ``epoch`` together, or an evaluation's or the summary's
#: timing keys) and its module paths (``transformers/trainer.py``, the ``transformers.trainer`` logger,
#: ``[INFO|trainer.py:2128]``) name it alone; its banner, the settings block under the banner and its bare
#: tqdm bars (``  3%|▎   | 10/375 [00:05<...``) only together, as a copy of one of them does not.
EVIDENCE: tuple[Evidence, ...] = (
    Evidence(
        "record",
        0.85,
        r"\{'loss': [^{}]*'learning_rate': [^{}]*'epoch': |\{'eval_[a-z_]+': [^{}]*'eval_runtime': "
        r"|\{'train_runtime': [^{}]*'train_samples_per_second': ",
        "{'loss': 1.734, 'grad_norm': 2.2, 'learning_rate': 3.1e-05, 'epoch': 0.42}",
    ),
    Evidence(
        "module",
        0.85,
        r"transformers[./]trainer\b|\[(?:INFO|WARNING)\|trainer\.py:\d+\]",
        "[INFO|trainer.py:2314] 2025-02-03 04:05:06,789 >> Saving model checkpoint to out/checkpoint-500",
    ),
    Evidence("banner", 0.4, r"\*{5} Running training \*{5}", "***** Running training *****"),
    Evidence(
        "settings",
        0.3,
        r"^\s*(?:Total optimization steps|Instantaneous batch size per device|Gradient Accumulation steps) = ",
        "  Total optimization steps = 1,200",
    ),
    Evidence(
        "bars",
        0.3,
        r"^\s*\d{1,3}%\|[^|\n]*\| *\d+/\d+ \[\d",
        " 12%|█▏        | 144/1200 [01:02<07:31,  2.34it/s]",
    ),
)
#: The evidence that names the Trainer (one record or module path; the banner with its block and its bars).
NAMED = 0.85
