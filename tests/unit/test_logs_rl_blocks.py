"""An RL runner's report block: a centred ``Learning iteration N/M`` over ``key: value`` lines whose keys are
phrases. ``Value function loss`` is the critic's term, no validation loss (``value`` is no ``val`` split), and
with the policy's ``Surrogate loss`` beside it the run prints no single loss; an excerpt holding one block keeps
its loss terms at the block's step (a loss under a counter is the record's, not a setting), and an infinite
value function loss is a ``nan`` event there. Own-written logs, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _block(it: int, value_loss: str) -> list[str]:
    return [
        "#" * 40,
        f"                       Learning iteration {it}/5000",
        "",
        "                   Computation: 12000 steps/s (collection: 5.1s, learning 0.2s)",
        f"               Value function loss: {value_loss}",
        "                    Surrogate loss: -0.0042",
        "             Mean action noise std: 0.61",
        "                 Mean total reward: 17.25",
        "               Mean episode length: 812.00",
    ]


def test_the_value_function_loss_is_no_validation_loss(tmp_path):
    log = parse_log(write_log(tmp_path, _block(40, "0.5120") + _block(41, "0.4981")))
    assert log.series("val_loss") == [] and log.series("loss") == []
    assert log.series("value_function_loss") == [(40, 0.512), (41, 0.4981)]


def test_one_block_keeps_its_loss_terms_and_an_infinite_term_is_an_event(tmp_path):
    log = parse_log(write_log(tmp_path, _block(2903, "inf")))
    assert log.series("surrogate_loss") == [(2903, -0.0042)]
    assert [(e["kind"], e["step"]) for e in log.events] == [("nan", 2903)]
