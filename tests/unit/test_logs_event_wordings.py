"""Event wordings seen in logs of many tools (checkpoints, failures, preemption), through the whole
``parse_log`` path, and the clean-run text that mentions the same words without any event happening."""

from __future__ import annotations

import pytest

from assay.operators.logs import parse_log

_AROUND = ["step 1 loss 2.50", "step 2 loss 2.40"]


def _kinds(tmp_path, line):
    path = tmp_path / "run.log"
    path.write_text("\n".join([*_AROUND, line, "step 3 loss 2.30"]) + "\n", encoding="utf-8")
    return parse_log(str(path)).event_kinds()


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("Save best model to work/exp4/best_acc.pt (acc 0.731)", "checkpoint"),
        ("epoch 6 done; saving snapshot", "checkpoint"),
        ("trainer: saved a snapshot of the run state to snaps/e6", "checkpoint"),
        ("Saved checkpoint for iteration 900", "checkpoint"),
        ("Model saved at ./out/ep6", "checkpoint"),
        ("step 900 | writing checkpoint ...", "checkpoint"),
        ("checkpoint written: ./ckpt/000900", "checkpoint"),
        ("job 3310 preempted by a higher-priority job", "preempted"),
        ("SIGTERM received, writing the last state and exiting", "cancelled"),
        ("[rank0] caught SIGTERM at step 901", "cancelled"),
        ("Job cancelled by the user at 12:04", "cancelled"),
        ("requeue job 3310 (attempt 2)", "restart"),
        ("scheduler: node failure detected on node gpu-27", "hardware_error"),
        (
            "[Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=77, OpType=BROADCAST)",
            "hardware_error",
        ),
        ("RuntimeError: CUDA error: an illegal memory access was encountered", "hardware_error"),
        ("train.sh: line 9: 1123 Segmentation fault      python train.py", "failure"),
        ("Killed", "failure"),
        ("ERROR: worker failed (exitcode: -9) local_rank: 1 (pid: 77)", "failure"),
        ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ", "failure"),
    ],
)
def test_wordings_give_their_event(tmp_path, line, kind):
    assert kind in _kinds(tmp_path, line)


@pytest.mark.parametrize(
    "line",
    [
        "no checkpoint found, starting from scratch",
        "resume_from_checkpoint=None",
        "save_steps=500",
        "killed_workers: 0",
        "Found no checkpoint to resume from; training a fresh model",
        "checkpoint_dir: ./ckpt  save_total_limit: 3",
        "node_failure_retries: 3",
        "requeue=False  preemptible=False",
        "cancel_on_failure: true",
        "snapshot_interval: 1000",
    ],
)
def test_clean_run_text_gives_no_event(tmp_path, line):
    assert _kinds(tmp_path, line) == []


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("Exception: skipped 25 steps in a row because of fp16 overflow - giving up.", "skipped_step"),
        ("monitor: Skipped 12 consecutive updates due to inf gradients", "skipped_step"),
        ("第 2 轮训练结束，模型已保存", "checkpoint"),
        ("正在保存模型 ...", "checkpoint"),
        ("权重已保存到 out/epoch_2.pth", "checkpoint"),
        ("第 4 轮: 验证损失下降, 保存最佳模型 (val_loss=0.913)", "checkpoint"),
        ("保存当前权重到 runs/last.pt", "checkpoint"),
        ("Initializing from \tsnaps/ckpt_7.t7", "restart"),
        ("loaded checkpoint from runs/exp3/ckpt_last.pt (iteration 900)", "restart"),
        ("Resuming training from checkpoint out/step_900", "restart"),
        ("trainer INFO: resume from checkpoint out/hmean_0.61.pth (epoch 12)", "restart"),
    ],
)
def test_more_wordings_give_their_event(tmp_path, line, kind):
    assert kind in _kinds(tmp_path, line)


@pytest.mark.parametrize(
    "line",
    [
        "init_from = 'scratch'",
        "no checkpoint to initialize from; weights are random",
        "Initializing from scratch",
        "skip_steps = 50",
        "save_model: False  是否保存: 否",
        "本轮不保存最佳模型",
    ],
)
def test_more_clean_text_gives_no_event(tmp_path, line):
    assert _kinds(tmp_path, line) == []


def test_a_resume_before_the_first_record_is_at_the_step_it_goes_on_from(tmp_path):
    path = tmp_path / "run.log"
    path.write_text(
        "$ lua fit.lua -init_from snaps/ckpt_7.t7\nInitializing from \tsnaps/ckpt_7.t7\n"
        "Epoch 1.20 / 10, k = 71 / 600, loss = 1.90\nEpoch 1.22 / 10, k = 72 / 600, loss = 1.88\n",
        encoding="utf-8",
    )
    assert [(e["kind"], e["step"]) for e in parse_log(str(path)).events] == [("restart", 71)]


def test_a_resume_after_a_crash_is_at_the_step_it_goes_on_from(tmp_path):
    # the run crashed past step 300 and goes on from the save at 200: the resume is at 200, where its records
    # start again, not at the 300 printed before it
    path = tmp_path / "run.log"
    path.write_text(
        "step: 100, loss: 0.91\nstep: 200, loss: 0.82\nstep: 300, loss: 0.77\n"
        "seg INFO: resume from checkpoint out/step_200.pth\n"
        "step: 200, loss: 0.83\nstep: 300, loss: 0.76\n",
        encoding="utf-8",
    )
    restarts = [e["step"] for e in parse_log(str(path)).events if e["kind"] == "restart"]
    assert restarts == [200]


def test_a_saves_step_is_never_the_milliseconds_of_its_clock(tmp_path):
    # the save's line names no step; the ``,976`` after the clock is milliseconds, not the step 976 that lies
    # between the records around it (a long settings dump of bare lines keeps the clock on the save's line)
    settings = [f"            'option_{k}': {k}," for k in range(100)]
    lines = [
        "2021-01-02 10:00:01,100 seg INFO: global_step: 500, loss: 0.51",
        "2021-01-02 10:00:02,976 seg INFO: Saving latest checkpoint: out/model_latest.pth",
        "2021-01-02 10:00:03,001 seg INFO: {'trainer': {'epochs': 200,",
        *settings,
        "            'seed': 2}}",
        "2021-01-02 10:00:04,100 seg INFO: global_step: 1000, loss: 0.42",
    ]
    path = tmp_path / "run.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    saves = [e["step"] for e in parse_log(str(path)).events if e["kind"] == "checkpoint"]
    assert saves == [500]


def test_a_run_that_diverges_and_is_launched_again_to_resume(tmp_path):
    # a detector's non-finite outputs end the run; a new process starts with resume=True in its arguments
    def at(clock: str, text: str) -> str:
        return f"[03/04 {clock}] seg.engine INFO: {text}"

    lines = [at("05:06:0" + str(k), f"iter: {100 + 20 * k}  total_loss: {0.5 - k / 100:.3f}  lr: 0.01") for k in range(5)]
    lines += [
        "[03/04 05:07:00] seg.engine.loop ERROR: Exception during training:",
        "Traceback (most recent call last):",
        '  File "loop.py", line 40, in train',
        "FloatingPointError: Predicted masks contain Inf/NaN. Training has diverged.",
        at("05:20:00", "Rank of current process: 0. World size: 4"),
        at("05:20:01", "Command line arguments: Namespace(config_file='r50.yaml', resume=True, num_gpus=4)"),
    ]
    path = tmp_path / "log.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    kinds = parse_log(str(path)).event_kinds()
    assert "nan" in kinds and "restart" in kinds
    assert "failure" not in kinds  # the traceback is the NaN check's stop, no failure of its own


def test_a_traceback_right_after_the_runs_nan_stop_is_that_stop(tmp_path):
    # an estimator's NaN hook stops the run and the traceback of that stop follows (cut before its last line)
    lines = [
        "INFO:estimator:loss = 0.91, step = 0",
        "ERROR:estimator:Model diverged with loss = NaN.",
        "Traceback (most recent call last):",
        '  File "train.py", line 88, in <module>',
        "    main()",
    ]
    path = tmp_path / "run.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    log = parse_log(str(path))
    assert "nan" in log.event_kinds() and "failure" not in log.event_kinds()
    assert log.run["status"] == "diverged"
