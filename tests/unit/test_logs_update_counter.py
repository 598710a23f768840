"""Two step keys on one line, one counting passes (micro-batches) and one optimizer updates (LitGPT's
``iter {iter_num} step {step_count}``): which is the step, through the whole ``parse_log`` path. Own-worded logs."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _steps(tmp_path, lines, name="loss"):
    return [step for step, _ in parse_log(write_log(tmp_path, lines)).series(name)]


def test_records_several_updates_apart_are_stepped_by_the_update(tmp_path):
    # a pre-training loop that logs every 50 updates, 4 passes per update: the update counts the run's steps
    lines = [
        f"Epoch 2 | iter {4 * s} step {s} | loss train: {3 - s / 10000:.3f}, val: 3.100 | iter time: 98.10 ms (step)"
        for s in (5000, 5050, 5100)
    ]
    assert _steps(tmp_path, lines) == [5000, 5050, 5100]
    assert _steps(tmp_path, lines, "val_loss") == [5000, 5050, 5100]


def test_records_on_every_pass_are_stepped_by_the_pass(tmp_path):
    # a fine-tuning loop that prints every pass under accumulation 2 (the updating pass marked): the update
    # counter repeats over two records, the pass counter numbers them
    lines = [
        f"iter {i} step {i // 2}: loss {2.5 - i / 100:.4f}, iter time: 612.{i}0ms" + (" (optimizer.step)" if i % 2 == 0 else "")
        for i in range(1, 9)
    ]
    assert _steps(tmp_path, lines) == list(range(1, 9))


def test_the_actors_environment_steps_among_the_roles_counters_are_the_step(tmp_path):
    # an RL framework's terminal logger prints every role's counter, titled, in key order: the actors' count the
    # environment's steps, the run's step in RL (docs/gold-conventions.md, D10); the learner's counts updates
    lines = []
    for k, (env, updates) in enumerate(((410, 3), (880, 4), (1350, 5))):
        lines.append(
            f"I0102 11:00:0{k}.000000 13900 terminal.py:91] [Learner] Actor Episodes = {k + 1} | Actor Steps = {env} | "
            f"Critic Loss = 0.2{k} | Evaluator Steps = 640 | Learner Steps = {updates} | Loss = -0.5{k} | Policy Loss = -0.6{k}"
        )
        lines.append(
            f"I0102 11:00:0{k}.400000 13900 terminal.py:91] [Actor] Actor Episodes = {k + 1} | Actor Steps = {env + 200} | "
            f"Episode Length = 200 | Episode Return = -19.0 | Learner Steps = {updates} | Steps Per Second = 80.5"
        )
    assert _steps(tmp_path, lines) == [410, 880, 1350]  # the learner's lines print the loss


def test_one_role_alone_keeps_its_counter(tmp_path):
    lines = [f"[Actor] Actor Steps = {s} | Episode Return = -{s / 100:.1f} | Loss = 0.{s // 100}" for s in (300, 600, 900)]
    assert _steps(tmp_path, lines) == [300, 600, 900]
