"""assay: knowledge pipelines, an elastic scheduler and dashboards for parallel deep-learning training.

The public Python API is deliberately small::

    from assay import Pipeline, operator
"""

from assay.dsl import Pipeline, operator

__all__ = ["Pipeline", "operator", "__version__"]
__version__ = "0.1.0"
