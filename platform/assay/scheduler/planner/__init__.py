"""The parallel-layout planner: the fastest (dp, tp, pp, micro-batch, recomputation, stage boundaries)
of a model on a number of workers, as the cost model predicts it.

    plan = plan_layout(get_model("gpt-175b"), 1024, get_cluster("a100-80g"), global_batch=1536)
    plan.dp, plan.tp, plan.pp, plan.micro_batch_size, plan.stage_layers, plan.step_time_s, plan.runner_ups
    print(plan_named("gpt-175b", 1024, gpu="a100-80g", global_batch=1536).render())   # as `assay plan`
"""

from assay.scheduler.planner._named import PlanInputError, PlanReport, plan_named, render_plan
from assay.scheduler.planner._partition import PartitionProblem, balanced_partition, partition_dp
from assay.scheduler.planner._plan import NoFeasibleLayout, Plan
from assay.scheduler.planner._search import plan_layout, plan_up_to, search_exhaustive

__all__ = [
    "NoFeasibleLayout",
    "PartitionProblem",
    "Plan",
    "PlanInputError",
    "PlanReport",
    "balanced_partition",
    "partition_dp",
    "plan_layout",
    "plan_named",
    "plan_up_to",
    "render_plan",
    "search_exhaustive",
]
