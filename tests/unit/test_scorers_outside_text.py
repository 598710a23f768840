"""The measuring scripts count a miss of a gold value the text never prints apart (docs/gold-conventions.md,
section 4): decided from the gold and the input text only. A log or paper of the tests' own, in a scratch set,
with one miss the text prints and one it does not: the first counts against the reachable figure, the second
is tagged ``[outside text]`` and left out of it."""

from __future__ import annotations

import json
import math

import outside_text
import reallogs_score
import realpapers_score
from reallogs_score import Read

LOG = """\
[kiwi-run] step 10 | loss 2.5000 | lr 3.0e-04
[kiwi-run] step 20 | loss 2.2500 | lr 3.0e-04
[kiwi-run] tokens seen 1.8765e+00 M, tp=2
"""


def _log_gold(**fields) -> dict:
    gold = {
        "file": "kiwi.log",
        "framework": "custom",
        "n_steps": 2,
        "first_step": 10,
        "last_step": 20,
        "last_loss": 2.25,
        "last_loss_step": 20,
        "layout": {},
        "events": [],
    }
    return {**gold, **fields}


def test_a_printed_number_is_found_at_the_golds_precision_in_any_usual_spelling():
    assert outside_text.number_printed(0.7884, "loss: 0.78840")
    assert outside_text.number_printed(0.7884, "loss=7.884e-01")
    assert outside_text.number_printed(0.7884, "loss 0.78843")  # printed finer than the gold writes it
    assert not outside_text.number_printed(0.7884, "loss 0.788")  # coarser: the gold's digits are not there
    assert outside_text.number_printed(120, "iter 120/500") and not outside_text.number_printed(
        12, "iter 120/500"
    )
    assert outside_text.number_printed(math.nan, "loss: nan") and not outside_text.number_printed(
        math.inf, "loss 1.0"
    )


def test_a_tool_is_printed_in_any_usual_spelling_of_its_key_or_the_scorers_names_for_it():
    assert outside_text.name_printed(["kiwi_trainer"], "Kiwi-Trainer v2 started")
    assert outside_text.name_printed(["kiwi_trainer"], "import kiwitrainer")
    assert not outside_text.name_printed(["kiwi"], "a bokiwi line")  # inside another word: not the tool
    assert "Hugging Face Transformers" in reallogs_score.tool_names("hf_trainer")
    assert "ms-swift" in reallogs_score.tool_names("swift")


def test_a_missed_value_the_log_prints_is_in_the_text_and_one_it_never_prints_is_outside():
    read = Read(None, [10, 20], (20, 2.25), (20, 0.5), {"tp": None}, [])
    gold = _log_gold(
        framework="zebra_forge", last_loss=1.8765, last_val_loss=0.6543, last_val_step=20, layout={"tp": 2}
    )
    score = reallogs_score.score_file(gold, read, LOG)
    assert sorted(score.missed) == ["framework", "last_loss", "last_val_loss", "layout.tp"]
    # 1.8765 is printed (as the tokens count) and tp=2 is: a reading of the text could get them
    assert sorted(score.outside) == ["framework", "last_val_loss"]
    tagged = [m for m in score.mismatches if m.endswith("[outside text]")]
    assert [m.split(":")[0] for m in tagged] == ["framework", "last_val_loss"]


def test_a_tool_the_log_names_is_in_the_text_and_steps_are_read_not_printed():
    read = Read(None, [1, 2], (2, 2.25), None, {}, [])
    gold = _log_gold(framework="kiwi_run", first_step=110, last_step=120, last_loss_step=120)
    score = reallogs_score.score_file(gold, read, LOG)
    # the tool is named ("[kiwi-run]"); steps are derived by the reading rules (an epoch made global), so an
    # unprinted step is no sign a reader could not get it
    assert "framework" in score.missed and "first_step" in score.missed
    assert score.outside == []


def test_the_gold_may_mark_a_field_outside_the_text_itself():
    read = Read(None, [1, 2], (2, 2.25), None, {}, [])
    gold = _log_gold(
        first_step=110, last_step=120, last_loss_step=120, outside_text=["first_step", "last_step"]
    )
    score = reallogs_score.score_file(gold, read, LOG)
    assert sorted(score.outside) == ["first_step", "last_step"]


def test_the_logs_scorer_prints_the_reachable_figure_beside_the_total(tmp_path, capsys):
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "kiwi.log").write_text(LOG)
    gold = _log_gold(framework="zebra_forge", last_loss=1.8765)
    (tmp_path / "gold.jsonl").write_text(json.dumps(gold) + "\n")
    assert reallogs_score.main([str(tmp_path), "--all-mismatches"]) == 0
    out = capsys.readouterr().out
    assert "framework: got None, want 'zebra_forge' [outside text]" in out
    assert "last_loss: got 2.25, want 1.8765\n" in out  # printed in the log: no tag
    total = next(line for line in out.splitlines() if line.startswith("fields right:"))
    right, fields = (int(n) for n in total.split()[2].split("/"))
    assert fields - right == 2
    line = next(line for line in out.splitlines() if line.startswith("  all  fields right:"))
    assert (
        f"misses outside the text: 1 (framework 1) ; right of the reachable fields: {right}/{fields - 1}"
        in line
    )


PAPER = """\
# Quokka: herding gradients

Quokka trains 2.5x faster than Wombat on the same cluster.

Without its pouch cache, Quokka still uses 40% less memory than Wombat.
"""


def _claim(value, unit, subject, versus, **more) -> dict:
    return {"value": value, "unit": unit, "subject": subject, "versus": versus, "type": "result", **more}


def test_a_wrong_name_the_paper_prints_is_in_the_text_and_one_it_never_prints_is_outside():
    gold = {
        0: [
            _claim(2.5, "x", "Platypus", "Wombat"),
            _claim(40, "%", "Wombat", None),
            _claim(1.0, "x", "Quokka with pouch cache", "Quokka without pouch cache"),
        ]
    }
    predicted = {
        0: [
            _claim(2.5, "x", "Quokka", "Wombat"),
            _claim(40, "%", "Quokka", "Wombat"),
            _claim(1.0, "x", "Quokka", "Wombat"),
        ]
    }
    claims = realpapers_score.attributions(gold, predicted, {0: PAPER})[0]
    assert len(claims) == 3 and not any(c.both_right for c in claims)
    platypus, wombat, cache = claims
    assert platypus.outside() == ["subject"]  # "Platypus" is nowhere in the paper
    assert wombat.outside() == []  # "Wombat" is printed; an empty gold baseline is always reachable
    assert cache.outside() == []  # "<system> with X" / "without X" (rule D2): each part is printed
    line = realpapers_score.reachable_line("all", claims)
    assert line.startswith(
        "  all  matched 3, subject or baseline wrong 3: outside the text 1 (subject 1, baseline 0)"
    )
    assert line.endswith("where the text prints the gold subject and baseline: 0/2 = 0.000")


def test_the_papers_scorer_tags_an_outside_attribution_and_prints_the_reachable_line(tmp_path, capsys):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "quokka.md").write_text(PAPER)
    gold = {
        "doc": "quokka",
        "claims": [_claim(2.5, "x", "Platypus", "Wombat"), _claim(40, "%", "Quokka", "Wombat")],
    }
    (tmp_path / "gold.jsonl").write_text(json.dumps(gold) + "\n")
    assert realpapers_score.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    result = realpapers_score.score_set(tmp_path)
    claims = [a for c in result.attributions.values() for a in c]
    assert sum(a.both_right for a in claims) == result.total.attributed  # the same judgement as the score
    assert len(claims) == 2  # both claims matched
    # the 2.5x claim's subject is wrong whatever the extractor names, and the paper never prints the gold's
    assert "(gold 'Platypus')" in out and "[outside text: subject]" in out
    summary = [
        line
        for line in out.splitlines()
        if line.startswith(("  dev  matched", "  test matched", "  all  matched"))
    ]
    assert len(summary) == 3
    assert "outside the text 1 (subject 1, baseline 0)" in summary[-1]
    assert summary[-1].endswith(
        f"where the text prints the gold subject and baseline: {result.total.attributed}/1 = "
        f"{result.total.attributed:.3f}"
    )
