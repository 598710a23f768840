"""The event rules every format shares, on lines as real tools print them."""

from __future__ import annotations

import pytest

from assay.operators.logs._events import classify

LINES = [
    ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", "oom"),
    (
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity)",
        "oom",
    ),
    (
        "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=123.0. Some of your processes may have been killed",
        "oom",
    ),
    ("slurmstepd: error: *** JOB 1234 ON node1 CANCELLED AT 2024-01-01T12:00:00 ***", "cancelled"),
    (
        "slurmstepd: error: *** STEP 12.0 ON n1 CANCELLED AT 2024-01-01T12:00:00 DUE TO PREEMPTION ***",
        "preempted",
    ),
    ("KeyboardInterrupt", "cancelled"),
    (
        "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768",
        "skipped_step",
    ),
    (
        "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 131072, but hysteresis is 2. Reducing "
        "hysteresis to 1",
        "skipped_step",
    ),
    ("Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0", "skipped_step"),
    ("NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.", "hardware_error"),
    (
        "[E ProcessGroupNCCL.cpp:475] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1)",
        "hardware_error",
    ),
    (
        "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1275, unhandled system error",
        "hardware_error",
    ),
    ("node1:1234:5678 [0] NCCL INFO comm 0x1 rank 0 nranks 8 cudaDev 0 busId 1000 - Init COMPLETE", None),
    (
        "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 12) of binary: "
        "/usr/bin/python",
        "failure",
    ),
    ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:", "failure"),
    ("srun: error: node12: task 3: Exited with exit code 1", "failure"),
    ("AttributeError: 'NoneType' object has no attribute 'sizes'", "failure"),
    (
        "INFO:torch.distributed.elastic.agent.server.api:[default] Worker group FAILED. 3/3 attempts left; will restart "
        "worker group",
        "restart",
    ),
    ("  restart_count=1", "restart"),
    ("  restart_count=0", None),
    ("saving checkpoint at iteration     100 to /ckpt in torch_dist format", "checkpoint"),
    ("  successfully saved checkpoint from iteration     100 to /ckpt [ t 1/1, p 1/1 ]", None),
    ("Saving model checkpoint to ./out/checkpoint-500", "checkpoint"),
    ("loading checkpoint from /ckpt at iteration 100", None),
    ("RuntimeError: Loss is NaN, stopping training", "nan"),
    ("/x.py:91: UserWarning: the fp8 argument is deprecated, out of memory savings are smaller", None),
]


@pytest.mark.parametrize(("line", "kind"), LINES)
def test_classify(line, kind):
    assert classify(line) == kind


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("[E ProcessGroupNCCL.cpp:1204] [Rank 6] Watchdog c", "hardware_error"),  # cut by the kill
        (
            "[rank2]:[E1103 04:05:06.000 ProcessGroupNCCL.cpp:616] [Rank 2] Some NCCL operations have timed o",
            "hardware_error",
        ),
        ("node17 GPU 5: uncorrectable ECC err", "hardware_error"),
        ("run.sh: line 40: 88123 Killed                  torchrun train.py", "failure"),
        ("RuntimeError: launcher returned non-zero exit status 2.", "failure"),
        ("terminate called after throwing an instance of 'c10::DistBackendError'", "failure"),
        ("trainer process exited with code 139", "failure"),
        ("The evaluation ran for 12 seconds and exited with code 0", None),
        ("Gradient norm is inf at update 812, skipping this update", "skipped_step"),
        ("warning: gradient norm is nan", "nan"),
        ("Saving a sharded checkpoint at step 1200", "checkpoint"),
        ("Saving current state to runs/a/step_1200", "checkpoint"),
        ("    save-checkpoint ................................: (812.5, 813.0)", None),  # a timer
        ("Loading checkpoint from runs/a saved at step 1200", None),
    ],
)
def test_failures_worded_differently_or_cut(line, kind):
    assert classify(line) == kind


# -- the event table through the whole path --------------------------------------------------------------------
from assay.operators.logs import parse_log  # noqa: E402
from assay.operators.logs._events import (  # noqa: E402
    COMMON_FILTER,
    ENDINGS,
    EVENTS,
    HARDWARE_CONTEXT,
    NOT_SAVES,
    WARNINGS,
)

_AROUND = ["step 1 loss 2.50", "step 2 loss 2.40"]


def _log(tmp_path, lines, name="run.log"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return parse_log(str(path))


@pytest.mark.parametrize("rule", EVENTS, ids=[f"{r.kind}:{r.example[:40]}" for r in EVENTS])
def test_every_event_example_through_parse_log(tmp_path, rule):
    """Each row's example, among ordinary lines, gives its kind through split, parse and combine (the RE2
    prefilter included): a phrase cannot be in the rules and missing from the filter."""
    log = _log(tmp_path, [*_AROUND, rule.example, "step 3 loss 2.30"])
    assert rule.kind in log.event_kinds()


@pytest.mark.parametrize("rule", ENDINGS, ids=[r.example[:40] for r in ENDINGS])
def test_every_ending_example_completes_the_run(tmp_path, rule):
    assert _log(tmp_path, [*_AROUND, rule.example]).run["status"] == "completed"


def test_hardware_context_example_names_the_accelerator(tmp_path):
    log = _log(tmp_path, [HARDWARE_CONTEXT[0].example, *_AROUND])
    assert any(e["type"] == "hardware" for e in log.entities)


def test_the_prefilter_is_generated_from_the_table():
    for rule in (*EVENTS, *ENDINGS, *HARDWARE_CONTEXT):
        assert f"(?:{rule.pattern})" in COMMON_FILTER


def test_box_drawn_traceback_cut_before_its_exception_is_a_failure(tmp_path):
    log = _log(
        tmp_path,
        [
            *_AROUND,
            "╭───────────────────── Traceback (most recent call last) ─────────────────────╮",
            "│ /src/train.py:88 in <module>                                                 │",
        ],
    )
    assert log.event_kinds().count("failure") == 1
    assert log.run["status"] == "failed"


def test_a_traceback_is_one_failure_and_an_oom_that_ends_the_run_is_oom_and_failure(tmp_path):
    lines = [
        *_AROUND,
        "Traceback (most recent call last):",
        '  File "train.py", line 40, in <module>',
        "    loss.backward()",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.1 GiB total)",
    ]
    log = _log(tmp_path, lines)
    assert sorted(log.event_kinds()) == ["failure", "oom"]
    assert log.run["status"] == "failed"
    # the OOM printed alone (no traceback before it) ends the run the same way
    alone = _log(tmp_path, [*_AROUND, lines[-1]], name="alone.log")
    assert sorted(alone.event_kinds()) == ["failure", "oom"]
    assert alone.run["status"] == "failed"


def test_a_caught_traceback_the_run_trains_after_is_not_terminal(tmp_path):
    lines = [
        "step 1 loss 2.50",
        "Traceback (most recent call last):",
        '  File "loader.py", line 9, in fetch',
        "ConnectionError: shard 12 unavailable, retrying",
        *(f"step {i} loss {2.5 - i / 10:.2f}" for i in range(2, 8)),
        "Training completed",
    ]
    log = _log(tmp_path, lines)
    assert log.event_kinds().count("failure") == 1  # the header and its exception line are one failure
    assert log.run["status"] == "completed"


@pytest.mark.parametrize(
    ("tail", "status"),
    [
        (["step 3 loss nan", "step 4 loss nan"], "diverged"),  # NaN to the end
        (["step 3 loss nan", "step 4 loss 2.1"], "unknown"),  # a NaN the run recovered from, then cut
        (["srun: error: node1: task 0: Exited with exit code 1"], "failed"),
        (["Received SIGINT, stopping", "KeyboardInterrupt"], "cancelled"),
        (["Training completed"], "completed"),
        ([], "unknown"),  # cut with no signal
    ],
)
def test_run_status_by_one_rule(tmp_path, tail, status):
    assert _log(tmp_path, [*_AROUND, *tail]).run["status"] == status


#: Clean runs in the shapes tools print (written for this test): nothing failed, nothing restarted.
CLEAN_RUNS = {
    "keras.log": [
        "Epoch 1/3",
        "120/120 ━━━━━━━━━━━━━━━━━━━━ 9s 70ms/step - accuracy: 0.61 - loss: 1.02 - val_loss: 0.98",
        "Epoch 2/3",
        "120/120 ━━━━━━━━━━━━━━━━━━━━ 8s 66ms/step - accuracy: 0.70 - loss: 0.81 - val_loss: 0.84",
        "Epoch 3/3",
        "120/120 ━━━━━━━━━━━━━━━━━━━━ 8s 66ms/step - accuracy: 0.74 - loss: 0.72 - val_loss: 0.80",
    ],
    "bar.log": [f"steps: {p:3d}%|###      | {p * 4}/400 [00:{p:02d}<01:00,  1.2it/s, loss=0.{90 - p}]" for p in
                range(10, 60, 10)],
    "mmengine.log": [
        f"06/07 08:09:{i:02d} - mmengine - INFO - Epoch(train)  [1][{i * 50:4d}/1250]  lr: 2.0e-02  "
        f"loss: {1.2 - i / 20:.4f}"
        for i in range(1, 8)
    ]
    + ["06/07 08:10:00 - mmengine - INFO - Saving checkpoint at 1 epochs"],
    "olmo.log": [
        "olmo.train:1021  INFO    [step=300/1000,epoch=0]",
        "    train/CrossEntropyLoss=2.31",
        "    optim/total_grad_norm=0.42",
        "olmo.train:1021  INFO    [step=310/1000,epoch=0]",
        "    train/CrossEntropyLoss=2.29",
    ],
    "restart_words.log": [
        "restart_count=0",
        "SLURMEnvironment(auto_requeue=True), sbatch flags: --requeue --signal=SIGUSR1@90",
        "rendezvous complete for workers; restart policy: on-failure",
        "step 10 loss 3.1 | checkpoint interval 500 | exit code on success: 0",
        "step 20 loss 3.0 | no errors found",
        "The evaluation ran for 12 seconds and exited with code 0",
        "Training finished",
    ],
    "dicts.log": [
        "{'loss': 1.91, 'grad_norm': 0.8, 'learning_rate': 2e-05, 'epoch': 0.1}",
        "{'loss': 1.72, 'grad_norm': 0.7, 'learning_rate': 1.9e-05, 'epoch': 0.2}",
        "{'train_runtime': 120.5, 'train_samples_per_second': 33.1, 'train_loss': 1.8, 'epoch': 0.2}",
    ],
    # two ranks' bars on one stream, no rank tags: one counter dips by a step and comes straight back
    "two_bars.log": [
        f"epoch:1 loss:{1 + (s % 5) / 10:.3f}:  60%|######    | {s}/391 [00:31<00:20,  7.7it/s]"
        for s in (230, 231, 231, 232, 234, 233, 234, 235, 235, 236)
    ],
    "epoch_bars.log": [
        line
        for epoch in range(1, 4)
        for line in (f"Epoch {epoch}/3", *(f"{b}/300 [====>....] - loss: 0.{60 - epoch}" for b in (100, 200, 300)))
    ],
}


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("[rank: 0] requeing job 5512...", "restart"),  # Lightning's SLURM handler, spelt as it prints it
        ("Requeued SLURM job: 5512", "restart"),
        ("scontrol requeue 5512", "restart"),
        ("auto_requeue: true", None),
    ],
)
def test_requeue_is_a_restart_only_as_an_action(line, kind):
    assert classify(line) == kind


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("2023-01-02 | INFO | fairseq.checkpoint_utils | Saved checkpoint ckpt/checkpoint3.pt (epoch 3 @ 900 "
         "updates)", "checkpoint"),
        ("Epoch 4: val_loss improved from 0.412 to 0.398, saving model to best.keras", "checkpoint"),
        ("Model saved to out/final", "checkpoint"),
        ("Monitored metric train_loss = nan is not finite. Previous best value was 0.91. Signaling Trainer to stop.",
         "nan"),
        ("Batch 311: Invalid loss, terminating training", "nan"),
        ("worker 3 exited with status 1", "failure"),
        ("Process finished with exit code 137", "failure"),
        ("Process finished with exit code 0", None),
        ("*** SIGSEGV received at time=1712345678 on cpu 3 ***", "failure"),
        ("pod trainer-0 terminated: OOMKilled", "oom"),
        ("RuntimeError: [enforce fail at alloc_cpu.cpp:83] DefaultCPUAllocator: can't allocate memory", "oom"),
        # saves said with other verbs, and what only looks like one
        ("Created checkpoint runs/a/ckpt-400", "checkpoint"),
        ("Snapshot taken at iteration 400", "checkpoint"),
        ("Model weights persisted to disk", "checkpoint"),
        ("Dumping model config to config.json", None),
        ("Model parameters stored in bf16", None),
        ("Model created with 124M parameters", None),
        ("Taking memory snapshot", None),
        ("restore_from_checkpoint: false", None),
        # the other words for running out of memory, a shell's report of a terminated child, a resume said so
        ("terminate called after throwing an instance of 'std::bad_alloc'", "oom"),
        ("[E] Out of GPU memory on device 2", "oom"),
        ("Terminated", "failure"),
        ("Restarting training from the latest checkpoint", "restart"),
        ("Found an existing checkpoint, resuming", "restart"),
        ("continue_from_checkpoint: true", None),
        ("Writing model to disk", "checkpoint"),
        ("Writing model card to README.md", None),
    ],
)
def test_more_wordings(line, kind):
    assert classify(line) == kind


@pytest.mark.parametrize("name", sorted(CLEAN_RUNS))
def test_clean_runs_give_no_failure_and_no_restart(tmp_path, name):
    log = _log(tmp_path, CLEAN_RUNS[name], name=name)
    kinds = log.event_kinds()
    assert "failure" not in kinds and "restart" not in kinds, log.events
    assert log.run["status"] in ("completed", "unknown")


def test_a_report_glued_after_a_bare_progress_bar_takes_the_bars_count(tmp_path):
    lines = [
        "{'loss': 2.1, 'learning_rate': 1e-05, 'epoch': 0.01}",
        "  2%|▏         | 7/352 [00:30<25:10,  4.38s/it][rank0]: Traceback (most recent call last):",
        '[rank0]:   File "train.py", line 12, in <module>',
    ]
    log = _log(tmp_path, lines)
    assert [(e["kind"], e["step"]) for e in log.events] == [("failure", 7)]


@pytest.mark.parametrize("rule", [*NOT_SAVES, *WARNINGS], ids=lambda r: r.example[:40])
def test_every_exclusion_example_gives_no_event(tmp_path, rule):
    assert _log(tmp_path, [*_AROUND, rule.example]).event_kinds() == []


# -- checkpoints take the step of the training lines around them; workers lost are preempted or a fault ----------


@pytest.mark.parametrize(
    "line",
    [
        "saved new best metric model",
        "val acc improved to 0.771; saving best model to runs/exp3/best.pt",
        "Best checkpoint saved (bleu 27.1)",
        "new best model (val_loss 0.412) saved",
        "[rank0] iteration 900: writing checkpoint to /scratch/ck/900",
        "epoch 3 done; saving model weights to out/w.safetensors",
    ],
)
def test_a_checkpoint_takes_the_step_of_the_training_line_before_it(tmp_path, line):
    log = _log(tmp_path, ["step 10 loss 2.50", "step 20 loss 2.40", line, "step 30 loss 2.30"])
    assert [e["step"] for e in log.events if e["kind"] == "checkpoint"] == [20]


def test_lame_tpu_workers_are_a_preemption_and_cancel_the_run(tmp_path):
    lines = [
        *_AROUND,
        "INFO:tensorflow:Outfeed finished for iteration (40, 12)",
        "INFO:tensorflow:ShutdownHook: lame workers found: HeartbeatManager(/job:worker/replica:0/task:1/device:CPU:0)",
    ]
    log = _log(tmp_path, lines)
    assert [(e["kind"], e["step"]) for e in log.events] == [("preempted", 2)]
    assert log.run["status"] == "cancelled"


@pytest.mark.parametrize(
    ("line", "kind", "status"),
    [
        ("2024-01-02 10:11:12 WARNING ray: node 10.1.2.3 has been marked dead because the detector has missed too "
         "many heartbeats from it", "hardware_error", "failed"),
        ("[2024-01-02 10:11:12][4411] Stopping training due to lack of heartbeats from RolloutWorker_w3",
         "hardware_error", "failed"),
        ("gcp: spot instance was reclaimed by the provider; training will be resumed elsewhere", "preempted",
         "cancelled"),
        ("Received preemption signal from the scheduler, writing an emergency checkpoint", "preempted", "cancelled"),
        ("heartbeat timeout for rank 3 (60 s); continuing with a retry", "hardware_error", "unknown"),
    ],
)
def test_a_lost_worker_is_preempted_when_the_platform_took_it_else_a_hardware_fault(tmp_path, line, kind, status):
    log = _log(tmp_path, [*_AROUND, line])
    assert kind in log.event_kinds()
    assert log.run["status"] == status


@pytest.mark.parametrize("line", ["preemptible: true", "--preemptible --zone us-central2-b",
                                  "heartbeat_interval=5s heartbeat_timeout_s=600"])
def test_settings_that_mention_preemption_or_heartbeats_are_no_event(line):
    assert classify(line) is None


#: More wordings of saves and of machines taken back, in the shapes tools print them (own-worded).
MORE_SAVES_AND_PREEMPTIONS = [
    ("Saved a checkpoint at step 100.", "checkpoint"),
    ("Saving LoRA weights to 'out/lora/iter-000200-ckpt.pth'", "checkpoint"),
    ("Better model found at epoch 3 with valid_loss value: 0.4102.", "checkpoint"),
    ("[gpu0] 2024-01-02 03:04:05,678 (trainer:350) INFO: The best model has been updated: valid.acc", "checkpoint"),
    ("Model checkpoint of size 4.20 GB saved to /tmp/run/ckpt/model-00001.safetensors", "checkpoint"),
    # an RL agent's policy is its model (OpenAI baselines' HER prints both after an epoch's table)
    ("Saving periodic policy to /tmp/run7/policy_40.pkl ...", "checkpoint"),
    ("New best success rate: 0.4125. Saving policy to /tmp/run7/policy_best.pkl ...", "checkpoint"),
    ("Model weights written to /tmp/run7/final.safetensors", "checkpoint"),
    ("Storing checkpoint at step 2 in /tmp/run7/ckpt", "checkpoint"),
    ("pod trainer-0: terminated in response to imminent node shutdown", "preempted"),
    ("ScheduledEvents: Preempt event received for vm-gpu-3, shutting down in 30 s", "preempted"),
]


@pytest.mark.parametrize(("line", "kind"), MORE_SAVES_AND_PREEMPTIONS, ids=[w[:40] for w, _ in
                                                                           MORE_SAVES_AND_PREEMPTIONS])
def test_more_saves_and_preemptions_through_parse_log(tmp_path, line, kind):
    log = _log(tmp_path, [*_AROUND, line, "step 3 loss 2.30"])
    assert [(e["kind"], e["step"]) for e in log.events] == [(kind, 2)]


def test_a_nan_report_that_names_inf_skips_no_update(tmp_path):
    # a tensor's NaN warning glued after a bar: a NaN, not a skipped update
    lines = [*_AROUND, "step 3 loss nan", "Warning: NaN or Inf found in input tensor.", "step 4 loss nan"]
    kinds = _log(tmp_path, lines).event_kinds()
    assert "nan" in kinds and "skipped_step" not in kinds


def test_a_checkpoint_step_parameter_after_a_record_is_that_save(tmp_path):
    # DLLogger's stdout backend: the record, then the step its checkpoint was written at as a parameter
    lines = []
    for step in (300, 400):
        lines += [f"DLL 2021-03-02 10:{step // 100:02d}:00.000001 - Training Epoch: 0 Training Iteration: {step}  "
                  f"average_loss : 2.{step // 100}  step_loss : 2.{step // 50}  learning_rate : 0.004",
                  f"DLL 2021-03-02 10:{step // 100:02d}:00.000002 - PARAMETER checkpoint_step : {step}"]
    log = _log(tmp_path, lines)
    assert [(e["kind"], e["step"]) for e in log.events] == [("checkpoint", 300), ("checkpoint", 400)]
    assert "dll" not in set(log.metrics.column("name").to_pylist()) and log.run["framework"] == "DLLogger"
    # a setting of how often to save, in an arguments dump, is none
    assert _log(tmp_path, ["checkpoint_steps: 500", "step 1 loss 2.0", "step 2 loss 1.9"]).events == []


def test_a_log_ending_on_an_nccl_watchdog_timeout_failed_of_that_fault(tmp_path):
    lines = [f"{{'loss': 0.9{k}, 'learning_rate': 2e-05, 'epoch': 0.{k}}}" for k in (1, 2)] + [
        f"[rank{r}]:[E0301 10:00:00.00000{r} ProcessGroupNCCL.cpp:607] [Rank {r}] Watchdog caught collective "
        f"operation timeout: WorkNCCL(SeqNum=812, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) "
        "ran for 600020 milliseconds before timing out."
        for r in (1, 2)  # every rank reports it: one fault, the last rank's line the one the run ended on
    ]
    log = _log(tmp_path, lines)
    assert log.run["status"] == "failed"
    assert log.event_kinds() == ["hardware_error"]  # the fault that ended it, no second event of its own


@pytest.mark.parametrize("line", ["Encountered NaN in gradients at step 2", "WARNING: nans in the gradients of layer 4"])
def test_a_nan_met_in_the_gradients_through_parse_log(tmp_path, line):
    log = _log(tmp_path, [*_AROUND, line, "step 3 loss 2.30"])
    assert [(e["kind"], e["step"]) for e in log.events] == [("nan", 2)]
