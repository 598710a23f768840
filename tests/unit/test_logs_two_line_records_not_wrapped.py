"""Two-line records of two shapes (a dated line, then a line of values opening with a small letter) are no
console wrap, even where a few value lines happen to be equally long: a console's width cuts most wrapped lines
at one length. Each line stays a record of its own. Own-written log, through ``parse_log``."""

from __future__ import annotations

import random

from log_files import write_log

from assay.operators.logs import parse_log


def test_value_lines_of_one_format_are_not_joined_to_the_next_record(tmp_path):
    rng = random.Random(7)
    lines = []
    for b in range(1, 41):
        lines.append(f"2025-06-04 19:{b // 60:02d}:{b % 60:02d}, batch i:{b}, episode_len:{rng.randint(10, 60)}")
        digits = rng.randint(4, 16)  # values printed in full: each line a little longer or shorter
        lines.append(f"kl:0.0{rng.randint(100, 999)},lr_multiplier:1.000,loss:{5 - b / 20:.{digits}f},"
                     f"entropy:{4 - b / 40:.{digits}f},explained_var_old:0.{rng.randint(100, 999)},"
                     f"explained_var_new:0.{rng.randint(10**(digits - 1), 10**digits - 1)}")
    log = parse_log(write_log(tmp_path, lines))
    news = [v for _, v in log.series("explained_var_new")]
    assert all(v < 1 for v in news)  # no date glued onto a value
    assert len(log.series("episode_len")) == 40
