"""The ``papers`` pipeline: papers and abstracts into documents, entities, mentions, claims and relations.

    assay run papers --input ~/papers/

Reads .txt .md .tex .pdf files and .jsonl/.csv/.json collections of abstracts, detects each document's
language and sentences, and extracts in one stateful spaCy step (built once per worker) the systems,
models and hardware it names, its numeric claims and the relations between them.

Variants are one line in a user's pipeline file (run with ``assay run my_papers.py --input ...``)::

    from assay.pipelines.papers import build
    pipeline = build(gazetteer="my_terms.tsv", model="auto")

``model="auto"`` adds the trained English spaCy pipeline's named entities when it is installed
(``pip install assay[nlp]``); the default rules-only pipeline is more than ten times faster.
"""

from __future__ import annotations

from assay.dsl import Pipeline


def build(
    *, gazetteer: str | None = None, model: str = "blank", batch_size: int = 256, name: str = "papers"
) -> Pipeline:
    """The papers pipeline, with a user's gazetteer file and a spaCy ``model`` (blank, auto) if given."""
    return (
        Pipeline(name, description="papers and abstracts -> documents, entities, mentions, claims, relations")
        .then("read_paper")
        .then("segment_text")
        .then("extract_knowledge", batch_size=batch_size, gazetteer=gazetteer, model=model)
    )


pipeline = build()
