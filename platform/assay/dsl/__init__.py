"""The pipeline DSL: operators over records, and immutable pipelines of them.

Importing this module starts nothing (no Ray, no database): an operator can be unit-tested on a list of
plain dicts.
"""

from assay.dsl._errors import PipelineError
from assay.dsl._operator import BoundOperator, Failure, Operator, get_operator, list_operators, operator
from assay.dsl._pipeline import Pipeline, Problem, Step, load_pipeline
from assay.dsl._resources import TASK_CPUS, PoolPlan

__all__ = [
    "BoundOperator",
    "Failure",
    "Operator",
    "Pipeline",
    "PipelineError",
    "PoolPlan",
    "Problem",
    "Step",
    "TASK_CPUS",
    "get_operator",
    "list_operators",
    "load_pipeline",
    "operator",
]
