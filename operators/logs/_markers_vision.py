"""Framework markers of vision tools (rows of ``_frameworks.MARKERS``): the OpenMMLab codebases, detection,
segmentation, self-supervised, image generation and restoration codebases, medical imaging.

Each row's pattern is read from the tool's own source (the comment names the file) and carries an own-worded example
line in the tool's shape; ``tests/unit/test_logs_frameworks.py`` runs every example through ``parse_log`` and checks
that no other row's pattern matches it.
"""

from __future__ import annotations

from assay.operators.logs._marker import ELASTIC, Marker


def _openmmlab(package: str, dirs: str | None = "models|apis|core|datasets|engine", also: str = "") -> str:
    """An OpenMMLab codebase's marks: its logger (``- mmrotate - INFO -``, MMCV's runner), its configs'
    ``default_scope`` (MMEngine's runner, whose own logger is ``mmengine``) and its package's module paths
    (``dirs``: the package's own folders; None: any path under it); ``also``: another alternative, a loss key
    only that codebase's heads print under MMEngine's logger."""
    paths = rf"\b{package}/(?:{dirs})/" if dirs else rf"\b{package}/"
    return (rf"(?:^|\s)- {package} - (?:INFO|WARNING|ERROR|DEBUG) - |default_scope ?= ?.{package}\b|{paths}"
            + (f"|{also}" if also else ""))


#: Most specific first (``_frameworks``).
VISION_ROWS: tuple[Marker, ...] = (
    # --- OpenMMLab codebases: their logger is named after the package; one built on another first -------------
    # open-mmlab/mmyolo configs/_base_/default_runtime.py: default_scope = 'mmyolo' (on MMDetection: before it)
    Marker("MMYOLO", _openmmlab("mmyolo"),
           "2023-05-06 07:08:09,100 - mmyolo - INFO - Epoch [4][40/920]\tlr: 1.0e-02, loss_bbox: 0.91",
           over=(ELASTIC,)),
    # open-mmlab/mmrotate mmrotate/utils/logger.py: get_logger(name='mmrotate') (on MMDetection: before it)
    Marker("MMRotate", _openmmlab("mmrotate"),
           "2022-08-09 10:11:12,130 - mmrotate - INFO - Epoch [7][300/3200]\tlr: 2.5e-03, loss_cls: 0.21",
           over=(ELASTIC,)),
    # open-mmlab/mmtracking mmtrack/utils/logger.py: get_logger('mmtrack') (on MMDetection: before it)
    Marker("MMTracking", _openmmlab("mmtrack"),
           "2022-02-03 04:05:06,700 - mmtrack - INFO - Epoch [2][120/1500]\tlr: 1.0e-03, loss: 1.31",
           over=(ELASTIC,)),
    Marker("MMDetection3D", _openmmlab("mmdet3d", dirs=None),
           "2023-04-05 06:07:08,900 - mmdet3d - INFO - Epoch [2][100/3712]\tlr: 1.0e-03, loss: 1.42",
           over=(ELASTIC,)),
    Marker("MMDetection", _openmmlab("mmdet", "models|apis|core|datasets", also=r"- mmengine - \w+ - .*\bloss_rpn_cls: "),
           "2021-06-07 08:09:10,111 - mmdet - INFO - Epoch [3][150/2000]\tlr: 2.0e-02, loss_cls: 0.31, loss: 0.77",
           over=(ELASTIC,)),
    Marker("MMSegmentation", _openmmlab("mmseg", "models|apis|datasets", also=r"- mmengine - \w+ - .*\bdecode\.loss_ce: "),
           "2022-03-04 05:06:07,800 - mmseg - INFO - Iter [400/80000]\tlr: 9.9e-03, decode.loss_ce: 0.52, loss: 0.52",
           over=(ELASTIC,)),
    # open-mmlab/mmagic configs/_base_/default_runtime.py: default_scope (MMEditing's successor)
    Marker("MMagic", _openmmlab("mmagic"),
           "default_scope = 'mmagic'",
           over=(ELASTIC,)),
    Marker("MMEditing", _openmmlab("mmedit", "models|apis|core|datasets"),
           "  File \"/work/mmediting/mmedit/models/restorers/basic_restorer.py\", line 88, in forward_train",
           over=(ELASTIC,)),
    Marker("MMPose", _openmmlab("mmpose", "models|apis|datasets", also=r"- mmengine - \w+ - .*\b(?:loss_kpt|acc_pose): "),
           "2022-01-02 03:04:05,600 - mmpose - INFO - Epoch [5][50/300]\tlr: 5.0e-04, heatmap_loss: 0.0012",
           over=(ELASTIC,)),
    Marker("MMOCR", _openmmlab("mmocr", "models|apis|datasets"),
           "2022-02-03 04:05:06,700 - mmocr - INFO - Epoch [1][20/500]\tlr: 1.0e-03, loss_ce: 2.9, loss: 2.9",
           over=(ELASTIC,)),
    Marker("MMAction2", _openmmlab("mmaction", "models|apis|datasets"),
           "2021-09-10 11:12:13,140 - mmaction - INFO - Epoch [1][40/900]\tlr: 1.0e-02, loss_cls: 2.3, loss: 2.3",
           over=(ELASTIC,)),
    Marker("MMClassification", _openmmlab("mmcls", "models|apis|datasets"),
           "2021-11-12 13:14:15,160 - mmcls - INFO - Epoch [4][300/5005]\tlr: 1.0e-01, loss: 3.11",
           over=(ELASTIC,)),
    Marker("MMPretrain", r"\bmmpretrain[./]|default_scope ?= ?.mmpretrain\b", "  File \"/ws/mmpretrain/mmpretrain/models/backbones/vit.py\", line 9",
           over=(ELASTIC,)),
    # --- detection, segmentation, generation and restoration codebases ----------------------------------------
    Marker("Detectron2", r"\bd2\.(?:utils\.events|engine\.\w+|checkpoint\.\w+|data\.\w+|evaluation\.\w+)\b"
           r"|\bdetectron2[./]",
           "[05/06 07:08:09 d2.utils.events]:  eta: 2:01:00  iter: 199  total_loss: 1.23  loss_cls: 0.41",
           over=(ELASTIC,)),
    Marker("YOLOX", r"\byolox\.(?:core|exp|utils|data|models)\b",
           "2022-01-02 03:04:05 | INFO     | yolox.core.trainer:261 - epoch: 3/300, iter: 20/400, total_loss: 9.1",
           over=(ELASTIC,)),
    Marker("YOLOv5", r"\bYOLOv5 (?:🚀|v\d)|\btrain/obj_loss\b|^ +Epoch +GPU_mem +box_loss +obj_loss +cls_loss"
           r"|^\s+Class\s+Images\s+Instances\s+P\s+R\s+mAP50\s+mAP50-95",
           "       epoch,  train/box_loss,  train/obj_loss,  train/cls_loss,  metrics/mAP_0.5,  x/lr0",
           over=(ELASTIC,)),
    Marker("Ultralytics", r"\bUltralytics (?:YOLOv?8|\d+\.\d+)|\btrain/dfl_loss\b|metrics/mAP50\(B\)"
           r"|\bBox\(P\s+R\s+mAP50\s+mAP50-95\)"
           r"|^ +Epoch +GPU_mem +box_loss +cls_loss +dfl_loss",
           "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size",
           over=(ELASTIC,)),
    Marker("kohya-ss sd-scripts", r"\bavr_loss=|\bsd-scripts\b|\btrain_network\.py\b",
           "steps:  12%|█▏        | 240/2000 [03:10<23:20,  1.26it/s, avr_loss=0.0871]", over=(ELASTIC,)),
    Marker("Diffusers", r"^Steps: +\d+%\|.*\| *\d+/\d+ \[[^\]]*(?:loss=|step_loss=)",
           "Steps:  25%|██▌       | 50/200 [00:31<01:34,  1.59it/s, loss=0.0912, lr=5e-06]", over=(ELASTIC,)),
    # RT-DETR: the DETR metric logger's line with its varifocal loss
    Marker("RT-DETR", r"\bEpoch: \[\d+\] +\[ *\d+/\d+\] +eta: [^\n]*\bloss_vfl: [\d.na]+",
           "Epoch: [3]  [ 100/2000]  eta: 0:20:01  lr: 0.000100  loss: 12.40 (12.90)  loss_vfl: 0.91 (0.95)  "
           "loss_bbox: 0.30 (0.31)"),
    # DETR's engine updates its MetricLogger with the matching losses and ``class_error`` together (facebookresearch/detr
    # engine.py); the DETR family built on that engine (Deformable, Conditional, DAB-DETR) prints the same line
    Marker("DETR", r"\bloss_giou: [\d.na]+ \([\d.na]+\).*\bclass_error: [\d.na]+ \("
           r"|\bclass_error: [\d.na]+ \([\d.na]+\).*\bloss_giou: [\d.na]+ \(",
           "Epoch: [4]  [ 500/7330]  eta: 1:10:02  lr: 0.000100  class_error: 42.12 (44.20)  loss: 19.21 (19.90)  "
           "loss_ce: 0.91 (0.95)  loss_bbox: 0.52 (0.55)  loss_giou: 0.71 (0.73)"),
    # DINOv2's logger: glog-like with the logger's name, '[IWEF]yyyymmdd hh:mm:ss pid dinov2 file.py:N] ', and its
    # loss terms on the MetricLogger line (facebookresearch/dinov2 dinov2/logging/__init__.py, dinov2/train/ssl_meta_arch.py)
    Marker("DINOv2", r"^[IWEF]\d{8} \d\d:\d\d:\d\d \d+ dinov2 |\bdino_local_crops_loss: [\d.na]|\bdinov2/(?:train|eval|loss|layers|models|data)/",
           "I20240203 04:05:06 4242 dinov2 helpers.py:103] Training  [  1200/125000]  eta: 2 days, 1:02:03  "
           "lr: 0.0001 (0.0001)  total_loss: 10.9120 (11.0021)"),
    # DINO's training loop: 'Starting DINO training !', a MetricLogger headed 'Epoch: [N/M]' with its weight decay,
    # and log.txt lines of train_loss, train_lr, train_wd (facebookresearch/dino main_dino.py)
    Marker("DINO", r"\bStarting DINO training\b|^Epoch: \[\d+/\d+\]\s+\[\s*\d+/\d+\]\s+eta: .*\blr: [\d.e-]+ \([\d.e-]+\)\s+wd: "
           r"|^\{\"train_loss\": [^,]+, \"train_lr\": [^,]+, \"train_wd\": [^,]+, \"epoch\": \d+\}",
           "Epoch: [7/100]  [ 400/1251]  eta: 0:08:11  loss: 9.8123 (9.9001)  lr: 0.000510 (0.000510)  "
           "wd: 0.041200 (0.041200)  time: 0.4010  data: 0.0021  max mem: 12040"),
    # LAVIS's runner heads its MetricLogger lines 'Train: data epoch: [N]' (salesforce/LAVIS
    # lavis/tasks/base_task.py); runners copied from it (MiniGPT-4, InstructBLIP forks) print it too
    Marker("LAVIS", r"\bTrain: data epoch: \[\d+\]|\blavis/(?:runners|tasks|models|datasets|common)/",
           "Train: data epoch: [2]  [ 300/1000]  eta: 0:05:10  lr: 0.000090  loss: 2.1042  time: 0.4112  data: 0.0004"),
    # OpenPCDet's train script opens training with a starred banner naming the config and tag
    # (open-mmlab/OpenPCDet tools/train.py: 'Start training %s/%s(%s)')
    Marker("OpenPCDet", r"\*{5,}Start training [\w./-]+\([\w.-]*\)\*{5,}|\bpcdet/(?:models|datasets|utils|ops)/",
           "2023-01-02 03:04:05,600   INFO  **********************Start training kitti_models/pv_rcnn(default)"
           "**********************"),
    # Real-ESRGAN and GFPGAN train through BasicSR (its MessageLogger prints their records): their own package's
    # path names them (xinntao/Real-ESRGAN realesrgan/models/realesrgan_model.py, TencentARC/GFPGAN
    # gfpgan/models/gfpgan_model.py); before BasicSR
    Marker("Real-ESRGAN", r"\brealesrgan/(?:models|archs|data)/|\brealesrgan\.(?:models|archs|data|train)\b",
           '  File "/work/Real-ESRGAN/realesrgan/models/realesrgan_model.py", line 190, in optimize_parameters'),
    Marker("GFPGAN", r"\bgfpgan/(?:models|archs|data)/|\bgfpgan\.(?:models|archs|data|train)\b",
           '  File "/work/GFPGAN/gfpgan/models/gfpgan_model.py", line 370, in optimize_parameters'),
    # BasicSR's MessageLogger: ``[name..][epoch:  1, iter:   1,000, lr:(1.000e-04,)] [eta: ..., time (data): ...]``
    # then ``l_pix: 1.0e-02``; its logger is 'basicsr' (XPixelGroup/BasicSR basicsr/utils/logger.py)
    # its 0.x trainer (codes/train.py, Dec 2018 to v1.0) logged ``<epoch:{:3d}, iter:{:8,d}, lr:{:.3e}> l_pix: ...`` under
    # ``%(asctime)s.%(msecs)03d - %(levelname)s: `` (codes/utils/util.py setup_logger)
    Marker("BasicSR", r"\]\[epoch: *\d+, iter: *[\d,]+, lr:\(|\bbasicsr/(?:models|train|archs|data|utils)/"
           r"|(?:^|- INFO: )<epoch: *\d+, iter: *[\d,]+, lr:[\d.e+-]+> ",
           "2024-03-04 05:06:07,890 INFO: [train..][epoch:  2, iter:   4,200, lr:(2.000e-04,)] [eta: 3:10:11, "
           "time (data): 0.412 (0.003)] l_pix: 2.1034e-02"),
    # --- tools whose excerpts often print no package name: a phrase or a logger layout only they print --------
    # InsightFace's arcface_torch logging callback: 'Speed N samples/sec   Loss ...   Global Step: N   [Fp16 Grad
    # Scale: N   ]Required: N hours' (deepinsight/insightface recognition/arcface_torch/utils/utils_callbacks.py)
    Marker("InsightFace", r"\bGlobal Step: \d+\s+(?:Fp16 Grad Scale: [\d.]+\s+)?Required: [\d.]+ hours",
           "Training: 2023-04-05 06:07:08,900-Speed 4120.31 samples/sec   Loss 21.4012   LearningRate 0.100000   "
           "Epoch: 2   Global Step: 9000   Fp16 Grad Scale: 16384   Required: 31 hours"),
    # PySlowFast's log_json_stats: 'json_stats: {"_type": "train_iter", "cur_epoch": "1", ...}' (facebookresearch/
    # SlowFast slowfast/utils/logging.py), as the codebases built on it (TimeSformer, MViT) print it
    Marker("PySlowFast", r'\bjson_stats: \{"_type": "(?:train|val|test)_(?:iter|epoch)"',
           '[INFO: logging.py:   67]: json_stats: {"_type": "train_iter", "cur_epoch": "3", "cur_iter": "40", '
           '"loss": 0.4812, "lr": 0.05}'),
    # nnU-Net v1's NetworkTrainer prints ``train loss : %.4f`` alone on its line (a space before the colon) through
    # print_to_log_file, which stamps ``%Y-%m-%d %H:%M:%S.%f: `` (a learnt prefix, stripped before markers are read)
    # (MIC-DKFZ/nnUNet nnunet/training/network_training/network_trainer.py)
    Marker("nnU-Net", r"Average global foreground Dice:|\(interpret this as an estimate for the Dice"
           r"|^(?:[\d-]+ [\d:.]+: )?train loss : [-\d.na]+\s*$"
           r"|^(?:[\d-]+ [\d:.]+: )?Pseudo dice \[|\bnnUNet_(?:preprocessed|raw|results)\b|\bnnUNetTrainer\w*\b",
           "2024-05-06 07:08:09.101112: Average global foreground Dice: [0.7712, 0.6407]"),
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
    Marker("PaddleOCR", r"\bppocr (?:INFO|WARNING|ERROR|DEBUG):", "[2024/03/04 05:06:07] ppocr INFO: epoch: [2/100], "
           "global_step: 120, lr: 0.001000, loss: 1.2031"),
    Marker("PaddleDetection", r"\bppdet\.(?:engine|utils|modeling|data)\b",
           "[05/06 07:08:09] ppdet.engine INFO: Epoch: [0] [ 20/500] learning_rate: 0.0001 loss: 3.21"),
    Marker("PaddleClas", r"\bppcls (?:INFO|WARNING|ERROR):|\[Train\]\[Epoch \d+/\d+\]\[Iter: \d+/\d+\]",
           "[2023/04/05 06:07:08] ppcls INFO: [Train][Epoch 3/120][Iter: 40/5005]lr(LinearWarmup): 0.0100, loss: 6.71"),
    # and its legacy pdseg/train.py: ``epoch={} step={} lr={:.5f} loss={:.4f} ... step/sec={:.3f} | ETA {}``
    Marker("PaddleSeg", r"\bpaddleseg[./]|\[TRAIN\] epoch: \d+, iter: \d+/\d+, loss: [\d.na]+, lr: [\d.e-]+, "
           r"batch_cost:|^epoch=\d+ step=\d+ lr=[\d.]+ loss=[\d.na]+ (?:\w+=[\d.na]+ )*step/sec=[\d.]+ \| ETA ",
           "2022-04-05 06:07:08 [INFO]\t[TRAIN] epoch: 2, iter: 60/1000, loss: 1.4102, lr: 0.009400, batch_cost: 0.41"),
    Marker("darkflow", r"^step \d+ - loss +[\d.na]+ - moving ave loss", "step 42 - loss 12.5001 - moving ave loss 13.0100"),
    Marker("3D Gaussian Splatting", r"^\[ITER \d+\] (?:Saving Gaussians|Evaluating (?:train|test):)",
           "[ITER 3000] Evaluating test: L1 0.0412 PSNR 24.81 [02/03 10:11:12]"),
    Marker("Detectron", r"^json_stats: \{", 'json_stats: {"eta": "1:02:03", "iter": 100, "loss": "1.23", "lr": "0.01"}'),
    Marker("MMSkeleton", r"^\[ \w{3} \w{3} +\d+ [\d:]+ \d{4} \] \tBatch\(\d+/\d+\) done\. Loss: ",
           "[ Mon Jan  1 10:00:00 2024 ] \tBatch(200/900) done. Loss: 1.8810  lr:0.010000"),
    # open-mmlab/st-gcn torchlight/io.py: print_log stamps '[%m.%d.%y|%X] '; processor/recognition.py prints
    # 'Training epoch: N' and 'Eval epoch: N'
    Marker("ST-GCN", r"^\[\d\d\.\d\d\.\d\d\|\d\d:\d\d:\d\d\] (?:Training|Eval) epoch: \d+\s*$|'model': 'net\.st_gcn\.Model'",
           "[05.06.21|10:11:12] Training epoch: 3"),
    Marker("DeepFaceLab", r'Press "Enter" to stop training and save model',
           'Starting. Press "Enter" to stop training and save model.'),
    Marker("guided-diffusion", r"^\| lg_loss_scale +\| ", "| lg_loss_scale | 16.2     |"),
    # facebookresearch/DiT train.py: logger.info(f"DiT Parameters: {...:,}") under its '[%(asctime)s]' logger
    Marker("DiT", r"\bDiT Parameters: \d{1,3}(?:,\d{3})+\s*$", "[2024-01-02 03:04:05] DiT Parameters: 130,510,112"),
    Marker("timm", r"^Train: \d+ \[ *\d+/\d+ \( *\d+%\)\]  Loss: ",
           "Train: 4 [ 300/1251 ( 24%)]  Loss: 5.812 (5.902)  Time: 0.410s,  2496.1/s  LR: 1.000e-03"),
)
