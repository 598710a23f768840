"""Progress bars as a cloud log collector stores them off a launcher's tagged output: Open MPI's prefix naming the
rank and the host (``[1,mpirank:0,host-1]<stdout>:``), carriage returns and escapes written as ``#`` and their octal
code (``#015``, ``#033[A``), and Lightning's bar without its drawn part. A bar drawn again at an epoch's start (at
0) shows the values of the step before it, and a bar cut in the key after its last value keeps that value. Logs
written for the test."""

from __future__ import annotations

from assay.operators.logs import parse_log
from assay.operators.logs._lines import normalize

_TAG = "[1,mpirank:{rank},host-1]<stdout>:"


def _bar(epoch: int, i: int, n: int, post: str, rank: int = 0) -> str:
    share = 100 * i // n
    return f"{_TAG.format(rank=rank)}#015Epoch {epoch}: {share:3d}% {i}/{n} [00:01<00:02,  4.20it/s, {post}]"


def test_escaped_redraws_under_a_tagged_prefix_are_the_bars_steps(tmp_path):
    lines = [
        _bar(0, 1, 4, "loss=1.90, v_num=3"),
        _bar(0, 2, 4, "loss=1.71, v_num=3"),
        f"{_TAG.format(rank=0)}#015Validation DataLoader 0: 100% 1/1 [00:00<00:00, 900.1it/s]#033[A",
        _bar(0, 4, 4, "loss=1.52, v_num=3, val_acc=0.412"),
        _bar(0, 0, 4, "loss=1.52, v_num=3, val_acc=0.412") + "        " + _bar(1, 0, 4, "loss=1.52, v_num=3")[len(_TAG.format(rank=0)):],
        # the last draw, cut where the excerpt ends, in the key after the loss
        f"{_TAG.format(rank=0)}#015Epoch 1:  25% 1/4 [00:00<00:01,  5.02it/s, loss=1.47, v_n",
    ]
    path = tmp_path / "job.log"
    path.write_text("\n".join(lines) + "\n")
    parsed = parse_log(path)
    assert parsed.run["framework"] == "PyTorch Lightning"
    assert parsed.series("loss") == [(1, 1.90), (2, 1.71), (4, 1.52), (5, 1.47)]
    assert parsed.series("val_acc") == [(4, 0.412)]
    assert "mpirank" not in {row["name"] for row in parsed.metrics.to_pylist()}


def test_a_hash_and_digits_in_a_message_are_left_alone():
    # one '#015' is an issue number, not an escaped carriage return; two or more are a collector's escapes
    message = b"step 1 loss 1.90 (see ticket #015)\nstep 2 loss 1.80\n"
    assert normalize(message) == message
    escaped = b"#015Epoch 0:  25% 1/4 [loss=1.9]#015Epoch 0:  50% 2/4 [loss=1.7]\n"
    assert normalize(escaped) == escaped.replace(b"#015", b"\r")
