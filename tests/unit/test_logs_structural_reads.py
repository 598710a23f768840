"""General readings of a log's structure (issue 25): a counter printed with thousands separators, a loss term
named by an ``l_`` prefix, a validation split written after a name or spelled ``valid_``, a logger first on a
line once the time stamp is stripped, a logger's source location, a metric whose only value is
non-finite, an epoch banner after a logger's dotted name, a folder path before a number,
a loss-scale overflow and a save worded as a sentence. Own-worded logs through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _names(log) -> set[str]:
    return set(log.metrics.column("name").to_pylist())


def test_a_counter_with_thousands_separators_is_one_number(tmp_path):
    lines = [
        "[fit..][round: 7, iter: 41,200, lr:(5.000e-05,)] [eta: 1 day, 02:10:11] l_rec: 2.2140e-02",
        "[fit..][round: 7, iter: 41,300, lr:(5.000e-05,)] [eta: 1 day, 02:08:40] l_rec: 2.1905e-02",
        "[fit..][round: 7, iter: 41,400, lr:(5.000e-05,)] [eta: 1 day, 02:07:02] l_rec: 2.0377e-02",
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("lr")] == [41200, 41300, 41400]


def test_an_l_prefixed_term_alone_is_the_loss(tmp_path):
    lines = [f"[fit..][round: 2, iter: {i}, lr:(1.0e-04,)] l_rec: {0.05 - i / 1e5:.4e}" for i in (100, 200, 300)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [100, 200, 300]
    assert log.series("loss")[-1][1] == 0.047


def test_several_l_prefixed_terms_keep_their_names(tmp_path):
    lines = [f"[fit..][round: 2, iter: {i}, lr:(1.0e-04,)] l_g_adv: 0.31 l_d_real: 0.52 l_d_fake: 0.48"
             for i in (100, 200, 300)]
    log = parse_log(write_log(tmp_path, lines))
    assert not log.series("loss")
    assert {"l_g_adv", "l_d_real", "l_d_fake"} <= _names(log)


def test_a_loss_with_the_split_after_its_name_is_the_validation_loss(tmp_path):
    lines = [f"Iter [{i}/9000]\tlr: 1.0e-02, time: 0.210, loss: {1 / i:.4f}, acc_val: 91.2, loss_val: {2 / i:.4f}"
             for i in (50, 100, 150)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("val_loss") == [(50, 0.04), (100, 0.02), (150, 0.0133)]
    assert log.series("loss")[-1] == (150, 0.0067)


def test_values_of_an_evaluation_line_spelled_valid_take_the_val_prefix(tmp_path):
    lines = [
        "03 Mar 10:00    INFO  epoch 4 training [time: 812.10s, train loss: 2041.5521]",
        "03 Mar 10:01    INFO  epoch 4 evaluating [time: 40.22s, valid_ndcg: 0.210400]",
        "03 Mar 10:15    INFO  epoch 5 training [time: 809.97s, train loss: 1988.0413]",
        "03 Mar 10:16    INFO  epoch 5 evaluating [time: 40.87s, valid_ndcg: 0.221900]",
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert "valid_ndcg" not in _names(log)
    assert [s for s, _ in log.series("val_ndcg")] == [4, 5]
    assert [s for s, _ in log.series("loss")] == [4, 5]


def test_a_logger_first_on_the_line_after_the_time_stamp_names_its_package(tmp_path):
    lines = [f"2023-05-06 07:08:{i:02d},123 - mmdet.distill - INFO - Epoch [1][{i * 10}/300]\tlr: 1.0e-03, "
             f"loss_cls: 0.5, loss: {2 - i / 10:.2f}" for i in (1, 2, 3)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.run["framework"] == "MMDetection"


def test_a_loggers_source_location_is_no_value_and_a_bare_header_no_record(tmp_path):
    lines = [
        "[2025-03-04 05:06:07] INFO     [acme_kit.train.printer:77, rank=0] [step=5/50,epoch=1]",
        "    optim/LR (group 0)=2.00E-05",
        "    train/CE loss=9.12",
        "[2025-03-04 05:06:09] INFO     [acme_kit.train.printer:77, rank=0] [step=6/50,epoch=1]",
        "    optim/LR (group 0)=2.00E-05",
        "    train/CE loss=8.87",
        "[2025-03-04 05:06:11] INFO     [acme_kit.train.printer:70, rank=0] [step=7/50,epoch=1]",
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert not any("printer" in n for n in _names(log))
    assert max(s for s in log.metrics.column("step").to_pylist() if s is not None) == 6


def test_a_loss_printed_inf_after_the_lines_numbers_is_read(tmp_path):
    lines = [
        "Epoch 1/5",
        " 7/120 [>.............................] - ETA: 2:01:10 - loss: 12.0410",
        " 8/120 [>.............................] - ETA: 1:59:47 - loss: inf",
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (8, float("inf"))


def test_a_banner_after_a_loggers_dotted_name_numbers_the_full_bars_by_epoch(tmp_path):
    bar = "\u2588" * 20
    lines = []
    for k, cost in ((1, 0.812), (2, 0.644)):
        lines += [
            f"acme.core.looping - Going into epoch {k}",
            f"100%|{bar}| 250/250 [02:00<00:00,  2.08it/s, train_loss={cost}]",
            f"acme.core.stats - epoch: {k}, lr: 1.00e-03 - train loss: {cost} - valid loss: {cost + 0.2:.3f}",
            f"acme.core.saver - Saved an end-of-epoch checkpoint in runs/exp7/2024/save/CKPT+2024-01-0{k}+10-00",
        ]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")][-1] == 2
    assert [s for s, _ in log.series("val_loss")] == [1, 2]
    assert [e["step"] for e in log.events if e["kind"] == "checkpoint"] == [1, 2]
    assert not any(n.startswith("runs_") for n in _names(log))


def test_a_loss_scale_lowered_for_an_overflow_is_a_skipped_step(tmp_path):
    lines = [
        "epoch 004:  20 / 400 loss=5.12, lr=0.0003, num_updates=1220, loss_scale=4",
        "amp | fp16 overflow seen, reducing loss scale to: 2.0",
        "epoch 004:  40 / 400 loss=5.07, lr=0.0003, num_updates=1240, loss_scale=2",
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert [(e["kind"], e["step"]) for e in log.events] == [("skipped_step", 1220)]


def test_a_save_worded_as_a_sentence_is_a_checkpoint(tmp_path):
    lines = ["step 900 loss 0.412", "step 1000 loss 0.398", "Save the final model."]
    log = parse_log(write_log(tmp_path, lines))
    assert [(e["kind"], e["step"]) for e in log.events] == [("checkpoint", 1000)]


def test_trainer_dicts_before_one_bar_are_apart_by_their_epochs(tmp_path):
    bar = "\u2588" * 9
    lines = [
        "***** Running training *****",
        "  Num examples = 12,000",
        *(f"{{'loss': {2.5 - e / 10:.4f}, 'grad_norm': 3.1, 'learning_rate': 2e-05, 'epoch': {e}}}"
          for e in (0.3, 0.4, 0.5)),
        f" 50%|{bar}         | 50/100 [02:10<02:10,  2.61s/it]",
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [30, 40, 50]


def test_a_report_drawn_as_a_tree_reads_its_sections_and_skips_notes_on_values(tmp_path):
    lines = [
        "Fit round 3: 100%|#####| 40/40 [00:31<00:00,  1.29it/s, DetLoss/total=1.93]",
        "RESULTS OF ROUND 3",
        "├── Train",
        "│   ├── Detloss/total = 1.9311",
        "│   │   ├── Best so far = 2.0457 (↘ -0.1146)",
        "│   │   └── Round N-1   = 2.0457 (↘ -0.1146)",
        "│   └── Detloss/box = 0.8824",
        "└── Eval",
        "    ├── Recall@0.75 = 0.4410",
        "    │   └── Best so far = 0.4702 (↗ 0.0292)",
        "    └── Detloss/total = 1.6012",
        "        └── Round N-1   = 1.5801 (↗ 0.0211)",
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1][1] == 1.9311
    assert [v for _, v in log.series("val_loss")] == [1.6012]
    assert "val_recall_0_75" in _names(log)
    assert not {n for n in _names(log) if n.startswith(("best", "round", "n_1"))}


def test_a_markdown_lists_numbers_are_a_prefix_layer(tmp_path):
    lines = [f"{i}.  {11000 + 140 * i}/60000: episode: {70 + i}, duration: 1.310s, episode steps: {140 + 9 * i}, "
             f"steps per second: 107, episode reward: {140 + 9 * i}.000, mean reward: 1.000 [1.000, 1.000], "
             f"loss: {4.1 - i / 10:.6f}, mean_q: 8.{i}" for i in (1, 2, 3, 4)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.run["framework"] == "Keras-RL"


def _nested_dump(steps: int, loss: float) -> list[str]:
    return [
        "Result for APPO_MountainCar_0a1b2_00000:",
        "  counters:",
        f"    num_env_steps_sampled: {steps}",
        f"    num_env_steps_trained: {steps}",
        f"  episode_reward_mean: {-200 + steps / 1000:.1f}",
        "  info:",
        "    learner:",
        "      default_policy:",
        "        learner_stats:",
        f"          total_loss: {loss}",
        "          vf_loss: 0.5",
        f"    num_env_steps_sampled: {steps}",
        f"    num_env_steps_trained: {steps}",
        "  hostname: node-a",
        "",
    ]


def test_rllibs_count_of_environment_steps_is_the_step_of_its_result_dump(tmp_path):
    lines = [*_nested_dump(6000, 3.25), *_nested_dump(12000, 2.75)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(6000, 3.25), (12000, 2.75)]
