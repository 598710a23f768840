"""The training workload that jobs run: a GPT-style decoder cut into pipeline stages and split over
tensor-parallel ranks (``_gpt``), one rank's training step with its data share and parallel communication
(``_rank``, ``_parallel``, ``_data``), layout-independent checkpoints (:mod:`assay.training.checkpoint`) and
the Ray actor that runs one rank (:mod:`assay.training.worker`).

Job control (spec files, the queue, supervisors) is ``assay.jobs``, above this package; it reaches this
package only through its two public modules. This package knows a job only by the domain's types
(:mod:`assay.domain`: the job spec, the layout, the model), never job control, so the two do not import each
other. Importing this package imports neither torch nor Ray.
"""
