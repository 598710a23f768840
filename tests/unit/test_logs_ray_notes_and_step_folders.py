"""Ray's note that it folded a line other workers printed too (``[repeated 15x across cluster]``) is no value
of the line and makes no record; a save into a folder named by its step (``/ckpt/global_step_40/actor/
model_rank_3.pt``) is at that step, whatever other numbers the path holds. Own-written log, through
``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _lines() -> list[str]:
    lines = [
        "\x1b[36m(Worker pid=812)\x1b[0m Resuming from /ckpt/global_step_30",
        "\x1b[36m(Worker pid=813)\x1b[0m [rank-5]: Loading from /ckpt/global_step_30/critic/model_rank_5.pt"
        "\x1b[32m [repeated 7x across cluster]\x1b[0m",
        "\x1b[36m(Runner pid=800)\x1b[0m Setting global step to 30",
        "\x1b[36m(Worker pid=814)\x1b[0m kwargs: {'n': 1, 'logprobs': 0, 'max_tokens': 256, 'detokenize': False, "
        "'temperature': 1.0, 'top_k': -1, 'top_p': 1, 'ignore_eos': False}\x1b[32m [repeated 15x across cluster]\x1b[0m",
        "Training Progress:  10%|█         | 30/300 [00:00<?, ?it/s]",
        *(
            f"\x1b[36m(Worker pid=82{r})\x1b[0m [rank-{r}]: Loading from /ckpt/global_step_30/{part}/model_rank_{r}.pt"
            f"\x1b[32m [repeated {r + 6}x across cluster]\x1b[0m"
            for r, part in ((1, "actor"), (2, "critic"), (3, "actor"))
        ),
        "\x1b[36m(Worker pid=813)\x1b[0m   warnings.warn(\x1b[32m [repeated 15x across cluster]\x1b[0m",
    ]
    for step in range(31, 45):
        if step == 40:
            lines += [
                f"\x1b[36m(Worker pid=81{r})\x1b[0m [rank-{r}]: Saving model to /ckpt/global_step_40/actor/model_rank_{r}.pt"
                + ("\x1b[32m [repeated 3x across cluster]\x1b[0m" if r else "")
                for r in range(2)
            ]
        lines.append(f"\x1b[36m(Runner pid=800)\x1b[0m step:{step} - actor/pg_loss:{-0.1 - step / 1000:.4f} - critic/vf_loss:{1 / step:.4f}")
    return lines


def test_rays_fold_note_makes_no_record(tmp_path):
    log = parse_log(write_log(tmp_path, _lines()))
    steps = sorted({s for s in log.metrics.column("step").to_pylist() if s is not None})
    assert steps == list(range(31, 45))
    assert "repeated" not in set(log.metrics.column("name").to_pylist())


def test_a_save_into_a_step_folder_is_at_that_step(tmp_path):
    log = parse_log(write_log(tmp_path, _lines()))
    assert {e["step"] for e in log.events if e["kind"] == "checkpoint"} == {40}
