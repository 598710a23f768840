"""A box of ``| key | value |`` rows that names no step, under a line that prints only its counter
(``Iteration 41``): the box's step is the heading's. Through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _boxes_under_headings(its=(41, 42, 43), last_kl: str = "0.0021") -> list[str]:
    lines = []
    for k, it in enumerate(its):
        lines += [
            f"Iteration {it}",
            "kl within its target" if k % 2 else "kl too high, step size lowered",
            "",
            f"| ExplainedVarAfter | 0.9{k}1     |",
            f"| EpisodeRewardMean | {-12.5 + k:<8}  |",
            f"| KL                | {last_kl if k == len(its) - 1 else '0.001' + str(k)}  |",
            "",
        ]
    return lines


def test_a_box_under_its_counter_heading_is_at_that_step(tmp_path):
    log = parse_log(write_log(tmp_path, _boxes_under_headings()))
    assert log.series("kl") == [(41, 0.001), (42, 0.0011), (43, 0.0021)]
    assert [s for s, _ in log.series("episoderewardmean")] == [41, 42, 43]
    assert log.run["config"]  # read by the general reader
    assert not log.series("loss")  # a reward is no loss


def test_a_nan_in_the_last_box_is_at_its_heading(tmp_path):
    log = parse_log(write_log(tmp_path, _boxes_under_headings(last_kl="nan")))
    assert [(e["kind"], e["step"]) for e in log.events if e["kind"] == "nan"] == [("nan", 43)]


def test_a_heading_is_used_once(tmp_path):
    # a second box with no heading above it names no step: it is not put at the first box's heading
    lines = _boxes_under_headings(its=(7,)) + ["| ExplainedVarAfter | 0.5 |", "| KL | 0.3 |"]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("kl") == [(7, 0.0021)]

