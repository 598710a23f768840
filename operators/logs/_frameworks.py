"""Which tool wrote a log, for the tools that have no parser of their own: a declared table of markers.

A marker is something only that tool prints: its logger's name (``d2.utils.events``, ``- mmdet - INFO -``,
``INFO:tensorflow:``, ``olmo.train``), a module path of its package, a banner, or a set of fields nobody else
prints together (``avr_loss=`` on a tqdm bar, ``Train time/batch:``). Every row carries an example line in
the tool's shape (written for this table); ``tests/unit/test_logs_frameworks.py`` runs each one through
``parse_log`` and checks the run's framework. Adding a tool is adding a row with its example.

Naming never changes which parser reads a file: the generic reader still reads a file no parser claimed,
and only the ``runs.framework`` (and the 'system' entity) changes.

Who wins (specificity):

1. a framework parser's own name (Megatron-LM, DeepSpeed, Hugging Face Transformers, TorchElastic, ...)
   stands, unless a row found in the file says it runs *on top of* that framework (``over``): TRL,
   LLaMA-Factory or DeepSpeed-Chat drive the HF Trainer or DeepSpeed, mmediting runs under torchrun;
2. with no framework parser, the first row of the table found in the file names it. Rows are ordered from
   the most specific tool to the most general (an OpenMMLab codebase before MMEngine, Keras before
   TensorFlow, a launcher such as Horovod last);
3. the name so far is none, or a runner other tools are built on (MMEngine, the HF Trainer, Megatron-LM,
   TensorFlow, ...: ``_packages.RUNNERS``): the package the log's own loggers, source paths, command lines
   and banners point at, weighed (``_tool_evidence``), names the more specific tool, so a codebase on MMEngine, a tuning tool on the HF
   Trainer or a package nobody listed (``verl``) is named by its code rather than by one more row;
4. nothing found: no name. A user's own script prints none of these and stays unnamed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.compute as pc

from assay.operators.logs._packages import RUNNERS
from assay.operators.logs._tool_evidence import tool_of

_HF = "Hugging Face Transformers"
_DS = "DeepSpeed"
_ELASTIC = "TorchElastic"


@dataclass(frozen=True)
class Marker:
    """One row: the tool's entity name (as papers name it), the pattern (Python ``re``, multi-line), an
    example line written in the tool's shape, and the frameworks this tool runs on top of (see module)."""

    framework: str
    pattern: str
    example: str
    over: tuple[str, ...] = ()
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "regex", re.compile(self.pattern, re.M))


#: Most specific first (see the module's docstring).
MARKERS: tuple[Marker, ...] = (
    # --- tools on top of the HF Trainer / DeepSpeed / torchrun ----------------------------------------------
    Marker(
        "DeepSpeed-Chat",
        r"DeepSpeed-Chat|Total Generation Batches|\|act_loss: *-?[\d.]+\|cri_loss:|step3_rlhf_finetuning",
        "epoch: 1|step: 12|ppo_ep: 1|act_loss: 0.0125|cri_loss: 0.0871|unsuper_loss: 0.0",
        over=(_HF, _DS, _ELASTIC),
    ),
    # ms-swift's trainer dicts carry its own speed and memory keys beside TRL's rewards
    Marker("ms-swift", r"['\"]train_speed\(iter/s\)['\"]: *[\d.]|['\"]memory\(GiB\)['\"]: *[\d.]|\bswift\.llm\b",
           "{'loss': 0.41, 'grad_norm': 1.2, 'learning_rate': 2e-05, 'memory(GiB)': 40.1, "
           "'train_speed(iter/s)': 0.08, 'rewards/chosen': 1.5, 'epoch': 0.3}",
           over=(_HF, _DS, _ELASTIC)),
    # TRL by what only its preference and RL trainers log (rewards, log-probabilities, completions); its SFT
    # trainer logs as the HF Trainer does and is read as one
    Marker(
        "TRL",
        r"['\"]rewards/[\w/]+['\"]: *-?[\d.]|['\"]reward_std['\"]: *-?[\d.]|['\"]logps/(?:chosen|rejected)['\"]"
        r"|['\"]completion_length['\"]|\btrl/trainer/"
        r"|\btrl\.trainer\b",
        "{'loss': 0.012, 'grad_norm': 0.31, 'learning_rate': 4e-06, 'rewards/accuracy_reward': 0.5, "
        "'reward': 0.5, 'reward_std': 0.2, 'kl': 0.001, 'epoch': 0.04}",
        over=(_HF, _DS, _ELASTIC),
    ),
    Marker(
        "LLaMA-Factory",
        r"\bllamafactory[./]|\bllmtuner[./]|LLaMA-Factory",
        "[INFO|2025-01-02 10:11:12] llamafactory.model.loader:143 >> all params: 494,032,768",
        over=(_HF, _DS, _ELASTIC),
    ),
    Marker("Unsloth", r"🦥 Unsloth|==\(\(====\)\)== +Unsloth|\bunsloth[./]",
           "==((====))==  Unsloth - 2x faster free finetuning | Num GPUs = 1", over=(_HF, _DS, _ELASTIC)),
    Marker("Axolotl", r"\[axolotl[.\]]|\baxolotl\.(?:train|utils|cli)\b",
           "[2024-05-06 07:08:09,100] [INFO] [axolotl.train.train:170] [PID:42] Starting trainer...",
           over=(_HF, _DS, _ELASTIC)),
    Marker("XTuner", r"\bxtuner[./]", "  File \"/opt/xtuner/xtuner/tools/train.py\", line 342, in main",
           over=(_HF, _DS, _ELASTIC)),
    # GPT-NeoX prints Megatron's iteration line with its own fields (``lm_loss``, the FLOPS estimate)
    Marker("GPT-NeoX", r"\| lm_loss: [\d.Ee+-]+ \||\bapprox flops per GPU: |\bneox_args\b|\bNeoXArgs\b|\bgpt-neox/",
           " samples/sec: 3.10 | iteration       20/  32000 | elapsed time per iteration (ms): 8120.4 | "
           "lm_loss: 3.301E+00 | loss scale: 4096.0 |",
           over=("Megatron-LM", _DS, _ELASTIC)),
    # --- OpenMMLab codebases (their logger is named after the package), then MMEngine itself ------------------
    Marker("MMDetection3D", r"(?:^|\s)- mmdet3d - (?:INFO|WARNING|ERROR|DEBUG) - |default_scope ?= ?.mmdet3d\b|\bmmdet3d/",
           "2023-04-05 06:07:08,900 - mmdet3d - INFO - Epoch [2][100/3712]\tlr: 1.0e-03, loss: 1.42",
           over=(_ELASTIC,)),
    Marker("MMDetection", r"(?:^|\s)- mmdet - (?:INFO|WARNING|ERROR|DEBUG) - |default_scope ?= ?.mmdet\b|\bmmdet/(?:models|apis|core|datasets)/"
           r"|- mmengine - \w+ - .*\bloss_rpn_cls: ",
           "2021-06-07 08:09:10,111 - mmdet - INFO - Epoch [3][150/2000]\tlr: 2.0e-02, loss_cls: 0.31, loss: 0.77",
           over=(_ELASTIC,)),
    Marker("MMSegmentation", r"(?:^|\s)- mmseg - (?:INFO|WARNING|ERROR|DEBUG) - |default_scope ?= ?.mmseg\b|\bmmseg/(?:models|apis|datasets)/"
           r"|- mmengine - \w+ - .*\bdecode\.loss_ce: ",
           "2022-03-04 05:06:07,800 - mmseg - INFO - Iter [400/80000]\tlr: 9.9e-03, decode.loss_ce: 0.52, loss: 0.52",
           over=(_ELASTIC,)),
    Marker("MMEditing", r"(?:^|\s)- mmedit - (?:INFO|WARNING|ERROR|DEBUG) - |default_scope ?= ?.mmedit\b|\bmmedit/(?:models|apis|core|datasets)/",
           "  File \"/work/mmediting/mmedit/models/restorers/basic_restorer.py\", line 88, in forward_train",
           over=(_ELASTIC,)),
    Marker("MMPose", r"(?:^|\s)- mmpose - (?:INFO|WARNING|ERROR|DEBUG) - |default_scope ?= ?.mmpose\b|\bmmpose/(?:models|apis|datasets)/"
           r"|- mmengine - \w+ - .*\b(?:loss_kpt|acc_pose): ",
           "2022-01-02 03:04:05,600 - mmpose - INFO - Epoch [5][50/300]\tlr: 5.0e-04, heatmap_loss: 0.0012",
           over=(_ELASTIC,)),
    Marker("MMOCR", r"(?:^|\s)- mmocr - (?:INFO|WARNING|ERROR|DEBUG) - |default_scope ?= ?.mmocr\b|\bmmocr/(?:models|apis|datasets)/",
           "2022-02-03 04:05:06,700 - mmocr - INFO - Epoch [1][20/500]\tlr: 1.0e-03, loss_ce: 2.9, loss: 2.9",
           over=(_ELASTIC,)),
    Marker("MMAction2", r"(?:^|\s)- mmaction - (?:INFO|WARNING|ERROR|DEBUG) - |default_scope ?= ?.mmaction\b|\bmmaction/(?:models|apis|datasets)/",
           "2021-09-10 11:12:13,140 - mmaction - INFO - Epoch [1][40/900]\tlr: 1.0e-02, loss_cls: 2.3, loss: 2.3",
           over=(_ELASTIC,)),
    Marker("MMClassification", r"(?:^|\s)- mmcls - (?:INFO|WARNING|ERROR|DEBUG) - |default_scope ?= ?.mmcls\b|\bmmcls/(?:models|apis|datasets)/",
           "2021-11-12 13:14:15,160 - mmcls - INFO - Epoch [4][300/5005]\tlr: 1.0e-01, loss: 3.11",
           over=(_ELASTIC,)),
    Marker("MMPretrain", r"\bmmpretrain[./]|default_scope ?= ?.mmpretrain\b", "  File \"/ws/mmpretrain/mmpretrain/models/backbones/vit.py\", line 9",
           over=(_ELASTIC,)),
    Marker("MMEngine", r"(?:^|\s)- mmengine - (?:INFO|WARNING|ERROR|DEBUG) - |\b(?:Epoch|Iter)\((?:train|val|test)\) +\[",
           "06/07 08:09:10 - mmengine - INFO - Epoch(train)  [2][ 100/1250]  lr: 2.0e-02  loss: 0.8123",
           over=(_ELASTIC,)),
    # --- other training codebases --------------------------------------------------------------------------
    Marker("Detectron2", r"\bd2\.(?:utils\.events|engine\.\w+|checkpoint\.\w+|data\.\w+|evaluation\.\w+)\b"
           r"|\bdetectron2[./]",
           "[05/06 07:08:09 d2.utils.events]:  eta: 2:01:00  iter: 199  total_loss: 1.23  loss_cls: 0.41",
           over=(_ELASTIC,)),
    Marker("YOLOX", r"\byolox\.(?:core|exp|utils|data|models)\b",
           "2022-01-02 03:04:05 | INFO     | yolox.core.trainer:261 - epoch: 3/300, iter: 20/400, total_loss: 9.1",
           over=(_ELASTIC,)),
    Marker("YOLOv5", r"\bYOLOv5 (?:🚀|v\d)|\btrain/obj_loss\b|^ +Epoch +GPU_mem +box_loss +obj_loss +cls_loss"
           r"|^\s+Class\s+Images\s+Instances\s+P\s+R\s+mAP50\s+mAP50-95",
           "       epoch,  train/box_loss,  train/obj_loss,  train/cls_loss,  metrics/mAP_0.5,  x/lr0",
           over=(_ELASTIC,)),
    Marker("Ultralytics", r"\bUltralytics (?:YOLOv?8|\d+\.\d+)|\btrain/dfl_loss\b|metrics/mAP50\(B\)"
           r"|\bBox\(P\s+R\s+mAP50\s+mAP50-95\)"
           r"|^ +Epoch +GPU_mem +box_loss +cls_loss +dfl_loss",
           "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size",
           over=(_ELASTIC,)),
    Marker("fairseq", r"\bfairseq(?:_cli)?\.(?:train|trainer|tasks|models|data|utils|checkpoint_utils"
           r"|distributed)\b|\| fairseq\.|\| INFO \| train_inner \||\bepoch \d{3}:\s+\d+ / \d+ loss="
           r"|\| valid on '\w+' subset \|",
           "2022-07-08 09:10:11 | INFO | fairseq.trainer | begin training epoch 4",
           over=(_ELASTIC,)),
    Marker("torchtune", r"\btorchtune\.(?:utils|training|recipes|modules)\b|\btokens_per_second_per_gpu\b|^\d+\|\d+\|Loss: [\d.na]+",
           "Step 12 | loss:1.84 lr:2e-05 tokens_per_second_per_gpu:512.3",
           over=(_ELASTIC,)),
    Marker("LitGPT", r"\blitgpt[./]|\blit_gpt[./]|\| loss train: [\d.]+, val: |\biter time: [\d.]+ ?ms \((?:optimizer\.step|opt\.step)\)",
           "Epoch 1 | iter 40 step 10 | loss train: 1.912, val: n/a | iter time: 310.22 ms (step)",
           over=(_ELASTIC,)),
    Marker("Composer", r"\bcomposer\.(?:trainer|core|callbacks|utils|algorithms)\b|^\s*Train time/batch: \d"
           r"|Train loss/train/total: ",
           "\t Train time/batch: 40", over=(_ELASTIC,)),
    Marker("OLMo", r"\bolmo(?:_core)?\.(?:train|util|model|optim|data)\b",
           "olmo.train:1021  INFO    [step=300/10000,epoch=0]", over=(_ELASTIC,)),
    Marker("OpenNMT", r"\bonmt\.(?:trainer|utils|bin|models)\b|\bStep \d+/ *\d+; acc: *[\d.]+; ppl: *[\w.]+; xent:"
           r"|\bopennmt\.|\bStep = \d+ ; steps/s = ",
           "[2020-01-02 03:04:05,678 INFO] Step 800/20000; acc:  41.20; ppl: 12.40; xent: 2.52; lr: 0.00100",
           over=(_ELASTIC,)),
    Marker("ESPnet", r"\bespnet2?[./](?:bin|tasks|train|asr|tts)\b|\b\d+epoch:train:\d+-\d+batch: "
           r"|\b\d+epoch results: \[train\]|\((?:trainer|reporter|abs_task):\d+\) INFO: ",
           "[node0] 2023-02-03 04:05:06,789 (trainer:732) INFO: 3epoch:train:201-300batch: iter_time=0.1, loss=41.2",
           over=(_ELASTIC,)),
    Marker("icefall", r"\bicefall[./]|(?:^|\s)(?:INFO|WARNING|DEBUG|ERROR) \[[\w.]+\.py:\d+\] \(\d+/\d+\) ",
           "2022-05-06 07:08:09,101 INFO [train.py:812] (2/4) Epoch 3, batch 450, loss[loss=0.21, over 900 frames]",
           over=(_ELASTIC,)),
    Marker("kohya-ss sd-scripts", r"\bavr_loss=|\bsd-scripts\b|\btrain_network\.py\b",
           "steps:  12%|█▏        | 240/2000 [03:10<23:20,  1.26it/s, avr_loss=0.0871]", over=(_ELASTIC,)),
    Marker("Diffusers", r"^Steps: +\d+%\|.*\| *\d+/\d+ \[[^\]]*(?:loss=|step_loss=)",
           "Steps:  25%|██▌       | 50/200 [00:31<01:34,  1.59it/s, loss=0.0912, lr=5e-06]", over=(_ELASTIC,)),
    Marker("modded-nanogpt", r"\bstep:\d+/\d+ (?:train_loss|val_loss):[\d.na]+ train_time:\d+ms step_avg:",
           "step:120/3000 train_loss:4.1022 train_time:25120ms step_avg:209.33ms"),
    Marker("MLX LM", r"\bmlx_lm[./]|\bIter \d+: Train loss [\d.na]+, (?:Learning Rate|It/sec)",
           "Iter 30: Train loss 1.904, Learning Rate 2.000e-05, It/sec 0.512, Tokens/sec 410.2"),
    # ParlAI's training report: its bracketed timing header before the metrics dict, and its task lines
    Marker("ParlAI", r"\[ time:[\d.]+s total_exs:\d+ epochs:[\d.]+|^\[creating task\(s\): [\w:]+\]|\bparlai[./]",
           "[ time:12.0s total_exs:5120 epochs:0.75 time_left:40.0s ] {'exs': 512, 'loss': 2.31, 'ppl': 10.1}"),
    # llama-recipes' training bar: its description carries the step and the loss
    Marker("llama-recipes", r"\bTraining Epoch: \d+/\d+, step \d+/\d+ completed \(loss: [\d.na]+\)|\bllama_recipes[./]",
           "Training Epoch: 2/4, step 7/120 completed (loss: 0.8841):   6%|▌         | 7/120 [00:30<08:10]"),
    # RT-DETR: the DETR metric logger's line with its varifocal loss
    Marker("RT-DETR", r"\bEpoch: \[\d+\] +\[ *\d+/\d+\] +eta: [^\n]*\bloss_vfl: [\d.na]+",
           "Epoch: [3]  [ 100/2000]  eta: 0:20:01  lr: 0.000100  loss: 12.40 (12.90)  loss_vfl: 0.91 (0.95)  "
           "loss_bbox: 0.30 (0.31)"),
    # --- tools whose excerpts often print no package name: a phrase or a logger layout only they print -------
    Marker("nnU-Net", r"Average global foreground Dice:|\(interpret this as an estimate for the Dice"
           r"|^(?:[\d-]+ [\d:.]+: )?Pseudo dice \[|\bnnUNet_(?:preprocessed|raw|results)\b|\bnnUNetTrainer\w*\b",
           "2024-05-06 07:08:09.101112: Average global foreground Dice: [0.7712, 0.6407]"),
    Marker("DLLogger", r"(?:^|[\]\s])DLL \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ - ",
           "DLL 2023-03-04 05:06:07.891011 - Training Epoch: 1 Training Iteration: 300  step_loss : 1.204"),
    Marker("veRL", r"(?:^|\s- )(?:actor/pg_loss|critic/vf_loss|actor/ppo_kl|critic/score/mean):-?[\d.na]",
           "step:12 - actor/pg_loss:-0.021 - actor/entropy_loss:0.51 - critic/score/mean:0.44 - timing_s/gen:8.1"),
    Marker("OpenCLIP", r"\bTrain Epoch: \d+ \[ *\d+/\d+ \(\d+%\)\] (?:Data \(t\)|Loss: [\d.na]+ \([\d.na]+\) Data \(t\))"
           r"|\bLogit Scale: [\d.]+|\bopen_clip(?:_train)?[./]",
           "2024-02-03,04:05:06 | INFO | Train Epoch: 1 [ 2560/50000 (5%)] Loss: 1.802 (1.911) Data (t): 0.05 "
           "Batch (t): 0.41, 620.1/s LR: 0.000500 Logit Scale: 42.117"),
    # MONAI's tutorial training loop, which scripts built on MONAI keep printing
    Marker("MONAI", r"\bsaved new best metric model\b|\bcurrent mean dice: [\d.]+ best mean dice\b|\bmonai[./]",
           "current epoch: 9 current mean dice: 0.8711 best mean dice: 0.8802 at epoch: 7"),
    # tensorpack's logger: '[MMDD HH:MM:SS @file.py:line]'
    Marker("tensorpack", r"^\[\d{4} \d\d:\d\d:\d\d @\w+\.py:\d+\] |\btensorpack[./]",
           "[0312 10:11:12 @base.py:250] Epoch 3 (global_step 1170) finished, time:31.40 sec."),
    Marker("PyTorch/XLA", r"\bDevice=xla:\d|\btorch_xla[./]", "| Training Device=xla:0/3 Epoch=2 Step=80 Loss=0.114"),
    Marker("MaxText", r"\bcompleted step: \d+, seconds: [\d.]+, TFLOP/s/device:|\bMaxText\b|\bmaxtext/",
           "I0203 04:05:06.700000 1401 metric_logger.py:190] completed step: 7, seconds: 1.204, "
           "TFLOP/s/device: 210.5, loss: 9.812"),
    Marker("Flax", r"\blogging_writer\.py:\d+\] \[\d+\] \w+=|\bflax[./](?:training|linen|core)\b",
           "I0708 09:10:11.120000 1402 logging_writer.py:48] [600] train_loss=2.71, train_accuracy=0.41"),
    Marker("PaddleOCR", r"\bppocr (?:INFO|WARNING|ERROR|DEBUG):", "[2024/03/04 05:06:07] ppocr INFO: epoch: [2/100], "
           "global_step: 120, lr: 0.001000, loss: 1.2031"),
    Marker("PaddleDetection", r"\bppdet\.(?:engine|utils|modeling|data)\b",
           "[05/06 07:08:09] ppdet.engine INFO: Epoch: [0] [ 20/500] learning_rate: 0.0001 loss: 3.21"),
    Marker("PaddleClas", r"\bppcls (?:INFO|WARNING|ERROR):|\[Train\]\[Epoch \d+/\d+\]\[Iter: \d+/\d+\]",
           "[2023/04/05 06:07:08] ppcls INFO: [Train][Epoch 3/120][Iter: 40/5005]lr(LinearWarmup): 0.0100, loss: 6.71"),
    Marker("PaddleSeg", r"\bpaddleseg[./]|\[TRAIN\] epoch: \d+, iter: \d+/\d+, loss: [\d.na]+, lr: [\d.e-]+, "
           r"batch_cost:",
           "2022-04-05 06:07:08 [INFO]\t[TRAIN] epoch: 2, iter: 60/1000, loss: 1.4102, lr: 0.009400, batch_cost: 0.41"),
    Marker("PaddleNLP", r"\bpaddlenlp[./]", "[2023-06-07 08:09:10,111] [    INFO] - paddlenlp.trainer loaded",
           over=(_HF, _ELASTIC)),  # its Trainer is a port of the HF Trainer's and logs as it does
    Marker("OneFlow", r"\boneflow[./]|^Rank\[\d+\], Step \d+, Loss [\d.na]+, Latency [\d.]+ ms, Throughput",
           "Rank[1], Step 30, Loss 0.4712, Latency 21.5 ms, Throughput 2980.1, 2023-01-02 03:04:05"),
    Marker("MindSpore", r"\bmindspore[./]|\bmindformers\b|^epoch: \d+ step: \d+, loss is "
           r"|\{ Epoch:\[ *\d+/ *\d+\], step:\[ *\d+/ *\d+\], loss:|\bepoch time: [\d.]+ ?ms, per step time: ",
           "epoch: 3 step: 1560, loss is 0.41205"),
    Marker("SpeechBrain", r"\bspeechbrain\.(?:core|utils|dataio)\b",
           "speechbrain.utils.train_logger - epoch: 4, lr: 1.0e-03 - train loss: 1.21 - valid loss: 1.35"),
    Marker("Marian", r"\bEp\. \d+ : Up\. \d+ : Sen\. [\d,]+ : Cost [\d.]+",
           "[2021-02-03 04:05:06] Ep. 2 : Up. 4000 : Sen. 1,204,311 : Cost 3.4102 : Time 210.2s : 18200.5 words/s"),
    Marker("Sockeye", r"\bsockeye\.(?:training|train|model)\b",
           "[INFO:sockeye.training] Epoch[1] Batch [500]\tSpeed: 910.2 samples/sec\tperplexity=48.1"),
    Marker("AllenNLP", r"\ballennlp\.(?:training|commands|models|data)\b",
           "2020-01-02 03:04:05,678 - INFO - allennlp.training.trainer - Epoch 1/20"),
    Marker("T5X", r"\bt5x[./](?:train|trainer|checkpoints|utils)\b",
           "I0304 05:06:07.800000 1403 trainer.py:512] t5x.trainer: Training step 1000 completed"),
    Marker("Levanter", r"\blevanter[./](?:trainer|main|checkpoint|models)\b",
           "2024-02-03 04:05:06,700 - levanter.trainer - INFO - Saving checkpoint at step 500"),
    # --- tools read from their own line shapes (issue 25, fourth round): a logger's banner or a report line
    # no other tool prints in that form ---------------------------------------------------------------------
    Marker("skorch", r"^\s*epoch +train_loss +(?:\w+ +)*dur\s*$",
           "  epoch    train_loss    valid_acc    valid_loss     dur"),
    Marker("Caffe", r"\b(?:sgd_)?solver\.cpp:\d+\] (?:Iteration \d+|Snapshotting|Train net output)",
           "I0102 03:04:05.600000  4242 solver.cpp:219] Iteration 800 (2.1 iter/s, 4.7s/10 iters), loss = 0.31"),
    Marker("MXNet", r"\bEpoch\[\d+\] Batch \[\d+\]\s+Speed: [\d.]+ samples/sec|\bEpoch\[\d+\] Train-[\w-]+=",
           "2019-03-04 05:06:07,800 Epoch[2] Batch [400]\tSpeed: 812.50 samples/sec\taccuracy=0.61"),
    Marker("Flair", r"(?:^|[\d,] )epoch \d+ - iter \d+/\d+ - loss [\d.]+|(?:^|[\d,] )EPOCH \d+ done: loss [\d.]+ - lr",
           "2020-01-02 03:04:05,600 epoch 3 - iter 120/400 - loss 0.2210 - samples/sec: 88.1"),
    Marker("RecBole", r"\bepoch \d+ training \[time: [\d.]+s, train loss: |\bepoch \d+ evaluating \[time: [\d.]+s, "
           r"valid_score: ",
           "Mon 01 Jan 2024 10:00:00 INFO  epoch 4 training [time: 12.30s, train loss: 310.2201]"),
    Marker("darkflow", r"^step \d+ - loss +[\d.na]+ - moving ave loss", "step 42 - loss 12.5001 - moving ave loss 13.0100"),
    Marker("Coqui TTS", r"--> STEP: \d+/\d+ -- GLOBAL_STEP: \d+|^\s*\| > (?:loss|grad_norm)\w*: [\d.]+ +\(",
           "   --> STEP: 12/300 -- GLOBAL_STEP: 40012"),
    Marker("WeNet", r"\b(?:TRAIN|CV) Batch \d+/\d+ loss [\d.]+ loss_att [\d.]+ loss_ctc",
           "2024-01-02 03:04:05,600 DEBUG TRAIN Batch 2/1200 loss 40.1 loss_att 35.2 loss_ctc 51.3 lr 0.0008 rank 0"),
    Marker("3D Gaussian Splatting", r"^\[ITER \d+\] (?:Saving Gaussians|Evaluating (?:train|test):)",
           "[ITER 3000] Evaluating test: L1 0.0412 PSNR 24.81 [02/03 10:11:12]"),
    Marker("OpenRLHF", r"^\((?:ActorModel|CriticModel|RewardModel|ReferenceModel|LLM)RayActor pid=\d+",
           "(ActorModelRayActor pid=4242) Train epoch [1/2]:  50%|#####     | 8/16 [01:00<01:00, pg=0.01, kl=0]"),
    Marker("trlx", r"^\[rollout \d+ / \d+\]:", "[rollout 3 / 8]:  38%|###8      | 3/8 [00:09<00:15,  3.10s/it]"),
    Marker("Detectron", r"^json_stats: \{", 'json_stats: {"eta": "1:02:03", "iter": 100, "loss": "1.23", "lr": "0.01"}'),
    Marker("MMSkeleton", r"^\[ \w{3} \w{3} +\d+ [\d:]+ \d{4} \] \tBatch\(\d+/\d+\) done\. Loss: ",
           "[ Mon Jan  1 10:00:00 2024 ] \tBatch(200/900) done. Loss: 1.8810  lr:0.010000"),
    Marker("PaddleSpeech", r"\] Train: Rank: \d+, epoch: \d+, step: \d+, batch ?: \d+/\d+",
           "[INFO 2022/01/02 03:04:05 trainer.py:180] Train: Rank: 0, epoch: 2, step: 900, batch : 12/400, lr: 0.001"),
    Marker("NeMo AutoModel", r"\| step \d+ \| epoch \d+ \| loss [\d.]+ \|.*\| tps [\d.]+\([\d.]+/gpu\)",
           "2025-01-02 03:04:05 | INFO | root | step 7 | epoch 0 | loss 1.0210 | lr 1.00e-05 | tps 4200.1(525.0/gpu)"),
    Marker("DeepFaceLab", r'Press "Enter" to stop training and save model',
           'Starting. Press "Enter" to stop training and save model.'),
    Marker("fastText", r'^\{"progress":[\d.]+,"loss":[\d.]+,"lr":', '{"progress":12.5,"loss":1.2031,"lr":0.04,"words":900}'),
    Marker("DLRM", r"^Finished training it \d+/\d+ of epoch \d+, [\d.]+ ms/it, loss ",
           "Finished training it 200/4000 of epoch 1, 88.10 ms/it, loss 0.471200"),
    Marker("RLlib", r"^timesteps_total: \d+\s*$|^episode_reward_mean: -?[\d.]+\s*$", "episode_reward_mean: 21.5"),
    Marker("guided-diffusion", r"^\| lg_loss_scale +\| ", "| lg_loss_scale | 16.2     |"),
    Marker("fastai", r"^epoch +train_loss +valid_loss\b", "epoch     train_loss  valid_loss  accuracy  time"),
    Marker("Stable-Baselines3", r"^\|\s+(?:rollout|time|train)/\s+\|\s+\||\|\s+ep_rew_mean\s+\|",
           "|    ep_rew_mean     | 21.4     |"),
    Marker("timm", r"^Train: \d+ \[ *\d+/\d+ \( *\d+%\)\]  Loss: ",
           "Train: 4 [ 300/1251 ( 24%)]  Loss: 5.812 (5.902)  Time: 0.410s,  2496.1/s  LR: 1.000e-03"),
    Marker("Keras", r"^\s*\d+/\d+ (?:━+|\[[=>.]+\])[^\n]*? - \w+: [\d.na]",
           "150/150 ━━━━━━━━━━━━━━━━━━━━ 12s 80ms/step - accuracy: 0.7012 - loss: 0.8120 - val_loss: 0.9100"),
    Marker("TensorFlow", r"^(?:INFO|WARNING|ERROR):tensorflow:", "INFO:tensorflow:global step 40: loss = 2.7130 "
           "(0.412 sec/step)"),
    Marker("DeepSpeed", r"\[(?:deepspeed|deepscale)\] OVERFLOW!|\bdeepspeed/runtime/"
           r"|\[INFO\] \[(?:stage3|stage_1_and_2|engine|loss_scaler)\.py:\d+:\w+\]",
           "[2024-01-02 03:04:05,600] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 "
           "Skipping step. Attempted loss scale: 4096, reducing to 2048"),
    # --- launchers: only when nothing more specific is found ---------------------------------------------------
    Marker("Horovod", r"\bhorovod\b|\bhvd\.|\[\d+,\d+\]<std(?:out|err)>:",
           "[1,0]<stdout>:Epoch 1 batch 40 loss=0.61 (hvd.size()=4)"),
)


#: Every row's pattern in one RE2 pattern (the rows are written in the subset RE2 and Python share): one
#: pass in C++ over the sampled lines picks the few that carry any marker; Python's ``re`` then tells which.
ANY_MARKER = "|".join(f"(?:{m.pattern})" for m in MARKERS)


def _by_markers(text: str, parsed: str | None) -> str | None:
    """``parsed`` unless a row that runs on top of it is found; with no parser framework, the first row found."""
    rows = [m for m in MARKERS if parsed is None or parsed in m.over]
    if not rows or not text:
        return parsed
    lines = pa.array(text.splitlines(), pa.large_string())
    found = "\n".join(lines.filter(pc.match_substring_regex(lines, ANY_MARKER)).to_pylist())
    if found:
        for marker in rows:
            if marker.regex.search(found):
                return marker.framework
    return parsed


def name_framework(text: str, parsed: str | None) -> str | None:
    """The framework of a file from its sampled ``text`` and ``parsed`` (the detected parser's framework).

    The markers decide first (see the module); then the packages the log's own references point at
    (``_tool_evidence``: loggers, source paths, command lines, banners, weighed) name a more specific tool: with nothing named, or over a runner or library other
    tools are built on (``RUNNERS``: MMEngine, the HF Trainer, Megatron-LM, TensorFlow, ...)."""
    marked = _by_markers(text, parsed)
    if marked is not None and marked not in RUNNERS:
        return marked
    found = tool_of(text, over=marked is not None)
    return found or marked

#: The ``framework`` entity names this table can give (for documentation and scoring).
NAMES: tuple[str, ...] = tuple(dict.fromkeys(m.framework for m in MARKERS))

