"""Log formats: the ``LogParser`` base class, the registry of formats and detection of a file's format.

A format is a subclass of ``LogParser``. Built-in ones register themselves with ``@register_parser``; a
user's in-house format can be passed to ``assay.pipelines.logs.build(parsers=[...])`` (see docs/logs.md),
which puts it in the pipeline's configuration so that it travels to remote workers with the pipeline.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from assay.operators.logs._collect import Collector
from assay.operators.logs._lines import LineBlock, PrefixStyle
from assay.registry import REGISTRY


class LogParser:
    """One log format. Subclasses set the class attributes and write ``sniff`` and ``parse_line``::

        class AcmeParser(LogParser):
            name = "acme"
            framework = "AcmeTrain"             # becomes a 'system' entity
            interesting = r"^ACME step"         # RE2: only these lines reach parse_line (None: all lines)

            @classmethod
            def sniff(cls, head, path):
                return 1.0 if "ACME step" in head else 0.0

            def parse_line(self, text, line_no, rank):
                m = STEP.match(text)
                if m:
                    self.out.metric("loss", int(m["step"]), float(m["loss"]), line_no, rank)

    Events common to all logs (OOM, NCCL errors, cancellations, checkpoints...), timestamps and rank
    prefixes are handled for every format; a parser adds what only its format says.
    """

    #: Short identifier of the format (``megatron``); also the key of the registry.
    name: ClassVar[str] = ""
    #: The training system that writes this format, as papers name it (``Megatron-LM``).
    framework: ClassVar[str | None] = None
    #: RE2 pattern selecting the lines ``parse_line`` needs; ``None`` sends every line (slower).
    interesting: ClassVar[str | None] = None
    #: Line-oriented formats can be split at line boundaries and parsed in parallel.
    chunkable: ClassVar[bool] = True
    #: Binary formats (TensorBoard event files) are read by ``parse_file`` instead of line by line.
    binary: ClassVar[bool] = False
    #: Higher wins when two formats sniff the same score (a more specific format over a generic one).
    priority: ClassVar[int] = 0
    #: Records a console wrapped over several lines are joined before the lines reach ``parse_line``
    #: (``_wrapped.join_wrapped``): for readers that learn a file's shapes, not for a format's own parser.
    joins_wrapped: ClassVar[bool] = False

    def __init__(self, out: Collector, prefix: PrefixStyle | None = None):
        self.out = out
        self.prefix = prefix

    @classmethod
    def sniff(cls, head: str, path: str) -> float:
        """How sure (0 to 1) this format wrote a file, from its first and middle lines and its path."""
        return 0.0

    def bulk(self, block: LineBlock) -> np.ndarray | None:
        """Optionally handle high-volume lines of ``block`` at once; returns the indices it handled."""
        return None

    def parse_line(self, text: str, line_no: int, rank: int | None) -> None:
        """Handle one line (rank prefix removed) that ``interesting`` selected."""

    def finish(self) -> None:
        """Called after the last line of the chunk (or file)."""

    def parse_file(self, path: str) -> None:
        """Binary or whole-file formats read the file here (``chunkable = False``)."""
        raise NotImplementedError(f"{type(self).__name__} is line-oriented; the engine feeds it lines")


#: The log formats' namespace of the one registry (``assay.registry``).
NAMESPACE = "log_parsers"


def head_lines(head: str, limit: int, keep: int) -> list[str]:
    """The non-blank lines among the first ``limit`` of a file's head, for a ``sniff``; the last one dropped when
    the head ends inside it (no newline at its end) and more than ``keep`` lines are left."""
    lines = [ln for ln in head.splitlines()[:limit] if ln.strip()]
    if len(lines) > keep and not head.endswith("\n"):
        lines = lines[:-1]  # the head may end in the middle of a line
    return lines


def register_parser(cls: type[LogParser]) -> type[LogParser]:
    """Class decorator: make a format available to detection (built-in formats use it)."""
    if not cls.name:
        raise ValueError(f"{cls.__name__} needs a `name`")
    return REGISTRY.register(NAMESPACE, cls.name, cls)


def registered_parsers() -> list[type[LogParser]]:
    return list(REGISTRY.entries(NAMESPACE).values())


def parser_named(name: str, extra: tuple[type[LogParser], ...] = ()) -> type[LogParser]:
    """The format called ``name`` among ``extra`` (a pipeline's own formats) and the registered ones;
    :class:`assay.registry.UnknownName` (a ``KeyError``) with the closest names otherwise."""
    for cls in extra:
        if cls.name == name:
            return cls
    return REGISTRY.get(NAMESPACE, name)


def detect(head: bytes, path: str, extra: tuple[type[LogParser], ...] = ()) -> tuple[type[LogParser], float]:
    """The best-sniffing format for a file, or the fallback (``generic``) when none is confident."""
    text = head.decode("utf-8", "surrogateescape")  # binary formats get their bytes back with .encode(same)
    best: type[LogParser] | None = None
    best_key = (0.0, 0)
    for cls in (*extra, *registered_parsers()):
        if cls.name == "generic":
            continue
        try:
            score = float(cls.sniff(text, path))
        except Exception:  # noqa: BLE001 -- a user's sniff must not break detection of other files
            score = 0.0
        key = (score, cls.priority)
        if score > 0 and key > best_key:
            best, best_key = cls, key
    if best is None or best_key[0] < 0.2:
        return parser_named("generic"), best_key[0]
    return best, best_key[0]
