"""A progress bar redrawn with carriage returns on one line (as a file captures tqdm) is one record per
position it was drawn at, each at its own count, not one record at the first count with the later draws'
values renamed. Through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _bar(counts, clock_redraw: bool = False) -> str:
    draws = []
    for n in counts:
        draws.append(f"fit:  {n}%|##   | {n}/100 [00:{n // 10:02d}<00:10, 9.9it/s, run_loss={2.0 - n / 100:.3f}]")
        if clock_redraw:  # the same count drawn again for its clock
            draws.append(f"fit:  {n}%|##   | {n}/100 [00:{n // 10 + 1:02d}<00:09, 9.9it/s, run_loss={2.0 - n / 100:.3f}]")
    return "\r".join(draws)


def test_each_draw_is_a_record_at_its_count(tmp_path):
    log = parse_log(write_log(tmp_path, [_bar(range(0, 101, 20)), "wrote checkpoint to /out/last.ckpt"]))
    assert log.series("loss") == [(0, 2.0), (20, 1.8), (40, 1.6), (60, 1.4), (80, 1.2), (100, 1.0)]
    assert not [n for n in log.metrics.column("name").to_pylist() if "_at_" in n]


def test_a_count_redrawn_for_its_clock_is_one_record(tmp_path):
    log = parse_log(write_log(tmp_path, [_bar((10, 20, 30), clock_redraw=True)]))
    assert [s for s, _ in log.series("loss")] == [10, 20, 30]
