"""How the training loggers many tools share number their epochs, read from the loggers' own source code: a
declared table, one row per printer, each with the line shape only it writes, the base of its epoch and of its
in-epoch index, which number is the step, the source file the print is in, and an example written here in its
shape.

Why a table: an excerpt that starts at ``Epoch: [2]  [ 150/1251]`` cannot say whether epoch 2 is the second or the
third; the code that printed it can. ``torchvision``'s ``MetricLogger`` (copied into DeiT, DETR, DINO, MAE and the
repositories built on them) prints the ``epoch`` of ``range(start_epoch, epochs)``, ``start_epoch`` 0 by default;
mmcv's ``LoggerHook.get_epoch`` prints ``runner.epoch + 1``. A counter that starts again each epoch is made the
run's step as ``(epoch - first) * length + i`` (``_epoch_counters.EpochCounters``): ``first`` is the printer's base from
this table, unless the text shows the base itself (a file that names an epoch 0 counts from 0, whatever a row
says). A line no row knows keeps the general rule (from 1, unless an epoch 0 is named).

Rows are looked up by the line's shape, not by the tool's name: a script that copied the printer prints its shape
(and its base, as the code it copied does). The in-epoch index's base is recorded but does not move the step: the
step is ``(epoch - first) * length + i`` with ``i`` as printed, as people reading such logs count it.
``tests/unit/test_logs_epoch_bases.py`` runs every row's example through ``parse_log`` and checks its steps."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: What a row says the step is: the run's step from the epoch and the in-epoch counter, or the epoch itself (a tool
#: that prints one record per epoch).
GLOBAL = "(epoch - first) * length + i"
EPOCH = "epoch"


@dataclass(frozen=True)
class Printer:
    """One row: the printer (and the tools that print through it), the line shape (``re``, searched; group ``k``
    the epoch, ``n`` and ``of`` the in-epoch counter and its total where it prints them), the first epoch's number
    (0 or 1), the first in-epoch index (0 or 1; ``None`` where it prints none), which number is the step, the source
    file of the print (``owner/repo:path``), and an example log in the shape with the steps its records are at."""

    printer: str
    shape: str
    first_epoch: int
    first_index: int | None
    step: str
    source: str
    example: tuple[str, ...]
    steps: tuple[int, ...]
    needle: str  # a literal every line of the shape holds: rows are tried only on lines that hold it
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "regex", re.compile(self.shape))


PRINTERS: tuple[Printer, ...] = (
    Printer(
        "MetricLogger.log_every (torchvision references; DeiT, DETR, DINO, MAE, LLaMA-Adapter, RT-DETR copy it)",
        r"(?i)\bepoch:\s*\[\s*(?P<k>\d+)(?:\s*/\s*\d+)?\s*\]\s+\[\s*(?P<n>\d+)\s*/\s*(?P<of>\d+)\s*\](?:\s\s|\t)",
        0,
        0,
        GLOBAL,
        # header 'Epoch: [{}]'.format(epoch) (DINO: 'Epoch: [{}/{}]'.format(epoch, args.epochs)) for epoch in
        # range(args.start_epoch, args.epochs), start_epoch 0; log_every joins it, '[{i}/{len}]' (i from 0), 'eta:'
        # and the meters with its delimiter, two spaces (copies that drop 'eta:' keep the delimiter)
        "facebookresearch/deit:engine.py, facebookresearch/deit:utils.py, facebookresearch/dino:main_dino.py",
        (
            "Epoch: [3]  [ 400/1000]  eta: 0:06:00  lr: 0.000250  loss: 3.9120 (4.0031)  time: 0.5012  data: 0.0011",
            "Epoch: [3]  [ 999/1000]  eta: 0:00:00  lr: 0.000250  loss: 3.8410 (3.9770)  time: 0.5007  data: 0.0009",
            "Epoch: [4]  [   0/1000]  eta: 0:08:20  lr: 0.000249  loss: 3.8802 (3.8802)  time: 0.5020  data: 0.0400",
        ),
        (3400, 3999, 4000),
        "poch: [",
    ),
    Printer(
        "ProgressMeter of the PyTorch ImageNet example (and the scripts that copy its meter line)",
        r"(?i)\bepoch:\s*\[(?P<k>\d+)\]\[\s*(?P<n>\d+)\s*/\s*(?P<of>\d+)\]\s+Time\b",
        0,
        0,
        GLOBAL,
        # prefix "Epoch: [{}]".format(epoch) for epoch in range(args.start_epoch, args.epochs), start_epoch 0
        "pytorch/examples:imagenet/main.py",
        (
            "Epoch: [7][ 300/2500]\tTime  0.210 ( 0.250)\tData  0.001 ( 0.020)\tLoss 1.2000e+00 (1.3000e+00)",
            "Epoch: [7][ 400/2500]\tTime  0.209 ( 0.249)\tData  0.001 ( 0.019)\tLoss 1.1500e+00 (1.2900e+00)",
        ),
        (17800, 17900),
        "Time",
    ),
    Printer(
        "timm train.py's train_one_epoch",
        r"\bTrain:\s+(?P<k>\d+)\s+\[\s*(?P<n>\d+)\s*/\s*(?P<of>\d+)\s+\(\s*\d+%\)\]",
        0,
        0,
        GLOBAL,
        # f'Train: {epoch} [{update_idx:>4d}/{updates_per_epoch} ({pct:>3.0f}%)]' for epoch in
        # range(start_epoch, num_epochs), start_epoch 0
        "huggingface/pytorch-image-models:train.py",
        (
            "Train: 5 [ 600/1200 ( 50%)]  Loss: 3.210 (3.30)  Time: 0.410s,  620.10/s  LR: 1.000e-03  Data: 0.012",
            "Train: 5 [ 700/1200 ( 58%)]  Loss: 3.190 (3.29)  Time: 0.409s,  621.40/s  LR: 1.000e-03  Data: 0.012",
        ),
        (6600, 6700),
        "Train:",
    ),
    Printer(
        "Swin Transformer's train_one_epoch (and the vision repositories built on its main.py)",
        r"\bTrain:\s*\[(?P<k>\d+)/\d+\]\[(?P<n>\d+)/(?P<of>\d+)\]\s+eta\b",
        0,
        0,
        GLOBAL,
        # f'Train: [{epoch}/{config.TRAIN.EPOCHS}][{idx}/{num_steps}]' for epoch in range(config.TRAIN.START_EPOCH,
        # config.TRAIN.EPOCHS), _C.TRAIN.START_EPOCH = 0
        "microsoft/Swin-Transformer:main.py, microsoft/Swin-Transformer:config.py",
        (
            "[2023-03-04 05:06:07 swin_tiny](main.py 220): INFO Train: [4/300][600/1251]\teta 0:05:00 lr 0.000900\t"
            "time 0.3000 (0.3100)\tloss 4.1000 (4.2000)\tgrad_norm 2.1000 (2.3000)\tmem 9000MB",
            "[2023-03-04 05:06:37 swin_tiny](main.py 220): INFO Train: [4/300][700/1251]\teta 0:04:30 lr 0.000900\t"
            "time 0.3000 (0.3100)\tloss 4.0500 (4.1900)\tgrad_norm 2.0000 (2.2900)\tmem 9000MB",
        ),
        (5604, 5704),
        "Train:",
    ),
    Printer(
        "HRNet-Semantic-Segmentation's train (and the segmentation repositories that copy its loop)",
        r"\bEpoch:\s*\[(?P<k>\d+)/\d+\]\s*Iter:\s*\[(?P<n>\d+)/(?P<of>\d+)\],\s*Time:",
        0,
        0,
        GLOBAL,
        # 'Epoch: [{}/{}] Iter:[{}/{}], Time: {:.2f}, '.format(epoch, num_epoch, i_iter, epoch_iters, ...) for epoch
        # in range(last_epoch, end_epoch), last_epoch 0; the lr schedule's step is i_iter + epoch * epoch_iters
        "HRNet/HRNet-Semantic-Segmentation:lib/core/function.py, HRNet/HRNet-Semantic-Segmentation:tools/train.py",
        (
            "2022-06-07 08:09:10,111 Epoch: [6/484] Iter:[50/371], Time: 0.61, lr: [0.0098], Loss: 0.412000",
            "2022-06-07 08:09:40,111 Epoch: [6/484] Iter:[60/371], Time: 0.61, lr: [0.0098], Loss: 0.409000",
        ),
        (2276, 2286),
        "Iter:",
    ),
    Printer(
        "PaddleDetection's LogPrinter callback",
        r"\bEpoch:\s*\[(?P<k>\d+)\]\s+\[\s*(?P<n>\d+)\s*/\s*(?P<of>\d+)\]\s+learning_rate:",
        0,
        0,
        GLOBAL,
        # fmt 'Epoch: [{}]', '[{:>N}/{}]' with epoch_id from start_epoch 0 (eta counts epoches - epoch_id epochs)
        "PaddlePaddle/PaddleDetection:ppdet/engine/callbacks.py",
        (
            "Epoch: [2] [100/500] learning_rate: 0.001000 loss: 2.400000 loss_cls: 1.100000 eta: 1:00:00",
            "Epoch: [2] [200/500] learning_rate: 0.001000 loss: 2.300000 loss_cls: 1.050000 eta: 0:59:00",
        ),
        (1100, 1200),
        "learning_rate:",
    ),
    Printer(
        "mmcv's TextLoggerHook (OpenMMLab 1.x codebases)",
        r"\bEpoch(?:\(train\))?\s*\[(?P<k>\d+)\]\[\s*(?P<n>\d+)\s*/\s*(?P<of>\d+)\]\s+lr:\s*[^,\s]+,",
        1,
        1,
        GLOBAL,
        # LoggerHook.get_epoch: runner.epoch + 1; get_iter(inner_iter=True): runner.inner_iter + 1
        "open-mmlab/mmcv:mmcv/runner/hooks/logger/text.py, open-mmlab/mmcv:mmcv/runner/hooks/logger/base.py",
        (
            "2021-01-02 03:04:05,678 - mmdet - INFO - Epoch [3][100/400]\tlr: 2.000e-02, eta: 1:00:00, "
            "time: 0.500, data_time: 0.010, memory: 3000, loss_cls: 0.4000, loss: 0.9000",
            "2021-01-02 03:04:55,678 - mmdet - INFO - Epoch [3][200/400]\tlr: 2.000e-02, eta: 0:59:00, "
            "time: 0.500, data_time: 0.010, memory: 3000, loss_cls: 0.3900, loss: 0.8800",
        ),
        (900, 1000),
        "lr:",
    ),
    Printer(
        "MMEngine's LogProcessor (OpenMMLab 2.x codebases)",
        r"\bEpoch\(train\)\s*\[\s*(?P<k>\d+)\]\[\s*(?P<n>\d+)\s*/\s*(?P<of>\d+)\]\s+(?:base_lr|lr):\s*[^,\s]+\s",
        1,
        1,
        GLOBAL,
        # _get_epoch: runner.epoch + 1 in train mode; _get_iter: batch_idx + 1
        "open-mmlab/mmengine:mmengine/runner/log_processor.py",
        (
            "2024/01/02 03:04:05 - mmengine - INFO - Epoch(train)  [2][ 50/300]  lr: 1.0000e-03  eta: 1:00:00  "
            "time: 0.4000  data_time: 0.0100  memory: 5000  loss: 1.5000  loss_cls: 0.7000",
            "2024/01/02 03:04:25 - mmengine - INFO - Epoch(train)  [2][100/300]  lr: 1.0000e-03  eta: 0:59:40  "
            "time: 0.4000  data_time: 0.0100  memory: 5000  loss: 1.4500  loss_cls: 0.6800",
        ),
        (350, 400),
        "Epoch(train)",
    ),
    Printer(
        "YOLOX's Trainer.after_iter",
        r"\bepoch:\s*(?P<k>\d+)/\d+,\s*iter:\s*(?P<n>\d+)/(?P<of>\d+),",
        1,
        1,
        GLOBAL,
        # "epoch: {}/{}, iter: {}/{}".format(self.epoch + 1, self.max_epoch, self.iter + 1, self.max_iter)
        "Megvii-BaseDetection/YOLOX:yolox/core/trainer.py",
        (
            "2022-01-02 03:04:05 | INFO     | yolox.core.trainer:247 - epoch: 4/300, iter: 50/900, mem: 8000Mb, "
            "iter_time: 0.500s, data_time: 0.010s, total_loss: 9.1, iou_loss: 3.0, lr: 1.000e-02, size: 640",
            "2022-01-02 03:04:30 | INFO     | yolox.core.trainer:247 - epoch: 4/300, iter: 100/900, mem: 8000Mb, "
            "iter_time: 0.500s, data_time: 0.010s, total_loss: 8.9, iou_loss: 2.9, lr: 1.000e-02, size: 640",
        ),
        (2750, 2800),
        "iter:",
    ),
    Printer(
        "the PyTorch word language model example (and the nn.Transformer tutorial that copies its print)",
        r"^\|\s*epoch\s+(?P<k>\d+)\s*\|\s*(?P<n>\d+)\s*/\s*(?P<of>\d+)\s+batches\s*\|",
        1,
        0,
        GLOBAL,
        # '| epoch {:3d} | {:5d}/{:5d} batches | lr {:02.2f} | ...'.format(epoch, batch, ...) for epoch in
        # range(1, args.epochs + 1)
        "pytorch/examples:word_language_model/main.py",
        (
            "| epoch   2 |   400/ 1500 batches | lr 20.00 | ms/batch 30.10 | loss  5.60 | ppl   270.43",
            "| epoch   2 |   600/ 1500 batches | lr 20.00 | ms/batch 30.00 | loss  5.50 | ppl   244.69",
        ),
        (1900, 2100),
        "batches",
    ),
    Printer(
        "the pytorch-tutorial training loops (copied into many course and research scripts)",
        r"\bEpoch \[(?P<k>\d+)/\d+\], Step \[(?P<n>\d+)/(?P<of>\d+)\], Loss:",
        1,
        1,
        GLOBAL,
        # 'Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}'.format(epoch+1, num_epochs, i+1, total_step, loss.item())
        "yunjey/pytorch-tutorial:tutorials/01-basics/feedforward_neural_network/main.py",
        (
            "Epoch [3/5], Step [500/600], Loss: 0.1200",
            "Epoch [3/5], Step [600/600], Loss: 0.1100",
            "Epoch [4/5], Step [100/600], Loss: 0.1000",
        ),
        (1700, 1800, 1900),
        "Step [",
    ),
    Printer(
        "Keras' ProgbarLogger under model.fit (one record per epoch when every bar reached its total)",
        r"^\s*Epoch (?P<k>\d+)/\d+\s*$",
        1,
        1,
        EPOCH,
        # io_utils.print_msg(f"Epoch {epoch + 1}/{self.epochs}") in on_epoch_begin
        "keras-team/keras:keras/src/callbacks/progbar_logger.py",
        (
            "Epoch 6/30",
            "120/120 [==============================] - 12s 100ms/step - loss: 0.6100 - accuracy: 0.8000",
            "Epoch 7/30",
            "120/120 [==============================] - 12s 100ms/step - loss: 0.5900 - accuracy: 0.8100",
        ),
        (6, 7),
        "Epoch",
    ),
)


def printer_of(text: str) -> tuple[Printer, re.Match[str]] | None:
    """The row whose shape ``text`` is in, and its match (the epoch in group ``k``), if a row knows it."""
    for row in PRINTERS:
        if row.needle in text:
            m = row.regex.search(text)
            if m:
                return row, m
    return None
