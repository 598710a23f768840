"""The ``logs`` pipeline: training logs of any supported framework into runs, metrics, events and entities.

    assay run logs --input ~/experiments/

Every file under the input is one log; its format is detected from its content. A file over ``chunk_mb``
is split at line boundaries and its chunks parsed in parallel; the combine step assembles the run.

A user's own format joins the built-in ones through ``build``, in the user's pipeline file::

    from assay.operators.logs import LogParser
    from assay.pipelines.logs import build

    class AcmeParser(LogParser):
        ...

    pipeline = build(parsers=[AcmeParser], name="acme-logs")

and runs with ``assay run my_pipeline.py --input ...`` (see docs/logs.md). ``file_report`` is the per-file
table ``assay run`` prints after a pipeline built here.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from assay.dsl import Pipeline
from assay.operators.logs import CHUNK_MB, LogParser
from assay.operators.logs.report import file_row, file_table

#: Papers, images and archives found beside logs: `assay run papers` reads the papers.
PAPER_SUFFIXES = (".pdf", ".tex", ".bib", ".md", ".docx", ".png", ".jpg", ".jpeg", ".svg", ".zip", ".tar", ".gz")


def file_report(db: str | os.PathLike[str], pipeline_run_id: str) -> str:
    """The per-file table of one pipeline run: what each new log gave, and the files that gave nothing."""
    # imported here: `assay run logs --check` loads this module and must not load DuckDB
    from assay.store.queries_pipelines import files_given_nothing, runs_of_pipeline_run

    runs = runs_of_pipeline_run(db, pipeline_run_id)
    silent = files_given_nothing(db, pipeline_run_id)
    rows = [file_row(*r) for r in runs.itertuples(index=False)]
    return file_table(rows, [(str(u), str(e)) for u, e in silent.itertuples(index=False)])


def build(
    parsers: Sequence[type[LogParser]] = (), *, chunk_mb: float = CHUNK_MB, name: str = "logs"
) -> Pipeline:
    """The logs pipeline, with extra formats ``parsers`` tried before the built-in ones."""
    extra = tuple(parsers)
    return (
        Pipeline(name, description="training logs -> runs, metrics, events, entities")
        # one chunk per call, so that the chunks of a large file spread over the workers
        .then("log_split", chunk_mb=chunk_mb, parsers=extra)
        .then("log_parse", batch_size=1, parsers=extra)
        .combine("log_combine", by="doc_id")
        .skipping(*PAPER_SUFFIXES)
        .reporting(file_report)
    )


pipeline = build()
