"""Token data for the GPT workload, the same on every rank and every layout.

Sample ``i`` of the stream is a fixed sequence whatever the layout, so the global batch of step ``s``
(samples ``s * B ... (s + 1) * B - 1``) is the same for one worker or sixteen; each data-parallel rank
takes its contiguous share, each micro-batch a contiguous share of that.
"""

from __future__ import annotations

from pathlib import Path

import torch

from assay.domain.job_spec import JobSpec
from assay.ids import stable_id

#: Sequences generated for the synthetic stream; samples beyond it wrap around.
SYNTHETIC_SAMPLES = 2048
#: Successors per token in the synthetic Markov chain: few enough that the loss can fall well below
#: ln(vocab), so a test sees learning.
BRANCHING = 4


def _seed(*parts: object) -> int:
    return int(stable_id(*parts), 16) % (2**63)


def synthetic_tokens(vocab: int, seq_len: int, seed: int, samples: int = SYNTHETIC_SAMPLES) -> torch.Tensor:
    """``samples`` sequences of ``seq_len + 1`` tokens from a random sparse Markov chain."""
    gen = torch.Generator().manual_seed(_seed("markov", seed, vocab))
    successors = torch.randint(0, vocab, (vocab, BRANCHING), generator=gen)
    weights = torch.rand(vocab, BRANCHING, generator=gen) + 0.1
    out = torch.empty(samples, seq_len + 1, dtype=torch.long)
    out[:, 0] = torch.randint(0, vocab, (samples,), generator=gen)
    for t in range(1, seq_len + 1):
        choice = torch.multinomial(weights[out[:, t - 1]], 1, generator=gen).squeeze(1)
        out[:, t] = successors[out[:, t - 1], choice]
    return out


def text_tokens(path: str | Path, seq_len: int) -> torch.Tensor:
    """Non-overlapping windows of ``seq_len + 1`` bytes of a text file (bytes are the tokens)."""
    data = torch.tensor(list(Path(path).read_bytes()), dtype=torch.long)
    n = (len(data) - 1) // seq_len
    if n < 1:
        raise ValueError(f"{path} is shorter than one sequence of {seq_len + 1} bytes")
    return torch.stack([data[i * seq_len: i * seq_len + seq_len + 1] for i in range(n)])


class TokenStream:
    """The job's samples; ``batch(step, start, size)`` is samples ``step * B + start ...`` of the stream."""

    def __init__(self, spec: JobSpec):
        m = spec.model
        if spec.data == "synthetic":
            self.samples = synthetic_tokens(m.vocab, m.seq_len, spec.seed)
        else:
            self.samples = text_tokens(spec.data, m.seq_len)
        self.global_batch = spec.global_batch

    def batch(self, step: int, start: int, size: int) -> tuple[torch.Tensor, torch.Tensor]:
        """(inputs, targets) of ``size`` samples starting ``start`` samples into step ``step``'s batch."""
        first = step * self.global_batch + start
        idx = torch.arange(first, first + size) % len(self.samples)
        seqs = self.samples[idx]
        return seqs[:, :-1], seqs[:, 1:]
