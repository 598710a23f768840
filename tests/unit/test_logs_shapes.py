"""Logs as users have them: pasted, quoted, date-stamped, rank-prefixed, cut off by a killed job; the
framework named from the lines themselves; non-finite values in any series."""

from __future__ import annotations

import math

from assay.operators.logs import parse_log
from assay.operators.logs._lines import detect_prefix, split_prefix


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
