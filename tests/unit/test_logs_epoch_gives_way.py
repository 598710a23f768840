"""An epoch taken for the step gives way to a named counter of the same record that rises on every record by a
steady stride (issue 25: the wrong counter becomes the step). The epoch changes rarely and by one; the updates
counter beside it is the finer step. A count of samples, tokens or time rises too but is an amount, no step.
Each log is written here in the shapes such loops print, through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_iterations_with_a_comma_glued_after_them_count_the_steps(tmp_path):
    lines = [
        f"(epoch: {1 + i // 3}, iters: {100 * (i + 1)}, time: {0.21 + i * 0.013:.3f}, data: 0.004) "
        f"G_GAN: {1.2 - i / 50:.3f} D_real: 0.41"
        for i in range(6)
    ]
    series = parse_log(write_log(tmp_path, lines)).series("g_gan")
    assert [s for s, _ in series] == [100, 200, 300, 400, 500, 600]


def test_a_count_of_updates_beside_the_epoch_is_the_step(tmp_path):
    lines = [
        f"| epoch {2 + i // 2:03d} | nupdates {3074 + 120 * i} | loss {4.1 - i / 10:.3f} | lr 0.0005"
        for i in range(4)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (3434, 3.8)
    assert [s for s, _ in log.series("loss")] == [3074, 3194, 3314, 3434]


def test_a_count_of_samples_beside_the_epoch_leaves_the_epoch_the_step(tmp_path):
    # samples seen rise on every record, unevenly: an amount, not the loop's counter
    lines = [
        f"epoch {1 + i} | samples_seen {1000 * (i + 1) * (i + 2)} | loss {2 - i / 10:.2f}" for i in range(4)
    ]
    assert [s for s, _ in parse_log(write_log(tmp_path, lines)).series("loss")] == [1, 2, 3, 4]
