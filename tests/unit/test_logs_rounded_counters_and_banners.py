"""Counters and banners in shapes research scripts print, read from their values: a step counter printed
rounded once it grows (``step:800`` then ``step:1K`` three times) goes on by the stride its exact records kept;
``Checkpoint policy after step 4000`` is a save at that step; ``cfg.steps=50000`` is a setting, so the
``Effective batch size: 32 x 1 = 32`` after it is still read; ``iters`` counts steps beside an epoch; a loop's
index letter after its counter word (``batch i:12``) is that counter; ``Training epoch: 3`` alone numbers the
lines after it and ``Eval epoch: 3`` heads the evaluation's values; a bracketed stamp of two-digit parts joined
by a bar (``[03.24.23|09:56:11]``) is a prefix. Own-written logs, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _rounded(n: int = 30, stride: int = 200) -> list[str]:
    lines = ["INFO 2026-01-02 03:04:05 run.py:267 cfg.steps=6000 (6K)",
             "INFO 2026-01-02 03:04:05 run.py:272 Effective batch size: 16 x 2 = 32"]
    for i in range(1, n + 1):
        step = i * stride
        shown = str(step) if step < 1000 else f"{round(step / 1000)}K"
        lines.append(f"INFO 2026-01-02 03:{i // 60:02d}:{i % 60:02d} run.py:357 step:{shown} smpl:{step * 32 // 1000}K "
                     f"loss:{3 / i:.3f} grdn:{9 / i:.3f} lr:1.0e-05")
        if step % 2000 == 0:
            lines.append(f"INFO 2026-01-02 03:{i // 60:02d}:{i % 60:02d} run.py:367 Checkpoint policy after step {step}")
    return lines


def test_a_rounded_counter_goes_on_by_its_stride(tmp_path):
    log = parse_log(write_log(tmp_path, _rounded()))
    assert [s for s, _ in log.series("loss")] == list(range(200, 6001, 200))


def test_a_checkpoint_after_a_step_is_a_save_there(tmp_path):
    log = parse_log(write_log(tmp_path, _rounded()))
    assert sorted(e["step"] for e in log.events if e["kind"] == "checkpoint") == [2000, 4000, 6000]


def test_a_configs_step_count_is_no_step_and_the_batch_is_read(tmp_path):
    log = parse_log(write_log(tmp_path, _rounded()))
    assert log.run["global_batch_size"] == 32


def test_iters_beside_an_epoch_count_steps(tmp_path):
    lines = [f"(epoch: {e}, iters: {i}, time: 0.27, data: 0.01) D_A: 0.3{i // 100} G_A: 0.4{e}"
             for e in (1, 2) for i in (100, 200, 300)]
    log = parse_log(write_log(tmp_path, lines))
    assert len({s for s in log.metrics.column("step").to_pylist() if s is not None}) > 2


def test_a_loops_index_letter_names_its_counter(tmp_path):
    # (every few batches an evaluation names the batch with a word of its own: the records are the batch's)
    lines = []
    for b in range(1, 13):
        lines.append(f"2025-06-04 19:53:{b:02d}, batch i:{b}, episode_len:{20 + b}")
        lines.append(f"kl:0.0{b},lr_multiplier:1.000,loss:{5 - b / 10:.3f},entropy:4.{b}")
        if b % 4 == 0:
            lines += [f"current self-play batch: {b}", f"num_playouts:1000, win: {b // 4}, lose: 9, tie:0"]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == list(range(1, 13))


def test_epoch_banners_number_training_and_head_evaluation(tmp_path):
    lines = []
    for e in range(6):
        lines += [f"[03.24.23|09:5{e}:11] Training epoch: {e}", f"[03.24.23|09:5{e}:31] \tmean_loss: {2 - e / 10:.4f}",
                  f"[03.24.23|09:5{e}:31] Done."]
        if e % 3 == 2:
            lines += [f"[03.24.23|09:5{e}:40] Eval epoch: {e}", f"[03.24.23|09:5{e}:50] \tmean_loss: {2.5 - e / 10:.4f}",
                      f"[03.24.23|09:5{e}:50] \tTop1: 4{e}.00%"]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == list(range(6))
    assert log.series("val_loss") == [(2, 2.3), (5, 2.0)]
