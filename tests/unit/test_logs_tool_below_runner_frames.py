"""A traceback whose outermost frames are a runner's (TensorFlow's ``app.run`` calling a trainer's ``main``)
still counts for the first package below them: the tool the run is named after is the trainer's, not the
runner's. Own-written log, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_the_tool_under_a_runners_frames_names_the_run(tmp_path):
    lines = [f"INFO:tensorflow:loss = {2.5 - s / 1000:.4f}, step = {s} (91.2 sec)" for s in range(1000, 4001, 1000)]
    lines += [
        "ERROR:tensorflow:Model diverged with loss = NaN.",
        "Traceback (most recent call last):",
        '  File "/env/bin/t2t-trainer", line 33, in <module>',
        "    tf.app.run()",
        '  File "/env/lib/python3.6/site-packages/tensorflow/python/platform/app.py", line 125, in run',
        "    _sys.exit(main(argv))",
        '  File "/env/lib/python3.6/site-packages/tensor2tensor/bin/t2t_trainer.py", line 380, in main',
        "    execute_schedule(exp)",
        '  File "/env/lib/python3.6/site-packages/tensorflow/python/training/basic_session_run_hooks.py", line 760, in after_run',
        "tensorflow.python.training.basic_session_run_hooks.NanLossDuringTrainingError: NaN loss during training.",
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.run["framework"] == "Tensor2Tensor"
