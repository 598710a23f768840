"""Counters the general reader finds from how they behave: a round in brackets that starts again for a second
run, a loop printing only twice from its first iteration, rounds quoted in a comment with a tab after them, a
count of updates named after its value, a leading counter before a key of two words. Logs written for the test."""

from __future__ import annotations

from assay.operators.logs import parse_log


def _steps(parsed, name="loss"):
    return [s for s, _ in parsed.series(name)]


def test_a_bracketed_round_that_starts_again_is_a_second_run_not_a_lost_counter(tmp_path):
    runs = []
    for run, features in enumerate(("counts", "embeddings")):
        runs.append(f"+ python ./boost.py --features {features} --rounds 12")
        runs += [f"[{r}]\ttrain-mlogloss:{2.0 - r / 20 - run / 10:.5f}\teval-mlogloss:{2.1 - r / 25:.5f}" for r in range(12)]
        runs.append(f"Macro F1: 0.{41 + run}")
    path = tmp_path / "boost.log"
    path.write_text("\n".join(runs) + "\n")
    parsed = parse_log(path)
    assert _steps(parsed) == list(range(12)) * 2
    assert not [e for e in parsed.events if e["kind"] in ("restart", "failure")]


def test_a_rank_tag_in_brackets_going_back_and_forth_is_no_step(tmp_path):
    lines = [f"[{rank}] worker ready: loss {0.5 + rank / 10:.2f}" for _ in range(4) for rank in (0, 1)]
    path = tmp_path / "ranks.log"
    path.write_text("\n".join(lines) + "\n")
    assert not [s for s in _steps(parse_log(path)) if s is not None and s > 0]


def test_a_loop_shown_twice_from_its_first_iteration_counts_it(tmp_path):
    path = tmp_path / "gbdt.log"
    path.write_text(
        "Learning rate set to 0.0421\n"
        "0:\tlearn: 0.6811230\ttest: 0.6823311\tbest: 0.6823311 (0)\ttotal: 12.1ms\tremaining: 12.1s\n"
        "200:\tlearn: 0.4420981\ttest: 0.4790005\tbest: 0.4788010 (190)\ttotal: 2.41s\tremaining: 9.6s\n"
        "Stopped by overfitting detector  (20 iterations wait)\n"
    )
    assert _steps(parse_log(path)) == [0, 200]  # the falling "learn" value is the loss


def test_rounds_quoted_in_a_comment_with_a_tab_after_them_are_no_line_numbers(tmp_path):
    lines = [f"> [{r}]\tvalid_0's binary_logloss: {0.69 - r / 100:.6f}" for r in range(40, 61)]
    path = tmp_path / "quoted.log"
    path.write_text("\n".join(lines) + "\n")
    assert _steps(parse_log(path), "val_loss") == list(range(40, 61))


def test_a_count_of_updates_named_after_its_value_is_the_step_not_the_epoch(tmp_path):
    lines = []
    for i in range(1, 7):  # the epoch turns after the third record; the updates go on
        epoch = 4 if i <= 3 else 5
        lines.append(f"| epoch {epoch:03d} | {30000 + 500 * i:07d} updates | words/s    6120| trainloss     {3.5 - i / 10:.2f}")
    path = tmp_path / "lua.log"
    path.write_text("\n".join(lines) + "\n")
    assert _steps(parse_log(path)) == [30000 + 500 * i for i in range(1, 7)]


def test_a_leading_counter_before_a_key_of_two_words_is_the_step(tmp_path):
    lines = ["Compiling the step function..."]
    lines += [f"{100 * i} train loss: {0.9 / i:.6f} recon_error: {0.8 / i:.3f} perplexity: {10 * i:.3f}" for i in range(1, 9)]
    path = tmp_path / "notebook.log"
    path.write_text("\n".join(lines) + "\n")
    assert _steps(parse_log(path)) == [100 * i for i in range(1, 9)]


def test_a_save_at_a_count_of_updates_beside_its_epoch_is_at_that_count(tmp_path):
    lines = []
    for n in (9800, 10000, 10200):
        lines.append(f'[train_inner][INFO] - {{"epoch": 12, "loss": "5.{n % 7}1", "num_updates": "{n}", "lr": "3e-05"}}')
    lines.append("[checkpoint_utils][INFO] - Preparing to save checkpoint for epoch 12 @ 10254 updates")
    lines.append("[trainer][INFO] - Saving checkpoint to /ckpt/run/checkpoint_best.pt")
    lines.append('[train_inner][INFO] - {"epoch": 13, "loss": "4.91", "num_updates": "10400", "lr": "3e-05"}')
    path = tmp_path / "fs.log"
    path.write_text("\n".join(lines) + "\n")
    assert [e["step"] for e in parse_log(path).events if e["kind"] == "checkpoint"] == [10254]


def test_a_step_printed_as_a_whole_float_places_the_summary_after_it(tmp_path):
    lines = ["[Rank 0] step=0, skipped=0, lr=[0.001]"]
    for epoch, steps in ((1, (1, 6)), (2, (9, 14))):
        for step in steps:
            lines.append(f"[trainer][INFO] - [0] [{epoch}/10: 0/1875 (0%)] epoch={epoch}.0000 step={step}.0000 dt=0.0031 "
                         f"batch_loss=0.00{9 - step // 2} running_loss=0.0012")
        lines.append(f"[trainer][INFO] - [TRAIN]  loss=0.000{epoch}  acc={epoch}%")
    path = tmp_path / "prof.log"
    path.write_text("\n".join(lines) + "\n")
    steps = [s for s, _ in parse_log(path).series("loss")]
    assert steps == sorted(steps) and 0 not in steps  # each epoch's summary at the step before it, none back at 0


def test_two_kinds_of_record_with_their_own_counters_are_no_restart(tmp_path):
    lines = []
    for epoch in range(3):
        lines += [f"INFO:root:Batch [{b}]\tSpeed: {140 + b / 100:.2f} samples/sec" for b in (100, 200, 300)]
        lines.append(f"INFO:root:Iteration[{epoch}] Train-accuracy={0.2 + epoch / 10:.6f}")
        lines.append(f"INFO:root:Iteration[{epoch}] Time cost={300 + epoch:.3f}")
    path = tmp_path / "feedforward.log"
    path.write_text("\n".join(lines) + "\n")
    assert "restart" not in [e["kind"] for e in parse_log(path).events]


def test_the_same_record_going_back_is_still_a_restart(tmp_path):
    lines = [f"step {s} loss {3 - s / 1000:.3f} lr 0.001" for s in (100, 200, 300, 400)]
    lines += ["Loading checkpoint from ckpt/step_200.pt"]
    lines += [f"step {s} loss {3 - s / 1000:.3f} lr 0.001" for s in (210, 220, 300)]
    path = tmp_path / "resumed.log"
    path.write_text("\n".join(lines) + "\n")
    assert "restart" in [e["kind"] for e in parse_log(path).events]
