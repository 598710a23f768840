"""A Trainer-style dict record on a log's last line, cut before its closing brace: its complete pairs are read
(the cut pair dropped), and where the records before it named their steps, it goes on from them."""

from __future__ import annotations

from assay.operators.logs import parse_log


def _parsed(tmp_path, text):
    path = tmp_path / "run.log"
    path.write_text(text, encoding="utf-8")
    return parse_log(str(path))


def test_a_cut_last_record_gives_its_complete_pairs(tmp_path):
    text = (
        "{'loss': 0.52, 'grad_norm': 0.7, 'learning_rate': 9e-07, 'epoch': 0.3, 'global_step/max_steps': '20/90'}\n"
        "{'loss': 0.50, 'grad_norm': 0.7, 'learning_rate': 9e-07, 'epoch': 0.31, 'global_step/max_steps': '21/90'}\n"
        "{'loss': 0.47, 'grad_norm': 0.6, 'learning_rate': 8e-07, 'epoch': 0.32, 'global_st"
    )
    assert _parsed(tmp_path, text).series("loss") == [(20, 0.52), (21, 0.50), (22, 0.47)]


def test_the_cut_pair_is_dropped(tmp_path):
    text = (
        "{'loss': 0.52, 'learning_rate': 9e-07, 'epoch': 0.3}\n{'loss': 0.49, 'learning_rate': 8e-07, 'epoch': 0.4}\n"
        "{'loss': 0.47, 'learning_rate': 7e-07, 'grad_norm': 0.8"
    )
    parsed = _parsed(tmp_path, text)
    assert [v for _, v in parsed.series("loss")] == [0.52, 0.49, 0.47]
    assert [v for _, v in parsed.series("grad_norm")] == []  # ``0.8`` may be the start of ``0.81``


def test_a_record_wrapped_over_two_lines_is_no_cut_record(tmp_path):
    text = (
        "{'loss': 0.52, 'learning_rate': 9e-07, 'epoch': 0.3}\n{'loss': 0.49, 'learning_rate': 8e-07,\n"
        "  'epoch': 0.4}\n{'loss': 0.45, 'learning_rate': 7e-07, 'epoch': 0.5}\n"
    )
    assert [v for _, v in _parsed(tmp_path, text).series("loss")] == [0.52, 0.45]
