"""What wraps a log's lines changes nothing that is read from them.

A log reaches a user through layers that add to every line: a rank's tag (torchrun; every rank may print the
same records, interleaved), Ray's worker tag, docker
compose's service name, ``kubectl logs --prefix``, glog's header, a date stamp, a pasted quote, a terminal's
colours, Windows' line ends, blanks at the ends of lines. Each test here reads one log of its own with and
without a wrapper, through the whole ``parse_log`` path, and asserts the same steps, last loss, events,
framework and status (a metamorphic test: the reading, not a hand-written expectation, is the reference, and a
base log that reads nothing would fail its own check below)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from log_files import write_log

from assay.operators.logs import parse_log
from assay.operators.logs._prefix_layers import LAYER_EXAMPLES

BASES = {
    # a script's own records, then an out-of-memory failure
    "pipes": [f"step {10 * i} | loss {3.0 - 0.1 * i:.3f} | lr 1.0e-04" for i in range(1, 7)]
    + [
        "Traceback (most recent call last):",
        '  File "train.py", line 88, in <module>',
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB",
    ],
    # Keras's epoch headers and bars
    "keras": [
        line
        for e in range(1, 4)
        for line in (
            f"Epoch {e}/3",
            f"100/100 [==============================] - 3s 30ms/step - loss: {0.9 - 0.1 * e:.4f} - acc: 0.8",
        )
    ],
    # records of keys no word list holds, read by their repeating shape
    "shapes": [f"[  1]      {20 * i:>3} || P: {1.2 + i * 0.11:.3f} | Q: {5.6 - i * 0.2:.3f}" for i in range(1, 7)],
    # a counter and a loss in nanoGPT's shape (a framework named by a marker anchored at the line's start)
    "iters": [f"iter {i * 100}: loss {4.0 - 0.2 * i:.4f}, time 120.5ms" for i in range(1, 8)],
    # a bar per epoch, then the epoch's summary from a logger (the bar counts batches, not the run's steps)
    "epoch summaries": [
        line
        for e in range(1, 4)
        for line in (
            f"100% 500/500 [01:10<00:00,  7.1it/s, train_loss={2.5 - 0.1 * e:.2f}]",
            "100% 80/80 [00:05<00:00, 15.2it/s]",
            "mytool.schedulers - Changing lr from 1.0e-04 to 9.0e-05",
            f"mytool.train_logger - Epoch: {e}, lr: 1.0e-04 - train loss: {2.5 - 0.1 * e:.2f} - valid loss: 2.60",
            f"mytool.epoch_loop - Going into epoch {e + 1}",
        )
    ],
    # a counter within the epoch in parentheses; a run-wide counter beside the epoch (read per rank: the
    # interleaved copies of another rank would look like a counter going back and forth)
    "epoch and counter": [f"Epoch:[0/1]({i * 100}/1900) loss:{7 - i * 0.1:.3f} lr:0.000500 time:80.0min" for i in range(1, 8)],
    "updates": [
        f"epoch: {e} | nupdates: {e * 1000} | lr: 0.5 | loss-train: {3 - e * 0.2:.3f} | loss-valid: {3.2 - e * 0.2:.3f}"
        for e in range(1, 6)
    ],
    # the Trainer's dicts and a checkpoint
    "hf": [f"{{'loss': {1.5 - 0.1 * i:.4f}, 'learning_rate': 5e-05, 'epoch': {0.1 * i:.2f}}}" for i in range(1, 6)]
    + ["Saving model checkpoint to out/checkpoint-500"],
}


def _prefixed(prefix: str):
    return lambda lines: [prefix + line for line in lines]


WRAPPERS = {
    "torchrun": _prefixed("[rank0]: "),
    "ray": _prefixed("(RayTrainWorker pid=4242, ip=10.0.0.1) "),
    "compose": _prefixed("trainer-1  | "),
    "kubectl": _prefixed("[pod/trainer-0/main] "),
    "glog": _prefixed("I1203 12:00:00.123456  1234 run.py:42] "),
    "date": _prefixed("2026-01-02 03:04:05,678 "),
    "date month first": _prefixed("08/31/2026 14:37:22 "),
    "quote": _prefixed("> "),
    "rank and quote": _prefixed("[rank1]: > "),
    # every process prints (a script that does not keep its prints to rank 0), torchrun tags each line
    "two ranks": lambda lines: [f"[rank{r}]:{line}" for line in lines for r in (0, 1)],
    # Python's logging, as scripts set it up: the Hugging Face examples' format, basicConfig's, loguru's, rich's
    "logging": _prefixed("12/06/2026 10:00:00 - INFO - __main__ - "),
    "basicConfig": _prefixed("INFO:__main__:"),
    "loguru": _prefixed("2026-12-06 10:00:00.123 | INFO     | train:main:42 - "),
    "rich": lambda lines: [f"[12/06/26 10:00:00] INFO     {line:<100}   train.py:42" for line in lines],
    "colours": lambda lines: [f"\x1b[36m{line}\x1b[0m" for line in lines],
    "end blanks": lambda lines: [line + "  " for line in lines],
}


def _read(folder: Path, text: str) -> tuple:
    path = folder / "train.log"
    path.write_bytes(text.encode("utf-8"))
    log = parse_log(str(path))
    steps = sorted({s for s in log.metrics.column("step").to_pylist() if s is not None})
    losses = log.series("loss")
    return (
        steps,
        losses[-1] if losses else None,
        sorted(set(log.event_kinds())),  # (each rank's failure is an event of its own)
        log.run.get("framework"),
        log.run.get("status"),
    )


@pytest.mark.parametrize("base", list(BASES))
@pytest.mark.parametrize("wrapper", list(WRAPPERS))
def test_a_wrapper_changes_nothing_read(tmp_path: Path, base: str, wrapper: str) -> None:
    lines = BASES[base]
    plain = _read(tmp_path, "\n".join(lines) + "\n")
    assert plain[0] or plain[1], f"the {base} log itself reads no step and no loss"
    assert _read(tmp_path, "\n".join(WRAPPERS[wrapper](lines)) + "\n") == plain


@pytest.mark.parametrize("base", list(BASES))
def test_windows_line_ends_change_nothing_read(tmp_path: Path, base: str) -> None:
    lines = BASES[base]
    assert _read(tmp_path, "\r\n".join(lines) + "\r\n") == _read(tmp_path, "\n".join(lines) + "\n")


@pytest.mark.parametrize("layer", list(LAYER_EXAMPLES))
def test_each_layer_example_is_peeled(tmp_path: Path, layer: str) -> None:
    """Every row of the layer table, its example line as a log's every line (the step and loss varied)."""
    example = LAYER_EXAMPLES[layer]
    assert example.endswith("step 10 loss 2.5")
    wrapper = example.removesuffix("step 10 loss 2.5")
    # a viewer's line numbers and a list's count up by one line by line; the other layers repeat as they are
    numbered = layer in ("lineno", "listno")
    lines = [
        f"{re.sub(r'[0-9]+', str(i), wrapper, count=1) if numbered else wrapper}step {10 * i} loss {2.5 - 0.1 * i:.2f}"
        for i in range(1, 6)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert layer in (log.records[0]["line_prefix"] or "").split("+")
    assert [s for s, _v in log.series("loss")] == [10, 20, 30, 40, 50]


def test_short_coloured_lines_are_text_not_binary(tmp_path: Path) -> None:
    """A terminal's colour codes put an escape byte on every short line: still a log, not a binary file."""
    lines = [f"\x1b[1m\x1b[32mep\x1b[0m {i} \x1b[33mloss\x1b[0m {1.0 / i:.3f}" for i in range(1, 40)]
    log = parse_log(write_log(tmp_path, lines))
    assert not log.issues or "binary" not in str(log.issues)
    assert len(log.series("loss")) == 39


def test_a_bracketed_step_after_glogs_header_is_no_line_number(tmp_path: Path) -> None:
    """``[400] steps_per_second=...`` after glog's header: a writer's step (it goes up by 100), not a log
    viewer's line numbering, which goes up by one."""
    lines = [
        f"I0304 05:06:{i:02d}.000001 1402 metric_writer.py:48] [{100 * i}] steps_per_second=1.5, train_loss={2.0 - 0.1 * i:.2f}"
        for i in range(1, 6)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert "lineno" not in (log.records[0]["line_prefix"] or "")
    assert [s for s, _v in log.series("loss")] == [100, 200, 300, 400, 500]


def test_a_tool_known_by_the_source_file_in_glogs_header_is_still_named(tmp_path: Path) -> None:
    lines = [
        f"I0102 03:04:{i:02d}.600000  4242 solver.cpp:219] Iteration {100 * i} (2.1 iter/s, 4.7s/10 iters), "
        f"loss = {0.9 - 0.1 * i:.2f}"
        for i in range(1, 6)
    ]
    assert parse_log(write_log(tmp_path, lines)).run.get("framework") == "Caffe"


def test_a_json_record_counting_its_step_as_done_of_total(tmp_path: Path) -> None:
    """A JSON lines log whose step is text, done of total, under a key naming both (``global_step/max_steps``)."""
    lines = [
        f'{{"loss": {1.0 - 0.1 * i:.2f}, "learning_rate": 1e-05, "global_step/max_steps": "{50 * i}/900", '
        f'"epoch": {0.05 * i:.2f}}}'
        for i in range(1, 6)
    ]
    log = parse_log(write_log(tmp_path, lines, "train.jsonl"))
    assert [s for s, _v in log.series("loss")] == [50, 100, 150, 200, 250]


def test_a_log_of_its_setup_only_invents_no_restart(tmp_path: Path) -> None:
    """A job that died while starting (or one still starting) has printed its configuration only: a total of
    steps among its settings is no step the run reached, and the step it says it starts from is no restart."""
    tag = "08/31/2026 14:37:22 [INFO|DP=0|PP=0|TP=0]: "
    lines = [
        tag + "Config(general=GeneralArgs(project='demo', seed=42),",
        tag + "       tokens=TokensArgs(sequence_length=256,",
        tag + "                         train_steps=15,",
        tag + "                         micro_batch_size=2,",
        tag + "                         batch_accumulation_per_replica=1),",
        tag + "       optimizer=OptimizerArgs(weight_decay=0.01,",
        tag + "                               learning_rate=0.0003))",
        tag + "Total number of parameters: 1.2M",
        tag + "[Start training] datetime: 2026-08-31 14:37:26 | mbs: 2 | grad_accum: 1",
        tag + " Stage Stable Training Stage start from step 1",
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert "restart" not in log.event_kinds()
    assert "level" in (log.records[0]["line_prefix"] or "").split("+")


def test_a_tables_first_column_is_no_collectors_tag(tmp_path: Path) -> None:
    """``resnet-50  | 0.52 | 0.76``: a name with a number and a bar opens every row, as docker compose's service
    opens every line, but each row names its own: no tag, the column stays the table's."""
    lines = ["model       | loss | acc"] + [
        f"resnet-{n:<5}| {0.9 - i * 0.05:.2f} | 0.7{i}" for i, n in enumerate([18, 34, 50, 101, 152])
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.records[0]["line_prefix"] is None
