"""Which value is a record's loss when its names say so only by meaning: an RL trainer's namespaced policy,
value, KL and entropy terms are separate objectives (no single ``loss``; each keeps its own name), while a
bare or total loss beside them is the loss; an objective function printed as ``objf`` is the loss (not
``obj``, YOLO's objectness column)."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import parse_log


def _log(tmp_path, lines):
    return parse_log(write_log(tmp_path, lines))


def _names(log):
    return set(log.metrics.column("name").to_pylist())


def test_namespaced_policy_and_value_terms_give_no_loss(tmp_path):
    lines = [
        f"iteration {i} | actor/pg_loss {0.02 - i / 1000:.3f} | actor/kl_loss 0.004 | critic/vf_loss {0.6 - i / 100:.2f}"
        f" | actor/entropy_loss 0.37 | critic/rewards/mean 0.{i}"
        for i in (1, 2, 3)
    ]
    log = _log(tmp_path, lines)
    assert log.series("loss") == []
    assert {"actor_pg_loss", "critic_vf_loss", "actor_kl_loss"} <= _names(log)
    assert [s for s, _ in log.series("actor_pg_loss")] == [1, 2, 3]


def test_a_bare_loss_beside_the_terms_is_the_loss(tmp_path):
    lines = [
        f"update {i} train/loss {0.5 - i / 100:.2f} train/policy_loss 0.01{i} train/value_loss 0.4{i}"
        for i in (1, 2, 3)
    ]
    log = _log(tmp_path, lines)
    assert [v for _, v in log.series("loss")] == pytest.approx([0.49, 0.48, 0.47])


def test_a_term_not_namespaced_stays_the_loss(tmp_path):
    # a supervised loop's one loss term, not under an RL namespace, is still its loss
    lines = [f"step {i} pg_loss {1 - i / 10:.2f}" for i in (1, 2, 3)]
    log = _log(tmp_path, lines)
    assert [v for _, v in log.series("loss")] == pytest.approx([0.9, 0.8, 0.7])


def test_objf_is_the_loss_and_the_current_batch_one_wins(tmp_path):
    lines = [
        f"2022-01-01 10:00:0{i},100 INFO [train.py:200] batch {i}0, epoch 0/5 global average objf: 1.{9 - i}0 over "
        f"{i}000.0 frames, current batch average objf: 1.{8 - i}5 over 900 frames"
        for i in (1, 2)
    ]
    log = _log(tmp_path, lines)
    assert log.series("loss") == [(10, pytest.approx(1.75)), (20, pytest.approx(1.65))]


def test_objective_function_is_the_loss(tmp_path):
    log = _log(tmp_path, [f"iter {i}00 objective_function {1 - i / 10:.2f} lr 0.01" for i in (1, 2, 3)])
    assert [v for _, v in log.series("loss")] == pytest.approx([0.9, 0.8, 0.7])


def test_yolo_objectness_column_is_no_loss(tmp_path):
    lines = [
        "     Epoch   gpu_mem       box       obj       cls     total    labels  img_size",
        "      0/99     3.21G   0.05012   0.02511   0.01502   0.09025        40       640",
        "      1/99     3.21G   0.04811   0.02311   0.01402   0.08524        38       640",
    ]
    log = _log(tmp_path, lines)
    assert [v for _, v in log.series("loss")] == pytest.approx([0.09025, 0.08524])
