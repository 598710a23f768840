"""Shapes of real logs (issue 25), in own-worded lines through ``parse_log``:

- a line that reports its training values first and the validation's after them (``[ 4000/90000] Train loss:
  0.31, Valid loss: 0.27``) is a training record: its bracketed position with its total is the step, as on a
  training line; a line that opens with an evaluation (``Test: [ 10/196] loss 0.9``) still counts evaluation
  batches and takes the training step before it;
- an actor-critic's policy term (``action_loss`` beside ``entropy``, ``actor_loss`` beside ``critic_loss``) is
  a part of the objective: a record of only such parts has no single loss (L3);
- a group's label and its colon open ``key value`` fields (``[Losses: x 0.26, y 0.5, ...]``): the first key is a
  key, and a ``total`` that adds up the run of terms right before it is the loss, a score printed after it
  (``recall: 0.01``) none of the terms;
- a cross-entropy under its own name (``Xent``) is the loss where it is alone, and a part of the ``Loss``
  printed beside it."""

from __future__ import annotations

from pathlib import Path

from log_files import write_log

from assay.operators.logs import parse_log


def _report(i: int) -> list[str]:
    return [
        f"\t[{4000 * (i + 1)}/90000] Train loss: 0.3{5 - i}100, Valid loss: 0.2{7 - i}000, Elapsed_time: {310.5 * (i + 1):.5f}",
        f"\tCurrent_accuracy : 8{i}.100, Current_norm_ED  : 0.9{i}00",
        "\t" + "-" * 40,
    ]


def test_a_line_with_training_values_first_is_a_training_record(tmp_path: Path) -> None:
    lines = [line for i in range(3) for line in _report(i)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(4000, 0.351), (8000, 0.341), (12000, 0.331)]
    assert [s for s, _ in log.series("val_loss")] == [4000, 8000, 12000]


def test_an_evaluation_first_line_still_counts_evaluation_batches(tmp_path: Path) -> None:
    lines = []
    for i in range(3):
        lines.append(f"step {100 * (i + 1)} train loss {2.0 - 0.1 * i:.2f}")
        lines += [f"Test: [{j * 10}/30] loss {1.5 + j / 10:.2f} (train set held out)" for j in (1, 2, 3)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [100, 200, 300]
    assert {s for s, _ in log.series("val_loss")} == {100, 200, 300}  # at the training step, not 10/20/30


def test_policy_terms_of_an_actor_critic_give_no_loss(tmp_path: Path) -> None:
    lines = []
    for i in range(4):
        lines += [
            f"2025-01-07 10:0{i}:12,408 update: {50 + 10 * i}\tfps: 231.{i}\t",
            f"2025-01-07 10:0{i}:12,409 Average window size: 50  reward: 0.{6 + i}  success: 0.{5 + i}  "
            f"action_loss: 0.6{i}  entropy: 0.6{9 - i}",
        ]
    log = parse_log(write_log(tmp_path, lines))
    assert not log.series("loss")
    assert [s for s, _ in log.series("action_loss")] == [50, 60, 70, 80]
    actor = [f"epoch {i} | actor_loss {0.5 - 0.1 * i:.2f} | critic_loss {1.2 - 0.1 * i:.2f}" for i in range(3)]
    assert not parse_log(write_log(tmp_path, actor, name="ac.log")).series("loss")


def _losses_group(batch: int) -> str:
    terms = [0.25 + batch / 100, 0.5, 4.125 - batch / 10, 1.0625, 0.75]
    total = sum(terms)
    fields = ", ".join(f"{k} {v:.6f}" for k, v in zip(("x", "y", "w", "conf", "cls"), terms, strict=True))
    return (
        f"[Epoch 0/20, Batch {batch}/500] [Losses: {fields}, total {total:.6f}, "
        f"recall: 0.0{batch}120, precision: 0.000{batch}1]"
    )


def test_a_total_that_adds_up_the_terms_before_it_is_the_loss(tmp_path: Path) -> None:
    # a group label and its colon open the fields (``Losses: x 0.26, ...``): ``x`` keys its value, and the
    # ``total`` that adds up the run of terms before it is the loss, the scores after it none of them
    log = parse_log(write_log(tmp_path, [_losses_group(b) for b in range(4)]))
    assert [s for s, _ in log.series("loss")] == [0, 1, 2, 3]
    assert log.series("loss")[-1][1] == round(sum([0.28, 0.5, 3.825, 1.0625, 0.75]), 6)
    assert [s for s, _ in log.series("x")] == [0, 1, 2, 3]


def test_a_cross_entropy_beside_the_loss_is_a_part_of_it(tmp_path: Path) -> None:
    lines = [f"Epoch: [2][{i}/50]\tTime 1.41\tLoss {9.3 - i / 10:.3f}\tXent {8.8 - i / 10:.3f}\tRegLoss 0.51{i}"
             for i in range(1, 5)]
    log = parse_log(write_log(tmp_path, lines))
    assert [v for _, v in log.series("loss")] == [9.2, 9.1, 9.0, 8.9]
    assert [v for _, v in log.series("xent")] == [8.7, 8.6, 8.5, 8.4]
    alone = [f"step {i} | xent {2.5 - i / 10:.2f} | lr 0.001" for i in range(1, 4)]
    assert [v for _, v in parse_log(write_log(tmp_path, alone, name="x.log")).series("loss")] == [2.4, 2.3, 2.2]
