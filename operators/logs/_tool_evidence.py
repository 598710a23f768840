"""Naming a run's tool by structure, with the evidence weighed: the tool a log's own text points at, for tools
no table knows.

``_packages.references`` counts the loggers, warning paths, ``python -m pkg.mod`` launches and traceback frames
under ``site-packages``. Besides those, a log shows its tool's package in

* the command line that ran it: a script inside the package (``python pkg/tools/train.py``, ``torchrun ...
  pkg/scripts/train.py``; a bare ``train.py`` or a layout folder such as ``examples/`` or ``src/utils/`` names
  nothing) or a console script named after it (``pkg-cli train``, ``pkg-train data/``);
* a traceback frame of the training loop in a repository's package: a folder named as the repository it is
  cloned in (``/home/me/FooBar/foobar/engine.py``), or a package under ``src/`` (``.../src/foobar/...``),
  where the frame's function is a training loop's (``train``, ``fit``, ``train_one_epoch``, ``main``); a
  library deep in the stack (``.../k2/k2/fsa.py ... in forward``) names nothing;
* a banner the tool prints of itself (``foobar version 1.2.3``, ``FooBar v0.4.1``, ``Welcome to FooBar``), also
  through its logger (``2025-01-02 03:04:05 INFO: foobar version: 0.4.7``).

Each root package passes the guards of ``_packages`` (no carrier, no Python module, no folder of one's own
project, no runner) and the environment's own names (``CUDA version 12.1``, ``Python 3.10``). Candidates are
ranked by the summed weight of their evidence; :func:`explain` says why (kind and line of each piece).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assay.operators.logs._packages import _LAYOUT, _PACKAGE, GENERIC, RUNNERS, _entry_point, evidence

#: Names a version banner or a console script carries that are the environment, not a tool.
_ENVIRONMENT = frozenset(
    """python cuda cudnn nccl cublas nvcc driver nvidia gcc cmake linux ubuntu centos debian kernel os gpu cpu
    api protocol file model checkpoint dataset schema format pytorch tensorrt git mpi openmpi java node conda
    pip docker slurm version release build config data nvml rocm hip xla tpu openssl glibc libc mkl openblas
    magma onednn cutlass torch torchvision numpy""".split()
)
#: A training loop's function names: a frame in one of these is the loop's own code, not a library it calls.
_LOOP = re.compile(r"^(?:main|_?train\w*|\w+_train|fit\w*|run|run_\w+|\w*_loop|learn|launch|execute|cli_main)$")
_FRAME = re.compile(r"""(?:^|[\s:\]])File "(?P<path>[^"]+)", line \d+, in (?P<func>[\w<>]+)""")
_TRACEBACK = re.compile(r"Traceback \(most recent call last\)")
_LAUNCH = r"(?:^|[\s$>])(?:python[\d.]*|torchrun|deepspeed|accelerate launch)\b[^\n]{0,200}?\s"
_SCRIPT = re.compile(_LAUNCH + r"(?:\./)?(?P<path>[A-Za-z_][\w-]*(?:/[\w.-]+)+)\.py\b", re.M)
_CONSOLE = re.compile(
    r"^\s*(?:[$#>+]\s*)?(?:[A-Z_][A-Z0-9_]*=\S+\s+)*(?P<pkg>[a-z][a-z0-9_]*)-(?:cli|train|run|launch|hydra-train)\s",
    re.M,
)
#: A logger's record header before a message: a date or time and a level (``2025-01-02 03:04:05.678 INFO: ``), or
#: what is left of it once the reader has taken the time off (``INFO: ``).
_RECORD_HEAD = r"(?:[\[\]\d\-/:.,T ]{8,34}\s*)?(?:-\s+)?(?:\[?(?:INFO|DEBUG|WARNING|WARN|I)\]?:?\s+)?(?:-\s+)?"
_BANNER = re.compile(
    rf"^{_RECORD_HEAD}[^\w\n]{{0,4}}(?:(?:Using|Running|Starting)\s+)?(?P<a>[A-Za-z][\w-]{{1,30}}) (?:[Vv]ersion:? ?|v)v?\d+\.\d+\b"
    r"|\bWelcome to (?P<b>[A-Za-z][\w-]{1,30})\b"
    # a record's field of the tool's own version (MMCV's meta record: ``"mmcls_version": "0.25.0"``)
    r"""|["'](?P<c>[a-z][a-z0-9]{1,30})_version["']\s*:\s*["']v?\d+\.\d+""",
    re.M,
)

WEIGHTS = {"logger": 1.0, "warning path": 1.0, "record path": 1.0, "python -m": 2.0, "site-packages frame": 1.0,
           "known folder frame": 1.0, "command line": 2.0, "console script": 2.0, "repository frame": 1.0,
           "banner": 1.0}


def _key(name: str) -> str:
    return re.sub(r"[^0-9a-z]", "", name.lower())


def _root(name: str) -> str | None:
    """``name`` when it can be a tool's root package: not a carrier, Python's, a project folder or a runner."""
    low = name.lower()
    if not name or low in GENERIC or name in GENERIC or low in _LAYOUT or low in _ENVIRONMENT:
        return None
    if _PACKAGE.get(name, name) in RUNNERS or _PACKAGE.get(low, low) in RUNNERS:
        return None
    return name if name.replace("-", "_").isidentifier() else None


def _named(name: str) -> str | None:
    """A banner's name as a tool's package: not when a part of it is a project's own word (``acme-trainer``,
    ``my_model``: one's own program described, not a package)."""
    parts = re.split(r"[-_]", name.lower())
    return None if len(parts) > 1 and any(p in GENERIC or p in {"my", "our"} for p in parts) else _root(name)


def _repository_package(path: str) -> str | None:
    """The package of a frame's path outside ``site-packages``: a folder named as the repository above it
    (``FooBar/foobar/``, ``fairseq-main/fairseq/``) or the folder under ``src/``, the deepest one."""
    parts = [p for p in path.replace("\\", "/").split("/")[:-1] if p and p != "."]
    found = None  # the deepest such folder: the package nearest the file (a home folder may double too)
    for above, below in zip(parts, parts[1:], strict=False):
        ka, kb = _key(above), _key(below)
        doubled = len(kb) >= 2 and (ka == kb or (len(kb) >= 4 and ka.startswith(kb)))
        if below.isidentifier() and (above == "src" or doubled):
            found = _root(below) or found
    return found


def _structural(text: str) -> list[tuple[str, str, str]]:
    """(package, kind, line) for the command lines, repository frames and banners of ``text``."""
    found: list[tuple[str, str, str]] = []
    for m in _SCRIPT.finditer(text):
        parts = m["path"].split("/")
        if len(parts) >= 3:  # ``pkg/sub/train.py``: a package's script, not a bare script in one's folder
            top = _root(parts[0])
            if top:
                found.append((top, "command line", m[0].strip()))
    for m in _CONSOLE.finditer(text):
        top = _root(m["pkg"])
        if top:
            found.append((top, "console script", m[0].strip()))
    for m in _BANNER.finditer(text):
        top = _named(m["a"] or m["b"] or m["c"])
        if top:
            found.append((top, "banner", m[0].strip()))
    pending = True  # a traceback counts once, by its outermost loop frame in a repository's package
    for line in text.splitlines():
        if "Traceback" in line and _TRACEBACK.search(line):
            pending = True
            continue
        m = _FRAME.search(line) if pending and "File" in line else None
        if not m or "-packages/" in m["path"] or not _LOOP.match(m["func"]):
            continue
        top = _repository_package(m["path"])
        if top:
            found.append((top, "repository frame", line.strip()))
            pending = False
    return found


@dataclass
class Candidate:
    """A package the log points at, its tool's name, the summed weight and why (kind: line)."""

    package: str
    framework: str
    score: float = 0.0
    reasons: list[str] = field(default_factory=list)


def explain(text: str) -> list[Candidate]:
    """Every candidate tool of ``text``, the strongest first (weight, then count, then name)."""
    ranked: dict[str, Candidate] = {}
    for package, kind, line in [*evidence(text), *_structural(text)]:
        if _PACKAGE.get(package, package) in RUNNERS:
            continue
        cand = ranked.setdefault(package, Candidate(package, _PACKAGE.get(package, package)))
        cand.score += WEIGHTS[kind]
        cand.reasons.append(f"{kind}: {line[:120]}")
    return sorted(ranked.values(), key=lambda c: (-c.score, -len(c.reasons), c.package))


def tool_of(text: str, *, over: bool = False) -> str | None:
    """The tool the log's evidence ranks first. ``over``: the run is named after a runner already; a package
    the table does not know must then weigh 2 (a command line, or two references) to rename it."""
    cands = [c for c in explain(text) if not over or c.package in _PACKAGE or c.score >= 2]
    if cands:
        return cands[0].framework
    return None if over else _entry_point(text)
