"""A command's options (``--seed 99 --epoch 80``), also a command line a terminal wrapped mid-word, are the run's
settings, not a record at the epoch or step they name (issue 25). Own-written lines through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_wrapped_command_line_is_no_record(tmp_path):
    lines = [
        "Run: 7_20250101_101010",
        "",
        "uv run train_agent.py --algorithm dqn --scenario maze --train_levels 0 --train_maps 1 --test_levels 0 --t",
        "est_maps 1 --seed 7 --epoch 40 --step-per-collect 10 --device cuda --batch-size 32 --frame-stack 4",
        "",
    ]
    lines += [
        f"Epoch #{e}: 50001it [03:10, 262.1it/s, env_step={e * 50000}, len=90, loss={0.2 - e / 100:.3f}, rew=1.{e}]"
        for e in (1, 2, 3)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [50000, 100000, 150000]
    assert 40 not in set(log.metrics.column("step").to_pylist())
    assert not {"seed", "frame_stack", "step_per_collect"} & set(log.metrics.column("name").to_pylist())


def test_a_commands_batch_flag_a_settings_dump_and_a_model_summary_are_no_records(tmp_path):
    lines = [
        "(venv) user@host:~/det$ python train.py --img 640 --batch 16 --epochs 3 --data boxes.yaml",
        "hyperparameters: lr0=0.01, lrf=0.1, momentum=0.937, weight_decay=0.0005, warmup_epochs=3.0",
        "Model Summary: 214 layers, 7022326 parameters, 7022326 gradients, 15.9 GFLOPs",
    ]
    lines += [f"iter {s} | loss {1.0 - s / 1000:.3f} | lr 0.01" for s in (10, 20, 30)]
    log = parse_log(write_log(tmp_path, lines))
    steps = {s for s in log.metrics.column("step").to_pylist() if s is not None}
    assert steps == {10, 20, 30}
    assert not {"lr0", "momentum", "weight_decay", "summary"} & set(log.metrics.column("name").to_pylist())
