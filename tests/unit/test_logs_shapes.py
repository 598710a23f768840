"""Logs as users have them: pasted, quoted, date-stamped, rank-prefixed, cut off by a killed job; the
framework named from the lines themselves; non-finite values in any series."""

from __future__ import annotations

import math

from assay.operators.logs import parse_log
from assay.operators.logs._lines import split_prefix
from assay.operators.logs._prefix_layers import detect_prefix


def write(tmp_path, name: str, lines: list[str]) -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_quote_and_date_layers_are_learnt_and_stripped():
    lines = [f"> 2025-02-0{i} 11:00:0{i} epoch {i} done" for i in range(1, 6)] + [">", "> "]
    style = detect_prefix(lines)
    assert style is not None and "quote" in style.name and "date" in style.name
    assert split_prefix("> 2025-02-01 11:00:01 iter 3: loss 2.0", style) == (None, "iter 3: loss 2.0")
    assert split_prefix("no prefix here", style) == (None, "no prefix here")


def test_rank_kept_behind_a_date_stamp():
    lines = [f"[rank{r}]: 2025-02-01 11:00:0{r} step {r}" for r in range(4)]
    style = detect_prefix(lines)
    assert split_prefix("[rank3]: 2025-02-01 11:00:03 step: 7", style) == (3, "step: 7")


def test_plain_rank_styles_keep_their_names():
    assert detect_prefix([f"[1,{r}]<stdout>:hello" for r in range(3)]).name == "mpirun"
    assert detect_prefix([f"  {r}: hello" for r in range(3)]).name == "srun"


def test_nanogpt_pasted_as_a_quote_behind_dates(tmp_path):
    lines = []
    for i, it in enumerate(range(100, 160, 10)):
        lines += [
            f"> 2024-07-0{1 + i % 9} 08:1{i}:00 iter {it}: loss {3.5 - i / 10:.4f}, time 512.10ms, mfu 21.5%",
            ">",
        ]
    lines += ["> 2024-07-09 08:20:00 step 160: train loss 3.0012, val loss 3.1234", ">"]
    lines += ["> 2024-07-09 08:21:00 iter 160: loss inf"]  # the paste stops after the loss
    log = parse_log(write(tmp_path, "pasted.log", lines))
    assert log.run["framework"] == "nanoGPT"
    loss = log.series("loss")
    assert [s for s, _ in loss] == [100, 110, 120, 130, 140, 150, 160] and math.isinf(loss[-1][1])
    assert log.series("val_loss") == [(160, 3.1234)]


def _fork_line(step: int, grad_norm: str) -> str:
    return (
        f" iteration {step:8d}/  100000 | consumed samples: {step * 16:10d} | consumed tokens: {step * 32768:12d} |"
        f" elapsed time per iteration (ms): 3120.5 | learning rate: 1.000E-04 | global batch size:    16 |"
        f" loss scale: 1.0 | grad norm: {grad_norm} | actual seqlen:  2048 | number of skipped iterations:   0 |"
        f" number of nan iterations:   0 | samples per second: 5.127 | tgs: 1312.55 | TFLOPs: 101.20 |"
    )


def test_megatron_deepspeed_named_by_its_fields_and_a_nan_grad_norm_is_an_event(tmp_path):
    lines = [_fork_line(700, "0.912"), _fork_line(701, "nan"), _fork_line(702, "nan")]
    log = parse_log(write(tmp_path, "tail.out", lines))
    assert log.run["framework"] == "Megatron-DeepSpeed"
    names = {r["name"] for r in log.metrics.to_pylist()}
    assert {"consumed_tokens", "actual_seqlen", "tokens_per_s_per_gpu", "tflops", "grad_norm"} <= names
    nan = [e for e in log.events if e["kind"] == "nan"]
    assert [(e["step"], "grad_norm" in e["detail"]) for e in nan] == [(701, True)]  # the onset only


def test_upstream_megatron_stays_megatron_lm(tmp_path):
    line = (
        " iteration       {s}/  500000 | consumed samples:         {c} | elapsed time per iteration (ms): 812.0 |"
        " learning rate: 2.000E-05 | global batch size:   128 | lm loss: 7.250000E+00 | loss scale: 4096.0 |"
        " grad norm: 3.100 | number of skipped iterations:   0 | number of nan iterations:   0 |"
    )
    log = parse_log(write(tmp_path, "up.log", [line.format(s=s, c=s * 128) for s in (10, 20)]))
    assert log.run["framework"] == "Megatron-LM"


def test_nemo2_lines_behind_srun_prefixes(tmp_path):
    lines = []
    for step in (3, 4, 5):
        lines += [
            f" 0: Training epoch 0, iteration {step}/99 | lr: 1.5e-05 | global_batch_size: 256 | global_step: {step}"
            f" | reduced_train_loss: {11 - step / 10:.3f} | train_step_timing in s: 12.5 | consumed_samples: {step * 256}",
            " 0: ",
        ]
    log = parse_log(write(tmp_path, "slurm-123.out", lines))
    assert log.run["framework"] == "NeMo"
    assert log.series("loss") == [(3, 10.7), (4, 10.6), (5, 10.5)]
    assert {r["rank"] for r in log.metrics.to_pylist()} == {0}


def test_a_number_cut_at_the_end_of_the_file_is_not_a_value(tmp_path):
    line = (
        "[default1]: iteration       {s}/  500000 | consumed samples:  {c} | elapsed time per iteration (s): 2.5 |"
        " learning rate: 2.000E-05 | global batch size:   128 | lm loss: {loss}"
    )
    lines = [line.format(s=s, c=s * 128, loss=f"{9 - s / 100:.6E} |") for s in (10, 20, 30)]
    lines.append(line.format(s=40, c=40 * 128, loss="6."))
    log = parse_log(write(tmp_path, "cut.log", lines))
    loss = log.series("loss")
    assert loss[-1] == (30, 8.7)
    assert 40 in {s for s, _ in log.series("lr")}  # the cut line's complete values stay
    assert log.series("step_time_ms")[0] == (10, 2500.0)


def test_nemo_bar_alone_exact_step_and_running_mean_apart(tmp_path):
    bar = (
        "Epoch 0:  12%|##        | {i}/250000 [3:10:00<22:00:00,  1.40it/s, loss=1.9, v_num=x1, "
        "reduced_train_loss={loss}, global_step={g}, consumed_samples=1.6e+6]"
    )
    lines = [bar.format(i=64010, loss="1.940", g="6.4e+4"), bar.format(i=64020, loss="1.870", g="6.4e+4")]
    log = parse_log(write(tmp_path, "nemo_tail.log", lines))
    assert log.run["framework"] == "NeMo"
    assert log.series("loss") == [(64010, 1.94), (64020, 1.87)]  # the bar's exact position, not 64000
    assert log.series("loss_running_mean") == [(64010, 1.9), (64020, 1.9)]


def test_a_far_off_rounded_step_is_kept_as_printed(tmp_path):
    bar = (
        "Epoch 3:  50%|#####     | 10/20 [00:10<00:10,  1.00it/s, reduced_train_loss=2.000, global_step={g}]"
    )
    log = parse_log(write(tmp_path, "nemo_epochs.log", [bar.format(g="7.0e+1")]))
    assert log.series("loss") == [(70, 2.0)]


def test_trainer_dict_before_the_first_bar_takes_the_bar_step(tmp_path):
    lines = [
        "{'loss': 2.75, 'grad_norm': 0.8, 'learning_rate': 1e-05, 'epoch': 0.02}",
        "  2%|▏         | 50/2400 [01:40<1:18:00,  2.00s/it]",
        "  2%|▏         | 51/2400 [01:42<1:18:00,  2.00s/it]",
        "{'loss': 2.5, 'grad_norm': 0.7, 'learning_rate': 2e-05, 'epoch': 0.04}",
        "  2%|▏         | 60/2400 [02:00<1:18:00,  2.00s/it]",
    ]
    log = parse_log(write(tmp_path, "sft.log", lines))
    assert log.series("loss") == [(50, 2.75), (51, 2.5)]


def test_a_warning_wrapped_over_two_lines_is_one_event(tmp_path):
    pad = " " * 24
    lines = [
        "[Train]:   1% 77/9000 [01:00<2:00:00,  1.2it/s, loss=3.1, lr=1e-4]",
        f"{pad}WARNING  mylib - optim - WARNING: found   ",
        f"{pad}     inf during the optimizer step       ",
        "[Train]:   1% 78/9000 [01:01<2:00:00,  1.2it/s, loss=3.0, lr=1e-4]",
        f"{pad}     unrelated wrapped text              ",
    ]
    log = parse_log(write(tmp_path, "wrapped.log", lines))
    assert [(e["kind"], e["line_no"]) for e in log.events] == [("skipped_step", 3)]


def test_host_and_rank_layers_together():
    lines = [f"gpu-node0{r}: [rank{r}]: 2025-01-01 10:00:0{r} step {r} loss 2.0" for r in range(4)]
    style = detect_prefix(lines)
    assert split_prefix("gpu-node07: [rank1]: 2025-01-01 10:00:00 step 5 loss 2.0", style) == (
        1,
        "step 5 loss 2.0",
    )
    assert detect_prefix([f"node1{r}: hello {r}" for r in range(3)]).name == "host"


def test_a_line_the_file_ends_in_the_middle_of_keeps_its_complete_fields(tmp_path):
    path = tmp_path / "killed.log"
    full = "".join(f"iter {s}: loss {3 - s / 100:.4f}, time 80.00ms, mfu 9.00%\n" for s in (10, 20))
    path.write_text(full + "iter 30: loss 2.7, time 81.0")  # no line break: the job was killed mid-line
    log = parse_log(str(path))
    assert log.series("loss")[-1] == (30, 2.7)  # complete: followed by its comma
    assert [s for s, _ in log.series("step_time_ms")] == [10, 20]  # 81.0 may have been 81.05
    assert any("middle of a line" in i["error"] and i["line_no"] == 3 for i in log.issues)
