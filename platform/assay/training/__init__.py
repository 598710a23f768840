"""The training workload that jobs run: a GPT-style decoder cut into pipeline stages and split over
tensor-parallel ranks (``_gpt``), one rank's training step with its data share and parallel communication
(``_rank``, ``_parallel``, ``_data``), layout-independent checkpoints (:mod:`assay.training.checkpoint`) and
the Ray actor that runs one rank (:mod:`assay.training.worker`).

Job control (specs, the queue, supervisors, the live scheduler) is ``assay.jobs``; it reaches this package
only through its two public modules. Importing this package imports neither torch nor Ray.
"""
