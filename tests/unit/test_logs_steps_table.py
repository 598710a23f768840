"""One row per step rule of the general reader, each with an example log in a tool's shape (written here, not
copied): which counter is the step, and which value is the loss. Every example goes through the whole
``parse_log`` path, and every one is a clean run: none may give a ``restart`` or ``failure`` event. Adding a
shape is adding a row."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from assay.operators.logs import parse_log


@dataclass(frozen=True)
class Shape:
    rule: str
    lines: tuple[str, ...]
    steps: tuple[int, ...]  # the training steps the log's loss is read at, in order
    last_loss: float | None


SHAPES = (
    Shape(
        "a counter glued to its word in parentheses, under a dated bracket",
        (
            "[ Tue Mar  5 09:10:11 2024 ] Training epoch: 1",
            "[ Tue Mar  5 09:11:11 2024 ] \tBatch(300/900) done. Loss: 2.3100  lr:0.050000",
            "[ Tue Mar  5 09:12:11 2024 ] \tBatch(400/900) done. Loss: 2.2100  lr:0.050000",
        ),
        (300, 400),
        2.21,
    ),
    Shape(
        "a run-wide step key beside an in-epoch counter with its total",
        (
            "E12 it[ 7/ 20] | [Loss] 0.81 | [step]  227 | [eta] 3m",
            "E12 it[ 8/ 20] | [Loss] 0.79 | [step]  228 | [eta] 3m",
            "E12 it[ 9/ 20] | [Loss] 0.77 | [step]  229 | [eta] 3m",
        ),
        (227, 228, 229),
        0.77,
    ),
    Shape(
        "an epoch then the counter, as a/b whose second number moves",
        (
            "TRAIN Batch 3/48100 loss 20.5 lr 0.0004 rank 0",
            "TRAIN Batch 3/48200 loss 19.5 lr 0.0004 rank 0",
            "TRAIN Batch 3/48300 loss 18.5 lr 0.0004 rank 0",
        ),
        (48100, 48200, 48300),
        18.5,
    ),
    Shape(
        "a named step key",
        ("step 10 | loss 2.50 | lr 1e-4", "step 20 | loss 2.40 | lr 1e-4"),
        (10, 20),
        2.40,
    ),
    Shape(
        "a bar's position, never its percentage",
        (
            "train:   3%|#         | 30/1000 [00:30<16:10,  1.00it/s, loss_avg=0.91]",
            "train:   6%|#         | 60/1000 [01:00<15:40,  1.00it/s, loss_avg=0.88]",
        ),
        (30, 60),
        0.88,
    ),
    Shape(
        "a counter within its epoch after an epoch printed k/N",
        (
            "epoch: 3/12, iter: 100/400, total_loss: 4.5, cls_loss: 1.0",
            "epoch: 3/12, iter: 200/400, total_loss: 4.1, cls_loss: 0.9",
        ),
        (900, 1000),
        4.1,
    ),
    Shape(
        "a counter that starts again each epoch, printed N/M",
        (
            "Epoch [1/2], Step [300/600], Loss: 0.90",
            "Epoch [1/2], Step [600/600], Loss: 0.70",
            "Epoch [2/2], Step [300/600], Loss: 0.60",
        ),
        (300, 600, 900),
        0.60,
    ),
    Shape(
        "a bracketed counter with its total that starts again when the epoch beside it goes up",
        (
            "Train Epoch: 1 [0/5000 (0%)]\tLoss: 2.300000",
            "Train Epoch: 1 [1000/5000 (20%)]\tLoss: 1.500000",
            "Test set: Average loss: 0.9000, Accuracy: 900/1000 (90%)",
            "Train Epoch: 2 [0/5000 (0%)]\tLoss: 0.800000",
        ),
        (0, 1000, 5000),
        0.8,
    ),
    Shape(
        "a bracketed counter under an epoch printed in brackets without its total",
        (
            "Epoch: [0]  [   0/900]  eta: 1:00:00  lr: 0.1  img/s: 45.2  loss: 3.0000 (3.0000)  max mem: 9000",
            "Epoch: [0]  [ 450/900]  eta: 0:30:00  lr: 0.1  img/s: 450.2  loss: 2.9000 (2.9500)  max mem: 9000",
            "Test:   [  0/50]  eta: 0:01:00  loss: 1.5000 (1.5000)  acc1: 60.0000 (60.0000)",
            "Epoch: [1]  [   0/900]  eta: 1:00:00  lr: 0.1  img/s: 45.2  loss: 2.8000 (2.8000)  max mem: 9000",
        ),
        (0, 450, 900),
        2.8,
    ),
    Shape(
        "an in-epoch counter beside a later epoch (no epoch 0 printed: the first epoch is 1), made global",
        (
            "2023-05-01 09:00:00,000 - det - INFO - Epoch [3][50/400]\tlr: 1.0e-03, time: 0.5, loss: 1.2000",
            "2023-05-01 09:01:00,000 - det - INFO - Epoch [3][100/400]\tlr: 1.0e-03, time: 0.5, loss: 1.1000",
            "2023-05-01 09:09:00,000 - det - INFO - Epoch [4][50/400]\tlr: 1.0e-03, time: 0.5, loss: 1.0000",
        ),
        (850, 900, 1250),
        1.0,
    ),
    Shape(
        "a bracketed date without its year is no counter; the bracketed counter after the epoch is",
        (
            "[11/23 08:15:02] det.engine INFO: Epoch: [0] [1500/6000] lr: 0.0001 loss: 3.2000 loss_cls: 1.1",
            "[11/23 08:15:09] det.engine INFO: Epoch: [0] [1520/6000] lr: 0.0001 loss: 3.1000 loss_cls: 1.0",
        ),
        (1500, 1520),
        3.1,
    ),
    Shape(
        "a counter opening its line with a comma under a lower-case 'epoch k/N' header; the epoch's average is no step",
        (
            "epoch 6 average loss: 0.5000",
            "epoch 7/50",
            "1/4, train_loss: 0.4100 step time: 0.80",
            "2/4, train_loss: 0.4200 step time: 0.80",
            "3/4, train_loss: 0.4300 step time: 0.80",
            "4/4, train_loss: 0.4400 step time: 0.80",
            "epoch 7 average loss: 0.4250",
            "epoch 8/50",
            "1/4, train_loss: 0.3900 step time: 0.80",
        ),
        (25, 26, 27, 28, 29),
        0.39,
    ),
    Shape(
        "a long drawn bar glued to a logger record: the record's 'Training Iteration' is the step, ' : ' pairs",
        (
            "Steps:  30%|████████████████████████████████████████| 300/1000 [00:40<01:30,  7.5it/s]REC 2023-02-02 11:00:00.000001 - "
            "Training Epoch: 0 Training Iteration: 301  step_loss : 1.2500  learning_rate : 3.0e-05   ",
            "Steps:  35%|██████████████████████████████████████████████| 350/1000 [00:47<01:23,  7.5it/s]REC 2023-02-02 11:00:07.000001 - "
            "Training Epoch: 0 Training Iteration: 351  step_loss : 1.1250  learning_rate : 2.9e-05   ",
        ),
        (301, 351),
        1.125,
    ),
    Shape(
        "a batch counter beside a 0-based epoch, each training line followed by its test line",
        (
            "Epoch   0 Batch   40/120 - Loss: 3.0000 - accuracy: 0.20",
            "Epoch   0 Batch   40/120 - Test Loss: 3.1000 - Test accuracy: 0.19",
            "Epoch   0 Batch   80/120 - Loss: 2.8000 - accuracy: 0.22",
            "Epoch   1 Batch   40/120 - Loss: 2.6000 - accuracy: 0.25",
            "Epoch   1 Batch   40/120 - Test Loss: 2.7000 - Test accuracy: 0.24",
        ),
        (40, 80, 160),
        2.6,
    ),
    Shape(
        "an epoch printed k/N from 0 before an in-epoch counter: the first epoch is 0",
        (
            "epoch: 0/40, iter: 200/500, mem: 9000Mb, total_loss: 5.0, lr: 1.0e-02",
            "epoch: 0/40, iter: 400/500, mem: 9000Mb, total_loss: 4.0, lr: 1.0e-02",
            "epoch: 1/40, iter: 200/500, mem: 9000Mb, total_loss: 3.0, lr: 1.0e-02",
        ),
        (200, 400, 700),
        3.0,
    ),
    Shape(
        "two bracketed counters: the first is the epoch of N, the second its batch of M",
        ("[2/30][100/500] Loss: 9.50", "[2/30][200/500] Loss: 9.25", "[3/30][100/500] Loss: 9.00"),
        (600, 700, 1100),
        9.0,
    ),
    Shape(
        "a batch counter beside a late epoch number, 1-based",
        (
            "| epoch  40 |   100/  300 batches | lr 5.00 | ms/batch 80.00 | loss  4.10 | ppl    60.34",
            "| epoch  40 |   200/  300 batches | lr 5.00 | ms/batch 80.00 | loss  4.00 | ppl    54.60",
            "| epoch  41 |   100/  300 batches | lr 5.00 | ms/batch 80.00 | loss  3.90 | ppl    49.40",
        ),
        (11800, 11900, 12100),
        3.9,
    ),
    Shape(
        "a range of batches glued to its word, within a numbered epoch",
        (
            "[gpu0] 2022-01-01 10:00:00,000 (trainer:600) INFO: 3epoch:train:1-50batch: loss_ctc=90.0, loss=60.0",
            "[gpu0] 2022-01-01 10:01:00,000 (trainer:600) INFO: 3epoch:train:51-100batch: loss_ctc=80.0, loss=55.0",
            "[gpu0] 2022-01-01 10:02:00,000 (trainer:300) INFO: 3epoch results: [train] loss=57.0, [valid] loss=50.0",
            "[gpu0] 2022-01-01 10:03:00,000 (trainer:600) INFO: 4epoch:train:1-50batch: loss_ctc=70.0, loss=45.0",
        ),
        (50, 100, 100, 50),
        45.0,
    ),
    Shape(
        "a step without its total that starts again each epoch, its length never printed",
        ("epoch: 1 step: 40, loss is 1.30", "epoch: 1 step: 80, loss is 1.20", "epoch: 2 step: 40, loss is 1.10"),
        (40, 80, 40),
        1.10,
    ),
    Shape(
        "a batch counter without a total",
        ("Epoch 4, batch 0, batch avg loss 0.70", "Epoch 4, batch 25, batch avg loss 0.65"),
        (0, 25),
        0.65,
    ),
    Shape(
        "a number alone in brackets that never goes down",
        (
            "I0101 00:00:01.000001 77 writer.py:20] [50] train_loss=3.00, steps_per_second=4.0",
            "I0101 00:00:01.000002 78 writer.py:20] [50] train_loss=3.00, steps_per_second=4.1",
            "I0101 00:01:01.000001 77 writer.py:20] [100] train_loss=2.50, steps_per_second=4.0",
        ),
        (50, 50, 100),
        2.50,
    ),
    Shape(
        "bars under their Epoch k/N headers, one per epoch",
        (
            "Epoch 5/9",
            "80/80 ━━━━━━━━━━━━━━━━━━━━ 8s 100ms/step - loss: 0.5100 - val_loss: 0.6000",
            "Epoch 6/9",
            "80/80 ━━━━━━━━━━━━━━━━━━━━ 8s 100ms/step - loss: 0.4900 - val_loss: 0.5800",
        ),
        (5, 6),
        0.49,
    ),
    Shape(
        "a table of one row per epoch",
        ("epoch, train/loss, lr", "0, 1.90, 0.01", "1, 1.70, 0.01", "2, 1.60, 0.01"),
        (0, 1, 2),
        1.60,
    ),
    Shape(
        "a cut terminal bar of Lightning counts from its epoch",
        (
            "Epoch 2:  50%|#####     | 50/100 [00:50<00:50,  1.00it/s, v_num=1, train_loss=0.800, other=0.1",
            "Epoch 2:  51%|#####     | 51/100 [00:51<00:49,  1.00it/s, v_num=1, train_loss=0.790, other=0.1",
        ),
        (250, 251),
        0.79,
    ),
    Shape(
        "the whole loss among its terms, under a dotted module path",
        (
            "10:00:00 | INFO | pkg.engine.loop:88 - it: 7, total_loss: 3.3, box_loss: 1.0, conf_loss: 2.3",
            "10:00:10 | INFO | pkg.engine.loop:88 - it: 8, total_loss: 3.1, box_loss: 1.0, conf_loss: 2.1",
        ),
        (7, 8),
        3.1,
    ),
    Shape(
        "a single loss term beside its running average in parentheses",
        (
            "[01:00:00.000001] Epoch: [0]  [100/900]  lr: 0.0001  mloss: 1.2000 (1.3000)  time: 2.0",
            "[01:00:20.000001] Epoch: [0]  [110/900]  lr: 0.0001  mloss: 1.1000 (1.2900)  time: 2.0",
        ),
        (100, 110),
        1.1,
    ),
    Shape(
        "an epoch and a step both printed with their totals, one record per epoch",
        (
            "[INFO] Epoch 12/100, Step 5/5, imgsize (640, 640), loss: 0.3000, lbox: 0.1, lobj: 0.1, cur_lr: 0.0099",
            "[INFO] Epoch 12/100, Step 5/5, step time: 400.00 ms",
            "[INFO] Epoch 13/100, Step 5/5, imgsize (640, 640), loss: 0.2900, lbox: 0.1, lobj: 0.1, cur_lr: 0.0098",
        ),
        (60, 65),
        0.29,
    ),
    Shape(
        "a counter printed before its word, under a bare epoch",
        (
            "| epoch   1 |   100/ 1500 batches | lr 20.00 | ms/batch 45.00 | loss  7.60 | ppl  2000.00",
            "| epoch   1 |   200/ 1500 batches | lr 20.00 | ms/batch 44.00 | loss  6.80 | ppl   900.00",
            "| end of epoch   1 | time: 140.00s | valid loss  5.80 | valid ppl   330.00",
            "| epoch   2 |   100/ 1500 batches | lr 20.00 | ms/batch 45.00 | loss  5.60 | ppl   270.00",
        ),
        (100, 200, 1600),
        5.6,
    ),
    Shape(
        "cross-entropy under its own name",
        ("Step 120/5000; acc: 40.0; xent: 2.40; 1000 tok/s", "Step 140/5000; acc: 41.0; xent: 2.30; 1000 tok/s"),
        (120, 140),
        2.30,
    ),
)


@pytest.mark.parametrize("shape", SHAPES, ids=[s.rule for s in SHAPES])
def test_each_step_rule_on_its_example(tmp_path, shape):
    path = tmp_path / "example.log"
    path.write_text("\n".join(shape.lines) + "\n")
    log = parse_log(str(path))
    loss = log.series("loss")
    assert tuple(s for s, _ in loss) == shape.steps
    if shape.last_loss is not None:
        assert math.isclose(loss[-1][1], shape.last_loss)
    assert not [e for e in log.events if e["kind"] in ("restart", "failure")]


def test_json_records_take_the_loss_by_meaning_and_their_epoch_as_step(tmp_path):
    rl = tmp_path / "rl.jsonl"
    rl.write_text(
        '{"step": 1, "actor/pg_loss": 0.10, "critic/vf_loss": 0.5, "actor/entropy_loss": 1.2}\n'
        '{"step": 2, "actor/pg_loss": 0.09, "critic/vf_loss": 0.4, "actor/entropy_loss": 1.1}\n'
    )
    log = parse_log(str(rl))
    # the policy's, value's and entropy terms are separate objectives: no single loss, each its own series
    assert log.series("loss") == [] and log.series("actor_pg_loss") == [(1, 0.1), (2, 0.09)]
    per_epoch = tmp_path / "epochs.jsonl"
    per_epoch.write_text(
        '{"epoch": 3, "train/box_loss": 0.10, "train/cls_loss": 0.5}\n'
        '{"epoch": 4, "train/box_loss": 0.09, "train/cls_loss": 0.4}\n'
    )
    log = parse_log(str(per_epoch))
    assert log.series("loss") == [] and log.series("train_box_loss") == [(3, 0.1), (4, 0.09)]


def test_the_split_after_a_metric_carries_to_the_next_split_alone(tmp_path):
    lines = [
        "Epoch 1 | iter 100 step 25 | loss train: 2.345, val: n/a | iter time: 300.00 ms (step)",
        "Epoch 1 | iter 200 step 50 | loss train: 2.245, val: 2.300 | iter time: 300.00 ms (step)",
    ]
    path = tmp_path / "splits.log"
    path.write_text("\n".join(lines) + "\n")
    log = parse_log(str(path))
    # records 25 updates apart: the optimizer step is the step, ``iter`` counts the passes between updates
    # (``test_logs_update_counter``)
    assert log.series("val_loss") == [(50, 2.3)]
    assert log.series("step_time_ms") == [(25, 300.0), (50, 300.0)]  # the unit printed apart from its value
