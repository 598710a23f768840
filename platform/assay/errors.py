"""One catalogue of assay's errors: every error a user can meet has a code, a short title and the usual fix.

An error class subclasses :class:`AssayError` with its ``code`` and keeps its Python base (``ValueError``,
``KeyError``, ``ConnectionError`` ...), so ``except ValueError`` around a call still catches it. The message
of an instance says what is wrong here; its ``fix`` (when the raiser knows one) what to do about it. The
command line prints either as one line, ``error [E011]: message Fix: ...`` (:func:`one_line`).

``docs/errors.md`` is written from :data:`CATALOGUE` by :func:`reference` (``make docs``);
``tests/unit/test_cli_reference.py`` fails while it is stale, ``tests/unit/test_errors.py`` when two entries
share a code.

This module imports nothing else of assay's, so every layer may use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class Entry:
    """One code of the catalogue: what it means, the usual fix, and which exception carries it."""

    code: str
    title: str
    fix: str
    raised_by: str  # the public name of the exception class, e.g. "assay.dsl.PipelineError"


#: Every code, grouped by the layer that raises it (E00x registry, E01x-E03x pipelines, E04x runtime, E05x
#: store, E06x jobs, E07x scheduler, E08x checks).
ENTRIES: tuple[Entry, ...] = (
    Entry("E001", "No operator of that name", "register it with @assay.operator, or pick one of `assay operators`.",
          "assay.dsl.PipelineError"),
    Entry("E002", "No entry of that name in a registry namespace",
          "use one of the names the message lists (assay.registry.names(namespace)), or register your own.",
          "assay.registry.UnknownName"),
    Entry("E003", "assay's own package metadata is missing or stale",
          "install the checkout: `pip install -e .` (or `make install`); its entry points register the built-ins.",
          "assay.registry.NotInstalled"),
    Entry("E010", "A pipeline without steps", "add one with .then(...).", "assay.dsl.PipelineError"),
    Entry("E011", "A step requires a field no earlier step produces",
          "add a step that produces the field before it, or fix the field's name.", "assay.dsl.PipelineError"),
    Entry("E012", "The combine step requires a field no step produces",
          "add a step that produces the field, or combine by a field that exists.", "assay.dsl.PipelineError"),
    Entry("E020", "No pipeline file at the path", "check the path of the .py file.", "assay.dsl.PipelineError"),
    Entry("E021", "No built-in pipeline of that name",
          "use `papers` or `logs`, or the path to a .py file that defines `pipeline = Pipeline(...)`.",
          "assay.dsl.PipelineError"),
    Entry("E022", "A pipeline file defines no `pipeline`", "end the file with `pipeline = Pipeline('name').then(...)`.",
          "assay.dsl.PipelineError"),
    Entry("E030", "A step asks for fewer than one actor",
          "give concurrency=1 or more, or leave it out to let the pool size itself.", "assay.dsl.PipelineError"),
    Entry("E031", "A step's num_cpus cannot fit beside the other stages",
          "lower concurrency or num_cpus, or run on a bigger cluster (--address).", "assay.dsl.PipelineError"),
    Entry("E032", "A step's concurrency cannot fit beside the other stages",
          "lower concurrency, or run on a bigger cluster (--address).", "assay.dsl.PipelineError"),
    Entry("E040", "An --input names nothing readable", "give a file or a folder that exists.",
          "assay.runtime.InputError"),
    Entry("E041", "The Ray cluster cannot be reached or refuses the driver",
          "start one with `ray start --head`, use the head's auth token, or leave --address out for embedded Ray.",
          "assay.runtime.ClusterError"),
    Entry("E042", "No record moved for the watchdog's limit",
          "read which stage waits on what in the message; give the pipeline more CPUs or lower its concurrency.",
          "assay.runtime.StalledError"),
    Entry("E050", "Another process held the database too long",
          "wait for the other writer to finish, or raise ASSAY_LOCK_TIMEOUT.", "assay.store.DatabaseBusy"),
    Entry("E051", "No database at the path", "run a pipeline first, or pass --db FILE.", "assay.store.NoDatabase"),
    Entry("E052", "SQL that DuckDB refused", "fix the query as DuckDB's message says; quote columns named like "
          'SQL keywords ("end", "at"); `assay query "describe claims"` lists a table\'s columns.',
          "assay.store.queries.QueryError"),
    Entry("E060", "A job spec that cannot run as written",
          "correct the field the message names; `assay jobs specs` lists working examples.", "assay.jobs.SpecError"),
    Entry("E070", "No parallel layout of the model fits the workers",
          "give more workers, a smaller model or global batch, or loosen the fixed degrees.",
          "assay.scheduler.planner.NoFeasibleLayout"),
    Entry("E071", "A wrong input to `assay plan`", "use one of the valid values the message lists.",
          "assay.scheduler.planner.PlanInputError"),
    Entry("E072", "A workload that cannot be read",
          "use a CSV path, philly:N or adaptdl:N (1..8); docs/scheduler-policies.md has the columns.",
          "assay.scheduler.workloads.WorkloadError"),
    Entry("E080", "Claim ids that are not in the database",
          "use ids from `assay query \"select claim_id from claims\"`.", "assay.checks.UnknownClaims"),
    Entry("E081", "A claim that cannot be reproduced here",
          "the message says why; the claim keeps the verdict of the other evidence.", "assay.checks.Unreproducible"),
)

CATALOGUE: dict[str, Entry] = {e.code: e for e in ENTRIES}


class AssayError(Exception):
    """An error with a catalogue ``code``, a ``message`` and, when the raiser knows it, a ``fix``.

    A subclass sets its class-wide ``code``; :class:`assay.dsl.PipelineError` passes one per instance.
    ``str()`` is the message followed by ``Fix: ...``, as it was before the catalogue.
    """

    code: ClassVar[str] = ""

    def __init__(self, message: str, fix: str | None = None, *, code: str | None = None):
        if code:
            self.code = code  # shadows the class-wide code for this instance
        self.message = message
        self.fix = fix
        super().__init__(message + (f" Fix: {fix}" if fix else ""))

    def __str__(self) -> str:
        # KeyError's own str() would quote the message.
        return str(self.args[0]) if self.args else ""

    def __reduce__(self) -> tuple[Any, ...]:
        # Errors cross process boundaries (Ray tasks); rebuild without calling a subclass's __init__.
        return _restore, (type(self), self.args, self.__dict__)


def _restore(cls: type[AssayError], args: tuple[Any, ...], state: dict[str, Any]) -> AssayError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


def code_of(exc: BaseException) -> str | None:
    """The catalogue code of ``exc`` (None for an error that is not assay's)."""
    return exc.code or None if isinstance(exc, AssayError) else None


def one_line(exc: BaseException) -> str:
    """``error [CODE]: message Fix: ...`` on one line, as the command line prints a user's error."""
    code = code_of(exc)
    message = getattr(exc, "message", None) if isinstance(exc, AssayError) else None
    fix = getattr(exc, "fix", None) if isinstance(exc, AssayError) else None
    text = " ".join(str(message if message is not None else exc).split())
    if fix:
        text = f"{_sentence(text)} Fix: {' '.join(fix.split())}"
    return f"error [{code}]: {text}" if code else f"error: {text}"


def _sentence(text: str) -> str:
    return text if text.endswith((".", "?", "!", ")")) else text + "."


def reference() -> str:
    """The whole of ``docs/errors.md``."""
    lines = [
        "# Error codes",
        "",
        "Every error a user can meet, by code. The command line prints one as a single line,",
        "`assay: error [E011]: <what is wrong here> Fix: <what to do>`, and `assay run PIPELINE --input ... --check`",
        "prints every problem of a pipeline this way at once. This file is generated from `assay.errors.CATALOGUE`:",
        "run `make docs` after changing it; `tests/unit/test_cli_reference.py` fails while it is stale.",
        "",
        "| code | what | usual fix | raised as |",
        "|---|---|---|---|",
    ]
    lines += [f"| {e.code} | {e.title} | {_cell(e.fix)} | `{e.raised_by}` |" for e in ENTRIES]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
