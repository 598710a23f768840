"""Shapes of issue 25's fourth round (own-worded lines in the shapes of tools outside the measuring sets):
keys printed after their values, bordered key/value boxes with steps in ``%g`` notation, saves named by
their first words or by the file they write; each read through the whole public path (``parse_log``)."""

from __future__ import annotations

from assay.operators.logs import parse_log


def _read(tmp_path, lines: list[str], name: str = "run.log"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return parse_log(str(path))


def _box(step: str, loss: float) -> list[str]:
    rows = [("grad_norm", "0.0121"), ("loss", f"{loss:g}"), ("loss_q0", "0.0031"), ("samples", "1.6e+05"),
            ("step", step)]
    return ["-" * 26, *(f"| {k:<10} | {v:<9} |" for k, v in rows), "-" * 26]


def test_a_bordered_box_whose_step_is_printed_in_g_notation_is_one_record_at_that_step(tmp_path):
    # a logger that formats every value with %g prints step 20000 as 2e+04
    log = _read(tmp_path, [*_box("1e+04", 0.0031), *_box("2e+04", 0.0024), "saving model 0..."])
    assert log.series("loss") == [(10000, 0.0031), (20000, 0.0024)]
    assert [s for s, _ in log.series("loss_q0")] == [10000, 20000]
    assert [(e["kind"], e["step"]) for e in log.events] == [("checkpoint", 20000)]


def test_a_box_whose_step_is_a_fraction_names_no_step(tmp_path):
    lines = ["-" * 20, "| lr    | 0.0003 |", "| step  | 2.5    |", "-" * 20]
    assert _read(tmp_path, lines).series("lr") == []


def test_saves_named_by_their_first_words_or_by_the_weights_file_they_write(tmp_path):
    lines = []
    for step in (100, 200):
        lines.append(f"it {step} | loss {1 / step:.4f}")
        lines.append(f"[ITER {step}] Saving scene state [12/01 10:0{step // 100}:00]")
    lines.append("it 300 | loss 0.0030")
    lines.append("export done: wrote ./out/final_weights.safetensors (1.2 GB)")
    log = _read(tmp_path, lines)
    assert [(e["kind"], e["step"]) for e in log.events] == [("checkpoint", 100), ("checkpoint", 200),
                                                          ("checkpoint", 300)]


def test_lines_about_saving_other_things_are_no_checkpoint(tmp_path):
    lines = [f"it {s} | loss {1 / s:.4f}" for s in (100, 200)]
    lines += ["Saving model config to out/config.json", "saving predictions to out/preds.csv",
              "Loading weights from init.pth"]
    assert _read(tmp_path, lines).event_kinds() == []


def test_values_printed_before_their_names_are_named_by_the_words_after_them(tmp_path):
    # a loop that prints its counter first, then "value name" fields separated by commas
    lines = ["python3 run_pretrain.py --preset tiny", ""]
    lines += [f"  {k:>3} {3.1 + k / 10:.2f} s elapsed, {2.9 - k / 20:.4f} loss, {k * 1e-5:.1e} lr, 20.5 GiB peak"
              for k in range(1, 6)]
    log = _read(tmp_path, lines)
    assert [s for s, _ in log.series("loss")] == [1, 2, 3, 4, 5]
    assert log.series("loss")[-1] == (5, 2.65)
    assert log.series("lr")[0] == (1, 1e-05)


def test_a_template_that_names_its_values_first_is_not_read_value_first(tmp_path):
    # "loss: 0.9 s" is a loss followed by a unit word, not a value of a series named "s"
    lines = [f"step {k}, loss: {1 - k / 10:.2f} nats, lr: 0.001" for k in range(1, 5)]
    log = _read(tmp_path, lines)
    assert [s for s, _ in log.series("loss")] == [1, 2, 3, 4]
    assert log.series("nats") == []


def test_two_rising_lines_with_a_leading_number_are_no_counter(tmp_path):
    lines = ["  7 1.20 s elapsed, 2.10 loss", "  9 1.30 s elapsed, 2.00 loss"]
    assert [s for s, _ in _read(tmp_path, lines).series("loss")] != [7, 9]


def test_a_record_header_naming_its_module_by_a_relative_path_names_the_package(tmp_path):
    lines = [f"[12-01 10:0{k}:00|INFO|vidgen/_impl/train/hooks/speed.py:71:on_step] {k * 100} : loss: {1 / k:.3f}"
             for k in range(1, 4)]
    assert _read(tmp_path, lines).run["framework"] == "vidgen"


def test_a_relative_path_under_a_layout_or_generic_folder_names_nothing(tmp_path):
    lines = [f"[INFO|examples/lm/run_lm.py:40] step {k} loss {1 / k:.3f}" for k in range(1, 4)]
    lines += [f"[INFO|models/net.py:12] step {k} grad_norm 0.5" for k in range(1, 4)]
    assert _read(tmp_path, lines).run["framework"] is None


def test_a_rich_traceback_frame_names_the_package_it_sits_in(tmp_path):
    lines = [f"step {k} loss {1 / k:.3f}" for k in range(1, 4)]
    lines += [
        "╭──────────────────── Traceback (most recent call last) ─────────────────────╮",
        "│ /opt/env/lib/python3.10/site-packages/rlhfkit/trainer/ppo.py:310 in learn   │",
        "│ /opt/env/lib/python3.10/site-packages/torch/nn/modules/module.py:1501 in c  │",
        "╰──────────────────────────────────────────────────────────────────────────────╯",
        "RuntimeError: NCCL communicator was aborted",
    ]
    assert _read(tmp_path, lines).run["framework"] == "rlhfkit"


def test_a_pair_whose_second_number_moves_while_the_first_stays_counts_by_the_second(tmp_path):
    # "<epoch>/<batch>" printed by each rank, then a held-out ("cv") pass at the last training batch
    lines = []
    for batch in (5100, 5200, 5300):
        for rank in (0, 1):
            lines.append(f"12:00:0{rank} DEBUG TRAIN Batch 7/{batch} loss {30 - batch / 1000 + rank:.4f} "
                         f"loss_ctc 40.1 lr 0.0004 rank {rank}")
    lines += [f"12:05:0{rank} DEBUG CV Batch 7/{k} loss {33.5 + rank:.4f} loss_ctc 44.0 rank {rank}"
              for k in (0, 10) for rank in (0, 1)]
    log = _read(tmp_path, lines)
    assert sorted({s for s, _ in log.series("loss")}) == [5100, 5200, 5300]
    assert {s for s, _ in log.series("val_loss")} == {5300}


def test_a_counter_with_its_total_is_still_read_by_its_first_number(tmp_path):
    lines = [f"Train Batch {k}/400 loss {2 - k / 1000:.4f}" for k in (100, 200, 300)]
    assert [s for s, _ in _read(tmp_path, lines).series("loss")] == [100, 200, 300]


def _dump(iteration: int, loss: float) -> list[str]:
    # a result dump in alphabetical key order: the step keys come after the values they belong to
    return [
        "done: false",
        f"episode_reward_mean: {-500 + iteration:.2f}",
        "learner:",
        f"  policy_loss: {-0.01 * iteration:.4f}",
        f"  total_loss: {loss:.3f}",
        f"  value_loss: {loss + 0.02:.3f}",
        "node: worker-3",
        f"steps_total: {iteration * 2000}",  # no step key: only a number
        f"timesteps_total: {iteration * 4000}",
        f"training_iteration: {iteration}",
        "",
    ]


def test_a_block_of_key_value_lines_is_one_record_at_its_step_even_when_the_step_comes_last(tmp_path):
    lines = ["timesteps_total: 36000", "training_iteration: 9", "", *_dump(10, 12.5), *_dump(11, 11.25)]
    log = _read(tmp_path, lines)
    assert log.series("loss") == [(40000, 12.5), (44000, 11.25)]
    assert log.series("policy_loss")[-1] == (44000, -0.11)
    assert {s for s, _ in log.series("episode_reward_mean")} == {40000, 44000}


def test_key_value_lines_without_a_step_key_are_read_as_before(tmp_path):
    # the step comes from the counter line before them, as lines of the general reader take it
    lines = []
    for step in (10, 20, 30):
        lines += [f"=== step {step} ===", f"loss: {1 / step:.4f}", f"grad_norm: {step / 100:.2f}"]
    log = _read(tmp_path, lines)
    assert [s for s, _ in log.series("loss")] == [10, 20, 30]


def test_keys_in_brackets_name_the_values_after_them_and_a_running_step_beats_an_in_epoch_counter(tmp_path):
    lines = [
        f"10:0{k}:00 | INFO | loop:run:88 - [R0] | E{30 + k} it[ 9/ 10] | [Loss] {0.5 - k / 100:.3f} "
        f"| [step]  {300 + 10 * k} | [eta] 2.5m"
        for k in range(1, 5)
    ]
    log = _read(tmp_path, lines)
    assert log.series("loss") == [(310, 0.49), (320, 0.48), (330, 0.47), (340, 0.46)]


def test_one_bracketed_tag_before_a_number_names_nothing(tmp_path):
    lines = [f"[train] {k} loss={1 / k:.3f}" for k in range(1, 4)]
    assert "train" not in {row["name"] for row in _read(tmp_path, lines).metrics.to_pylist()}


def test_a_total_column_that_sums_the_columns_before_it_is_the_loss(tmp_path):
    lines = ["     Epoch   gpu_mem       box       obj       cls     total    labels  img_size"]
    lines += [f"     {k}/99     10.2G    0.0400    0.0500    0.0{k}00    {0.09 + k / 100:.4f}       812       640"
              for k in (1, 2, 3)]
    log = _read(tmp_path, lines)
    assert log.series("loss") == [(1, 0.1), (2, 0.11), (3, 0.12)]
    assert [v for _, v in log.series("box")] == [0.04, 0.04, 0.04]


def test_a_total_column_that_is_no_sum_is_not_the_loss(tmp_path):
    lines = ["  epoch   acc   prec   total"] + [f"  {k}   0.8{k}   0.7   {100 * k}" for k in (1, 2, 3)]
    assert _read(tmp_path, lines).series("loss") == []


def test_values_under_a_header_with_a_global_step_take_that_step_even_when_the_excerpt_opens_mid_record(tmp_path):
    # one value per line under a header that prints the epoch's counter and the run's; the excerpt opens on
    # the tail of the record before, whose header is not shown
    lines = ["   | > loss_kl: 1.51000  (1.61000)", "   | > loss_mel: 16.80000  (17.30000)", " "]
    lines += ["  --> it: 50/400 -- GLOBAL_STEP: 90050", "   | > loss_kl: 1.46000  (1.52000)",
              "   | > loss_mel: 17.60000  (17.25000)"]
    log = _read(tmp_path, lines)
    assert (90050, 1.46) in log.series("loss_kl")
    assert {s for s, _ in log.series("loss_mel")} - {None} == {90050}


def test_a_count_after_total_and_before_a_plural_counter_word_is_no_series(tmp_path):
    lines = ["Using 2000 batches of the total 306968 batches"]
    lines += [f"step {k} loss {1 / k:.3f}" for k in (1, 2, 3)]
    log = _read(tmp_path, lines)
    assert log.series("total") == [] and [s for s, _ in log.series("loss")] == [1, 2, 3]


def test_a_testing_line_gives_the_validation_loss(tmp_path):
    lines = [f"Finished step {k}, loss {1 / k:.4f}" for k in (100, 200)]
    lines.append("Testing at step 200: loss 0.0061, acc 0.91")
    log = _read(tmp_path, lines)
    assert log.series("val_loss") == [(200, 0.0061)]
    assert log.series("loss")[-1] == (200, 0.005)


def test_a_split_tag_before_a_colon_heads_the_fields_after_it(tmp_path):
    lines = [f"epoch 1 - iter {k}/100 - loss {0.5 - k / 1000:.4f}" for k in (30, 60, 90)]
    lines += ["EPOCH 1 done: loss 0.4500 - lr 0.1000", "DEV  : loss 0.0612 - f-score 0.71 - acc 0.71"]
    log = _read(tmp_path, lines)
    assert log.series("val_loss") == [(90, 0.0612)]


def test_an_evaluation_line_after_a_line_stepped_by_its_epoch_takes_that_epoch(tmp_path):
    lines = []
    for epoch in (7, 8):
        lines += [f"12:00:00 - (Epoch {epoch}) TRAIN LOSS:{1 / epoch:.4f} WER:12.5% LR:0.0001",
                  "12:00:01 - VALID", f"12:01:00 - VALID SET 0 LOSS:{1.2 / epoch:.4f} WER:11.0%"]
    log = _read(tmp_path, lines)
    assert log.series("val_loss") == [(7, 0.1714), (8, 0.15)]


def test_bordered_tables_with_a_header_row_are_read_row_by_row(tmp_path):
    markdown = ["| iter | loss | lr |", "|------|------|----|", "| 50 | 3.10 | 0.0002 |", "| 100 | 2.85 | 0.0002 |"]
    grid = ["+-------+---------+", "| epoch | loss    |", "+-------+---------+", "| 1     | 0.812   |",
            "| 2     | 0.644   |", "+-------+---------+"]
    drawn = ["┏━━━━━━┳━━━━━━━┳━━━━━━━━━━┓", "┃ step ┃ loss  ┃ val_loss ┃", "┡━━━━━━╇━━━━━━━╇━━━━━━━━━━┩",
             "│ 40   │ 1.20  │ 1.31     │", "│ 80   │ 1.02  │ 1.18     │", "└──────┴───────┴──────────┘"]
    assert _read(tmp_path, markdown, "md.log").series("loss") == [(50, 3.1), (100, 2.85)]
    assert _read(tmp_path, grid, "grid.log").series("loss") == [(1, 0.812), (2, 0.644)]
    log = _read(tmp_path, drawn, "drawn.log")
    assert log.series("loss") == [(40, 1.2), (80, 1.02)] and log.series("val_loss")[-1] == (80, 1.18)


def test_a_key_value_box_with_word_values_is_no_report(tmp_path):
    lines = ["| optimizer | adamw |", "| scheduler | cosine |", *(f"step {k} loss {1 / k:.3f}" for k in (1, 2))]
    log = _read(tmp_path, lines)
    assert [s for s, _ in log.series("loss")] == [1, 2]


def test_a_file_read_to_nothing_says_why_in_the_reader_s_terms(tmp_path):
    prose = _read(tmp_path, ["waiting for the scheduler", "still waiting"], "prose.log")
    bare = _read(tmp_path, [f"{k} {k * 3} {k * 7}" for k in range(1, 5)], "bare.log")
    unnamed = _read(tmp_path, [f"zorp is {k}.5 and blix {k}" for k in range(1, 5)], "unnamed.log")
    reasons = [next(i["error"] for i in log.issues if i["level"] == "file") for log in (prose, bare, unnamed)]
    assert "no line prints a number" in reasons[0]
    assert "with no name beside them" in reasons[1]
    assert "words the synonym table does not know" in reasons[2] and "zorp" in reasons[2]


def test_the_whole_loss_keeps_its_name_over_terms_and_running_averages_printed_after_it(tmp_path):
    lines = [f"Epoch [1/9], Step [{k}/300], Loss: {0.3 + k / 1000:.4f}, Dur Loss: 0.41, F0 Loss: 1.5{k % 10}, "
             f"LM Loss: 1.2{k % 10}, Gen Loss: 6.4" for k in (10, 20, 30)]
    lines += [f"Step {k}      [15.0 sec/step, loss={1 - k / 100:.4f}, avg_loss={1.1 - k / 100:.4f}]" for k in (40, 41)]
    log = _read(tmp_path, lines)
    assert log.series("loss")[:3] == [(10, 0.31), (20, 0.32), (30, 0.33)]
    assert log.series("loss")[-1] == (41, 0.59)
    assert [v for _, v in log.series("f0_loss")] == [1.5, 1.5, 1.5]


def test_an_iteration_counter_opening_each_line_is_no_rank_prefix_and_is_the_step(tmp_path):
    # "N: value, value avg loss, value rate, ...": a C loop's progress line, value-first after its counter
    lines = [f" {k}: {3 - k / 1000:.5f}, {3.1 - k / 1000:.5f} avg loss, 0.001000 rate, 2.10 seconds, {k * 64} images"
             for k in range(500, 507)]
    log = _read(tmp_path, lines)
    assert [s for s, _ in log.series("loss")] == list(range(500, 507))
    assert {r["rank"] for r in log.metrics.to_pylist()} == {None}


def test_srun_rank_prefixes_that_repeat_stay_ranks(tmp_path):
    lines = [f"{r}: step {k} loss {1 / k:.3f}" for k in range(1, 5) for r in (0, 1)]
    log = _read(tmp_path, lines)
    assert {r["rank"] for r in log.metrics.to_pylist()} == {0, 1}


def test_a_file_of_settings_printed_once_says_so(tmp_path):
    lines = ["Num examples = 3", "Num Epochs = 100", "Total optimization steps = 300", "batch size per device = 1"]
    log = _read(tmp_path, lines)
    reason = next(i["error"] for i in log.issues if i["level"] == "file")
    assert "no line shape repeats" in reason


def test_a_line_after_a_record_block_ended_by_a_blank_line_takes_its_step(tmp_path):
    lines = [*_dump(10, 12.5), "WARNING: nan loss detected, skipping"]
    log = _read(tmp_path, lines)
    assert [(e["kind"], e["step"]) for e in log.events] == [("nan", 40000)]


def test_a_launch_command_running_a_package_s_module_names_the_package(tmp_path):
    lines = ["$ torchrun --nproc_per_node 8 -m speechkit.bin.train --config conf/base.yaml",
             *(f"step {k} loss {1 / k:.3f}" for k in (1, 2, 3))]
    assert _read(tmp_path, lines).run["framework"] == "speechkit"
    lines = ["python -m torch.distributed.run --nproc_per_node 2 train.py", *(f"step {k} loss 0.5" for k in (1, 2))]
    assert _read(tmp_path, lines, "own.log").run["framework"] is None


def test_a_step_that_does_not_move_gives_way_to_the_field_that_rises_furthest(tmp_path):
    # every line ends in a bar drawn to its end (400/400): the run's counter is the field printed after "s"
    lines = [f"mini {e} s {400 * e} prog {20 * e}.00% : ppl 4.1 loss {2 - e / 10:.4f} lr 3e-04: 100%|##########| 400/400 "
             f"[01:00<00:00,  6.6it/s]" for e in range(1, 5)]
    log = _read(tmp_path, lines)
    assert [s for s, _ in log.series("loss")] == [400, 800, 1200, 1600]
