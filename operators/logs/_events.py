"""Events any training log may contain, whatever printed it: out-of-memory, loss-scale overflow, NCCL and
GPU faults, child-process failures, cancellation, restarts, checkpoints. One RE2 pattern picks candidate
lines in C++; ``classify`` decides, in Python, on those few lines only.

Why one module: the event table, the prefilter generated from it and ``classify`` over it are one piece of
data and its reader; apart, the filter and the rules drifted (a phrase in one list and not the other)."""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field

from assay.operators.logs._collect import Collector
from assay.operators.logs._event_steps import AT_UPDATES
from assay.operators.logs._names import find_hardware
from assay.operators.logs._timestamps import find_timestamp


@dataclass(frozen=True)
class EventRule:
    """One row of the event table: the kind a line reports, the phrase that says so (a pattern in the common
    subset of Python's ``re`` and RE2, case-insensitive unless ``case``), and an example line written in the
    shape a tool prints it (``tests/unit/test_logs_events.py`` runs every example through ``parse_log``)."""

    kind: str
    pattern: str
    example: str
    case: bool = False
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "regex", re.compile(self.pattern, 0 if self.case else re.I))


#: The event phrases. Order matters: the first row that matches a line decides its kind (a preemption notice
#: before the cancellation it contains; an OOM before the traceback line that carries it).
EVENTS: tuple[EventRule, ...] = (
    EventRule("preempted", r"DUE TO PREEMPTION|\bpreempted\b|preemption notice",
              "slurmstepd: error: *** STEP 77.0 ON gpu3 CANCELLED AT 2025-02-03T04:05:06 DUE TO PREEMPTION ***"),
    EventRule("preempted", r"CANCELLED AT .{0,60}DUE TO (?:TIME LIMIT|NODE FAILURE)",
              "slurmstepd: error: *** JOB 4411 ON gpu7 CANCELLED AT 2025-02-03T04:05:06 DUE TO TIME LIMIT ***"),
    # the other batch schedulers' time-limit kills: PBS's walltime, LSF's run limit, Grid Engine's h_rt
    EventRule("preempted", r"\bPBS: job killed: walltime \d+ exceeded limit\b|\bTERM_RUNLIMIT\b"
              r"|\bexceeded (?:hard |soft )?wall ?clock (?:time|limit)\b",
              "=>> PBS: job killed: walltime 86410 exceeded limit 86400"),
    # The platform took the machines back (a spot or preemptible VM reclaimed, a TPU host restarted under it).
    # TensorFlow's TPU session reports such workers as "lame" when their heartbeat stops: on a TPU pod that is
    # the preemption's trace, so it is ``preempted`` too (a worker that merely stops answering is below).
    EventRule("preempted", r"\blame workers? found\b|\bpreemption (?:signal|detected|event)\b"
              r"|\b(?:spot|preemptible) (?:instance|vm|node)s? (?:was |were |is |are |has been )?(?:reclaimed|interrupted"
              r"|terminated)\b|\bSpot (?:instance )?interruption\b|\bmaintenance[- ]event\b|\bpreempt event\b|\bimminent node shutdown\b",
              "INFO:tensorflow:ShutdownHook: lame workers found: HeartbeatManager(/job:tpu_worker/replica:0/task:3)"),
    EventRule("cancelled", r"CANCELLED AT|KeyboardInterrupt|Received SIGINT|Signals\.SIGINT",
              "slurmstepd: error: *** JOB 9 ON node2 CANCELLED AT 2025-01-01T10:00:00 ***"),
    # the terminal's echo of Ctrl-C on a line of its own: the run was interrupted there
    EventRule("cancelled", r"^\s*\^C\s*$", "^C"),
    EventRule("cancelled", r"\binterrupted by (?:the )?user\b", "Training interrupted by user at step 420, exiting"),
    EventRule("cancelled", r"Received Signals\.SIGTERM|received signal 15|\bscancel\b",
              "job 5521 stopped by scancel from user alice"),
    # a termination signal reported in the words a training loop's handler prints, and a job said to be
    # cancelled (not a setting: ``cancel_on_failure=True``, ``job_cancelled: 0``)
    EventRule("cancelled", r"\bSIGTERM (?:received|caught|signal received)\b|\b(?:got|caught) SIGTERM\b"
              r"|\bjob (?:\S+ )?(?:was |has been |is )?cancell?ed\b",
              "[worker 3] SIGTERM received at step 4410, flushing logs and exiting"),
    EventRule("oom", r"CUDA out of memory|OutOfMemoryError|out of (?:GPU |device |host |CPU )?memory|CUBLAS_STATUS_ALLOC_FAILED",
              "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 1; 79.1 GiB total)"),
    EventRule("oom", r"oom[-_]kill|\bOOMKilled\b|Out of memory: Killed process|HIP out of memory",
              "slurmstepd: error: Detected 2 oom-kill event(s) in StepId=88.0"),
    # TensorFlow's status words printed as prose (``(0) Resource exhausted: failed to allocate memory``)
    EventRule("oom", r"\bResource exhausted: (?:OOM|failed to allocate|out of memory)",
              "  (1) Resource exhausted: failed to allocate memory for the conv2d_7 kernel"),
    EventRule("oom", r"RESOURCE_EXHAUSTED",
              "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory allocating 3.2G on TPU"),
    EventRule("oom", r"OOM when allocating|ResourceExhaustedError|DefaultCPUAllocator: (?:can't allocate|not enough)"
              r"|^MemoryError\b|std::bad_alloc",
              "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with "
              "shape[64,512,512]"),
    EventRule("hardware_error", r"\bXid\b|ECC error|uncorrectable ECC|fallen off the bus|GPU is lost|hardware error",
              "NVRM: Xid (PCI:0000:41:00): 48, pid=9, An uncorrectable double bit error was detected"),
    EventRule("hardware_error", r"NVLink error|\bNVLink\b.{0,40}(?:fatal|fault|down|inactive)",
              "node3: GPU 2 reported an NVLink error on link 5; replay count exceeded"),
    EventRule("hardware_error", r"nccl\w*Error|NCCL error|NCCL communicator was aborted|ncclRemoteError"
              r"|ncclSystemError|ncclInternalError|ncclUnhandledCudaError",
              "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, remote process exited"),
    # the collective library's watchdog reporting its timeout in other words (``NCCL watchdog timeout``)
    EventRule("hardware_error", r"\bNCCL\b[^\n]{0,40}\bwatchdog\b[^\n]{0,40}\btime(?:d[ -])?out\b",
              "[rank3] NCCL watchdog thread: timed out waiting for the collective on PG 0"),
    EventRule("hardware_error", r"Watchdog caught collective operation timeout|\bWatchdog c",
              "[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(Seq=5)"),
    EventRule("hardware_error", r"NCCL WARN .*(?:error|fail|timeout|abort)",
              "node4:21:77 [3] NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 0"),
    # the network fabric under the collectives (InfiniBand/RoCE verbs) reporting a failed work completion
    EventRule("hardware_error", r"\bmlx\d_?\w*: [\w.-]+: got completion with error|transport retry counter exceeded"
              r"|\bIBV_WC_(?:RETRY_EXC|REM_\w+|LOC_\w+|WR_FLUSH)_ERR\b|\bibv_poll_cq\b.{0,30}fail",
              "(Worker pid=77, ip=10.0.3.4) mlx5: gpu-node-2: got completion with error:"),
    EventRule("hardware_error", r"CUDA error: (?:an illegal memory|unspecified launch|uncorrectable)",
              "RuntimeError: CUDA error: an illegal memory access was encountered"),
    # cut short by a killed process, mid-word: still an NCCL watchdog or timeout, still an ECC fault
    EventRule("hardware_error", r"\[E[\d :.]*ProcessGroupNCCL|ProcessGroupNCCL.*(?:[Tt]imeout|timed out|abort)"
              r"|NCCL.{0,40}timed out",
              "[rank5]:[E1203 01:02:03.000 ProcessGroupNCCL.cpp:616] [Rank 5] Some NCCL operations have timed o"),
    EventRule("hardware_error", r"\bECC\b.{0,30}(?:err|fault)|double[- ]bit",
              "gpu-11 GPU 0: ECC fault counter rose to 3"),
    # A node or worker that stopped answering its coordinator (missed heartbeats, marked dead): a machine lost,
    # which the contract counts as a hardware fault; fatal when the run stops for it
    EventRule("hardware_error", r"\bmissed too many heartbeats\b|\bno heartbeat (?:from|for)\b"
              r"|\bheartbeat (?:timed out|timeout|failure|failed|lost)\b|\black of heartbeats?\b"
              r"|\bworker (?:node )?\S* ?(?:lost|marked (?:as )?dead)\b",
              "2024-03-04 05:06:07 WARNING coordinator: node 10.0.0.7 marked dead: missed too many heartbeats"),
    EventRule("restart", r"will restart worker group|Restarting worker group|restart_count=[1-9]",
              "INFO:torch.distributed.elastic.agent.server.api:[default] Worker group FAILED. 2/3 attempts left; "
              "will restart worker group"),
    # a job requeued (not the word in a flag or a config dump: ``--requeue``, ``auto_requeue=True``)
    EventRule("restart", r"\brequeu?(?:ed|ing|eing)\b|\bscontrol requeue\b|\bjob requeue\b|Detected \d+ new nodes"
              r"|^\W{0,3}(?:\[[^\]]{1,40}\]\s*)?requeue (?:of )?(?:the )?job\b",
              "slurmstepd: job 812 requeued after node failure; training resumes from the last checkpoint"),
    # a node lost under the job, as a scheduler or launcher reports it in prose (SLURM's ``DUE TO NODE FAILURE``
    # banner is above): a machine gone, fatal to the run (not ``node_failure_retries: 3``)
    EventRule("hardware_error", r"\bnode failure (?:detected|on|of|at|in|reported|occurred)\b|\bnode failure\W{0,3}$"
              r"|\b(?:due to|after|by) (?:a )?node failure\b",
              "launcher: node failure detected on gpu-node-14, aborting the step"),
    # a run that goes on from a checkpoint it loads (``-init_from cv/ckpt_20.t7`` printed back as ``Initializing
    # from cv/ckpt_20.t7``, ``loaded checkpoint from``, ``Resuming training from checkpoint``): restarted where it
    # stopped. A checkpoint's name is required after "initializing from" (not ``Initializing from scratch``)
    EventRule("restart", r"\binitiali[sz]ing (?:model |weights |training )?from\s+\S*(?:checkpoint|ckpt|snapshot"
              r"|\.t7\b|\.pth?\b|\.safetensors\b)|\bloaded (?:the )?(?:model )?checkpoint from\b"
              r"|\bresum(?:e|ed|ing) (?:training |the run )?from (?:the )?(?:last |latest |saved )?(?:checkpoint|ckpt)\b"
              r"|\bloading (?:a|the) (?:last |latest |saved )?checkpoint from\b",
              "Initializing from \tsnaps/ckpt_40.t7"),
    # the same, said with the checkpoint's path, or Hugging Face's ``Continuing training from checkpoint``
    EventRule("restart", r"\bresum(?:ed|ing)(?: training| the run)? from\s+\S*(?:checkpoint|ckpt|global_step|snapshot"
              r"|\.pth?\b|\.safetensors\b)|\b(?:continu(?:e|ing|ed)|restart(?:ing|ed))(?: training)? from (?:the )?"
              r"(?:last |latest |saved )?(?:checkpoint|ckpt|snapshot)\b|\bcheckpoint\b[^\n]{0,30}[,;:]\s*resum(?:e|ing)\b",
              "(Runner pid=42) Resuming from /ckpt/run7/global_step_300"),
    # the same, said with the step or epoch it went on from (``Resumed training from step 3000``, ``Restarting
    # from epoch 12``)
    EventRule("restart", r"\b(?:resum(?:ed|ing)|restart(?:ed|ing))(?: training| the run)? (?:from|at) (?:the )?"
              r"(?:global[ _])?(?:step|iter(?:ation)?|epoch|update)\s*[:#=]?\s*\d+",
              "INFO | trainer | Resumed training from step 3000"),
    # a checkpoint loaded by its file's name, as VITS-style trainers print it on a resume (``Loaded checkpoint
    # './runs/44k/G_8000.pth' (iteration 96)``)
    # a checkpoint restored, as a resume prints it (``Restoring from checkpoint runs/ckpt-400``, ``Restored the
    # model state from the latest snapshot``)
    EventRule("restart", r"\brestor(?:ed|ing)\s+(?:the\s+)?(?:model\s+|training\s+)?(?:state\s+)?(?:from\s+)?(?:the\s+)?"
              r"(?:last\s+|latest\s+|saved\s+)?(?:checkpoint|ckpt|snapshot)\b",
              "2031-05-06 07:08:09 INFO Restoring from checkpoint runs/exp3/ckpt-1200"),
    EventRule("restart", r"\bloaded (?:the )?(?:model )?checkpoint\s+['\"]?[^\s'\"]*\.(?:pth?|ckpt|safetensors)\b",
              "2024-03-02 10:14:05,311\t44k\tINFO\tLoaded checkpoint './runs/44k/G_8000.pth' (iteration 96)"),
    # a checkpoint numbered by its step loaded (``Load the latest checkpoint .../model.ckpt-1200``): the run goes on
    # from that step. Not TensorFlow's ``Restoring parameters from``, which every evaluation and every training
    # session of an estimator prints; a checkpoint without a step in its name may be pretrained weights a fine-tune
    # starts from, and ``ckpt-0`` is a start
    EventRule("restart", r"\bload(?:ed|ing)?\s+(?:the\s+)?(?:model\s+|latest\s+|last\s+)*checkpoint\s+(?:from\s+)?"
              r"\S*(?:ckpt|checkpoint)[-_]0*[1-9]\d*\b",
              "INFO:tensorflow:Load the latest checkpoint /runs/exp9/model.ckpt-4200"),
    # a process launched to resume, its arguments printed back (detectron2's ``Command line arguments:
    # Namespace(..., resume=True, ...)``), not a config key that is only set (``resume: true`` in a dump)
    EventRule("restart", r"\b(?:command line arguments|arguments|args)\b[^\n]{0,20}\bnamespace\([^\n]*\bresume=True\b",
              "[03/04 05:06:07] seg INFO: Command line arguments: Namespace(config_file='r50.yaml', resume=True, "
              "num_gpus=4)"),
    EventRule("failure", r"ChildFailedError|failed \(exitcode: -?[1-9]|Worker group FAILED",
              "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: train.py FAILED"),
    EventRule("failure", r"exits with return code = -?[1-9]|Exited with exit code [1-9]|exit code: -?[1-9]"
              r"|exit status [1-9]|exited with (?:exit )?(?:code|status) -?[1-9]|returned non-zero exit status"
              r"|\bexit code -?[1-9]",
              "srun: error: gpu-node2: task 6: Exited with exit code 1"),
    EventRule("failure", r"Segmentation fault|core dumped|terminate called after throwing|Fatal Python error",
              "Fatal Python error: Aborted"),
    EventRule("failure", r"Signal \d+ \(SIG\w+\) received|killed by signal"
              r"|received signal (?:9|6|11|SIGKILL|SIGABRT|SIGSEGV)\b",
              "torch.distributed.elastic.multiprocessing.api: Signal 9 (SIGKILL) received by PID 4242"),
    # glog's FATAL line (JAX, TensorFlow, XLA abort with it) and absl's failure-signal handler
    EventRule("failure", r"^F\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [\w.-]+:\d+\]|\*\*\* Check failure stack trace"
              r"|\*\*\* SIG\w+ received at time=",
              "F0304 05:06:07.890123   4411 hlo_runner.cc:212] Check failed: status.ok() device halted"),
    EventRule("failure", r"^\s*(?:Killed|Terminated)\s*$|\bline \d+: +\d+ (?:Killed|Terminated)",
              "launch.sh: line 12: 30114 Killed                  python train.py"),
    # the shell's ``Killed`` as a thread pastes it, set in bold or italics (``**Killed**``)
    EventRule("failure", r"^\s*(?:\*{1,2}|_{1,2})Killed(?:\*{1,2}|_{1,2})\s*$", "**Killed**"),
    # the shell's report of a child that aborted (SIGABRT), in the shape it reports one that was killed
    EventRule("failure", r"\bline \d+: +\d+ Aborted\b",
              "job.sh: line 33: 4821 Aborted                 torchrun --nproc_per_node 8 main.py"),
    # glog's FATAL line after a date-time stamp (``<date> <time>: F <file>:<line>]``), as TensorFlow prints it
    EventRule("failure", r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)?: F [\w./-]+:\d+\]",
              "2023-06-07 08:09:10.111213: F external/xla/service/gpu/gpu_compiler.cc:640] Check failed: ok"),
    EventRule("failure", r"Traceback \(most recent call last\)",
              "╭──────────────── Traceback (most recent call last) ────────────────╮"),
    # the same first line cut where an excerpt or a dying process's output ends (``Traceback (m``)
    EventRule("failure", r"^\s*Traceback \((?:m(?:o(?:s(?:t(?: (?:r(?:e(?:c(?:e(?:nt?)?)?)?)?)?)?)?)?)?)?\s*$",
              "Traceback (mos"),
    EventRule("skipped_step", r"OVERFLOW!|overflow! Skipping|Skipping step|Gradient overflow",
              "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 8192, reducing to 4096"),
    # an overflow monitor that counts the updates it skipped (``Skipped 50 iterations in a row due to Overflow``)
    EventRule("skipped_step", r"\bskipped \d+ (?:consecutive )?(?:iterations|iters|steps|updates|batches)\b"
              r".{0,40}\b(?:overflow|inf|nan)",
              "RuntimeError: skipped 30 consecutive steps because of fp16 overflow, stopping"),
    # an fp16 overflow that lowers the loss scale: the update is dropped (fairseq's and other scalers' wording)
    EventRule("skipped_step", r"\boverflow\b[^\n]{0,60}\b(?:sett?ing|reduc(?:e|ing)|decreas(?:e|ing)|lower(?:ing)?"
              r"|halv(?:e|ing))\b[^\n]{0,12}\bloss[ _]?scal(?:e|er)\b",
              "12:00:01 | WARNING | amp.scaler | overflow in fp16 gradients, lowering the loss scale to 512.0"),
    # (not a NaN report's ``NaN or Inf found in input tensor``: no update skipped, see the ``nan`` row)
    EventRule("skipped_step", r"\bfound inf\b|\binfs? (?:was|were) found\b"
              r"|skipping (?:this |the )?(?:update|batch|iteration|optimizer step)",
              "grad norm is inf at update 301, skipping this batch"),
    EventRule("nan", r"loss is nan|\bnan loss(?:\s|$|[.,;!])|NaN or Inf found|Detected NaN|found nan in|nan detected"
              r"|grad(?:ient)?[ _]norm is (?:nan|inf)",
              "WARNING: nan loss at step 410, the run is diverging"),
    EventRule("nan", r"became infinite or nan|loss became nan|non-finite loss|loss is not finite|= (?:nan|inf) is not finite"
              r"|gradients are nan|\bnan encountered|\bencountered (?:a )?nan\b|\bnans? in (?:the )?grad(?:ient)?s?\b"
              r"|Invalid loss, terminating training",
              "FloatingPointError: Loss became infinite or NaN at iteration=88!"),
    # an exception a script raises on its own check, its message the non-finite loss (``ValueError: loss=nan``)
    EventRule("nan", r"\b\w*(?:Error|Exception):[^\n]*\bloss\s*[=:]\s*-?(?:nan|inf)\b",
              "RuntimeError: loss=nan, value_loss=nan at update 312"),
    # a model's outputs gone non-finite and the run said to have diverged (detectron2's box-head check)
    EventRule("nan", r"\bcontains? (?:inf/nan|nan/inf)\b[^\n]*\btraining has diverged\b",
              "FloatingPointError: Predicted masks contain Inf/NaN. Training has diverged."),
    # a run said to have diverged, with the loss's non-finite value on the line (TensorFlow's NanTensorHook)
    EventRule("nan", r"\b(?:model|training|run|loss) diverged\b[^\n]*\b(?:nan|inf)\b",
              "ERROR:trainer: run diverged at update 77, loss = NaN"),
    EventRule("checkpoint", r"\.(?:pth?|ckpt|safetensors|h5|pdparams)\s+sav(?:ing|ed)\b",
              "[2024-01-02 03:04:05 vit_base] (utils.py 149): INFO out/ckpt_epoch_3.pth saving......"),
    EventRule("checkpoint", r"\bcheckpoint(?:ing)? (?:the )?(?:policy|model|weights|state|agent) (?:after|at) (?:step|iter\w*|epoch)\b",
              "INFO 2026-01-02 03:04:05 train.py:367 Checkpoint policy after step 4000"),
    EventRule("checkpoint", r"saving checkpoint|saving model checkpoint|Saving the checkpoint"
              r"|checkpoint .* is about to be saved|\bsaved checkpoint\b|Checkpoint saved|Scheduled async checkpoint"
              r"|\bmodel (?:weights )?saved (?:to|at|in)\b",
              "Saving model checkpoint to out/checkpoint-1500"),
    # a metric's record naming the snapshot it evaluated, written as it was saved (StyleGAN2-ADA's and StyleGAN3's
    # ``metric-fid50k_full.jsonl`` lines, echoed to the log)
    EventRule("checkpoint", r'"snapshot_pkl":\s*"[^"]*\.pkl"',
              '{"results": {"fid50k_full": 41.2}, "metric": "fid50k_full", "snapshot_pkl": "network-snapshot-000400.pkl"}'),
    EventRule("checkpoint", r"saving model to|Saving model weights to|Saved (?:\w+ )?adapter(?: weights)? to|\bsaved? model (?:in|to)\b",
              "Iter 200: Saved adapter weights to run/adapters.safetensors and run/0000200_adapters.safetensors."),
    # a score that improved and the save it triggers, the save last on the line (``higher corrcoef: 0.68 in batch:
    # 160, save model``)
    EventRule("checkpoint", r"[,;]\s*sav(?:e|ing)\s+(?:the\s+)?(?:best\s+)?model\s*[.!]?\s*$",
              "2024-01-02 10:00:00.100 | INFO     | __main__:train:41 - higher score: 0.81 in batch: 40, save model"),
    # the parameters written out (Sockeye and MXNet's ``save_parameters``): the model's weights by their other name
    EventRule("checkpoint", r"\bsav(?:ed|ing) (?:the )?(?:model )?param(?:eter)?s (?:to|in|at)\b",
              '[2024-02-03:04:05:06:INFO:root:save_parameters] Saved params to "runs/nmt/params.00012"'),
    EventRule("checkpoint", r"\bsav(?:e|ed|ing)\s.{0,40}\bcheckpoint\b|\bcheckpoint\b.{0,30}\b(?:saved|written) to\b"
              r"|Saving current state to|^(?:\[[\d:.]+\] )?(?:model|optimizer|weights) saved\b"
              r"|\bsaving (?:model |training |optimizer )?state, (?:iter|step|epoch)\b",  # ``Saving state, iter: 0``
              "[12:30:45.120000] optimizer saved"),
    # a save of two things joined by "and" (the model and its optimizer), or a checkpoint named with its step
    # glued on (``checkpoint_101``, ``checkpoint-7``) that ``\bcheckpoint\b`` does not see
    EventRule("checkpoint", r"\bsav(?:e|ed|ing) (?:the )?(?:model|weights|optimizer|scheduler)(?: states?)? and "
              r"(?:the )?(?:model|weights|optimizer|scheduler)\b|\bsav(?:e|ed|ing)\b.{0,80}\bcheckpoint[_-]\d+",
              "Saving weights and optimizer states for step 500 into ckpt/step_500"),
    # the save happening now, its object after a word for which one (``Saving latest models and training
    # states.``); a plan is none (``NOT_SAVES``)
    EventRule("checkpoint", r"\bsav(?:ed|ing)\s+(?:(?:the|latest|last|current|final|all)\s+)+(?:models?|weights"
              r"|checkpoints?|snapshots?)\b",
              "2025-03-04 10:11:12,345 INFO: Saving latest models and training states."),
    # the model reported saved in the passive, whatever names it between (PaddleSeg's ``The model with the best
    # validation mIoU (0.83) was saved at iter 500.``); a plan (``will be saved``) is none
    EventRule("checkpoint", r"\b(?:model|weights|checkpoint)\b(?:[^.\n]|\.\d){0,80}?\b(?:was|were|has been|have been)\s+saved\b",
              "2024-05-06 07:08:09 [INFO]\t[EVAL] The model with the best validation accuracy (0.7712) was saved at iter 2000."),
    # a save reported in Chinese: the model saved (模型已保存), saving the model (保存模型), saved to (已保存到)
    EventRule("checkpoint", r"模型已保存|(?:^|[^不未否])保存模型|已保存到|检查点已保存|保存检查点",
              "第 3 轮结束，模型已保存"),
    # saving with a word for which model between the verb and its object: the best (最佳/最优/最好的),
    # the current or the last one (``保存最佳模型 (val_loss=2.25)``)
    EventRule("checkpoint", r"(?:^|[^不未否])保存(?:最佳|最优|最好的?|当前|最新|最后的?|新的?)(?:的)?(?:模型|权重|检查点)",
              "  保存最优模型 (val_acc=0.8312)"),
    # a save reported done in Chinese: the save completed (完成第N次的保存, 保存完成, 保存成功, 已保存)
    EventRule("checkpoint", r"完成[^，。,;；\n]{0,12}保存|保存(?:完成|成功|完毕)|已保存",
              "[12:00:01] 完成第 3 次的保存"),
    # the checkpoint or snapshot named first, then said to be saved (``Snapshot saved to .../snapshot-000400.pkl``,
    # ``[checkpoint] step 1200 saved``)
    EventRule("checkpoint", r"^\W{0,3}(?:snapshot|checkpoint|ckpt)\b[^\n]{0,40}?\b(?:saved|written|stored)\b",
              "[checkpoint] step 1200 saved to /scratch/run4"),
    # a save reported as the line's last words, after what led to it (``val loss improved, model saved``)
    EventRule("checkpoint", r"\b(?:model|weights|checkpoint|state)s? (?:has been |have been |was |were )?saved\s*[.!]?\s*$",
              "epoch 4: validation accuracy went up to 0.913, model saved"),
    # a save announced by a bracketed tag that opens the message (``[SAVE] Best model at epoch 12.``)
    EventRule("checkpoint", r"(?:^|\s|:)\[(?:SAVE|SAVED|SAVING)\]\s",
              "2025-01-02 03:04:05.678 INFO:   [SAVE] best weights so far, epoch 12."),
    # the best model so far written out (after an evaluation), in the words training loops print it
    EventRule("checkpoint", r"\bsaved? (?:a |the )?new best\b.{0,30}\bmodel\b|\bsav(?:ed|ing) (?:the )?best\b.{0,20}"
              r"\b(?:model|weights|checkpoint)\b|\bbest (?:\w+ )?(?:model|checkpoint) (?:saved|written)\b"
              r"|\bnew best (?:\w+ )?(?:model|checkpoint)\b.{0,20}\bsaved\b|\bBetter model found at\b"
              r"|\bbest model has been updated\b",
              "epoch 7: val dice 0.912 > 0.905, saved new best metric model"),
    # "checkpoint" as the verb of the save: what is written and where, or the step it is written at (not
    # "activation checkpointing", which names no object and no step)
    EventRule("checkpoint", r"\bcheckpointing (?:the )?(?:model|weights|state|run|trainer) (?:to|into)\b"
              r"|\bcheckpointing at (?:step|iter|iteration|epoch)\b",
              "12:00:01 INFO (saver) Checkpointing model to: /runs/exp4/"),
    # a new best score, then the loop's bare "saving" after it (the model it keeps is implied)
    EventRule("checkpoint", r"\bnew best\b[^\n]{0,40}[,;:]\s*saving\b",
              "** new best top1 0.7412 at epoch 9, saving"),
    # the same worded as what the loop does now, a report's heading (``Save best model: monitor(max)=0.81``)
    EventRule("checkpoint", r"\bsave (?:the )?best (?:\w+ )?(?:model|weights|checkpoint)\b(?:\s*[:.]|\s+(?:to|at|in)\b)",
              "2025-01-09 08:10:11,120 P4411 INFO Save best model: val_auc=0.7731"),
    EventRule("checkpoint", r"\b(?:writing|storing) (?:a |the )?checkpoint\b|\bcheckpoint (?:written|stored)\b"
              r"|\bsaving (?:\w+ )?weights (?:to|at|in)\b|\b(?:wrote|saved) (?:a |the )?checkpoint\b"
              r"|\bsaving (?:the )?(?:model|state|snapshot) (?:at|for) (?:step|epoch|iter)"
              r"|\bsav(?:e|ed|ing) (?:a |the )?snapshot\b",
              "[rank0] step 1200: writing checkpoint to /scratch/run7/ckpt_1200"),
    # a line that opens with the checkpoint and the step it was taken at, no verb (``Checkpoint at step 400``)
    EventRule("checkpoint", r"^\W{0,3}(?:\[[^\]]{1,40}\]\s*)?checkpoint (?:at|for) (?:step|iter|iteration|epoch) \d+\s*\.?$",
              "Checkpoint at step 7200"),
    # a save announced by the line's first words, whatever is saved under what name (``saving model 0...``,
    # an EMA copy, a scene's state): the verb opens the line, its object is the model or its state
    EventRule("checkpoint", r"^\W{0,3}(?:\[[^\]]{1,40}\]\s*)?sav(?:e|ed|ing) (?:the |a |an )?"
              r"(?:[\w-]+ )?(?:model|weights|params|parameters|network|snapshot|state"
              r"|gaussians|polic(?:y|ies)|agent)s?(?:\s*\.?\s*$|\s*\.\.|:|\s+(?:to|at|in|for|as|of|under|into|\d|\(|\[))",
              "[ITER 9000] Saving ema weights (rate 0.999) ..."),
    # a save that opens a sentence after a report (an early stopper's ``Validation loss decreased (0.41 -->
    # 0.38).  Saving model ...``)
    EventRule("checkpoint", r"[.!]\s+sav(?:e|ed|ing) (?:the )?(?:best )?(?:model|weights|checkpoint|policy)s?\b",
              "Validation loss decreased (0.412 --> 0.388).  Saving model ..."),
    # the step a checkpoint was written at, printed alone as a parameter after the save (DLLogger's ``PARAMETER
    # checkpoint_step : 1787`` in NVIDIA's BERT pre-training); a setting's plural (``checkpoint_steps: 500``) is none
    EventRule("checkpoint", r"(?:^|\s)(?:checkpoint|ckpt)_step\s*[:=]\s*\d+\s*$",
              "DLL 2021-03-02 10:00:00.000001 - PARAMETER checkpoint_step : 4200"),
    # a checkpoint or snapshot made, in the verbs the rows above lack (created, taken, stored, dumped,
    # serialized, persisted), either order (``Checkpoint created!``, ``Taking snapshot at iteration 400``)
    EventRule("checkpoint", r"\b(?:checkpoint|ckpt|snapshot)s?\b(?:\s+[\w-]+){0,2}?\s+(?:(?:has been|was|is)\s+)?"
              r"(?:created|taken|stored|dumped|serialized|persisted)\b|\b(?:creat(?:ed|ing)|tak(?:en|ing)|dump(?:ed|ing)"
              r"|serializ(?:ed|ing)|persist(?:ed|ing))\s+(?:an? |the |new )?(?:checkpoint|ckpt|snapshot)s?\b",
              "epoch 6 val_acc 0.874 -> Checkpoint created!"),
    # a model's weights written out in those verbs (``Storing model at epoch 3``, ``weights persisted to disk``);
    # the verb's object is the model itself, followed by where it goes or nothing: the model's description
    # written (``Dumping model config to ...``) is no save, nor a dtype its parameters are stored in
    EventRule("checkpoint", r"\b(?:stor(?:ed|ing)|dump(?:ed|ing)|serializ(?:ed|ing)|persist(?:ed|ing)|wr(?:ite|iting|ote))\s+"
              r"(?:the |a |an )?"
              r"(?:[\w-]+ )?(?:model|weights|parameters|state[ _]dict)(?:\s+(?:to|at|in|into|for|under|as)\b|\s*[.!]*\s*$)"
              r"|\b(?:model|weights|parameters|state[ _]dict)\b(?:\s+\w+)?\s+"
              r"(?:(?:has been|have been|was|were)\s+)?(?:stored (?:to|at|under)|dumped|serialized|persisted)\b",
              "step 3000 | dumping ema weights to runs/ema_3000.npz"),
    # TensorFlow's Saver writes a model's variables: its scripts print the save in those words
    EventRule("checkpoint", r"^\W{0,3}sav(?:e|ed|ing) (?:the )?(?:model )?variables\b|^\W{0,3}(?:model )?variables saved\b",
              "Saving variables"),
    # a trained pipeline written out (spaCy's ``✔ Saved pipeline to output directory``)
    EventRule("checkpoint", r"\bsav(?:e|ed|ing) (?:the )?(?:trained )?pipeline to\b",
              "✔ Saved pipeline to output directory"),
    # the best or last state written, the epoch it closes glued after a comma (``Saving best state,epoch 3``)
    EventRule("checkpoint", r"\bsav(?:e|ed|ing) (?:the )?(?:best|last|latest|current) state\s*,\s*(?:iter|step|epoch)\b",
              "Saving best state,epoch 3"),
    # a save or export named by the file it writes: a weights format's extension after the verb (the verb as a
    # word of the line, not a folder of a path: ``.../save/tokenizer.ckpt`` is no save)
    EventRule("checkpoint", r"(?:^|[^/\w])(?:sav(?:e|ed|ing)|wr(?:ote|iting|itten)|export(?:ed|ing)|dump(?:ed|ing)|stor(?:ed|ing))"
              r"[\s:][^\n]{0,80}\.(?:pt|pth|ckpt|safetensors|h5|hdf5|pdparams|caffemodel|solverstate|msgpack|keras)\b"
              r"|\bSnapshotting (?:solver state )?to\b|\b(?:exported|exporting) (?:the )?(?:model|weights|checkpoint)\b",
              "epoch 4 done, val acc 0.81; stored weights as runs/exp2/last.pth"),
    # An uncaught exception: the last line of a traceback (``ValueError: ...``) at the start of a line.
    # Also one a framework wraps around the worker's own, its cause in brackets (``RemoteStepError(KeyError):``).
    EventRule("failure", r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)(?:\([\w.]*(?:Error|Exception)\))?(?::|$)",
              "ValueError: expected a tensor of 4 dimensions, got 3", case=True),
)
#: Lines that name an accelerator (no event): read for the run's hardware.
HARDWARE_CONTEXT: tuple[EventRule, ...] = (
    EventRule("", r"nvidia|tesla|instinct|cuda capacity|device name|processgroupnccl",
              "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-1234)"),
)
#: Lines that say the training ended as planned (no event; the run's status is ``completed``).
ENDINGS: tuple[EventRule, ...] = (
    EventRule("", r"\btraining (?:is )?(?:completed|complete|finished|done)\b|\bfinished training\b",
              "2025-03-04 05:06:07 INFO Training completed after 2000 steps"),
    EventRule("", r"`Trainer\.fit` stopped: `max_(?:steps|epochs)=\d+` reached",
              "`Trainer.fit` stopped: `max_steps=500` reached."),
    EventRule("", r"\[after training is done\]|\*{5} train metrics \*{5}",
              "***** train metrics *****"),
    # a solver's own words for its end: R's nnet and optim print ``converged`` or ``stopped after N iterations``
    # (the iteration limit), MATLAB's ``train`` ``Training with TRAINLM completed: Performance goal met.``
    EventRule("", r"^\W*converged\.?\s*$|\bstopped after \d+ iterations\b|\btraining with \w+ completed\b",
              "stopped after 250 iterations"),
    # a planned stop: the stopping rule fired, or the configured number of steps was reached
    EventRule("", r"\bearly stopping (?:triggered|at (?:epoch|step|iter))|\bstopp(?:ed|ing) early\b"
              r"|\breached (?:the )?(?:max(?:imum)?[ _](?:number of )?(?:steps|iters|iterations|epochs)|max_steps)\b",
              "Early stopping triggered at epoch 14: val_loss did not improve for 5 epochs"),
    EventRule("", r"\bepoch \d+: early stopping\b", "Epoch 00012: early stopping"),  # Keras' EarlyStopping
    # a callback's stop when the monitored value stalls (skorch's ``Stopping since valid_loss has not improved in
    # the last 5 epochs.``)
    EventRule("", r"\bstopping\b[^\n]{0,40}\bnot improved\b",
              "Stopping since val_acc has not improved in the last 4 epochs."),
    # one trial of a sweep done (Optuna's ``Trial 7 finished with value: 0.2 and parameters: {...}``): the next
    # trial's records start their own counters, no restart
    EventRule("", r"\btrial \d+ (?:finished|completed|pruned)\b",
              "[I 2031-01-02 03:04:05,678] Trial 7 finished with value: 0.2149 and parameters: {'lr': 0.001}."),
)
#: Candidate lines, GENERATED from the table (RE2, case-insensitive): a line no row's phrase is found in
#: never reaches ``classify``, so the filter and the rules cannot drift apart.
COMMON_FILTER = "|".join(f"(?:{r.pattern})" for r in (*EVENTS, *ENDINGS, *HARDWARE_CONTEXT))
COMMON_RE = re.compile(COMMON_FILTER, re.I | re.M)
_RULES: list[tuple[str, re.Pattern[str]]] = [(r.kind, r.regex) for r in EVENTS]

#: Lines that mention a checkpoint without saving one (a load, the echo of a save counted already): no
#: ``checkpoint`` event. Rows with examples, as the event table's.
NOT_SAVES: tuple[EventRule, ...] = (
    EventRule("", r"successfully saved|Finished saving|checkpoint saved in \d",
              "  successfully saved checkpoint from iteration     400 to /ckpt"),
    EventRule("", r"Loading checkpoint|load_checkpoint|will not load any checkpoints"
              r"|if trying to load latest checkpoint",
              "Loading checkpoint shards: 100%|##########| 4/4 [00:03<00:00,  1.2it/s] (saved by the last run)"),
    # a plan for the saves to come, said at the start (``saving the latest models every 500 iterations``)
    EventRule("", r"\bsav(?:e|es|ed|ing)\b[^\n]{0,60}\bevery\s+\d+",
              "INFO: Saving the latest models every 500 iterations to experiments/run1."),
)
#: Warnings are not events, whatever they mention.
WARNINGS: tuple[EventRule, ...] = (
    EventRule("", r"UserWarning|FutureWarning|DeprecationWarning|RuntimeWarning:",
              "/opt/lib/x.py:12: UserWarning: to save memory, out of memory checks are skipped"),
)
_NOT_SAVES = re.compile("|".join(f"(?:{r.pattern})" for r in NOT_SAVES), re.I)
_WARNINGS = re.compile("|".join(f"(?:{r.pattern})" for r in WARNINGS))
_OUTCOME = {
    "oom": "failed",
    "failure": "failed",
    "hardware_error": "failed",
    "cancelled": "cancelled",
    "preempted": "cancelled",
}
#: Hardware errors that kill the run (an NCCL warning alone does not).
_FATAL_HARDWARE = re.compile(
    r"Xid|uncorrectable|fallen off|Watchdog caught|communicator was aborted|"
    r"ncclUnhandledCudaError|ncclSystemError|ncclInternalError|ncclRemoteError|"
    r"CUDA error|marked (?:as )?dead|lack of heartbeat|node failure",
    re.I,
)
#: A NaN report that ends the run (an exception, an abort), as opposed to a warning it continues after.
_STOPS = re.compile(r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)\b|stop|abort|terminat|exit", re.I)
_HW_CONTEXT = re.compile(r"NVIDIA|Tesla|Instinct|GPU|CUDA|device", re.I)


def classify(text: str) -> str | None:
    """The event kind of a log line, or ``None`` when it reports none."""
    if _WARNINGS.search(text):
        return None
    for kind, pattern in _RULES:
        if pattern.search(text):
            return None if kind == "checkpoint" and _NOT_SAVES.search(text) else kind
    return None


#: A bare progress bar (no description before it, as the HF Trainer draws it) with text glued after it.
_BAR_THEN = re.compile(r"^\s*\d{1,3}%\|[^|]*\|\s*(\d+)/\d+ \[[^\]]*\]\s*\S")
#: The step an event's line names itself (``at step 600``, ``iteration=88``), not one printed with its total
#: (``step 50/100`` may count within an epoch) nor a job step's id (Slurm's ``STEP 5559.0``).
_OWN_STEP = re.compile(r"(?i)\b(?:global[_ ])?(?:step|iteration|iter)\b\s*[:=#]?\s*(\d+)\b(?!\s*/|\.\d)")
#: The step a save names: a checkpoint folder named by the global step it was saved at (``.../checkpoint-6000/``:
#: the HF Trainer's and the scripts built on Accelerate name it so), or a parameter printed after the save
#: (``checkpoint_step : 1787``); ``checkpoint_12.pth`` may count epochs or saves.
_SAVED_STEP = re.compile(r"\bcheckpoint-(\d+)(?=/|\\|\s|$)|\b(?:checkpoint|ckpt)_step\s*[:=]\s*(\d+)\s*$")
#: The first line of a traceback (plain, or the box a rich console draws around it).
_TRACEBACK = re.compile(r"Traceback \(most recent call last\)")
#: The exception line that ends a traceback (``RuntimeError: ...``), case-sensitive. Its numbers are the
#: error's (``Tried to allocate 2.00 GiB``, ``total capacity of 79 GiB``), never a metric's.
EXCEPTION_LINE = _EXCEPTION = EVENTS[-1].regex
#: A traceback's exception line is this close to its first line (stack frames between).
_TRACEBACK_LINES = 400
#: The line of the traceback each collector is inside of (one per chunk; gone with the collector).
_open_traceback: weakref.WeakKeyDictionary[Collector, int] = weakref.WeakKeyDictionary()
#: The last line that reported the run stopping on a NaN, per collector.
_nan_stop: weakref.WeakKeyDictionary[Collector, int] = weakref.WeakKeyDictionary()


def observe(
    text: str, line_no: int, rank: int | None, out: Collector, *, offset: int | None = None, line: str | None = None
) -> None:
    """Record what a candidate line says: an event (and the outcome it implies) and the accelerator named.
    ``line`` is the whole line where ``text`` is it without its prefix: a date the prefix holds is the event's time.

    A traceback is one ``failure``: its first line gives the event (a log cut before the exception still
    shows the failure) and its exception line adds none. An exception line of another kind outside a
    traceback (``torch.OutOfMemoryError: ...`` printed alone) is also the run's uncaught failure: ``oom``
    and ``failure`` both."""
    kind = classify(text)
    if kind is not None:
        ts = find_timestamp((line or text)[:200])
        bar = _BAR_THEN.match(text)  # a report glued after a bare progress bar happened at the bar's count
        # ``nan loss at step 600``: the step the report names (a checkpoint takes the training step before it,
        # unless its folder is named by the step, ``checkpoint-6000/``; the number its file's name carries is
        # weighed against the records' steps later, ``_event_steps.saves_at_named_steps``); a resume from a
        # folder named by its step (``Resuming from checkpoint: out/checkpoint-500``) goes on from that step
        own = _OWN_STEP.search(text) if kind != "checkpoint" else _SAVED_STEP.search(text)
        if kind == "restart" and (named := _SAVED_STEP.search(text) or AT_UPDATES.search(text)):
            own = named  # (or the updates the loaded checkpoint had done: fairseq's ``(epoch 143 @ 40015 updates)``)
        step = int(bar[1]) if bar else int(own[own.lastindex]) if own else None
        opened = _open_traceback.get(out)
        inside = opened is not None and 0 <= line_no - opened <= _TRACEBACK_LINES
        if kind == "failure" and _TRACEBACK.search(text):
            _open_traceback[out] = line_no
            if not 0 < line_no - _nan_stop.get(out, -10) <= 2:
                # (a traceback right after a report that the run stopped on its NaN, TensorFlow's ``Model
                # diverged with loss = NaN.``: that stop, no failure of its own, docs/logs.md L5)
                out.event(kind, line_no, text, rank=rank, ts=ts, step=step)
        elif _EXCEPTION.search(text):
            _open_traceback.pop(out, None)
            if kind == "nan" and inside:
                # the run's own NaN check raised it (``FloatingPointError: ... Training has diverged.``): a run
                # stopped by its NaN, whose traceback is that stop, no failure of its own (docs/logs.md, L5)
                out.withdraw("failure", opened)
            if kind != "failure" or not inside:
                out.event(kind, line_no, text, rank=rank, ts=ts, step=step)
            if kind != "failure" and not inside:
                out.event("failure", line_no, text, rank=rank, ts=ts, step=step)
        else:
            out.event(kind, line_no, text, rank=rank, ts=ts, step=step)
        outcome = _OUTCOME.get(kind)
        if kind == "hardware_error" and not _FATAL_HARDWARE.search(text):
            outcome = None
        if kind == "restart":
            outcome = "restart"
        if kind == "nan" and _STOPS.search(text):
            outcome = "diverged"
        if kind == "nan" and (_STOPS.search(text) or "diverged" in text):
            _nan_stop[out] = line_no
        if outcome:
            out.mark(outcome, line_no, text)
    elif not _WARNINGS.search(text) and any(r.regex.search(text) for r in ENDINGS):
        out.mark("completed", line_no, text)
    if _HW_CONTEXT.search(text):
        for name, start, _end in find_hardware(text):
            out.accelerator(name, line_no, None if offset is None else offset + start)


#: A line a console (rich, a terminal) wrapped: indented far and going on mid-sentence.
CONTINUATION = r"^[ \t]{8,}[a-z]"


def observe_wrapped(previous: str, text: str, line_no: int, rank: int | None, out: Collector) -> None:
    """An event worded over two lines (``WARNING: found`` / ``inf during ... step``): the end of the line
    before and this one, read as one, when neither reports an event alone."""
    joined = previous.rstrip()[-160:] + " " + text.strip()
    if COMMON_RE.search(joined) and classify(previous) is None and classify(text) is None:
        observe(joined, line_no, rank, out)
