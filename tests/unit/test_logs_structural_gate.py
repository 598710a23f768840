"""Lines of an unknown tool reach the general reader by their structure, not by a list of metric words
(issue 25): a line of two or more key-number pairs whose shape (numbers masked) repeats in three or more
lines is a record, whatever its keys are called; a setting printed once, a line repeated with the same values
and a communication library's diagnostics are not. Own-worded logs, each through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log
from assay.operators.logs._gate import NOT_RECORDS, PAIR, TWO_PAIRS, ShapeGate
from assay.operators.logs._lines import LineBlock


def _names(log) -> set[str]:
    return set(log.metrics.column("name").to_pylist())


def test_pipe_separated_records_with_unknown_keys_are_read(tmp_path):
    lines = ["solver 0.4 ready"]
    lines += [f"cycle {1 + n // 5} | pass {n * 20} | penalty {3 - n / 10:.2f} | speed {700 + n}" for n in range(1, 11)]
    log = parse_log(write_log(tmp_path, lines))
    cost = log.series("penalty")
    assert [s for s, _ in cost] == list(range(20, 220, 20))  # the counter that rises by one stride is the step
    assert cost[0][1] == 2.9 and log.series("speed")[-1] == (200, 710.0)


def test_bracketed_counter_then_key_equals_value_pairs_are_read(tmp_path):
    lines = ["optimising the lattice"] + [f"[ {k * 25}/200] obj={1 / k:.4f} gap={2 - k / 10:.2f}" for k in range(1, 7)]
    log = parse_log(write_log(tmp_path, lines))
    # (a solver's lone objective is its loss)
    assert [s for s, _ in log.series("loss")] == [25, 50, 75, 100, 125, 150]
    assert log.series("gap")[0] == (25, 1.9)


def test_colon_pairs_after_a_settings_dump_read_the_records_and_leave_the_settings(tmp_path):
    settings = ["# settings", "alpha=0.25", "beta=3", "width=512", "depth=24", "seed=17", "warm=0.1", ""]
    records = [f"k={k * 50}  objective: {4 / k:.3f}  residual: {0.2 / k:.2e}" for k in range(1, 6)]
    log = parse_log(write_log(tmp_path, settings + records))
    assert [s for s, _ in log.series("objective")] == [50, 100, 150, 200, 250]
    assert log.series("residual")[1] == (100, 0.1)
    assert not _names(log) & {"alpha", "beta", "width", "depth", "seed", "warm"}


def test_comma_separated_pairs_with_a_counter_word_of_their_own_are_read(tmp_path):
    lines = [f"sweep: {k}, energy: {-10 - k / 4:.2f}, drift: {0.01 * k:.3f}" for k in range(1, 8)]
    log = parse_log(write_log(tmp_path, lines))
    assert [v for _, v in log.series("energy")][:2] == [-10.25, -10.5]
    assert len(log.series("drift")) == 7


def test_a_settings_dump_printed_once_gives_no_series(tmp_path):
    lines = ["configuration:"] + [f"  {key}: {value}" for key, value in [
        ("hidden", 1024), ("heads", 16), ("layers", 24), ("dropout", 0.1), ("vocab", 50304), ("seq", 2048),
        ("warmup", 500), ("decay", 0.01), ("beta1", 0.9), ("beta2", 0.95)]]
    lines += [f"max_len={n} pad={n // 8} heads_dim={n // 16}" for n in (2048,)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.metrics.num_rows == 0


def test_a_line_repeated_with_the_same_values_is_no_series(tmp_path):
    # every rank prints the same settings line: a shape that repeats, values that never change
    lines = ["width=512 depth=24 heads=8" for _ in range(6)] + ["starting"]
    log = parse_log(write_log(tmp_path, lines))
    assert log.metrics.num_rows == 0


def test_every_rank_s_environment_and_setup_lines_give_no_series(tmp_path):
    lines = [f"[rank {r}] env: RANK={r} LOCAL_RANK={r % 4} WORLD_SIZE=8 MASTER_PORT=29500 NODE_RANK={r // 4}" for r in range(8)]
    lines += [f"loader worker {r}: shards={r * 12}, prefetch=2, seed: {1000 + r}, drop: 0.1" for r in range(8)]
    lines += [f"step {s * 10} | loss {2 - s / 10:.2f}" for s in range(1, 6)]
    log = parse_log(write_log(tmp_path, lines))
    assert _names(log) == {"loss"}


def test_communication_library_diagnostics_give_no_series(tmp_path):
    lines = [
        f"gpu-node{k % 2}:{4100 + k}:{4200 + k} [{k}] NCCL INFO Channel {k:02d}/04 : rank={k} nRanks=8 busId={k}a000"
        for k in range(8)
    ] + [f"gpu-node0:4100:4100 [0] NCCL INFO comm 0x7f{k}1a30 rank {k} nranks 8 cudaDev {k} busId {k}c000," for k in range(4)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.metrics.num_rows == 0


def test_a_short_metric_word_inside_a_pointer_is_no_metric(tmp_path):
    lines = [f"worker {k}: buffer at 0x7f1{k}a9c0 size={k * 64} owner=3, ready" for k in range(5)]
    log = parse_log(write_log(tmp_path, lines))
    assert "f1" not in _names(log)


def test_the_gate_counts_a_shape_across_blocks_and_its_patterns_agree_with_their_examples():
    import re

    for pattern, example in NOT_RECORDS.items():
        assert re.search(pattern, example)
    assert re.search(TWO_PAIRS, "ep 3 | it 120 | xent 1.92 | tput 812")
    assert not re.search(TWO_PAIRS, "zorp is 1.5 and blix 1")  # numbers between words: prose as often as not
    assert re.search(PAIR, "lr: 0.05") and not re.search(PAIR, "0x7f1a: 3")
    gate = ShapeGate()
    first = LineBlock(b"a=1 b=2.5\na=2 b=2.4\nhello\n", 1)
    second = LineBlock(b"a=3 b=2.3\na=4 b=2.2\nc=1 d=2\nc=2 d=3\nc=3 d=4\n", 4)
    assert gate.admit(first, []).tolist() == []  # two of the shape so far
    assert gate.admit(second, []).tolist() == [0, 1]  # the third and fourth; whole numbers only are no record


def test_a_short_metric_word_at_the_start_of_a_longer_word_selects_no_line(tmp_path):
    # ``mem`` in ``memcpy``, ``lr`` in ``lrelu``: a profiler's lines between the records, no training values
    lines = []
    for step in range(1, 6):
        lines.append(f"step {step * 10} | loss {2 - step / 10:.2f}")
        lines.append(f"  memcpy h2d {400 + step} MB in {12 + step / 10:.1f} ms")
        lines.append(f"  lrelu kernel {step * 3} launches, {0.5 + step / 100:.2f} ms each")
    log = parse_log(write_log(tmp_path, lines))
    assert _names(log) == {"loss"}
