"""A save whose line names its epoch (Keras's ``Epoch 00004: val_loss improved ..., saving model to ...``,
printed before that epoch's record) is at that epoch where the run counts epochs, not at the record before it.
Own-written log, pasted as a quote, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_save_naming_its_epoch_is_at_that_epoch(tmp_path):
    lines = ["C:\\Python3\\python.exe train_detector.py"]
    best = float("inf")
    for e in range(1, 7):
        val = 3.0 - e / 4 if e != 5 else 3.5
        lines.append(f"Epoch {e}/20000")
        if e == 1:  # the framework's start-up lines between the first header and its record
            lines += ["2018-01-16 17:22:07.663379: I c:\\tf\\core\\gpu\\pool_allocator.cc:247] PoolAllocator: After 5822 "
                      "get requests, put_count=5800 evicted_count=1000 eviction_rate=0.172 and unsatisfied allocation rate=0"]
        if val < best:
            lines.append(f"Epoch {e:05d}: val_loss improved from {best:.5f} to {val:.5f}, saving model to w_epoch-{e:02d}_val_loss-{val:.4f}.h5")
            best = val
        else:
            lines.append(f"Epoch {e:05d}: val_loss did not improve")
        lines.append(f" - 41{e}s - loss: {2.5 - e / 5:.4f} - val_loss: {val:.4f}")
    log = parse_log(write_log(tmp_path, [f"> {line}" for line in lines]))  # pasted as a quote
    assert [e["step"] for e in log.events if e["kind"] == "checkpoint"] == [1, 2, 3, 4, 6]
