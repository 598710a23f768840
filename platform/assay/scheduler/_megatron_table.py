"""Megatron-LM's weak-scaling table, the cost model's reference measurements.

Source: D. Narayanan, M. Shoeybi, J. Casper, P. LeGresley, M. Patwary, V. Korthikanti, D. Vainbrand,
P. Kashinkunti, J. Bernauer, B. Catanzaro, A. Phanishayee, M. Zaharia. "Efficient Large-Scale Language
Model Training on GPU Clusters Using Megatron-LM", SC'21 (arXiv:2104.04473), Table 1: "Weak-scaling
throughput for GPT models ranging from 1 billion to 1 trillion parameters". Selene, DGX A100 nodes
(8x A100 80 GB, NVLink/NVSwitch, 8x HDR 200 Gb/s InfiniBand per node), mixed precision, sequence 2048,
vocabulary 51,200, activation recomputation; teraFLOP/s counted with the paper's eq. 3 (recomputation
included), end to end (data loading, optimizer and logging included).

The micro-batch size of each row is not published; the check takes the cost model's best one for the
published (t, p, d). Note the 1T row has 160 attention heads (hidden 25600, head size 160).
"""

from __future__ import annotations

from dataclasses import dataclass

SOURCE = ("Narayanan et al., SC'21, 'Efficient Large-Scale Language Model Training on GPU Clusters Using "
          "Megatron-LM', Table 1 (arXiv:2104.04473)")
GPU = "a100-80g"
PEAK_TFLOPS = 312.0


@dataclass(frozen=True)
class MegatronRow:
    model: str  # assay preset name
    params_billion: float
    heads: int
    hidden: int
    layers: int
    tp: int
    pp: int
    gpus: int
    global_batch: int
    tflops_per_gpu: float
    percent_of_peak: float
    aggregate_pflops: float

    @property
    def dp(self) -> int:
        return self.gpus // (self.tp * self.pp)


ROWS: tuple[MegatronRow, ...] = (
    MegatronRow("gpt-1.7b", 1.7, 24, 2304, 24, 1, 1, 32, 512, 137, 44, 4.4),
    MegatronRow("gpt-3.6b", 3.6, 32, 3072, 30, 2, 1, 64, 512, 138, 44, 8.8),
    MegatronRow("gpt-7.5b", 7.5, 32, 4096, 36, 4, 1, 128, 512, 142, 46, 18.2),
    MegatronRow("gpt-18b", 18.4, 48, 6144, 40, 8, 1, 256, 1024, 135, 43, 34.6),
    MegatronRow("gpt-39b", 39.1, 64, 8192, 48, 8, 2, 512, 1536, 138, 44, 70.8),
    MegatronRow("gpt-76b", 76.1, 80, 10240, 60, 8, 4, 1024, 1792, 140, 45, 143.8),
    MegatronRow("gpt-145b", 145.6, 96, 12288, 80, 8, 8, 1536, 2304, 148, 47, 227.1),
    MegatronRow("gpt-310b", 310.1, 128, 16384, 96, 8, 16, 1920, 2160, 155, 50, 297.4),
    MegatronRow("gpt-530b", 529.6, 128, 20480, 105, 8, 35, 2520, 2520, 163, 52, 410.2),
    MegatronRow("gpt-1t", 1008.0, 160, 25600, 128, 8, 64, 3072, 3072, 163, 52, 502.0),
)
