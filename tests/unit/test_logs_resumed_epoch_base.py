"""A resumed run that states its global step before its first record (``global_step 6000``) and then numbers its
records within the epoch (``Epoch 20[1/300]``): the epochs count from the base that makes the first record follow
on from the stated step (20 * 300 + 1, so from 0), and the numbered checkpoint it loaded is a restart at its step. Where the stated step says 1, or the checkpoint
names no step (pretrained weights), nothing changes: those two are guards."""

from __future__ import annotations

from assay.operators.logs import parse_log


def _log(tmp_path, stated: int, epoch: int, name: str):
    lines = [
        f"INFO:tensorflow:Load the latest checkpoint /runs/exp4/model.ckpt-{stated}",
        f"INFO:tensorflow:Resumed weights, learning_rate 0.0125 global_step {stated}",
        "",
    ]
    for k in range(1, 9):
        lines.append(f"Epoch {epoch}[{k}/300] lr0.0125 cls_loss:{2.0 - k / 10:.2f} loss:{3.0 - k / 10:.2f} acc:0.5")
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return parse_log(path)


def test_the_stated_step_says_the_epochs_count_from_zero(tmp_path):
    parsed = _log(tmp_path, 6000, 20, "zero.log")
    assert [s for s, _ in parsed.series("loss")] == list(range(6001, 6009))
    assert [(e["kind"], e["step"]) for e in parsed.events] == [("restart", 6000)]


def test_the_stated_step_says_the_epochs_count_from_one(tmp_path):
    parsed = _log(tmp_path, 5700, 20, "one.log")
    assert [s for s, _ in parsed.series("loss")] == list(range(5701, 5709))


def test_a_checkpoint_without_a_step_in_its_name_is_no_restart(tmp_path):
    path = tmp_path / "finetune.log"
    path.write_text(
        "Load checkpoint /models/pretrained/resnet_v1_50.ckpt\n"
        + "".join(f"step {s} loss {1.0 / s:.3f}\n" for s in range(10, 60, 10))
    )
    assert [e for e in parse_log(path).events if e["kind"] == "restart"] == []


def test_an_estimator_evaluation_restoring_the_last_save_is_no_restart(tmp_path):
    path = tmp_path / "estimator.log"
    path.write_text(
        "".join(f"INFO:tensorflow:loss = {1.0 / s:.4f}, step = {s}\n" for s in range(100, 600, 100))
        + "INFO:tensorflow:Saving checkpoints for 500 into /runs/cls/model.ckpt.\n"
        + "INFO:tensorflow:Starting evaluation at 2026-02-03-04:05:06\n"
        + "INFO:tensorflow:Restoring parameters from /runs/cls/model.ckpt-500\n"
        + "INFO:tensorflow:Saving dict for global step 500: eval_accuracy = 0.81, eval_loss = 0.52, global_step = 500\n"
    )
    assert [e for e in parse_log(path).events if e["kind"] == "restart"] == []
