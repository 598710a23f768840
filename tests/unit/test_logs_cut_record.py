"""The last record of an excerpt cut mid-line is read as a record of the template it starts (issue 25): alone it
forms a template of one record, which no behaviour across records can type, so its epoch became its step.
Each log is written here in the shapes such scripts print, through the whole ``parse_log`` path."""

from __future__ import annotations

from assay.operators.logs import parse_log


def _write(tmp_path, name, lines):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _line(step: int, loss: float) -> str:
    return f"Ep:[0/9]({step}/5000) loss:{loss:.3f} lr:0.00030000 eta:{60 - step / 100:.1f}min:"


def test_a_cut_last_record_keeps_the_step_of_its_template(tmp_path):
    lines = [_line(s, 4.5 - s / 1000) for s in range(0, 600, 100)]
    lines.append("Ep:[0/9](600/5000) loss:3.712 lr:0.000")  # the excerpt ends inside the record
    log = parse_log(_write(tmp_path, "pretrain.log", lines))
    assert log.series("loss")[-1] == (600, 3.712)
    assert [s for s, _ in log.series("loss")] == [0, 100, 200, 300, 400, 500, 600]
    # the cut shortened the last number (0.000 of 0.00030000): it is not read
    assert all(v > 0 for _, v in log.series("lr"))


def test_a_bar_cut_before_its_closing_bracket_counts_on(tmp_path):
    bar = "\u2588" * 10
    lines = [
        f"part {k} s {k * 250} prog {k * 20:.2f}% : ppl {3 - k / 10:.4f} loss {2.0 - k / 10:.6f} lr 1e-4: "
        f"100%|{bar}| 250/250 [01:10<00:00,  3.50it/s]"
        for k in range(1, 5)
    ]
    lines.append(f"part 5 s 1250 prog 100.00% : ppl 2.5 loss 1.4812 lr 1e-4: 100%|{bar}| 250/250 [01:10<00:00,  3.51it/s")
    log = parse_log(_write(tmp_path, "parts.log", lines))
    assert log.series("loss")[-1] == (1250, 1.4812)  # not the bar's 250 of a template of one record


def test_a_shorter_complete_record_at_the_end_is_not_joined(tmp_path):
    # every training record ends on a value: nothing says where one ends, so a final shorter line stays apart
    lines = [f"step {s} loss {3 - s / 100:.3f} lr 0.001" for s in range(10, 60, 10)]
    lines.append("step 50 loss 2.400")
    log = parse_log(_write(tmp_path, "loop.log", lines))
    assert log.series("loss")[-1] == (50, 2.4)
    assert [s for s, _ in log.series("lr")] == [10, 20, 30, 40, 50]


def test_a_record_cut_before_its_counter_total_stays_apart_and_reads(tmp_path):
    # the counter's second number moves (an epoch, then its batches); the last line stops right after the slash
    lines = [f"FIT Batch 4/{51200 + 100 * i} loss {2.0 - i / 100:.4f} lr 0.00100000 worker 0 ok:" for i in range(6)]
    lines.append("FIT Batch 4/")
    log = parse_log(_write(tmp_path, "cut_total.log", lines))  # once an IndexError in the samples check
    assert [s for s, _ in log.series("loss")] == [51200 + 100 * i for i in range(6)]
