"""A scalar logger that writes its tag, its value and then its step (``losses/q1_loss 65.36 193000``) has the
step last: the whole number closing every such line, never going back; a twin critic's numbered terms
(``q1_loss``, ``q2_loss``) are separate objectives like ``policy_loss`` and ``alpha_loss``, so such a run
prints no single loss. Own-written log, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _lines() -> list[str]:
    lines = []
    for k in range(3):
        for e in range(5):
            step = 40_000 + k * 1000 + e * 200 + 199
            lines.append(f"global_step={step}, episodic_return={-120.5 - e * 3.25}")
        at = 40_000 + (k + 1) * 1000
        lines += [f"losses/q1_loss {60.5 + k} {at}", f"losses/q2_loss {61.25 + k} {at}",
                  f"losses/policy_loss {50.125 - k} {at}", f"losses/alpha_loss 0.00{k + 1} {at}"]
    return lines


def test_the_step_closing_a_tag_value_line_is_its_step(tmp_path):
    log = parse_log(write_log(tmp_path, _lines()))
    assert [s for s, _ in log.series("losses_q1_loss")] == [41_000, 42_000, 43_000]


def test_twin_critic_terms_make_no_single_loss(tmp_path):
    log = parse_log(write_log(tmp_path, _lines()))
    assert log.series("loss") == []
