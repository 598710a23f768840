"""Events any training log may contain, whatever printed it: out-of-memory, loss-scale overflow, NCCL and
GPU faults, child-process failures, cancellation, restarts, checkpoints. One RE2 pattern picks candidate
lines in C++; ``classify`` decides, in Python, on those few lines only."""

from __future__ import annotations

import re

from assay.operators.logs._collect import Collector
from assay.operators.logs._names import find_hardware
from assay.operators.logs._timestamps import find_timestamp

#: Candidate lines (RE2 syntax, case-insensitive). Cheap to over-match: ``classify`` has the last word.
COMMON_FILTER = (
    r"out of memory|outofmemory|oom[-_ ]kill|alloc_failed|cancelled at|keyboardinterrupt|preempt"
    r"|\bxid\b|ecc error|uncorrectable|nccl ?(?:warn|error)|nccl[a-z]*error|watchdog|fallen off the bus"
    r"|childfailed|exitcode|exit code|return code|worker group|restart|rendezvous|\bsigterm\b|\bsigkill\b"
    r"|traceback \(most recent|^\S*(?:error|exception)\b|segmentation fault|core dumped|killed"
    r"|overflow|skipping step|skipped step|found inf|checkpoint|nan loss|loss is nan|nan or inf|detected nan"
    r"|nvidia|tesla|instinct|cuda capacity|device name|processgroupnccl|\becc\b|exit status|exited with"
    r"|terminate called|signal \d+|sig(?:kill|abrt|segv|bus)|timed out"
    r"|skipping (?:this |the )?(?:update|batch|iteration|optimizer)"
    r"|sav(?:e|ing)\s.{0,40}checkpoint|checkpoint\b.{0,30}\b(?:saved|written)|saving current state"
)
COMMON_RE = re.compile(COMMON_FILTER, re.I | re.M)

# Order matters: the first rule that matches a line decides its kind.
_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("preempted", re.compile(r"DUE TO PREEMPTION|\bpreempted\b|preemption notice", re.I)),
    (
        "cancelled",
        re.compile(
            r"CANCELLED AT|KeyboardInterrupt|Received SIGINT|Signals\.SIGINT|"
            r"Received Signals\.SIGTERM|received signal 15|scancel",
            re.I,
        ),
    ),
    (
        "oom",
        re.compile(
            r"CUDA out of memory|OutOfMemoryError|out of memory|CUBLAS_STATUS_ALLOC_FAILED|"
            r"oom[-_]kill|Out of memory: Killed process|HIP out of memory|RESOURCE_EXHAUSTED",
            re.I,
        ),
    ),
    (
        "hardware_error",
        re.compile(
            r"\bXid\b|ECC error|uncorrectable ECC|fallen off the bus|NVLink error|nccl\w*Error|NCCL error|"
            r"NCCL communicator was aborted|Watchdog caught collective operation timeout|"
            r"NCCL WARN .*(?:error|fail|timeout|abort)|ncclRemoteError|ncclSystemError|ncclInternalError|"
            r"ncclUnhandledCudaError|CUDA error: (?:an illegal memory|unspecified launch|uncorrectable)|"
            r"GPU is lost|hardware error|"
            # cut short by a killed process, mid-word: still an NCCL watchdog or timeout, still an ECC fault
            r"\bWatchdog c|\[E[\d :.]*ProcessGroupNCCL|ProcessGroupNCCL.*(?:[Tt]imeout|timed out|abort)|"
            r"NCCL.{0,40}timed out|\bECC\b.{0,30}(?:err|fault)|double[- ]bit",
            re.I,
        ),
    ),
    (
        "restart",
        re.compile(
            r"will restart worker group|Restarting worker group|restart_count=[1-9]|"
            r"requeue|Detected \d+ new nodes",
            re.I,
        ),
    ),
    (
        "failure",
        re.compile(
            r"ChildFailedError|failed \(exitcode: -?[1-9]|Worker group FAILED|"
            r"exits with return code = -?[1-9]|"
            r"Exited with exit code [1-9]|exit code: -?[1-9]|Segmentation fault|core dumped|"
            r"Signal \d+ \(SIG\w+\) received|exit status [1-9]|exited with (?:exit )?code -?[1-9]|"
            r"returned non-zero exit status|terminate called after throwing|^\s*Killed\s*$|"
            r"\bline \d+: +\d+ Killed|killed by signal|received signal (?:9|6|11|SIGKILL|SIGABRT|SIGSEGV)\b|"
            r"Fatal Python error",
            re.I,
        ),
    ),
    (
        "skipped_step",
        re.compile(
            r"OVERFLOW!|overflow! Skipping|Skipping step|Gradient overflow|\bfound inf\b|"
            r"\binfs? (?:was |were )?found\b|skipping (?:this |the )?(?:update|batch|iteration|optimizer step)",
            re.I,
        ),
    ),
    (
        "nan",
        re.compile(
            r"loss is nan|nan loss|NaN or Inf found|Detected NaN|found nan in|nan detected|"
            r"grad(?:ient)?[ _]norm is (?:nan|inf)",
            re.I,
        ),
    ),
    (
        "checkpoint",
        re.compile(
            r"saving checkpoint|saving model checkpoint|Saving the checkpoint|"
            r"checkpoint .* is about to be saved|"
            r"Saving checkpoint at|saving model to|Saving model weights to|saved checkpoint to|"
            r"Checkpoint saved|Scheduled async checkpoint save|"
            r"\bsav(?:e|ing)\s.{0,40}\bcheckpoint\b|\bcheckpoint\b.{0,30}\b(?:saved|written) to\b|"
            r"Saving current state to",
            re.I,
        ),
    ),
    # An uncaught exception: the last line of a traceback (``ValueError: ...``) at the start of a line.
    ("failure", re.compile(r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)(?::|$)")),
]
#: Lines that mention a checkpoint without saving one (a load, a success message for a save counted already).
_NOT_SAVES = re.compile(
    r"successfully saved|Finished saving|checkpoint saved in \d|Loading checkpoint|loading checkpoint|"
    r"load_checkpoint|will not load any checkpoints|if trying to load latest checkpoint",
    re.I,
)
#: Warnings are not events, whatever they mention.
_WARNINGS = re.compile(r"UserWarning|FutureWarning|DeprecationWarning|RuntimeWarning:")
_OUTCOME = {
    "oom": "failed",
    "failure": "failed",
    "hardware_error": "failed",
    "cancelled": "cancelled",
    "preempted": "cancelled",
}
#: Hardware errors that kill the run (an NCCL warning alone does not).
_FATAL_HARDWARE = re.compile(
    r"Xid|uncorrectable|fallen off|Watchdog caught|communicator was aborted|"
    r"ncclUnhandledCudaError|ncclSystemError|ncclInternalError|ncclRemoteError|"
    r"CUDA error",
    re.I,
)
#: A NaN report that ends the run (an exception, an abort), as opposed to a warning it continues after.
_STOPS = re.compile(r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)\b|stop|abort|terminat|exit", re.I)
_HW_CONTEXT = re.compile(r"NVIDIA|Tesla|Instinct|GPU|CUDA|device", re.I)


def classify(text: str) -> str | None:
    """The event kind of a log line, or ``None`` when it reports none."""
    if _WARNINGS.search(text):
        return None
    for kind, pattern in _RULES:
        if pattern.search(text):
            return None if kind == "checkpoint" and _NOT_SAVES.search(text) else kind
    return None


def observe(text: str, line_no: int, rank: int | None, out: Collector, *, offset: int | None = None) -> None:
    """Record what a candidate line says: an event (and the outcome it implies) and the accelerator named."""
    kind = classify(text)
    if kind is not None:
        out.event(kind, line_no, text, rank=rank, ts=find_timestamp(text[:200]))
        outcome = _OUTCOME.get(kind)
        if kind == "hardware_error" and not _FATAL_HARDWARE.search(text):
            outcome = None
        if kind == "restart":
            outcome = "restart"
        if kind == "nan" and _STOPS.search(text):
            outcome = "diverged"
        if outcome:
            out.mark(outcome, line_no, text)
    if _HW_CONTEXT.search(text):
        for name, start, _end in find_hardware(text):
            out.accelerator(name, line_no, None if offset is None else offset + start)


#: A line a console (rich, a terminal) wrapped: indented far and going on mid-sentence.
CONTINUATION = r"^[ \t]{8,}[a-z]"


def observe_wrapped(previous: str, text: str, line_no: int, rank: int | None, out: Collector) -> None:
    """An event worded over two lines (``WARNING: found`` / ``inf during ... step``): the end of the line
    before and this one, read as one, when neither reports an event alone."""
    joined = previous.rstrip()[-160:] + " " + text.strip()
    if COMMON_RE.search(joined) and classify(previous) is None and classify(text) is None:
        observe(joined, line_no, rank, out)
