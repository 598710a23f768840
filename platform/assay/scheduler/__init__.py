"""The scheduler's core: pure Python, no Ray, so the live scheduler and the simulator run the same code.

- ``cluster``: what the workers are (devices, memory, throughput, links), named presets.
- ``model_spec``: the transformer being trained, named presets, FLOPs formulas.
- ``cost_model``: step time and memory of a parallel layout, constants fitted from past runs.
- ``planner``: the best (dp, tp, pp, micro-batch, recompute, stage boundaries) for a job.
- ``policies``, ``simulator``, ``workloads``: who gets how many workers, and replaying traces.
"""
