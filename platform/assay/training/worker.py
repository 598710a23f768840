"""The Ray actor that is one training process: one rank of a job's layout.

Workers never touch the database; they return per-step metrics and, at checkpoints, their shard of the
state to the driver (the job's supervisor), which records and saves them.
"""

from __future__ import annotations

import os
import socket
import time
from datetime import timedelta
from typing import Any

from assay.domain.job_spec import from_json
from assay.domain.layout import Layout


class TrainWorker:
    """One rank. Created by the supervisor inside the job's placement group; ``setup`` joins the process
    group, ``run`` trains a number of steps. Its process title is ``ray::TrainWorker``."""

    def __init__(self) -> None:
        from assay.training._rank import configure_threads

        configure_threads()
        self.engine: Any = None
        self.rank = -1

    def info(self) -> dict[str, Any]:
        """pid, node and a free port (rank 0's becomes the rendezvous address)."""
        from assay.ray_session import gangs

        with socket.socket() as s:
            s.bind(("", 0))
            port = s.getsockname()[1]
        where = gangs.worker_context()
        return {"pid": os.getpid(), "node_id": where["node_id"], "ip": where["ip"], "port": port,
                "gpus": where["gpus"]}

    def setup(self, spec_json: str, layout: tuple[int, int, int], micro_batch: int, bounds: list[int] | None,
              rank: int, master: str, state: Any, timeout_s: float) -> int:
        import torch
        import torch.distributed as dist

        from assay.training._rank import Engine

        self.shutdown()  # a resize reuses this process: leave the old process group first
        spec = from_json(spec_json)
        lay = Layout(*layout)
        use_cuda = spec.device != "cpu" and torch.cuda.is_available() and bool(os.environ.get("CUDA_VISIBLE_DEVICES"))
        device = "cuda:0" if use_cuda else "cpu"
        if use_cuda:
            torch.cuda.set_device(0)
        if lay.world_size > 1:
            dist.init_process_group("nccl" if use_cuda else "gloo", init_method=f"tcp://{master}",
                                    rank=rank, world_size=lay.world_size, timeout=timedelta(seconds=timeout_s))
        self.rank = rank
        self.engine = Engine(spec, lay, micro_batch, rank, bounds, device=device, state=state)
        return self.engine.step

    def run(self, n: int, export: bool) -> dict[str, Any]:
        """Train ``n`` steps; per-step metrics, and this rank's shard when ``export`` (dp rank 0 only)."""
        metrics = []
        for _ in range(n):
            m = self.engine.train_step()
            m["step"] = self.engine.step
            m["ts"] = time.time()
            metrics.append(m)
        return {"rank": self.rank, "metrics": metrics, "state": self.export() if export else None}

    def export(self) -> Any:
        return self.engine.export() if self.engine.g.dp_rank == 0 else None

    def shutdown(self) -> None:
        import torch.distributed as dist

        self.engine = None
        if dist.is_initialized():
            dist.destroy_process_group()
