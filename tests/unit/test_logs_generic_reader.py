"""The general reader under the framework parsers: line templates of any punctuation, tables with a header
row, bar postfixes, step counters on lines of their own (per rank), one synonym table, unknown names kept."""

from __future__ import annotations

import json

from assay.operators.logs import parse_log


def write(tmp_path, name: str, lines: list[str]) -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_user_script_behind_mpirun_tags_gives_per_rank_curves(tmp_path):
    lines = []
    for step in range(40, 44):
        for rank in (1, 0):
            lines.append(f"[1,{rank}]<stdout>:Epoch 2/50, Batch {step}/5000")
        for rank in (0, 1):
            lines.append(
                f"[1,{rank}]<stdout>:Running loss is  {10 - step / 10 + rank:.6f} ETA is  1:02:03.456"
            )
    log = parse_log(write(tmp_path, "hvd_job.out", lines))
    assert log.run["framework"] == "Horovod"
    # batch 40 of 5000 in epoch 2 (1-based, printed with its total) is step 5040 of the run
    assert [(s, round(v, 3)) for s, v in log.series("loss", rank=0)] == [
        (5040, 6.0),
        (5041, 5.9),
        (5042, 5.8),
        (5043, 5.7),
    ]
    assert [s for s, _ in log.series("loss", rank=1)] == [5040, 5041, 5042, 5043]
    assert not any(name in ("eta", "is") for name in log.metrics.column("name").to_pylist())


def test_equals_colon_and_dict_templates_through_one_synonym_table(tmp_path):
    lines = []
    for step in (5, 10, 15):
        lines.append(f"[trainer] step={step} train_loss={3 / step:.4f} learning_rate=1e-4 kl_coef=0.05")
        lines.append(json.dumps({"iteration": step, "objective/val_loss": 2.0 + step, "grad-norm": 0.5}))
        lines.append(f"<metrics> {{'global_step': {step}, 'eval_loss': 1.5, 'reward_mean': {step / 10}}}")
    log = parse_log(write(tmp_path, "rl.log", lines))
    assert [s for s, _ in log.series("loss")] == [5, 10, 15] and log.series("lr")[0] == (5, 1e-4)
    assert [s for s, _ in log.series("kl_coef")] == [5, 10, 15]  # an unknown name kept as printed
    assert [v for _, v in log.series("reward_mean")] == [0.5, 1.0, 1.5]
    assert {s for s, _ in log.series("val_loss")} == {5, 10, 15}


def test_a_table_with_a_header_row(tmp_path):
    lines = [
        "starting",
        "step    loss      lr        tok/s",
        *[f"{s:<7d} {4 - s / 100:.4f}    3e-4      {9000 + s}" for s in (100, 200, 300)],
    ]
    log = parse_log(write(tmp_path, "table.txt", lines))
    assert log.series("loss") == [(100, 3.0), (200, 2.0), (300, 1.0)]
    assert [v for _, v in log.series("tokens_per_s")] == [9100, 9200, 9300]


def test_progress_bar_postfix_steps_from_the_bar(tmp_path):
    lines = [
        f"train: {p}%|###| {s}/400 [00:{s // 10:02d}<01:00, 3.1it/s, loss={2 - s / 1000:.3f}, acc=0.5]"
        for p, s in ((5, 20), (10, 40))
    ]
    log = parse_log(write(tmp_path, "bar.log", lines))
    assert log.series("loss") == [(20, 1.98), (40, 1.96)]


def test_sentences_with_numbers_give_no_series(tmp_path):
    lines = ["Loaded 12 shards from /data in 3.2 seconds", "Using 8 workers for 2 loaders"]
    assert parse_log(write(tmp_path, "setup.log", lines)).metrics.num_rows == 0


def test_a_record_over_several_lines_under_a_counter_line(tmp_path):
    lines = []
    for step in (1, 2, 3):
        lines += [
            f"[batch={step}/50]:",
            f"\t Train time/batch: {step}",
            f"\t Train loss/train/total: {5 - step:.4f}",
        ]
        lines += [f"\t Train metrics/train/TokenAccuracy: {0.1 * step:.4f}"]
    log = parse_log(write(tmp_path, "records.txt", lines))
    assert log.series("loss") == [(1, 4.0), (2, 3.0), (3, 2.0)]  # loss/train/total is the training loss
    assert [s for s, _ in log.series("metrics_train_tokenaccuracy")] == [1, 2, 3]  # not folded into loss


def test_an_update_counter_names_the_step(tmp_path):
    lines = [
        f"2024-02-02 08:00:00 | INFO | train_inner | epoch 002:   {n} / 900 loss=7.{n:03d}, ppl=150.2, "
        f"wps=9000.5, num_updates={1000 + n}, lr=0.0001, gnorm=0.812"
        for n in (50, 100, 150)
    ]
    log = parse_log(write(tmp_path, "train_inner.log", lines))
    assert [s for s, _ in log.series("loss")] == [1050, 1100, 1150]
    assert [v for _, v in log.series("gnorm")] == [0.812] * 3


def test_nanogpt_behind_a_rank_tag_with_a_space(tmp_path):
    lines = [f"[rank0]: iter {s}: loss {3 - s / 100:.4f}, time 90.00ms, mfu 12.00%" for s in (0, 10, 20)]
    log = parse_log(write(tmp_path, "gpt.log", lines))
    assert log.run["framework"] == "nanoGPT" and [s for s, _ in log.series("loss")] == [0, 10, 20]


def test_under_a_framework_that_printed_no_metric_the_general_reader_still_gives_curves(tmp_path):
    lines = [
        "GPU available: True (cuda), used: True",
        "TPU available: False, using: 0 TPU cores",
        "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1]",
        *(f"custom loop: update={u} objective={2 - u / 100:.3f} lr=0.0002" for u in (100, 200, 300)),
        "`Trainer.fit` stopped: `max_steps=300` reached.",
    ]
    log = parse_log(write(tmp_path, "lit_custom.log", lines))
    assert log.run["framework"] == "PyTorch Lightning" and log.run["status"] == "completed"
    assert [s for s, _ in log.series("lr")] == [100, 200, 300]
    assert log.series("objective") == [(100, 1.0), (200, 0.0), (300, -1.0)]  # an unknown name, kept


def test_train_and_validation_losses_of_one_line_stay_apart(tmp_path):
    lines = [
        f"epoch {e} | train loss {2 - e / 10:.3f} | valid loss {2.2 - e / 10:.3f} | lr 0.001" for e in (1, 2)
    ]
    log = parse_log(write(tmp_path, "epochs.log", lines))
    assert log.series("loss") == [(1, 1.9), (2, 1.8)]
    assert log.series("val_loss") == [(1, 2.1), (2, 2.0)]


def test_a_running_mean_and_the_logged_loss_are_two_series(tmp_path):
    lines = [
        f"it {s}: loss={2.61 - s / 1000:.2f} reduced_loss={2.6 - s / 1000:.3f} gnorm=0.9"
        for s in (10, 20, 30)
    ]
    log = parse_log(write(tmp_path, "run.log", lines))
    assert [v for _, v in log.series("loss")] == [2.59, 2.58, 2.57]  # the last printed keeps the name
    assert [v for _, v in log.series("loss_at_3")] == [] and len(log.series("loss")) == 3
    other = {n for n in log.metrics.column("name").to_pylist()} - {"loss", "gnorm"}
    assert len(other) == 1


def test_fractional_epochs_are_not_steps(tmp_path):
    lines = [f"{{'loss': {2 - i / 10:.2f}, 'lr': 0.0001, 'epoch': {i / 4:.2f}}}" for i in range(1, 5)]
    log = parse_log(write(tmp_path, "dicts.log", [*lines, "(the end)"]))
    loss = log.series("loss")
    assert len(loss) == 4 and {s for s, _ in loss} == {None}  # no epoch 0.25 as step 0, no order as steps


def test_auxiliary_loss_terms_keep_their_own_names(tmp_path):
    """An RL trainer's policy loss beside its entropy, value and KL losses: separate objectives, each under its
    own name, and no single ``loss`` (the measuring sets' gold, as for DeepSpeed-Chat and verl)."""
    lines = [
        f"step:{s} - actor/pg_loss:{0.5 - s / 100:.3f} - actor/entropy_loss:1.25 - critic/vf_loss:0.{s:02d} - "
        f"actor/kl_loss:0.003"
        for s in range(1, 12)
    ]
    log = parse_log(write(tmp_path, "rl.log", lines))
    names = set(log.metrics.column("name").to_pylist())
    assert {"actor_entropy_loss", "critic_vf_loss", "actor_kl_loss"} <= names
    assert log.series("loss") == []
    assert log.series("actor_pg_loss")[0] == (1, 0.49) and len(log.series("actor_pg_loss")) == 11


def test_the_split_printed_after_the_metric_name(tmp_path):
    lines = [f"Epoch 1 | iter {4 * s} step {s} | loss train: {3 - s / 10:.3f}, val: n/a | iter time: 351.2 ms"
             for s in range(1, 12)]
    log = parse_log(write(tmp_path, "litgpt_like.log", lines))
    assert "train" not in set(log.metrics.column("name").to_pylist())
    assert [v for _, v in log.series("loss")][:2] == [2.9, 2.8]


def test_a_step_counter_that_starts_again_each_epoch_counts_on(tmp_path):
    """``Step [600/600]`` then ``Step [100/600]`` is the next epoch, not a restart: steps go on from 600."""
    lines = [f"[rank0]: Epoch [{e}/3], Step [{s}/600], Loss: {2 - e / 10 - s / 10000:.4f}"
             for e in (1, 2, 3) for s in range(100, 601, 100)]
    log = parse_log(write(tmp_path, "tutorial.log", lines))
    steps = [s for s, _ in log.series("loss")]
    assert steps == list(range(100, 1801, 100))
    assert "restart" not in log.event_kinds()


def test_keras_epochs_with_their_closing_lines_count_on(tmp_path):
    lines = []
    for e in (1, 2):
        lines.append(f"Epoch {e}/2")
        lines += [f"{s}/300 [==>.......] - ETA: 0:10 - loss: {1 - e / 10 - s / 10000:.4f} - accuracy: 0.91"
                  for s in (100, 200)]
        lines.append(f"300/300 [==========] - 3s 10ms/step - loss: {0.9 - e / 10:.4f} - accuracy: 0.92 - "
                     f"val_loss: {0.95 - e / 10:.4f} - val_accuracy: 0.90")
    log = parse_log(write(tmp_path, "keras.log", lines))
    assert [s for s, _ in log.series("loss")] == [100, 200, 300, 400, 500, 600]
    assert [s for s, _ in log.series("val_loss")] == [300, 600]
    assert "restart" not in log.event_kinds()


def test_a_counter_going_back_mid_epoch_is_still_a_restart(tmp_path):
    steps = [100, 200, 300, 400, 200, 300, 400, 500]  # resumed from the checkpoint at 200
    lines = [f"Epoch [1/3], Step [{s}/600], Loss: {2 - i / 100:.4f}" for i, s in enumerate(steps)]
    log = parse_log(write(tmp_path, "resumed.log", lines))
    assert [s for s, _ in log.series("loss")] == steps
    assert "restart" in log.event_kinds()


def test_a_bracketed_counter_is_the_step_and_an_evaluation_line_takes_the_training_one(tmp_path):
    lines = [f"12:00:{s % 60:02d} - trainer - INFO - Epoch(train) [{e}][{s:4d}/200]  lr: 1.0e-02  time: 0.51  "
             f"loss: {2 - e / 10 - s / 10000:.4f}  loss_cls: 0.5" for e in (1, 2) for s in range(50, 201, 50)]
    lines.insert(4, "12:01:00 - trainer - INFO - Epoch(val) [1][25/25]    bbox_mAP: 0.3100")
    log = parse_log(write(tmp_path, "det.log", lines))
    assert [s for s, _ in log.series("loss")] == [50, 100, 150, 200, 250, 300, 350, 400]
    # after the first epoch's 200 steps, not at "25"; a value of the evaluation (its ``Epoch(val)``) is the split's
    assert log.series("val_bbox_map") == [(200, 0.31)]
    assert "restart" not in log.event_kinds()
    assert "loss_cls" in set(log.metrics.column("name").to_pylist())  # a loss term, not the loss


def test_a_bracketed_date_is_no_counter(tmp_path):
    lines = [f"[2024/05/{d:02d} 10:00:00] step {d * 10} loss {3 - d / 10:.2f}" for d in range(1, 9)]
    log = parse_log(write(tmp_path, "dated.log", lines))
    assert [s for s, _ in log.series("loss")] == list(range(10, 81, 10))


def test_a_value_followed_by_a_colon_is_no_clock(tmp_path):
    lines = [f"1|{s}|Loss: {2.3 - s / 100:.4f}:  {s}%|#  | {s}/100 [00:{s:02d}<01:30,  1.00s/it]" for s in range(1, 9)]
    log = parse_log(write(tmp_path, "bar.log", lines))
    assert log.series("loss")[:2] == [(1, 2.29), (2, 2.28)]


def test_the_key_the_synonym_table_names_keeps_the_name_over_one_named_by_its_ending(tmp_path):
    lines = [f"| epoch 00{e} | loss {9.5 - e:.3f} | nll_loss {9.4 - e:.3f} | ppl 700.1 | num_updates {e * 1000}"
             for e in range(1, 6)]
    log = parse_log(write(tmp_path, "epochs.log", lines))
    assert [v for _, v in log.series("loss")] == [8.5, 7.5, 6.5, 5.5, 4.5]
    assert [v for _, v in log.series("nll_loss")][0] == 8.4


def test_an_epoch_summary_among_stepped_lines_takes_their_step(tmp_path):
    lines = [f"Epoch: 0, Step: {s * 10}, Rank: 0, loss = {2.3 - s / 100:.4f}" for s in range(1, 9)]
    lines.append("Epoch 1/1 with loss 2.1234")
    log = parse_log(write(tmp_path, "summary.log", lines))
    assert log.series("loss")[-1] == (80, 2.1234)
    assert "restart" not in log.event_kinds()


def test_the_next_program_of_a_pasted_session_starts_its_own_counters(tmp_path):
    # a training script, then at the shell's prompt the evaluation script, whose counters start on their own;
    # its settings line (flags among the values) is no record
    lines = [f"2024-01-01 10:00:0{i} - INFO - epoch: {e}, batch_id: {b}, auc: 0.9{i}, loss: 0.{50 - i}"
             for i, (e, b) in enumerate([(3, 0), (3, 400), (4, 0), (4, 400)])]
    lines += [
        "me@box:~/work/rec$ python -u tools/evaluate.py -m config.yaml",
        "2024-01-01 11:00:00 - INFO - use_gpu: True, use_xpu: False, batch_size: 512, start_epoch: 3, end_epoch: 4",
        "2024-01-01 11:00:05 - INFO - epoch: 3, batch_id: 0, auc: 0.93",
        "2024-01-01 11:00:09 - INFO - epoch: 4, batch_id: 0, auc: 0.94",
    ]
    log = parse_log(write(tmp_path, "session.log", lines))
    assert "restart" not in log.event_kinds()
    assert [s for s, _ in log.series("loss")] == [0, 400, 0, 400]
    assert "batch_size" not in set(log.metrics.column("name").to_pylist())
    # the same script run again to resume from its checkpoint: its counter going back is a restart
    resumed = [f"step {s} loss {2 - s / 1000:.3f}" for s in (100, 200, 300, 400, 500)]
    resumed += ["(venv) $ python train.py --resume runs/a/ckpt_200.pt"]
    resumed += [f"step {s} loss {2 - s / 1000:.3f}" for s in (200, 300, 400)]
    assert "restart" in parse_log(write(tmp_path, "resumed.log", resumed)).event_kinds()


def test_an_optimizers_settings_line_is_no_record(tmp_path):
    lines = [
        "optimizer: AdamW(lr=0.002, momentum=0.9) with parameter groups 57 weight(decay=0.0), 64 weight(decay=0.0005)",
        "Starting training for 3 epochs...",
        "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size",
        "        1/3      2.10G      1.412      2.013      1.204         41        640",
        "        2/3      2.10G      1.301      1.822      1.150         38        640",
    ]
    log = parse_log(write(tmp_path, "yolo.log", lines))
    assert {"momentum", "decay"}.isdisjoint(set(log.metrics.column("name").to_pylist()))
    assert sorted({s for s in log.metrics.column("step").to_pylist()}) == [1, 2]


def test_a_record_with_a_flag_or_two_beside_its_values_stays_a_record(tmp_path):
    lines = [f"Epoch {e} | loss 0.{50 - e} | val_loss 0.{55 - e} | acc 0.8{e} | improved: True | stop: False"
             for e in (1, 2, 3)]
    log = parse_log(write(tmp_path, "flags.log", lines))
    assert [s for s, _ in log.series("loss")] == [1, 2, 3]
    assert log.series("val_loss")[-1] == (3, 0.52)
