"""Trainer dicts that carry only their epoch: printed in bursts behind the bar (stdout buffered), with no bar at
all and saves naming the steps, under a banner of settings rows, or after bars that lost their carriage returns.
Every log here is written for the test in the shapes these runs print."""

from __future__ import annotations

from assay.operators.logs import parse_log
from assay.operators.logs._dict_steps import buffered_steps, saved_steps


def _bar(n: int, total: int) -> str:
    return f"{100 * n // total:3d}%|#         | {n}/{total} [00:{n:02d}<01:00,  1.20s/it]"


def _dict(loss: float, epoch: float) -> str:
    return f"{{'loss': {loss}, 'grad_norm': 0.31, 'learning_rate': 2e-05, 'epoch': {epoch}}}"


def _eval(loss: float, epoch: float) -> str:
    return f"{{'eval_loss': {loss}, 'eval_runtime': 12.5, 'eval_samples_per_second': 8.1, 'epoch': {epoch}}}"


def test_dicts_flushed_in_bursts_take_their_steps_from_the_burst_end(tmp_path):
    # 200 steps in one epoch, a log every 10 and an evaluation every 50; stdout reaches the file only when the
    # buffer fills, so five dicts at a time come out under the bar that was drawn when they were flushed
    total, lines, bars = 200, ["Preparing pairs: 0/900 [00:00<?, ? examples/s]"], []
    logged = [(step, round(step / total, 2)) for step in range(10, 201, 10)]
    for burst_end in (50, 100, 150, 200):
        bars = [_bar(n, total) for n in range(burst_end - 49, burst_end + 1)]
        lines.append("\r".join(bars))
        for step, epoch in logged:
            if burst_end - 50 < step <= burst_end:
                lines.append(_dict(round(1.0 - step / 1000, 3), epoch))
                if step % 50 == 0 and step < 200:
                    lines.append(_eval(round(1.1 - step / 1000, 3), epoch))
    path = tmp_path / "dpo.log"
    path.write_text("\n".join(lines) + "\n")
    parsed = parse_log(path)
    assert [s for s, _ in parsed.series("loss")] == list(range(10, 201, 10))
    assert [s for s, _ in parsed.series("val_loss")] == [50, 100, 150]


def test_a_console_that_shows_each_dict_at_once_keeps_the_bar_steps(tmp_path):
    lines = []
    for step in range(1, 61):
        lines.append(_bar(step, 60))
        if step % 20 == 0:
            lines.append(_dict(0.5, round(step / 60 * 3, 2)))  # three epochs: the epoch is no step count alone
    path = tmp_path / "sft.log"
    path.write_text("\n".join(lines) + "\n")
    assert [s for s, _ in parse_log(path).series("loss")] == [20, 40, 60]


def test_with_no_bar_the_saves_name_the_steps_of_the_dicts_before_them(tmp_path):
    # stderr was not kept: no bar, only the dicts and the saves into folders named by the global step
    lines = []
    for step in [1, *range(10, 121, 10)]:
        lines.append(_dict(round(2.0 - step / 100, 3), round(step / 240, 2)))
        if step % 40 == 0:
            lines.append(f"Saving model checkpoint to out/sft/checkpoint-{step}")
    path = tmp_path / "nobar.log"
    path.write_text("\n".join(lines) + "\n")
    parsed = parse_log(path)
    assert [s for s, _ in parsed.series("loss")] == [1, *range(10, 121, 10)]
    assert [e["step"] for e in parsed.events if e["kind"] == "checkpoint"] == [40, 80, 120]


def test_a_banner_of_setting_rows_and_bars_run_together_give_steps_from_the_epoch(tmp_path):
    # a fine-tuning wrapper's banner: settings parted by bars beside a logo; the bar's redraws were kept
    # without their carriage returns, and the dicts came out only after the bar had finished
    redraws = "".join(_bar(n, 30) for n in range(31))
    lines = [
        "~~ ||  Wrapper 1.2: fast fine-tuning | Num GPUs used = 1",
        "~~ ||  Num examples = 240 | Num Epochs = 1 | Total steps = 30",
        "~~ ||  Batch size per device = 2 | Gradient accumulation steps = 4",
        "~~ ||  Data Parallel GPUs = 1 | Total batch size (2 x 4 x 1) = 8",
        redraws,
        *[_dict(round(1.5 - step / 100, 3), round(step / 30, 2)) for step in range(6, 31, 6)],
        "{'train_runtime': 40.2, 'train_samples_per_second': 5.9, 'train_loss': 1.3, 'epoch': 1.0}",
        "Saved LoRA adapter to out/final_adapter",
    ]
    path = tmp_path / "wrapper.log"
    path.write_text("\n".join(lines) + "\n")
    parsed = parse_log(path)
    assert [s for s, _ in parsed.series("loss")] == [6, 12, 18, 24, 30]
    assert parsed.series("train_loss_mean") == [(30, 1.3)]
    run = parsed.run
    assert (run["micro_batch_size"], run["global_batch_size"], run["dp"]) == (2, 8, 1)
    assert [e["kind"] for e in parsed.events] == ["checkpoint"]


def test_a_save_into_a_step_folder_is_at_that_step_with_no_record_to_check(tmp_path):
    path = tmp_path / "rl.log"
    path.write_text(
        "(Worker pid=11) INFO: [Rank 1] Saved model to /ckpt/run/global_step_40/actor/model_rank_1.pt\n"
        "(Runner pid=10) local folder: /ckpt/run/global_step_40\n"
    )
    assert [(e["kind"], e["step"]) for e in parse_log(path).events] == [("checkpoint", 40)]


def test_the_burst_reading_needs_two_bursts_that_agree():
    one_burst = [(0.1, 40), (0.2, 40), (0.3, 40), (0.4, 40)]
    assert buffered_steps(one_burst) is None
    stale_bar = [(0.1, 10), (0.15, 10), (0.3, 30), (0.35, 30), (0.5, 50), (0.55, 50)]  # first dict at the bar
    assert buffered_steps(stale_bar) is None
    assert saved_steps([0.1, 0.2], [(40, 0.2), (90, 0.2)]) is None  # saves that disagree name no steps


def test_dicts_buffered_until_after_the_bar_finished_have_no_step_the_text_gives(tmp_path):
    # the last dozen logs of a three-epoch run reach the file only after the bar drew its total: each was logged
    # at some step up to 600, but the text never says the logging interval; none is past the run's last step
    lines = ["\r".join(_bar(n, 600) for n in range(590, 601))]
    lines += [_eval(1.31, 2.9)]
    lines += [_dict(round(1.3 - i / 100, 2), round(2.9 + i / 120, 3)) for i in range(12)]
    lines.append("{'train_runtime': 3600.5, 'train_samples_per_second': 1.4, 'train_loss': 1.36, 'epoch': 3.0}")
    path = tmp_path / "sft_buffered.log"
    path.write_text("\n".join(lines) + "\n")
    parsed = parse_log(path)
    steps = [s for s, _ in parsed.series("loss")]
    assert len(steps) == 12 and set(steps) == {None}
    assert parsed.series("val_loss") == [(None, 1.31)]


def test_one_log_after_the_finished_bar_is_at_its_last_step(tmp_path):
    lines = ["\r".join(_bar(n, 600) for n in range(590, 601)), _dict(1.25, 3.0)]
    lines.append("{'train_runtime': 3600.5, 'train_samples_per_second': 1.4, 'train_loss': 1.36, 'epoch': 3.0}")
    path = tmp_path / "sft_last.log"
    path.write_text("\n".join(lines) + "\n")
    assert parse_log(path).series("loss") == [(600, 1.25)]
