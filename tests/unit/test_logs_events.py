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
