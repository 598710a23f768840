"""One rank's training: its stage of the model, its data share, the step with its parallel communication.

The same code runs the single-worker reference (no ``torch.distributed`` at all) and every rank of a
parallel layout, so any difference between their loss curves comes from the layout alone: the order of
floating-point sums in the all-reduces.

A step with global batch B on a (dp, tp, pp) layout with micro-batch m: each data-parallel rank takes
B/dp samples, as B/(dp*m) micro-batches through its pipeline (GPipe or 1F1B); gradients are averaged over
data-parallel ranks; the gradient norm is summed over tensor- and pipeline-parallel ranks (replicated
parameters counted once) for clipping; then AdamW. The loss is the mean over all B samples, as on one
worker with gradient accumulation.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from assay.domain.job_spec import JobSpec
from assay.domain.layout import Layout
from assay.training._data import TokenStream
from assay.training._gpt import StageModel, split_dim, stage_bounds
from assay.training._parallel import Groups, PipeComm, all_reduce, build_groups

DTYPES = {"float32": torch.float32, "float64": torch.float64, "bfloat16": torch.bfloat16}
BETAS = (0.9, 0.95)
EPS = 1e-8


@dataclass
class ShardState:
    """The part of a checkpoint one rank holds: its slices of parameters and AdamW moments, by canonical
    name, plus the steps done. Sent to the driver, which joins the shards into the full state."""

    step: int
    params: dict[str, torch.Tensor]
    exp_avg: dict[str, torch.Tensor]
    exp_avg_sq: dict[str, torch.Tensor]
    pp_rank: int = 0
    tp_rank: int = 0


def learning_rate(spec: JobSpec, step: int) -> float:
    """Linear warm-up over ``warmup_steps``, then cosine decay to a tenth of ``lr`` at the last step."""
    if spec.warmup_steps and step <= spec.warmup_steps:
        return spec.lr * step / spec.warmup_steps
    span = max(1, spec.steps - spec.warmup_steps)
    progress = min(1.0, max(0.0, (step - spec.warmup_steps) / span))
    return spec.lr * (0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * progress)))


def resident_mb() -> float:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return float("nan")


class Engine:
    """Train ``spec`` as rank ``rank`` of ``layout`` (``torch.distributed`` already initialised when the
    layout has more than one worker)."""

    def __init__(self, spec: JobSpec, layout: Layout, micro_batch: int, rank: int = 0,
                 bounds: list[int] | None = None, device: str | torch.device = "cpu",
                 state: ShardState | None = None):
        self.spec = spec
        self.layout = layout
        self.device = torch.device(device)
        self.dtype = DTYPES[spec.dtype]
        self.per_replica = spec.global_batch // layout.dp
        if micro_batch < 1 or self.per_replica % micro_batch:
            raise ValueError(f"micro-batch {micro_batch} does not divide the per-replica batch {self.per_replica}")
        self.micro_batch = micro_batch
        self.num_micro = self.per_replica // micro_batch
        self.g: Groups = build_groups(layout, rank)
        self.layers = stage_bounds(spec.model.layers, layout.pp, bounds)[self.g.pp_rank]
        self.model = StageModel(spec.model, self.g, self.layers)
        if state is None:
            self.model.init_from_seed(spec.seed, layout.tp, self.g.tp_rank)
        self.model.to(device=self.device, dtype=self.dtype)
        self.params = dict(self.model.named_parameters())
        self.exp_avg = {n: torch.zeros_like(p) for n, p in self.params.items()}
        self.exp_avg_sq = {n: torch.zeros_like(p) for n, p in self.params.items()}
        self.data = TokenStream(spec)
        self.step = 0
        if state is not None:
            self.load(state)
        self.comm = None
        if layout.pp > 1:
            shape = (micro_batch, spec.model.seq_len, spec.model.hidden)
            self.comm = PipeComm(self.g, shape, self.dtype, self.device)

    # -- state -----------------------------------------------------------------------------------------
    def load(self, state: ShardState) -> None:
        with torch.no_grad():
            for name, p in self.params.items():
                p.copy_(state.params[name])
                self.exp_avg[name].copy_(state.exp_avg[name])
                self.exp_avg_sq[name].copy_(state.exp_avg_sq[name])
        self.step = state.step

    def export(self) -> ShardState:
        def cpu(d: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
            return {n: t.detach().to("cpu").clone() for n, t in d.items()}

        return ShardState(self.step, cpu(self.params), cpu(self.exp_avg), cpu(self.exp_avg_sq),
                          pp_rank=self.g.pp_rank, tp_rank=self.g.tp_rank)

    # -- one step --------------------------------------------------------------------------------------
    def train_step(self) -> dict[str, float]:
        """Run step ``self.step + 1``; returns its metrics (``loss`` is NaN on ranks off the last stage)."""
        step = self.step + 1
        start = time.perf_counter()
        for p in self.params.values():
            p.grad = None
        if self.layout.pp == 1:
            loss_sum = self._no_pipeline(step)
        elif self.spec.schedule == "gpipe":
            loss_sum = self._gpipe(step)
        else:
            loss_sum = self._one_f_one_b(step)
        self._average_gradients()
        grad_norm = self._clip()
        lr = learning_rate(self.spec, step)
        self._adamw(step, lr)
        loss = float("nan")
        if self.g.last_stage:
            mean = torch.tensor([loss_sum / self.num_micro], dtype=torch.float64, device=self.device)
            all_reduce(mean, self.g.dp_group)
            loss = float(mean.item()) / self.layout.dp
        self.step = step
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)
            memory = torch.cuda.max_memory_allocated(self.device) / 2**20
        else:
            memory = resident_mb()
        return {"loss": loss, "grad_norm": grad_norm, "lr": lr,
                "step_time_ms": (time.perf_counter() - start) * 1000.0, "memory_mb": memory}

    def _micro(self, step: int, k: int) -> tuple[torch.Tensor, torch.Tensor]:
        start = self.g.dp_rank * self.per_replica + k * self.micro_batch
        x, y = self.data.batch(step - 1, start, self.micro_batch)
        return x.to(self.device), y.to(self.device)

    def _loss(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float() if self.dtype == torch.bfloat16
                               else logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))

    def _no_pipeline(self, step: int) -> float:
        total = 0.0
        for k in range(self.num_micro):
            x, y = self._micro(step, k)
            loss = self._loss(self.model(x), y)
            (loss / self.num_micro).backward()
            total += float(loss.detach())
        return total

    def _forward(self, step: int, k: int, received: torch.Tensor | None) -> torch.Tensor:
        tokens, targets = self._micro(step, k)
        out = self.model(tokens if self.g.first_stage else received)
        return self._loss(out, targets) if self.g.last_stage else out

    def _backward(self, received: torch.Tensor | None, out: torch.Tensor,
                  grad: torch.Tensor | None) -> torch.Tensor | None:
        if self.g.last_stage:
            (out / self.num_micro).backward()
        else:
            torch.autograd.backward(out, grad)
        return None if received is None else received.grad

    def _recv_forward(self) -> torch.Tensor | None:
        x = self.comm.recv_forward()
        return None if x is None else x.requires_grad_()

    def _gpipe(self, step: int) -> float:
        """All forwards, then all backwards (GPipe): simple, holds every micro-batch's activations."""
        comm, total, saved = self.comm, 0.0, []
        for k in range(self.num_micro):
            x = self._recv_forward()
            y = self._forward(step, k, x)
            if self.g.last_stage:
                total += float(y.detach())
            else:
                comm.send_forward(y)
            saved.append((x, y))
        for x, y in saved:
            comm.send_backward(self._backward(x, y, comm.recv_backward()))
        return total

    def _one_f_one_b(self, step: int) -> float:
        """Megatron's non-interleaved 1F1B: a warm-up of forwards, a steady state of one forward and one
        backward, a cool-down of backwards; at most ``pp - stage`` micro-batches in flight per stage."""
        comm, g, m = self.comm, self.g, self.num_micro
        warmup = min(self.layout.pp - g.pp_rank - 1, m)
        steady = m - warmup
        total, saved, k = 0.0, [], 0

        def forward(x: torch.Tensor | None) -> torch.Tensor:
            nonlocal total, k
            y = self._forward(step, k, x)
            k += 1
            if g.last_stage:
                total += float(y.detach())
            saved.append((x, y))
            return y

        for _ in range(warmup):
            comm.send_forward(forward(self._recv_forward()))
        x = self._recv_forward() if steady else None
        for i in range(steady):
            y = forward(x)
            grad = comm.send_forward_recv_backward(y)
            x_b, y_b = saved.pop(0)
            grad_in = self._backward(x_b, y_b, grad)
            if i == steady - 1:
                comm.send_backward(grad_in)
            else:
                x = comm.send_backward_recv_forward(grad_in)
                if x is not None:
                    x.requires_grad_()
        for _ in range(warmup):
            x_b, y_b = saved.pop(0)
            comm.send_backward(self._backward(x_b, y_b, comm.recv_backward()))
        return total

    def _average_gradients(self) -> None:
        if self.g.dp_group is None:
            return
        grads = [p.grad for p in self.params.values()]
        flat = torch.cat([gr.reshape(-1) for gr in grads])
        all_reduce(flat, self.g.dp_group)
        flat /= self.layout.dp
        offset = 0
        for gr in grads:
            n = gr.numel()
            gr.copy_(flat[offset: offset + n].view_as(gr))
            offset += n

    def _clip(self) -> float:
        """Global gradient norm (split parameters summed over tp ranks, replicated ones counted once, all
        stages summed), then scale gradients down to ``grad_clip`` when above it."""
        sq = torch.zeros(1, dtype=torch.float64, device=self.device)
        for name, p in self.params.items():
            if split_dim(name) is not None or self.g.tp_rank == 0:
                sq += p.grad.detach().double().pow(2).sum()
        all_reduce(sq, self.g.tp_group)
        all_reduce(sq, self.g.pp_group)
        norm = float(sq.sqrt().item())
        if self.spec.grad_clip > 0 and norm > self.spec.grad_clip:
            scale = self.spec.grad_clip / (norm + 1e-6)
            for p in self.params.values():
                p.grad.mul_(scale)
        return norm

    @torch.no_grad()
    def _adamw(self, step: int, lr: float) -> None:
        b1, b2 = BETAS
        bias1, bias2 = 1 - b1**step, 1 - b2**step
        for name, p in self.params.items():
            grad = p.grad
            m, v = self.exp_avg[name], self.exp_avg_sq[name]
            if self.spec.weight_decay:
                p.mul_(1 - lr * self.spec.weight_decay)
            m.mul_(b1).add_(grad, alpha=1 - b1)
            v.mul_(b2).addcmul_(grad, grad, value=1 - b2)
            denom = (v / bias2).sqrt_().add_(EPS)
            p.addcdiv_(m, denom, value=-lr / bias1)


def configure_threads() -> None:
    """One intra-op thread per worker: workers share the machine's cores with each other."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    torch.set_num_threads(int(os.environ.get("ASSAY_WORKER_THREADS", "1")))
