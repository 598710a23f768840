"""The live scheduler: the scheduler's core policies driving real jobs on Ray, one round at a time.

It sits above both the pure scheduler core (``assay.scheduler``, which also runs in the simulator) and job
control (``assay.jobs``): it reads the store, asks a policy, and tells job control what to start, resize or
stop. Neither of those packages imports it.
"""

from assay.live.scheduler import LiveScheduler, explain_wait

__all__ = ["LiveScheduler", "explain_wait"]
