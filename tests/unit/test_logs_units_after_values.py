"""Rates printed value then unit (``Speed: 185.09 samples/sec 8671.95 tokens/sec 1.62 updates/sec``): each unit
names the value before it, so the updates per second are not read as tokens per second; a lone unit between
two values (``loss 0.9 tok/s 1234``) stays the next value's key. Through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_every_value_followed_by_its_unit(tmp_path):
    lines = [
        f"[INFO:nmt.training] Epoch[1] Batch [{n}]   Speed: 18{k}.09 samples/sec 867{k}.95 tokens/sec 1.6{k} updates/sec"
        f"     perplexity=17.{k}"
        for k, n in enumerate((100, 150, 200))
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("tokens_per_s") == [(100, 8670.95), (150, 8671.95), (200, 8672.95)]
    assert log.series("samples_per_s") == [(100, 180.09), (150, 181.09), (200, 182.09)]


def test_a_unit_between_two_values_is_the_next_key(tmp_path):
    lines = [f"step {n} | loss 0.{n} tok/s {1200 + n} | lr 0.1" for n in (1, 2, 3)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("tokens_per_s") == [(1, 1201), (2, 1202), (3, 1203)]
    assert log.series("loss") == [(1, 0.1), (2, 0.2), (3, 0.3)]
