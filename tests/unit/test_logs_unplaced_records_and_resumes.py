"""Records whose steps the text does not give, and resumes that name where they go on from (issue 25): a record
printed a dozen times under each ``Epoch N`` line with no counter of its own keeps its lines apart at no step
(the epoch is not the step of twelve records); a pasted command that runs an evaluation script prints the
evaluation's values, not training records; ``Model 0`` labels a line, no series; Trainer dicts of rising
epochs flushed in one burst behind a bar, whose steps read from it would pass the bar's total, keep no step; a
resume names its step in the checkpoint's folder (``checkpoint-500``) or in the updates the checkpoint had done
(``@ 40015 updates``). Own-written logs in those shapes, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _every_few_batches(epochs: range, per_epoch: int = 12) -> list[str]:
    lines = []
    for k in epochs:
        lines.append(f"Epoch {k}")
        lines += [f"Loss = {0.5 / (k + i + 1):.4e}, PNorm = {30 + i / 10:.4f}, GNorm = 0.0{i % 9 + 1}00"
                  for i in range(per_epoch)]
        lines.append(f"Validation rmse = {2.0 / (k + 1):.6f}")
    return lines


def test_a_record_printed_many_times_an_epoch_with_no_counter_keeps_no_step(tmp_path):
    log = parse_log(write_log(tmp_path, _every_few_batches(range(40, 44))))
    losses = log.series("loss")
    assert len(losses) == 48 and {step for step, _ in losses} == {None}
    # the evaluation once an epoch still stands at its epoch
    assert [step for step, _ in log.series("val_loss")] == [40, 41, 42, 43]


def test_one_record_an_epoch_under_its_line_is_still_at_the_epoch(tmp_path):
    log = parse_log(write_log(tmp_path, _every_few_batches(range(40, 44), per_epoch=1)))
    assert [step for step, _ in log.series("loss")] == [40, 41, 42, 43]


def test_a_models_number_labels_its_line_and_is_no_series(tmp_path):
    lines = _every_few_batches(range(3), per_epoch=2)
    lines += ["Model 0 best validation rmse = 0.912 on epoch 2", "Model 0 test rmse = 0.954", "Fold 1"]
    log = parse_log(write_log(tmp_path, lines))
    names = {row["name"] for row in log.metrics.to_pylist()}
    assert "model" not in names and "fold" not in names


def test_a_pasted_evaluation_script_prints_the_evaluations_values(tmp_path):
    lines = []
    for epoch in (1, 2):
        lines += [f"INFO - epoch: {epoch}, batch_id: {b}, AUC:0.9{b // 100}, loss:0.{9 - epoch}{b // 100}" for b in (0, 200, 400)]
        lines.append(f"INFO - epoch: {epoch} done, AUC: 0.95, loss:0.{9 - epoch}")
    lines += ["", "user@box:~/work/models/rank$ python -u ../../tools/infer.py -m config.yaml"]
    lines += [f"INFO - epoch: {epoch}, batch_id: 0, AUC: 0.94{epoch}, ACC: 0.89{epoch}" for epoch in (1, 2)]
    log = parse_log(write_log(tmp_path, lines))
    aucs = [row for row in log.metrics.to_pylist() if row["name"] in ("auc", "val_auc")]
    assert [row["name"] for row in aucs[-2:]] == ["val_auc", "val_auc"]
    assert "restart" not in log.event_kinds()


def _bar(n: int, total: int) -> str:
    return f"{100 * n // total:3d}%|#         | {n}/{total} [00:{n % 60:02d}<01:00,  1.20s/it]"


def test_a_burst_of_dicts_whose_steps_would_pass_the_bars_total_keeps_no_step(tmp_path):
    # two epochs of 1200 steps; stdout reached the file once, at step 1190, with every log of the run so far
    lines = ["Resuming from checkpoint: out/checkpoint-300", "\r".join(_bar(n, 2400) for n in range(301, 1191, 7))]
    lines += [f"{{'loss': {1.2 - i / 100:.4f}, 'grad_norm': 2.5, 'learning_rate': 1e-05, 'epoch': {0.26 + i / 40:.2f}}}"
              for i in range(30)]
    log = parse_log(write_log(tmp_path, lines))
    assert {step for step, _ in log.series("loss")} == {None} and len(log.series("loss")) == 30
    assert [e["step"] for e in log.events if e["kind"] == "restart"] == [300]


def test_a_checkpoint_loaded_with_its_updates_resumes_at_them(tmp_path):
    lines = [
        "2024-01-02 03:04:05 | INFO | fairseq.trainer | loaded checkpoint ckpts/checkpoint_last.pt (epoch 12 @ 5210 updates)",
        "2024-01-02 03:04:05 | INFO | fairseq.trainer | loading train data for epoch 12",
    ]
    lines += [f"2024-01-02 03:05:0{i} | INFO | train_inner | epoch 012:    {100 * i} / 434 loss=4.{i}1, "
              f"nll_loss=2.{i}, ppl=5.1, wps=1200, ups=2.1, wpb=5000, bsz=120, num_updates={5210 + 100 * i}, lr=0.0005"
              for i in range(1, 5)]
    log = parse_log(write_log(tmp_path, lines))
    assert [e["step"] for e in log.events if e["kind"] == "restart"] == [5210]
