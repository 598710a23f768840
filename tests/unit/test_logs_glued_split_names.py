"""A split glued to the loss's name (issue 25), as older sequence-to-sequence toolkits print it: ``trainloss
1.94``, ``validloss 4.36`` and ``testloss 4.40`` on one line are the training, validation and test losses (the
test loss never takes the validation loss's name), and ``saved model to <path>`` is a checkpoint. Own-written
logs in that shape, read through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_glued_split_names_and_a_saved_model(tmp_path):
    lines = [f"| epoch 019 | {u:07d} updates | words/s   14482| trainloss     {2.1 - (u - 1000) / 100:.2f}" for u in
             (1000, 1010, 1020)]
    lines += [
        "| checkpoint 020 | epoch 020 | 0001020 updates | validloss     4.36 | valid ppl    20.55 | testloss     4.40",
        "| checkpoint 020 | epoch 020 | 0001020 updates | saved model to run/model_epoch20.th7",
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert [v for _, v in log.series("loss")] == [2.1, 2.0, 1.9]
    assert [v for _, v in log.series("val_loss")] == [4.36]
    assert "checkpoint" in log.event_kinds()
