"""A script's options printed once before it trains give the run's settings (issue 25): a banner and a block
of ``key: value`` lines, an argparse ``Namespace(...)`` or an ``args: {...}`` dict. Before, the general
reader read no settings from them and the run's layout stayed empty. Own-worded logs through ``parse_log``."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import parse_log


def _records(n: int = 4) -> list[str]:
    return [f"[{k}/5000] lr: 0.05 step_time: 0.31{k} train_loss: {3.1 - k / 50:.4f}" for k in range(1, n + 1)]


def test_a_block_of_options_under_a_banner(tmp_path):
    lines = ["======= Settings =======", "run_tag: ocr-small-7", "seed: 77", "batch_size: 96", "world_size: 2",
             "hidden_dim: 384", "lr: 0.05", "", *_records()]
    log = parse_log(write_log(tmp_path, lines, "ocr.log"))
    assert log.run["micro_batch_size"] == 96
    assert log.run["world_size"] == 2
    assert [s for s, _ in log.series("loss")] == [1, 2, 3, 4]
    assert not log.series("batch_size") and not log.series("world_size")


def test_an_argparse_namespace_line(tmp_path):
    lines = ["Namespace(data='/srv/pics', batch_size=48, lr=0.05, world_size=4, workers=6)", *_records()]
    log = parse_log(write_log(tmp_path, lines, "ns.log"))
    assert (log.run["micro_batch_size"], log.run["world_size"]) == (48, 4)


def test_an_args_dict_line(tmp_path):
    lines = ["args: {'per_device_train_batch_size': 12, 'gradient_accumulation_steps': 2, 'lr': 0.05}", *_records()]
    log = parse_log(write_log(tmp_path, lines, "dict.log"))
    assert log.run["micro_batch_size"] == 12


def test_a_batch_size_after_the_first_record_is_no_option(tmp_path):
    lines = [*_records(2), "batch_size: 500", *_records(4)[2:]]
    log = parse_log(write_log(tmp_path, lines, "late.log"))
    assert log.run["micro_batch_size"] is None


def test_a_table_of_arguments_and_values_is_settings_not_records(tmp_path):
    # a script that prints its arguments as a two-column table between rules, behind the first line's logger
    # prefix only: its ``epoch | 60`` is the epochs asked for, no step, and its ``lr | 0.002`` no point of a curve
    rule = "=" * 36
    lines = [
        "INFO:root:Namespace(model_name='GRU4Rec')",
        "INFO:root:",
        rule,
        " Arguments      | Values            ",
        rule,
        " batch_size     | 128               ",
        " epoch          | 60                ",
        " lr             | 0.002             ",
        " optimizer      | Adam              ",
        rule,
    ]
    lines += [f"INFO:root:Epoch {k:<4}  loss={0.7 - k / 20:.4f} [2.1 s]" for k in range(1, 5)]
    log = parse_log(write_log(tmp_path, lines, "rec.log"))
    assert [s for s, _ in log.series("loss")] == [1, 2, 3, 4]
    assert not log.series("lr")
    assert log.run["micro_batch_size"] == 128


def test_a_batch_size_per_gpu_option_is_the_micro_batch(tmp_path):
    lines = ["arch: vit_tiny", "batch_size_per_gpu: 48", "epochs: 30", "", *_records()]
    log = parse_log(write_log(tmp_path, lines, "lin.log"))
    assert log.run["micro_batch_size"] == 48


def test_a_world_size_a_relaunched_process_states_is_the_runs(tmp_path):
    # the excerpt opens mid-run; the process launched again after a crash prints its layout
    lines = [*_records(3), "Traceback (most recent call last):", "RuntimeError: CUDA error: an illegal memory access",
             "[03/04 05:20:00] seg INFO: Rank of current process: 0. World size: 6"]
    log = parse_log(write_log(tmp_path, lines, "relaunch.log"))
    assert log.run["world_size"] == 6


@pytest.mark.parametrize(
    ("banner", "world"),
    [("Distributing across 4 GPUs...", 4), ("Training on 8 GPUs", 8), ("Using 2 GPUs", 2), ("Let's use 3 GPUs!", 3)],
)
def test_a_sentence_saying_how_many_gpus_the_run_spreads_over_is_its_world_size(tmp_path, banner, world):
    lines = [banner, *[f"step {k} loss {1 - k / 10:.2f}" for k in (1, 2, 3)]]
    assert parse_log(write_log(tmp_path, lines)).run["world_size"] == world


def test_a_count_of_gpus_in_a_sentence_about_something_else_is_no_world_size(tmp_path):
    lines = ["the cluster has 8 GPUs per node", *[f"step {k} loss {1 - k / 10:.2f}" for k in (1, 2, 3)]]
    assert parse_log(write_log(tmp_path, lines)).run.get("world_size") is None
