"""Logs round 12 (issue 25): class-level readings found on a newly opened set, each rule on a log written here
in its shape (own-worded tool output) and read through the whole ``parse_log`` path."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import parse_log


def _rows(log, name: str) -> list[tuple]:
    """``(step, value, rank)`` of the metric ``name`` in line order."""
    table = log.metrics.sort_by([("line_no", "ascending")])
    rows = zip(*(table.column(c).to_pylist() for c in ("step", "name", "value", "rank")), strict=True)
    return [(s, v, r) for s, n, v, r in rows if n == name]


def _fit_line(worker: int, step: int, loss: float) -> str:
    return (
        f"<2031-03-04 05:06:07> [fitter] :: fit, worker: {worker}, round: 1/40, shard_pos: {step}/50000, "
        f"total step: {step}, (loss_avg_worker: {loss:.3f}), (loss_avg_shard: {loss + 0.1:.3f}), "
        f"(grad_norm: {loss * 3:.2f}), (lr: 2.500e-04)"
    )


def test_a_process_key_gives_the_rank_and_a_setting_worded_step_printed_on_every_record_is_the_step(tmp_path):
    # three workers print each step: ``worker`` says who printed (the rank column), never the step, and its
    # going down is no restart; ``total step`` changes from record to record: the step, not a setting;
    # ``loss_avg_worker`` (the loss averaged over one process) is the loss, before ``loss_avg_shard``
    lines = [_fit_line(w, s, 0.9 - s / 10000 + w / 100) for s in (4100, 4200, 4300) for w in (5, 2, 7)]
    log = parse_log(write_log(tmp_path, lines))
    loss = _rows(log, "loss")
    assert [s for s, _, _ in loss] == [4100] * 3 + [4200] * 3 + [4300] * 3
    assert [r for _, _, r in loss] == [5, 2, 7] * 3
    assert loss[-1][1] == 0.9 - 0.43 + 0.07
    assert not [e for e in log.events if e["kind"] == "restart"]
    assert not _rows(log, "worker")


def test_records_of_several_processes_at_one_setting_worded_step_take_that_step(tmp_path):
    # the step does not move over the excerpt, but each record at it comes from another process: the records'
    # step, not a banner's setting
    lines = [_fit_line(w, 7700, 0.61 + w / 100) for w in (11, 3, 8)]
    log = parse_log(write_log(tmp_path, lines))
    assert [(s, r) for s, _, r in _rows(log, "loss")] == [(7700, 11), (7700, 3), (7700, 8)]


def _parts_line(epoch: int, it: int, parts: tuple[float, ...], width: int = 7) -> str:
    total = sum(parts)
    fields = " | ".join(f"{k}: {v:.3f}" for k, v in zip("PQRW", parts, strict=True))
    return f"[{epoch:3d}] {it:{width}d} || {fields} | Z: {total:.3f} || left: 1:02:03 || wall: 0.8{it % 10}"


_PARTS = [
    (2.101, 7.333, 1.254, 9.871),
    (2.052, 6.912, 1.249, 8.113),
    (1.998, 6.407, 1.247, 7.006),
    (1.975, 6.118, 1.239, 6.512),
    (1.940, 5.871, 1.233, 5.004),
]


def test_a_bracketed_epoch_then_a_bare_counter_and_a_total_of_its_terms_give_step_and_loss(tmp_path):
    # letters as keys, no loss word: ``[  0]`` is the epoch, the bare number after it the step, and the field
    # that adds up the others of its group on every record (``Z``) is the total, the loss
    lines = [_parts_line(0, 20 * k, parts) for k, parts in enumerate(_PARTS)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [0, 20, 40, 60, 80]
    assert log.series("loss")[-1] == (80, round(sum(_PARTS[-1]), 3))


def test_a_total_of_its_terms_printed_in_scientific_notation(tmp_path):
    # the same records with every value as ``2.101000e+00``: the rounding allowed is the last digit's there too
    lines = [
        f"[  0] {20 * k:7d} || " + " | ".join(f"{key}: {v:.6e}" for key, v in zip("PQRW", parts, strict=True))
        + f" | Z: {sum(parts):.6e} || left: 1:02:03"
        for k, parts in enumerate(_PARTS)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [0, 20, 40, 60, 80]
    assert log.series("loss")[-1][1] == pytest.approx(sum(_PARTS[-1]), rel=1e-6)


def test_no_field_is_a_total_where_none_adds_up_the_others(tmp_path):
    # the same shape whose last field is no sum (and a group of two terms and their sum): no loss is invented
    lines = [
        f"[  1] {10 * k:5d} || P: {p:.3f} | Q: {q:.3f} | R: {r:.3f} | Z: {w:.3f} || "
        f"U: {p:.2f} | V: {q:.2f} | "
        f"Y: {p + q:.2f}"
        for k, (p, q, r, w) in enumerate(_PARTS)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == []
    assert [s for s, _ in log.series("p")] == [0, 10, 20, 30, 40]


def test_a_right_aligned_counter_growing_a_digit_keeps_its_records_shape(tmp_path):
    # keys no list knows, a counter right-aligned in its column: the padding changes as it grows (98 -> 100),
    # never more than twice at one width; the records are still one shape
    lines = [
        _parts_line(3, it, parts, width=5) for it, parts in zip((98, 99, 100, 101), _PARTS, strict=False)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [98, 99, 100, 101]


def test_a_last_record_cut_before_its_formats_separator_is_a_record(tmp_path):
    # the excerpt ends after ``R: 1.233`` where every record goes on with `` | W: ...``: the record, cut (D9)
    lines = [_parts_line(0, 20 * k, parts) for k, parts in enumerate(_PARTS[:4])]
    lines.append("[  0]      80 || P: 1.940 | Q: 5.871 | R: 1.233")
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("p")] == [0, 20, 40, 60, 80]
    assert log.series("loss")[-1] == (60, round(sum(_PARTS[3]), 3))


def test_a_step_word_after_another_counters_name_counts_that_unit_not_the_run(tmp_path):
    # ``trial steps`` beside ``trial: 41`` is the length of one trial; the run-wide count before ``/90000`` is
    # the step, also over four records where the trial lengths happen to rise more often than fall
    lengths = [17, 260, 391, 342]
    at, lines = 61000, []
    for k, n in enumerate(lengths):
        at += n
        lines.append(
            f"{at}/90000: trial: {41 + k}, trial steps: {n}, took: 0.9s, obj: {5 - k / 3:.6f}, q_mean: 2.5"
        )
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [61017, 61277, 61668, 62010]  # (the lone ``obj``: the loss)


def test_a_last_record_cut_after_a_key_before_its_value_is_the_record_cut(tmp_path):
    # the excerpt ends on ``Wait`` where every record goes on with ``: 0:12:01, Loss: ...``: the record, cut,
    # so the ``Expense`` before it is no loss of a record of its own; the last loss is the complete record's
    lines = [
        f"det.fit INFO: Round: {k:06d}, Lr: 0.0{k // 10 + 10}, Expense: 5.{k}1s, Wait: 0:12:{k:02d}, "
        f"Loss: {20 - k / 10:.3f}, Box Loss {3 - k / 100:.3f}, Label Loss: {17 - k / 10:.3f}"
        for k in range(10, 60, 10)
    ]
    lines.append("det.fit INFO: Round: 000060, Lr: 0.016, Expense: 5.71s, Wait")
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (50, 15.0)
    assert [s for s, _ in log.series("lr")][-1] == 60


def test_a_run_said_to_diverge_with_a_nan_loss_is_a_nan_event(tmp_path):
    lines = [f"INFO:fitter:loss = {2 - k / 10:.4f}, step = {100 * k} (12.5 sec)" for k in range(1, 5)]
    lines.append("ERROR:fitter:Training diverged with loss = NaN.")
    log = parse_log(write_log(tmp_path, lines))
    assert [e["kind"] for e in log.events] == ["nan"]


def test_an_evaluations_only_loss_term_is_its_loss_beside_training_records_that_name_their_whole_loss(
    tmp_path,
):
    # the training lines name their whole loss (``sum_loss``) beside its parts; the evaluation line's one loss
    # term (``logloss``), which no training line prints, is the validation loss, not a term under its own name
    lines = [
        f"step {100 * k} , sum_loss: {1.2 - k / 50:.4f}, fit_loss: {1.0 - k / 50:.4f}, aux_loss: 0.2"
        for k in range(1, 6)
    ]
    lines.append("eval valid at epoch 1: auc:0.61,logloss:2.4123,ndcg@4:0.1")
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("val_loss") == [(500, 2.4123)]
    assert log.series("loss")[-1] == (500, 1.1)


def test_a_metric_name_before_keys_joined_by_slashes_is_each_keys_head_noun(tmp_path):
    # ``Loss start/end/total=a/b/c``: three losses, the last one the whole (``total Loss``), so it is the loss
    lines = [
        f"12:00:0{k} - qa - INFO - Epoch: 1, Batch: {100 * k}/900, Loss start/end/total="
        f"{0.4 - k / 100:.4f}/{0.2:.4f}/{0.6 - k / 100:.4f}, LR=0.0001, Throughput=51.2 samples/s"
        for k in range(1, 5)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (400, 0.56)


def test_saving_a_state_at_an_iteration_is_a_save(tmp_path):
    lines = ["iter 0 || Loss: 9.1234 || Saving state, iter: 0"]
    lines += [f"iter {k} || Loss: {9 - k / 10:.4f} || Timer: 0.3{k} sec." for k in (5, 10, 15)]
    log = parse_log(write_log(tmp_path, lines))
    assert [(e["kind"], e["step"]) for e in log.events] == [("checkpoint", 0)]


def test_loguru_s_default_layout_names_the_module_and_so_the_tool(tmp_path):
    # ``time | LEVEL | module:function:line - message``: the module's package names the run's tool
    lines = [
        f"2031-01-02 03:04:{k:02d}.100 | INFO     | wavefit.asr.trainer:fit_epoch:88 - Train: epoch: 0, "
        f"step: {25 * k}, loss: {40 - k:.4f}, lr: 0.0001"
        for k in range(1, 5)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.run["framework"] == "wavefit"


def test_a_cut_last_record_keeps_the_rank_its_process_key_gives(tmp_path):
    # the excerpt ends inside worker 9's record: it joins its template, at its step and under its own rank
    lines = [_fit_line(w, s, 0.7 + w / 100) for s in (900, 1000) for w in (4, 6)]
    lines.append(_fit_line(9, 1000, 0.75).split(" 2.")[0])  # ends on ``(grad_norm:``
    log = parse_log(write_log(tmp_path, lines))
    assert _rows(log, "loss")[-1] == (1000, 0.75, 9)


def test_a_banner_read_as_the_first_record_makes_no_restart(tmp_path):
    # a user's header with a number after "Epoch:" and a setting's key-value reads as a record at 800; the run's
    # own records then start at 0: the only record before the dip is the log's first, so no run resumed
    lines = ["Epoch:800 2GPU(2*a4000, batch size: 16 )", "Mixed precision: True", "Epoch: 0"]
    for it in range(0, 50, 10):
        lines.append(f"Train loss {it} {40.0 - it / 10:.6f} Grad Norm {9.0 - it / 20:.6f} 4.10s/it")
    lines.append("Saving model and optimizer state at iteration 40 to /runs/glow/checkpoint_40")
    log = parse_log(write_log(tmp_path, lines, "glow.log"))
    kinds = [e["kind"] for e in log.events]
    assert "restart" not in kinds and "checkpoint" in kinds


def test_two_keys_ending_in_one_word_keep_their_phrases_apart(tmp_path):
    # "Mean Score: ... Std of Score: ...": the key a series loses its name to is named by its whole phrase, not
    # by its place on the line; a unit ending the value before it ("80.9 s") is no part of the phrase
    lines = [
        f"INFO:agents.trainer: run1: Step: {s}. Time Elapsed: {5.1 * s / 1000:.3f} s Mean Score: 0.{s // 1000}. "
        f"Std of Score: 0.{9 - s // 1000}. Training."
        for s in range(1000, 6000, 1000)
    ]
    log = parse_log(write_log(tmp_path, lines, "agents.log"))
    names = set(log.metrics.column("name").to_pylist())
    assert "mean_score" in names and not any("_at_" in n for n in names)


def test_an_epochs_record_printed_under_its_header_without_a_bar_is_at_that_epoch(tmp_path):
    # Keras 2's verbose=2: "Epoch k/N" then " - 8s - loss: ..." with no counter of its own: the record is epoch k's
    lines = ["Train on 4000 samples, validate on 1000 samples"]
    for k in range(1, 5):
        lines += [f"Epoch {k}/40", f" - {9 - k}s - loss: {2.0 / k:.4f} - acc: {0.5 + k / 20:.4f} - val_loss: {2.2 / k:.4f}"]
    log = parse_log(write_log(tmp_path, lines, "fit.log"))
    assert [(s, round(v, 4)) for s, v, _ in _rows(log, "loss")] == [(1, 2.0), (2, 1.0), (3, 0.6667), (4, 0.5)]


def test_a_bracket_opening_the_line_with_a_counter_and_the_time_passed_gives_the_step(tmp_path):
    # "[12 | 301.45] loss=3.10 avg=3.21": the whole number that never goes down is the step, the decimal the time
    lines = [f"[{i} | {20.5 * i:.2f}] loss={3.9 - i / 10:.2f} avg={3.95 - i / 20:.2f}" for i in range(1, 7)]
    log = parse_log(write_log(tmp_path, lines, "gpt.log"))
    assert [s for s, _, _ in _rows(log, "loss")] == [1, 2, 3, 4, 5, 6]
