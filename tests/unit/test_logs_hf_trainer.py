"""Hugging Face Trainer: stdout dicts behind rank prefixes and tqdm carriage returns, trainer_state.json."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.operators.logs import parse_log

SAMPLES = Path(__file__).resolve().parents[2] / "pipelines" / "samples" / "logs"


def test_stdout_dicts_take_the_step_from_the_progress_bar():
    parsed = parse_log(SAMPLES / "hf_trainer_gpt2_ddp.log")
    loss = parsed.series("loss")
    assert [s for s, _ in loss] == list(range(20, 201, 20))
    grad = parsed.series("grad_norm")
    assert len(grad) == 10 and all(1.0 < v < 2.3 for _, v in grad)  # tensor(1.2345, device='cuda:0') too
    assert [s for s, _ in parsed.series("val_loss")] == [72, 144]
    # the end-of-run summary closes the last training log (step 200), though the bar ran on to 216
    assert parsed.series("samples_per_s") == [(200, pytest.approx(33.469))]
    run = parsed.run
    assert (
        run["status"],
        run["model"],
        run["world_size"],
        run["micro_batch_size"],
        run["global_batch_size"],
    ) == ("completed", "GPT-2", 2, 8, 32)
    assert [e["step"] for e in parsed.events if e["kind"] == "checkpoint"] == [72, 144]


def test_trainer_state_json():
    parsed = parse_log(SAMPLES / "hf_checkpoint-100" / "trainer_state.json")
    assert parsed.records[0]["log_format"] == "hf_trainer_state"
    assert [s for s, _ in parsed.series("loss")] == list(range(10, 101, 10))
    assert [s for s, _ in parsed.series("val_loss")] == [50, 100]
    assert parsed.run["status"] == "completed" and parsed.run["micro_batch_size"] == 16
    assert parsed.series("train_loss_mean") == [(100, 1.61)]  # the run's mean, not a point of the curve


def test_truncated_trainer_state_is_an_issue(tmp_path):
    path = tmp_path / "trainer_state.json"
    path.write_text((SAMPLES / "hf_checkpoint-100" / "trainer_state.json").read_text()[:500])
    parsed = parse_log(path)
    assert parsed.metrics.num_rows == 0 and "truncated" in parsed.issues[0]["error"]


def test_newer_trainers_print_values_as_strings(tmp_path):
    path = tmp_path / "train.log"
    path.write_text(
        "***** Running training *****\n  Num Epochs = 1\n  Total optimization steps = 20\n"
        + "".join(
            f"{{'loss': '{3 - i / 10:.4f}', 'grad_norm': '1.5', 'learning_rate': '4.9e-05', "
            f"'epoch': '{i / 10:.2f}'}}\n"
            for i in range(1, 11)
        )
        + "{'train_runtime': '12.5', 'train_samples_per_second': '80.1', 'train_loss': '2.5', "
        "'epoch': '1.0'}\n"
    )
    parsed = parse_log(path)
    loss = parsed.series("loss")
    assert [s for s, _ in loss] == [2 * i for i in range(1, 11)]  # no bar: the epoch gives the step
    assert loss[-1][1] == pytest.approx(2.0) and parsed.run["status"] == "completed"


def test_numbered_dicts_count_training_logs_only(tmp_path):
    """Without a progress bar, a step key or epochs to count from, a dict's step is unknown: their order is no
    step (they are logged every ``logging_steps``)."""
    path = tmp_path / "train.log"
    path.write_text(
        "[INFO|trainer.py:2128] 2024-05-01 12:00:00,000 >> ***** Running training *****\n"
        "{'loss': 3.2101, 'grad_norm': 2.345, 'learning_rate': 4.9e-05, 'epoch': 0.02}\n"
        "{'loss': 2.9876, 'grad_norm': 1.987, 'learning_rate': 4.8e-05, 'epoch': 0.04}\n"
        "{'eval_loss': 2.8765, 'eval_runtime': 12.3, 'eval_samples_per_second': 81.3, 'epoch': 0.04}\n"
        "{'loss': 2.7654, 'grad_norm': 1.876, 'learning_rate': 4.7e-05, 'epoch': 0.06}\n"
        "{'train_runtime': 345.6, 'train_samples_per_second': 86.8, 'train_loss': 2.99, 'epoch': 0.06}\n"
    )
    parsed = parse_log(path)
    assert parsed.series("loss") == [(None, 3.2101), (None, 2.9876), (None, 2.7654)]
    assert parsed.series("val_loss") == [(None, 2.8765)]


def test_a_datasets_bar_over_rows_gives_no_step(tmp_path):
    # the datasets library's map bar counts examples before training: the dicts after it are not at its count
    bar = "█" * 40
    lines = [
        "Loading the corpus",
        f"Map (num_proc=2): 100%|{bar}| 4000/4000 [00:07<00:00, 540.12 examples/s]",
        "***** Running training *****",
        "  Num examples = 4,000",
    ]
    lines += [
        f"{{'loss': {3.0 - k / 10:.4f}, 'grad_norm': 1.5, 'learning_rate': 2e-05, 'epoch': {k / 4:.2f}}}"
        for k in range(1, 5)
    ]
    path = tmp_path / "train.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    parsed = parse_log(path)
    loss = parsed.series("loss")
    assert len(loss) == 4 and loss[-1][1] == pytest.approx(2.6)
    assert 4000 not in {s for s, _ in loss}


def test_dicts_printed_without_the_bar_drawn_again_go_on_by_their_epochs(tmp_path):
    # a console that glues a dict after the bar at step 20, then prints the next dicts on their own lines
    bar = "#" * 10
    per_epoch = 400
    lines = ["***** Running training *****"]
    lines.append(
        f"  5%|{bar}| 20/{per_epoch} [00:04<01:20,  4.70it/s]"
        f"{{'loss': 1.2, 'learning_rate': 4e-05, 'epoch': {20 / per_epoch}}}"
    )
    for step in (30, 40, 50):
        lines.append(" " * 40 + f"{{'loss': {1.2 - step / 500:.3f}, 'learning_rate': 4e-05, 'epoch': {step / per_epoch}}}")
    path = tmp_path / "train.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert [s for s, _ in parse_log(path).series("loss")] == [20, 30, 40, 50]
