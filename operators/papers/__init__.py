"""Paper operators: read papers and abstracts, find their language and sentences, and extract systems,
models, hardware, numeric claims and relations.

Importing this package registers ``read_paper``, ``segment_text`` and ``extract_knowledge``.
"""

from assay.operators.papers._confidence import TABLE_PATH as CONFIDENCE_TABLE
from assay.operators.papers._confidence import probability as confidence_probability
from assay.operators.papers._nlp import trained_model_available
from assay.operators.papers.extract import KnowledgeExtractor
from assay.operators.papers.read import read_paper
from assay.operators.papers.segment import segment_text

__all__ = [
    "CONFIDENCE_TABLE",
    "KnowledgeExtractor",
    "confidence_probability",
    "read_paper",
    "segment_text",
    "trained_model_available",
]
