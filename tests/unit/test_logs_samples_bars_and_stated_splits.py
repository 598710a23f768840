"""Three shapes read through the whole ``parse_log`` path: Keras bars that count samples (the epoch is the
step), a callback's message as wide as another one followed by its epoch's bar (two records, no wrap), and a
script's sentences that state a running loss and a split's loss beside an error (``val loss is``,
``val mse is``)."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _fit_on_arrays(first: int = 12, last: int = 15) -> list[str]:
    # tf.keras 1.x ``fit`` on arrays in a non-interactive console: a running bar part-way, the checkpoint
    # callback's message, then the epoch's closing bar; the bars count samples (``us/sample``)
    lines = [f"Epoch 000{first - 1:02d}: ReduceLROnPlateau reducing learning rate to 0.0002500000118743628.",
             "512/512 [==============================] - 1s 1ms/sample - loss: 0.4410 - val_loss: 0.5020"]
    for epoch in range(first, last + 1):
        improved = epoch % 2 == 0
        lines += [
            f"Epoch {epoch}/800",
            f"384/512 [=====================>........] - ETA: 0s - loss: 0.{4300 - epoch}",
            (f"Epoch 000{epoch:02d}: val_loss improved from 0.50200 to 0.4{epoch}00, saving model to experiments/run_a/weights/best.h5"
             if improved else f"Epoch 000{epoch:02d}: val_loss did not improve from 0.50200"),
            f"512/512 [==============================] - 1s 1{epoch}0us/sample - loss: 0.{4200 - epoch} - "
            f"val_loss: 0.4{epoch}0",
        ]
    return lines


def test_bars_counting_samples_put_each_record_at_its_epoch(tmp_path):
    log = parse_log(write_log(tmp_path, _fit_on_arrays()))
    steps = sorted({s for s, _ in log.series("loss")})
    assert steps == [11, 12, 13, 14, 15]  # the bar before the first header is the epoch before it
    assert log.series("loss")[-1] == (15, 0.4185)
    assert log.series("val_loss")[-1] == (15, 0.415)
    assert sorted(e["step"] for e in log.events if e["kind"] == "checkpoint") == [12, 14]
    assert not [e for e in log.events if e["kind"] == "restart"]


def test_a_message_as_wide_as_another_is_no_wrapped_record(tmp_path):
    # the two "improved" messages have the same width and end inside a word; the bar after each opens as
    # the bars after the shorter messages do, so each is a record of its own
    lines = _fit_on_arrays()
    wide = [line for line in lines if "saving model" in line]
    assert len({len(line) for line in wide}) == 1  # the shape this test is about
    log = parse_log(write_log(tmp_path, lines))
    assert not {"from", "from_0"} & set(log.metrics.column("name").to_pylist())
    detail = [e["detail"] for e in log.events if e["kind"] == "checkpoint"]
    assert all(d.endswith("weights/best.h5") for d in detail)


def _stated_lines() -> list[str]:
    lines = []
    for epoch in (0, 1, 2):
        lines.append(f"Starting epoch {epoch} current lr is 0.001")
        for step in (20, 40):
            lines.append(f"Epoch {epoch}, Step {step}, total used time {3.5 * step:.1f} (s), "
                         f"avg loss so far is 0.{900 - 100 * epoch - step}")
        lines.append(f"Epoch {epoch}, val loss is 0.{700 - 100 * epoch}, val mse is 0.{300 - 50 * epoch}.")
    return lines


def test_a_running_loss_stated_so_far_is_the_loss(tmp_path):
    log = parse_log(write_log(tmp_path, _stated_lines()))
    assert [v for _, v in log.series("loss")][-2:] == [0.68, 0.66]
    assert "far" not in set(log.metrics.column("name").to_pylist())


def test_a_split_s_loss_beside_its_error_keeps_the_name(tmp_path):
    log = parse_log(write_log(tmp_path, _stated_lines()))
    assert [v for _, v in log.series("val_loss")] == [0.7, 0.6, 0.5]
    assert [v for _, v in log.series("val_mse")] == [0.3, 0.25, 0.2]
