"""Training logs into the knowledge graph: format detection, one parser module per framework family, and the
operators ``log_split`` (reader/splitter), ``log_parse`` (per chunk) and ``log_combine`` (per file).

Importing this package registers the built-in formats and operators. A new format is a ``LogParser``
subclass (see ``LogParser``'s docstring and docs/logs.md).
"""

from assay.operators.logs import (  # noqa: F401 -- importing registers each format
    colossalai,
    csv_metrics,
    darknet,
    deepspeed,
    fallback,
    hf_trainer,
    hf_trainer_state,
    horovod,
    jsonl,
    lightning,
    megatron,
    nanogpt,
    nanotron,
    number_table,
    tensorboard,
    torchelastic,
    torchtitan,
)
from assay.operators.logs._base import LogParser, detect, register_parser, registered_parsers
from assay.operators.logs._collect import Collector
from assay.operators.logs._local import ParsedLog, parse_log
from assay.operators.logs._operators import CHUNK_MB, log_combine, log_parse, log_split

__all__ = [
    "CHUNK_MB",
    "Collector",
    "LogParser",
    "ParsedLog",
    "detect",
    "log_combine",
    "log_parse",
    "log_split",
    "parse_log",
    "register_parser",
    "registered_parsers",
]
