"""The step and the names of an unknown tool's log, inferred from the structure of its lines: which counter is
the step (never a percentage, never a date glued to a bar), which words name values (never a source location,
a word of a sentence, or the value of another key). Every log here goes through the whole ``parse_log`` path."""

from __future__ import annotations

import math

from assay.operators.logs import parse_log


def write(tmp_path, name: str, lines: list[str]) -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def steps_of(log) -> list[int]:
    return sorted({s for s in log.metrics.column("step").to_pylist() if s is not None})


def names_of(log) -> set[str]:
    return set(log.metrics.column("name").to_pylist())


def test_a_bar_labelled_steps_counts_by_its_position_not_its_percentage(tmp_path):
    lines = []
    for epoch, step in enumerate((60, 120, 180, 240), start=1):
        pct = step * 100 // 2400
        lines += [
            f"12:00:0{epoch} INFO     next epoch begins. prev_epoch: {epoch - 1}, epoch: {epoch}       util_train.py:512",
            f"steps:  {pct}%|##        | {step}/2400 [01:0{epoch}<40:00,  1.30s/it, avr_loss=0.{40 + epoch}]",
            f"epoch {epoch + 1}/40",
            "",
        ]
    log = parse_log(write(tmp_path, "bar.log", lines))
    loss = log.series("loss")
    assert [s for s, _ in loss] == [60, 120, 180, 240]
    assert math.isclose(loss[-1][1], 0.44)
    assert not any("py" in n for n in names_of(log))  # util_train.py:512 is where the line was printed


def test_source_locations_are_not_series(tmp_path):
    lines = [
        f"2024-03-01 10:00:{10 + i} | INFO | detkit.engine.trainer:251 - epoch: 3/20, iter: {100 + 10 * i}/900, "
        f"total_loss: {9.5 - i:.1f}, lr: 1.0e-02"
        for i in range(4)
    ]
    lines += [f"I0301 10:00:3{i} 1234 metrics_sink.cc:88] step {500 + i} loss={2.5 - i / 10:.2f}" for i in range(3)]
    log = parse_log(write(tmp_path, "src.log", lines))
    names = names_of(log)
    assert not any("trainer" in n or n.endswith("_cc") or n == "metrics_sink_cc" for n in names), names
    assert log.series("lr")


def test_a_sentence_and_a_device_name_give_no_series(tmp_path):
    lines = [
        "UserWarning: could not infer the batch size from the inputs. The batch size we found is 1.",
        "CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.90 GiB total capacity)",
        "Device=xla:0/3 Epoch=1 Step=40 Loss=0.81000",
        "Device=xla:0/3 Epoch=1 Step=60 Loss=0.72000",
    ]
    log = parse_log(write(tmp_path, "prose.log", lines))
    names = names_of(log)
    assert not names & {"found", "allocate", "xla"}, names
    tagged = parse_log(write(tmp_path, "tag.log", [*lines[2:], "[xla:3] Accuracy=97.50%"]))
    assert "xla" not in names_of(tagged)
    assert log.series("loss") == [(40, 0.81), (60, 0.72)]


def test_a_date_glued_after_a_bar_is_no_step(tmp_path):
    lines = [
        f"  0%|          | {n}/9000 [01:{n}<30:00,  2.10s/it][2021-06-08 12:03:{n},071] [INFO] [scaler.py:90:update] "
        f"loss scale: {2 ** (40 - n)}"
        for n in range(32, 36)
    ]
    log = parse_log(write(tmp_path, "glued.log", lines))
    assert 2021 not in steps_of(log)
    notices = [f"step {k} | loss 1.{k} | OVERFLOW! Skipping step. Attempted loss scale: 2, reducing to 1" for k in (1, 2)]
    assert "reducing" not in names_of(parse_log(write(tmp_path, "notice.log", notices)))
    assert steps_of(log) == [32, 33, 34, 35]


def test_a_lightning_bar_cut_at_the_terminal_width_still_counts_from_its_epoch(tmp_path):
    lines = ["GPU available: True (cuda), used: True", "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0]"]
    for i, loss in ((700, "2.100"), (701, "2.050"), (702, "1.990")):
        lines.append(
            f"Epoch 3:  70%|███████   | {i}/1000 [1:02:03<26:40,  1.10it/s, v_num=7, train_loss={loss}, "
            f"aux_recon=0.512, aux_ent"  # the terminal cut the postfix: no closing bracket
        )
    log = parse_log(write(tmp_path, "cut_bar.log", lines))
    assert log.series("loss") == [(3700, 2.1), (3701, 2.05), (3702, 1.99)]
    assert not [e for e in log.events if e["kind"] == "restart"]


def test_cross_entropy_under_its_own_names_is_the_loss(tmp_path):
    onmt = [
        f"[2020-01-02 10:0{i}:00,100 INFO] Step {100 * (i + 1)}/9000; acc:  40.1{i}; ppl:  9.1{i}; xent: 2.2{i}; "
        f"lr: 0.00050; 900/950 tok/s;  {1234 + i} sec"
        for i in range(3)
    ]
    onmt.append("[2020-01-02 10:04:00,100 INFO] Validation perplexity: 10.5; Validation xent: 2.35")
    log = parse_log(write(tmp_path, "onmt.log", onmt))
    assert log.series("loss") == [(100, 2.2), (200, 2.21), (300, 2.22)]
    assert log.series("val_loss") == [(300, 2.35)]
    assert [v for _, v in log.series("tokens_per_s")] == [950.0] * 3  # the seconds are no rate
    other = [f"it {k} | cross_entropy {3.0 - k / 100:.2f} | grad_norm 0.9" for k in (10, 20)]
    assert parse_log(write(tmp_path, "ce.log", other)).series("loss") == [(10, 2.9), (20, 2.8)]


def test_lines_without_a_counter_beside_counted_ones_invent_no_steps_or_restarts(tmp_path):
    lines = [
        "***** Running training *****",
        "Beginning of Epoch 1/1, Total Generation Batches 480",
        "[2024-01-01 10:00:01,000] [INFO] [scaler.py:190:update_scale] OVERFLOW! Rank 0 Skipping step. "
        "Attempted loss scale: 65536, reducing to 32768",
        "[2024-01-01 10:00:03,000] [INFO] [scaler.py:190:update_scale] OVERFLOW! Rank 0 Skipping step. "
        "Attempted loss scale: 32768, reducing to 16384",
        "epoch: 0|step: 0|ppo_ep: 1|act_loss: -0.0123|cri_loss: 0.0456|unsuper_loss: 0.0",
        "epoch: 0|step: 1|ppo_ep: 1|act_loss: -0.0101|cri_loss: 0.0431|unsuper_loss: 0.0",
    ]
    log = parse_log(write(tmp_path, "ppo.log", lines))
    assert not [e for e in log.events if e["kind"] == "restart"]
    assert 1 not in {s for s, _ in log.series("batches")} and not log.series("batches")  # a total, no series
    # an actor's and a critic's loss and an unsupervised term: parts, none of them is the loss
    assert log.series("loss") == []
    assert log.series("act_loss") == [(0, -0.0123), (1, -0.0101)]
    assert [s for s, _ in log.series("cri_loss")] == [0, 1]


def test_the_loss_by_meaning_among_its_terms(tmp_path):
    detector = [
        f"2024-05-01 10:00:0{i} | INFO | det.trainer:200 - epoch: 2/30, iter: {10 * i}/500, "
        f"total_loss: {5.0 + i}, iou_loss: 1.{i}, conf_loss: 3.{i}, cls_loss: 0.{i}, lr: 1.0e-02"
        for i in range(1, 4)
    ]
    log = parse_log(write(tmp_path, "det.log", detector))
    assert [v for _, v in log.series("loss")] == [6.0, 7.0, 8.0]
    assert [v for _, v in log.series("conf_loss")] == [3.1, 3.2, 3.3]  # terms keep their names

    speech = [
        f"2024-05-01 10:00:0{i},000 INFO [train.py:500] Epoch 1, batch {50 * i}, batch avg ctc loss 0.4{i}, "
        f"batch avg att loss 0.7{i}, batch avg loss 0.6{i}, total avg loss: 0.5{i}, batch size: 12"
        for i in range(3)
    ]
    log = parse_log(write(tmp_path, "speech.log", speech))
    assert [v for _, v in log.series("loss")] == [0.6, 0.61, 0.62]  # this batch's, not the running average

    parts_only = [f"step {k} | box_loss {0.1 * k:.2f} | obj_loss 0.05 | cls_loss 0.0" for k in (1, 2, 3)]
    log = parse_log(write(tmp_path, "parts.log", parts_only))
    assert log.series("loss") == [] and [s for s, _ in log.series("box_loss")] == [1, 2, 3]

    alone = [f"step {k} | smoothed_loss {1.0 / k:.3f}" for k in (1, 2)]
    assert parse_log(write(tmp_path, "alone.log", alone)).series("loss") == [(1, 1.0), (2, 0.5)]


def test_a_name_of_several_words_pairs_with_its_value(tmp_path):
    lines = [f"Epoch 1 | Step {k} | Learning Rate 2e-05 | Train Loss {1.5 - k / 10:.2f}" for k in (10, 20, 30)]
    log = parse_log(write(tmp_path, "words.log", lines))
    assert log.series("lr") == [(10, 2e-05), (20, 2e-05), (30, 2e-05)]
    assert [v for _, v in log.series("loss")] == [0.5, -0.5, -1.5]
    assert "rate" not in names_of(log)


def test_a_counter_within_its_epoch_counts_on_from_the_epochs_before(tmp_path):
    detector = [
        f"2024-05-01 10:00:0{i} | INFO | det.trainer:200 - epoch: 2/30, iter: {10 * i}/500, total_loss: {5.0 + i}"
        for i in range(1, 4)
    ]
    log = parse_log(write(tmp_path, "det.log", detector))
    assert [s for s, _ in log.series("loss")] == [510, 520, 530]  # iter 10 of 500 in the second epoch
    tutorial = [f"Epoch [3/10], Step [{k}/600], Loss: {2.0 - k / 1000:.4f}" for k in (200, 400, 600)]
    log = parse_log(write(tmp_path, "tutorial.log", tutorial))
    assert [s for s, _ in log.series("loss")] == [1400, 1600, 1800]
    assert not [e for e in log.events if e["kind"] == "restart"]


def test_a_batch_counter_without_a_total_is_the_step(tmp_path):
    lines = []
    for b in (0, 50, 100):
        line = f"Epoch 1, batch {b}, batch avg loss 0.{60 + b // 50}, total avg loss: 0.55, batch size: 10"
        lines += [f"2024-01-01 10:00:00,000 WARNING [train.py:546] (0/4) {line}", f"WARNING:root:{line}"]
    log = parse_log(write(tmp_path, "batches.log", lines))
    assert sorted({s for s, _ in log.series("loss")}) == [0, 50, 100]
    assert log.series("loss")[-1] == (100, 0.62)


def test_a_step_alone_in_brackets_after_a_glog_header(tmp_path):
    lines = []
    for step, loss in ((100, 4.5), (200, 3.9)):
        for host, thread in enumerate((1401, 1399, 1405)):  # several hosts write the same record
            lines.append(
                f"I0708 09:1{host}:11.12000{host} {thread} metric_writer.py:48] [{step}] "
                f"steps_per_second=2.5{host}, train_accuracy=0.41, train_loss={loss}"
            )
    log = parse_log(write(tmp_path, "clu.log", lines))
    assert steps_of(log) == [100, 200]
    assert log.series("loss")[-1] == (200, 3.9)
    assert not [e for e in log.events if e["kind"] == "restart"]
    ranks = [f"[{r}] loss={1.0 + r}" for r in (0, 1, 0, 1)]  # a rank tag goes back and forth: no step
    tagged = parse_log(write(tmp_path, "ranks.log", ranks))
    assert steps_of(tagged) != [0, 1] and not [e for e in tagged.events if e["kind"] == "restart"]


def test_a_header_row_and_its_columns(tmp_path):
    csv_lines = [
        "   epoch,   train/box_loss,   train/obj_loss,   metrics/mAP_0.5:0.95,   val/box_loss,   val/obj_loss,   x/lr0"
    ]
    csv_lines += [f"   {e},   0.{50 - e},   0.02,   0.1{e},   0.{40 - e},   0.03,   0.01" for e in range(5)]
    log = parse_log(write(tmp_path, "results.csv", csv_lines))
    assert steps_of(log) == [0, 1, 2, 3, 4]  # one row per epoch
    assert log.series("loss") == [] and log.series("val_loss") == []  # parts only: no total loss printed
    assert log.series("train_box_loss")[-1] == (4, 0.46)

    console = []
    for e in (1, 2):
        console += [
            "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size",
            f"       {e}/30      3.{e}G      1.{e}01      2.{e}45      1.{e}02         31        640: "
            f"100%|##########| 16/16 [00:09<00:00,  1.71it/s]",
            "                 Class     Images  Instances      Box(P          R      mAP50  mAP50-95): 100%|##| 2/2",
            "                   all         40         88      0.512      0.433      0.441      0.221",
        ]
    log = parse_log(write(tmp_path, "console.log", console))
    assert log.series("box_loss") == [(1, 1.101), (2, 1.201)]
    assert log.series("dfl_loss") == [(1, 1.102), (2, 1.202)]
    assert not [e for e in log.events if e["kind"] == "restart"]


def test_keras_bars_under_their_epoch_headers(tmp_path):
    # an excerpt that starts with the end of epoch 7, then epochs 8 and 9 (Keras 3 bars, one per epoch)
    lines = ["120/120 ━━━━━━━━━━━━━━━━━━━━ 30s 250ms/step - accuracy: 0.71 - loss: 0.80 - val_loss: 0.90"]
    for epoch in (8, 9):
        lines += [
            f"Epoch {epoch}/60",
            f"120/120 ━━━━━━━━━━━━━━━━━━━━ 30s 251ms/step - accuracy: 0.7{epoch} - loss: 0.{90 - epoch} - "
            f"val_loss: 0.{95 - epoch}",
        ]
    log = parse_log(write(tmp_path, "fit.log", lines))
    assert log.series("loss") == [(7, 0.8), (8, 0.82), (9, 0.81)]
    assert log.series("val_loss")[-1] == (9, 0.86)
    assert not [e for e in log.events if e["kind"] == "restart"]

    # Keras 2, with bars printed on the way through each epoch: the steps count on across epochs
    older = []
    for epoch in (1, 2):
        older.append(f"Epoch {epoch}/5")
        for n in (50, 100):
            older.append(f"{n}/100 [==============================] - 3s 30ms/step - loss: {1.0 / (epoch * n):.5f}")
    log = parse_log(write(tmp_path, "fit2.log", older))
    assert [s for s, _ in log.series("loss")] == [50, 100, 150, 200]


def test_keys_pair_with_their_values_by_the_separators(tmp_path):
    lines = [
        f"2024-01-01 10:00:{k:02d} | step {k} | lr: 0.05  img/s: 81{k}.5 | loss {2.5 - k / 100:.2f} (Avg {2.6 - k / 100:.2f})"
        for k in (10, 20)
    ]
    log = parse_log(write(tmp_path, "pairs.log", lines))
    assert log.series("lr") == [(10, 0.05), (20, 0.05)]
    assert log.series("samples_per_s") == [(10, 8110.5), (20, 8120.5)]  # img/s names the value after it
    assert log.series("loss") == [(10, 2.4), (20, 2.3)]
    assert log.series("loss_avg") == [(10, 2.5), (20, 2.4)]  # the running average, attached to its metric
    assert not names_of(log) & {"img_s", "avg"}


def test_an_image_classifier_meter_line_and_its_test_line(tmp_path):
    lines = [
        f"Epoch: [2][{k:4d}/5005]\tTime  0.412 ( 0.530)\tLoss {6.0 - k / 1000:.4e} ({6.1 - k / 1000:.4e})\t"
        f"Acc@1   3.{k // 10} (  2.45)\tAcc@5  10.94 (  9.01)"
        for k in (100, 110, 120)
    ]
    lines.append("Test: [ 10/196]\tTime  0.200 ( 0.300)\tLoss 5.5 (5.6)\tAcc@1   4.12 (  4.45)")
    log = parse_log(write(tmp_path, "imagenet.log", lines))
    # epoch 2 with no epoch 0 printed: the ImageNet example numbers its epochs from 0 (``_epoch_bases``), so
    # epochs 0 and 1, 5005 batches each, come before
    assert [s for s, _ in log.series("loss")] == [10110, 10120, 10130]
    assert log.series("val_loss") == [(10130, 5.5)]  # the test line's loss, at the training step
    assert {"acc_1", "acc_5", "loss_avg", "acc_1_avg"} <= names_of(log)
    assert not any(n.startswith("acc_at") for n in names_of(log))


def test_a_module_and_line_in_parentheses_and_a_log_level_name_nothing(tmp_path):
    lines = [
        f"[gpu0] 2022-03-01 10:0{k}:00,000 (trainer:{300 + k}) INFO: 2epoch:train:{k}01-{k + 1}00batch: "
        f"loss_ctc=9{k}.1, loss_att=4{k}.2, acc=0.{k}, loss=6{k}.3, train_time=0.5"
        for k in (1, 2)
    ]
    log = parse_log(write(tmp_path, "asr.log", lines))
    assert not names_of(log) & {"trainer", "info"}
    assert [v for _, v in log.series("loss")] == [61.3, 62.3]
    assert {"loss_ctc", "loss_att"} <= names_of(log)


def test_throughput_per_device_is_per_gpu(tmp_path):
    lines = [f"completed step: {k}, seconds: 1.2, TFLOP/s/device: 10{k}.5, Tokens/s/device: 500{k}.0, loss: 3.{k}"
             for k in (1, 2)]
    log = parse_log(write(tmp_path, "jax.log", lines))
    assert log.series("tflops") == [(1, 101.5), (2, 102.5)]
    assert log.series("tokens_per_s_per_gpu") == [(1, 5001.0), (2, 5002.0)]


def test_cut_last_lines_invent_no_restart(tmp_path):
    shapes = {
        "tqdm.log": [
            "steps:   1%|▋     | 41/3280 [00:50<1:06:54,  1.24s/it, avr_loss=0.41]",
            "steps:   2%|█▍    | 82/3280 [01:40<1:05:00,  1.22s/it, avr_loss=0.40]",
            "steps:   4%|██    | 123/3280 [02:28<1:03:43,  1.21s/it, avr_lo",
        ],
        "keras.log": [
            "Epoch 1/5",
            "300/300 ━━━━━━━━━━━━━━━━━━━━ 2s 5ms/step - loss: 0.5200 - acc: 0.81",
            "Epoch 2/5",
            "300/300 ━━━━━━━━━━━━━━━━━━━━ 2s 5ms/step - loss: 0.4100 - acc: 0.85",
            "Epoch 3/5",
            " 12/300 ━━━━━━━━━━━━━━━━━━━━ 1s 5ms/step - loss: 0.4000 - acc: 0.8",
        ],
        "plain.log": ["step 10 | loss 2.31 | lr 1e-4", "step 20 | loss 2.21 | lr 1e-4", "step 3"],
        "bar_and_dict.log": [
            '  5%|▌         | 50/1000 [00:10<03:10,  5.00it/s]{"loss": 0.51, "step": 50}',
            ' 10%|█         | 100/1000 [00:20<03:00,  5.00it/s]{"loss": 0.41, "step": 100}',
            " 10%|█         | 10",
        ],
    }
    for name, lines in shapes.items():
        path = tmp_path / name
        path.write_text("\n".join(lines))  # no line break at the end: the last line was cut
        log = parse_log(str(path))
        assert not [e for e in log.events if e["kind"] in ("restart", "failure")], name
        steps = [s for s, _ in log.series("loss")]
        assert steps == sorted(steps) and steps, name
    keras = parse_log(str(tmp_path / "keras.log"))
    assert [s for s, _ in keras.series("loss")][:2] == [1, 2]  # one record per epoch, the cut one decides nothing


def test_a_step_without_its_total_that_starts_again_with_each_epoch(tmp_path):
    lines = []
    for epoch in (1, 2, 3):
        for step in (50, 100, 150):
            lines.append(f"epoch: {epoch} step: {step}, loss is {3.0 - epoch / 10 - step / 1000:.3f}")
        lines.append("epoch time: 9000.5 ms, per step time: 60.0 ms")
    log = parse_log(write(tmp_path, "per_epoch.log", lines))
    steps = [s for s, _ in log.series("loss")]
    assert steps == [50, 100, 150] * 3  # no length printed: the counter as printed (gold conventions D7)
    assert not [e for e in log.events if e["kind"] == "restart"]
    # a counter that goes back without a new epoch is still a restart from a checkpoint
    resumed = ["epoch: 1 step: 100, loss is 2.0", "epoch: 1 step: 200, loss is 1.9", "epoch: 1 step: 150, loss is 1.95"]
    assert "restart" in parse_log(write(tmp_path, "resumed.log", resumed)).event_kinds()


def test_the_reader_records_how_it_chose_the_step_and_the_loss(tmp_path):
    from assay.operators.logs._base import parser_named
    from assay.operators.logs._spans import parse_span

    lines = [f"epoch: 2/9, iter: {k}/300, total_loss: 4.{k // 10}, box_loss: 1.0, cls_loss: 3.0" for k in (10, 20)]
    path = write(tmp_path, "why.log", lines)
    size = (tmp_path / "why.log").stat().st_size
    result = parse_span(path, 0, size, 1, parser_named("generic"), "run")
    decisions = result.summary["decisions"]
    assert any("'iter'" in d and "total_loss" in d for d in decisions), decisions


def test_memory_as_tools_print_it_is_in_mib(tmp_path):
    lines = [
        f"[06/25 10:00:0{k} det.utils.events]:  eta: 1:00:00  iter: {k}  total_loss: 2.{k}  lr: 0.0004  max_mem: 2845M"
        for k in (1, 2)
    ]
    assert parse_log(write(tmp_path, "d.log", lines)).series("memory_mb") == [(1, 2845.0), (2, 2845.0)]
    lines = [f"Iter {k}: Train loss 2.{k}, Learning Rate 1.0e-05, Peak mem 12.5 GB" for k in (10, 20)]
    assert parse_log(write(tmp_path, "m.log", lines)).series("memory_mb") == [(10, 12800.0), (20, 12800.0)]
    lines = [f"epoch: 1/3, iter: {k}/90, mem: 3000Mb, total_loss: 9.{k}" for k in (10, 20)]
    assert [v for _, v in parse_log(write(tmp_path, "y.log", lines)).series("memory_mb")] == [3000.0, 3000.0]


def test_an_epoch_average_among_step_lines_is_kept_apart_at_the_epoch_end(tmp_path):
    lines = ["epoch 2/9", "1/3, train_loss: 0.60", "2/3, train_loss: 0.50", "3/3, train_loss: 0.40"]
    lines += ["epoch 2 average loss: 0.5000", "epoch 3/9", "1/3, train_loss: 0.30"]
    log = parse_log(write(tmp_path, "avg.log", lines))
    assert [s for s, _ in log.series("loss")] == [4, 5, 6, 7]
    assert log.series("epoch_avg_loss") == [(6, 0.5)]  # at the last step of its epoch, under its own name
    assert not [e for e in log.events if e["kind"] == "restart"]


def test_a_boxed_key_value_report_takes_its_step_row_and_its_sections(tmp_path):
    def box(timesteps: int, loss: float, reward: float) -> list[str]:
        return [
            "-" * 38,
            "| rollout/               |          |",
            f"|    ep_rew_mean         | {reward:<8} |",
            "| time/                  |          |",
            "|    iterations          | 3        |",
            f"|    total_timesteps     | {timesteps:<8} |",
            "| train/                 |          |",
            "|    entropy_loss        | -2.1     |",
            f"|    loss                | {loss:<8} |",
            "|    policy_loss         | -0.01    |",
            "| eval/                  |          |",
            "|    mean_reward         | 12.5     |",
            "-" * 38,
        ]

    lines = box(2048, 0.75, -10.0) + box(4096, 0.5, -5.0)
    log = parse_log(write(tmp_path, "ppo.log", lines))
    assert log.series("loss") == [(2048, 0.75), (4096, 0.5)]  # the total, not a component
    assert log.series("entropy_loss") == [(2048, -2.1), (4096, -2.1)]
    assert log.series("val_mean_reward") == [(2048, 12.5), (4096, 12.5)]  # the eval/ section's
    assert "total_timesteps" not in names_of(log)


def test_a_boxed_settings_table_without_a_step_gives_no_series(tmp_path):
    lines = ["| batch_size     | 32     |", "| learning_rate  | 0.001  |", "| loss_weight    | 0.5    |"]
    log = parse_log(write(tmp_path, "settings.log", lines))
    assert not names_of(log) & {"lr", "batch_size", "loss", "loss_weight"}


def test_a_bare_epoch_line_numbers_the_one_value_lines_after_it(tmp_path):
    lines = []
    for epoch in (3, 4):
        lines += ["2024-03-01 10:00:00.000001: ", f"epoch:  {epoch}"]
        lines += [
            f"2024-03-01 10:02:00.000001: train loss : -0.{50 + epoch}",
            f"2024-03-01 10:02:10.000001: validation loss: -0.{60 + epoch}",
            "2024-03-01 10:02:11.000001: lr: 0.0099",
        ]
    log = parse_log(write(tmp_path, "perepoch.log", lines))
    assert log.series("loss") == [(3, -0.53), (4, -0.54)]
    assert log.series("val_loss") == [(3, -0.63), (4, -0.64)]  # a qualifier before the name keeps it apart


def test_name_space_value_lines_under_a_date_with_a_colon_stay_apart(tmp_path):
    lines = ["setting up", "2024-05-05 08:00:00.000001: Epoch 0", "2024-05-05 08:00:01.000001: Current learning rate: 0.01"]
    lines += ["some unprefixed line", "2024-05-05 08:02:00.000001: train_loss 0.4100"]
    lines += ["2024-05-05 08:02:01.000001: val_loss 0.3900", "2024-05-05 08:02:02.000001: Epoch time: 120.5 s"]
    lines += ["2024-05-05 08:02:03.000001: Epoch 1", "2024-05-05 08:04:00.000001: train_loss 0.3800"]
    lines += ["2024-05-05 08:04:01.000001: val_loss 0.3700"]
    log = parse_log(write(tmp_path, "perepoch2.log", lines))
    assert log.series("loss") == [(0, 0.41), (1, 0.38)]
    assert log.series("val_loss") == [(0, 0.39), (1, 0.37)]


def test_a_lone_loss_term_on_its_own_line_yields_to_the_whole_loss_named_elsewhere(tmp_path):
    lines = []
    for epoch in (1, 2):
        lines += [
            f"2023-01-0{epoch}_10:00:00.00 train_step: {5000 * epoch}  step:{epoch}",
            f"2023-01-0{epoch}_10:00:00.00 train_loss: 0.{50 - epoch}  step:{epoch}",
            f"2023-01-0{epoch}_10:00:00.00 train_sm_kl_loss: 0.0{epoch}  step:{epoch}",
            f"2023-01-0{epoch}_10:00:00.00 train_sm_nll_loss: 0.1{epoch}  step:{epoch}",
        ]
    log = parse_log(write(tmp_path, "onepl.log", lines))
    assert log.series("loss") == [(1, 0.49), (2, 0.48)]
    assert log.series("train_sm_nll_loss") == [(1, 0.11), (2, 0.12)]


def test_a_lone_loss_term_is_the_loss_when_nothing_names_the_whole(tmp_path):
    lines = [f"Epoch: [0]  [{k:4d}/900]  lr: 0.0001  closs: 1.{k // 100} (1.5)  time: 0.4" for k in (100, 200)]
    log = parse_log(write(tmp_path, "closs.log", lines))
    assert [s for s, _ in log.series("loss")] == [100, 200]


def test_a_printed_dict_s_own_step_key_beats_the_bar_drawn_after_it(tmp_path):
    lines = [
        "{'loss': 0.61, 'learning_rate': 2e-05, 'global_step': 40}",
        " 30%|###       | 41/135 [00:30<01:10,  1.3it/s]",
        "{'loss': 0.58, 'learning_rate': 2e-05, 'global_step': 50}",
        " 38%|####      | 51/135 [00:38<01:03,  1.3it/s]",
    ]
    log = parse_log(write(tmp_path, "dicts.log", lines))
    assert log.series("loss") == [(40, 0.61), (50, 0.58)]
    assert "global_step" not in names_of(log)


def test_a_counter_across_epochs_on_the_line_beats_the_in_epoch_index(tmp_path):
    lines = [
        f"2023-01-01 10:0{k}:00,000   INFO  Train:    3/80 ( 4%) [ {k}00/500 ( {k}0%)]  Loss: 1.{9 - k}0 (1.30)  "
        f"LR: 1.0e-03  Acc_iter {1000 + k * 100}  Data time: 0.01"
        for k in (1, 2)
    ]
    log = parse_log(write(tmp_path, "accit.log", lines))
    assert [s for s, _ in log.series("loss")] == [1100, 1200]
    assert not names_of(log) & {"train", "acc_iter"}  # an epoch counter k/N is no series, nor the step


def test_json_records_stepped_by_their_epoch_keep_no_epoch_series(tmp_path):
    lines = [f'{{"train_loss": 0.{80 - e}, "lr": 0.002, "epoch": {e}, "val_loss": 0.{90 - e}}}' for e in (30, 31)]
    log = parse_log(write(tmp_path, "epochs.jsonl", lines))
    assert log.series("loss") == [(30, 0.5), (31, 0.49)]
    assert "epoch" not in names_of(log)


def test_a_bracketed_count_of_samples_gives_the_batch_index_where_the_batch_is_printed(tmp_path):
    lines = [
        f"2023-07-01,10:0{i}:00 | INFO | Train Epoch: 0 [{32 + i * 3200:6d}/50000 ({i * 6}%)] Loss: 0.{90 - i} (0.9)"
        f" LR: 0.0001"
        for i in range(4)
    ]
    lines.append("2023-07-01,10:09:00 | INFO | Train Epoch: 0 [ 12832/50000 (25%)] Loss: 0.85 (0.9) LR:")
    # the values alone do not say the batch: the counter stays as printed (docs/gold-conventions.md, D7)
    log = parse_log(write(tmp_path, "samples.log", lines))
    assert [s for s, _ in log.series("loss")] == [32, 3232, 6432, 9632, 12832]
    # with the batch printed: 32 samples a batch, counted after each batch: 32 is batch 0, 3232 batch 100
    log = parse_log(write(tmp_path, "batched.log", ["batch_size: 32", *lines]))
    assert [s for s, _ in log.series("loss")] == [0, 100, 200, 300, 400]


def test_a_counter_of_steps_logged_every_batch_multiple_stays_as_printed(tmp_path):
    lines = [f"Train Epoch: 1 [{k * 64}/1000 ({k}%)] Loss: 0.{90 - k}" for k in (1, 2, 3, 4)]
    log = parse_log(write(tmp_path, "steps.log", lines))
    assert [s for s, _ in log.series("loss")] == [64, 128, 192, 256]  # one batch apart: no sample count


def test_a_test_line_repeating_the_training_counter_and_epoch_is_at_that_step(tmp_path):
    lines = []
    for epoch in (0, 1):
        for batch in (30, 60):
            lines.append(f"Epoch   {epoch} Batch   {batch}/90 - Loss: 2.{9 - epoch} - perplexity: 18.1")
            lines.append(f"Epoch   {epoch} Batch   {batch}/90 - Test Loss: 2.{8 - epoch} - Test perplexity: 16.4")
    log = parse_log(write(tmp_path, "traintest.log", lines))
    assert [s for s, _ in log.series("val_loss")] == [30, 60, 120, 150]


def test_an_end_of_epoch_line_is_at_the_epoch_s_last_step_and_its_values_are_the_epoch_s(tmp_path):
    lines = []
    for epoch in (20, 21):
        lines += [f"| epoch {epoch:3d} |  {b:4d}/  500 batches | lr 10.00 | ms/batch 90.00 | loss  4.{b // 100}0 |"
                  for b in (200, 400)]
        lines.append(f"| end of epoch {epoch:3d} | time: 50.00s | valid loss  4.{epoch - 10} | valid ppl    70.00")
    log = parse_log(write(tmp_path, "lm.log", lines))
    assert [s for s, _ in log.series("loss")] == [9700, 9900, 10200, 10400]
    assert [s for s, _ in log.series("val_loss")] == [10000, 10500]  # 20 and 21 epochs of 500 batches done
    assert "time" not in names_of(log)  # the epoch's time, not a step's
    assert not [e for e in log.events if e["kind"] == "restart"]


def test_a_two_column_report_between_rules_is_one_record_at_its_environment_steps(tmp_path):
    # an off-policy RL loop's tabular dump once an epoch (keys in sections, some of several words), under the
    # banner its logger prints; the run-wide count of environment steps is the step (docs/gold-conventions D10)
    lines = []
    for epoch in range(3):
        lines.append(f"2025-02-03 04:05:0{epoch}.000001 UTC | [td3-hopper] Epoch {epoch} finished")
        rows = [
            ("replay_buffer/size", str(5000 * (epoch + 1))),
            ("trainer/Q1 Loss", f"{2.0 - epoch / 10:.4f}"),
            ("trainer/Actor Loss", f"{-1.5 - epoch:.4f}"),
            ("expl/num steps total", str(5000 * (epoch + 1))),
            ("eval/Average Returns", f"{300 + 50 * epoch:.2f}"),
            ("time/epoch (s)", "41.7"),
            ("Epoch", str(epoch)),
        ]
        width = max(len(k) for k, _ in rows)
        rule = "-" * width + "  " + "-" * 10
        lines += [rule, *(k.ljust(width) + "  " + v for k, v in rows), rule]
    log = parse_log(write(tmp_path, "td3.log", lines))
    assert [s for s, _ in log.series("q1_loss")] == [5000, 10000, 15000]
    assert log.series("actor_loss")[-1] == (15000, -3.5)
    assert log.series("val_average_returns")[-1] == (15000, 400.0)
    assert not log.series("loss")  # two terms, no total: no loss is made up
    assert [v for _, v in log.series("epoch")] == [0, 1, 2]
    assert log.series("replay_buffer_size")[-1] == (15000, 15000)


def test_a_multi_agent_loops_recent_stats_block_is_at_its_environment_steps(tmp_path):
    # a header line naming the run-wide environment steps, then rows of tab-separated ``key: value`` fields
    lines = []
    t_env = 400000
    for k in range(3):
        t_env += 5000 + k
        lines += [
            f"[INFO 10:2{k}:00] learner t_env: {t_env} / 1000000",
            f"[INFO 10:2{k}:01] learner Recent Stats | t_env:    {t_env} | Episode:    {900 + 40 * k}",
            f"win_rate_mean:             0.{4 + k}000\tep_length_mean:           61.{k}000\tepsilon:                   0.0500",
            f"grad_norm:                 2.{k}500\tloss:                      0.0{5 - k}10\treturn_mean:              12.{k}500",
            "",
        ]
    log = parse_log(write(tmp_path, "marl.log", lines))
    assert [s for s, _ in log.series("loss")] == [405000, 410001, 415003]
    assert log.series("win_rate_mean")[-1] == (415003, 0.6)


def test_keras_bars_left_part_way_in_a_few_epochs_still_report_by_epoch(tmp_path):
    # a notebook capture: each epoch prints its closing bar; in two of eight a library warning cut into the
    # redraw and left a bar part-way behind it
    lines = []
    for epoch in range(1, 9):
        lines.append(f"    Epoch {epoch}/8")
        if epoch in (1, 3):
            lines.append(f"    11/40 [=====>........] - ETA: 0s - loss: 0.{70 - epoch} - mae: 0.5")
            lines.append("    W0101 10:00:00.000 plugin.cc:12] Fallback kernel registered for device GPU.")
        lines.append(f"    40/40 [==============================] - 0s 4ms/step - loss: 0.{60 - epoch} - mae: 0.4"
                     f" - val_loss: 0.{65 - epoch} - val_mae: 0.45")
    log = parse_log(write(tmp_path, "nb.log", lines))
    assert [s for s, _ in log.series("val_loss")] == list(range(1, 9))
    assert log.series("loss")[-1] == (8, 0.52)
    assert {s for s, _ in log.series("loss")} == set(range(1, 9))


def test_keys_that_qualify_one_word_differently_keep_their_phrases(tmp_path):
    # neither "batch time" nor "data time" is the bare "time": each is a series of its own
    lines = [f"Epoch 2[{i}/900]: loss:0.{50 - i // 100}, lr:0.001, batch time:0.3{i // 100}, data time:0.00{i // 100}"
             for i in (100, 200, 300)]
    log = parse_log(write(tmp_path, "times.log", lines))
    assert log.series("batch_time") == [(1000, 0.31), (1100, 0.32), (1200, 0.33)]
    assert log.series("data_time") == [(1000, 0.001), (1100, 0.002), (1200, 0.003)]
