"""A solver's trace prints its objective alone under ``obj`` or ``f`` (issue 25): CRF and linear-model trainers print
``iter=3 terr=0.08 ... obj=21234.00 diff=0.32``, and that objective is the run's training loss (the single total
it prints); beside a detector's terms (``box obj cls total``) ``obj`` stays the objectness term and the total is
the loss. Own-written logs in those shapes, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_solvers_lone_objective_is_the_loss(tmp_path):
    lines = [
        f"iter={k} terr={0.12 - k / 100:.2f} serr={0.56 - k / 50:.2f} act=12345 obj={50000 / k:.2f} diff={1 / k:.2f}"
        for k in range(1, 5)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (4, 12500.0)


def test_a_trust_region_traces_function_value_is_the_loss(tmp_path):
    lines = [
        f"iter {k:2d} act {1 / k:.3e} pre {1 / k:.3e} delta 1.266e-01 f {10 / k:.3e} |g| {5 / k:.3e} CG   2"
        for k in range(1, 5)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (4, 2.5)


def test_objectness_beside_a_detectors_terms_is_no_loss(tmp_path):
    lines = ["   Epoch   gpu_mem       box       obj       cls     total    labels  img_size"]
    lines += [f"     {e}/9     3.1G   0.0{5 - e}123   0.02311   0.01111   0.0{8 - e}545        12       640" for e in (1, 2)]
    log = parse_log(write_log(tmp_path, lines))
    assert [v for _, v in log.series("loss")] == [0.07545, 0.06545]
    assert [v for _, v in log.series("obj")] == [0.02311, 0.02311]
