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
    assert log.series("loss") == [(40, 0.81), (60, 0.72)]


def test_a_date_glued_after_a_bar_is_no_step(tmp_path):
    lines = [
        f"  0%|          | {n}/9000 [01:{n}<30:00,  2.10s/it][2021-06-08 12:03:{n},071] [INFO] [scaler.py:90:update] "
        f"loss scale: {2 ** (40 - n)}"
        for n in range(32, 36)
    ]
    log = parse_log(write(tmp_path, "glued.log", lines))
    assert 2021 not in steps_of(log)
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
