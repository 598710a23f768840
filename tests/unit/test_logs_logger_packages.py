"""Which tool a log's own references name: a dotted logger name in parentheses after a record header's
bracket (``[ INFO](pkg.engine.Trainer) - ...``) names its package, as a bracketed one does; a carrier library
(``accelerate``) names the run only where nothing else is named and the log shows the carrier's own command line
running the script (``_packages.ENTRY_POINTS``)."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import parse_log
from assay.operators.logs._packages import ENTRY_POINTS, package_of


def _log(tmp_path, lines):
    return parse_log(write_log(tmp_path, lines, "run.log"))


def test_a_parenthesised_logger_after_the_header_names_its_package(tmp_path):
    lines = [
        f"[2024-03-04 05:06:0{i}.100][ INFO](acmeseg.engines.trainer.SegTrainer) - Epoch: 2/30, Iter: {i}/3 -- "
        f"train_loss: 0.{9 - i}"
        for i in (1, 2, 3)
    ]
    assert _log(tmp_path, lines).run["framework"] == "acmeseg"


def test_a_parenthesised_logger_before_the_message_separator(tmp_path):
    lines = [f"2024-03-04 05:06:0{i} INFO (acmeseg.loop) - step {i} loss 0.{9 - i}" for i in (1, 2, 3)]
    assert _log(tmp_path, lines).run["framework"] == "acmeseg"


def test_a_bracketed_logger_with_its_process_names_its_package(tmp_path):
    lines = [f"2024-03-04 05:06:0{i},100 INFO [peptidex/MainProcess] model._log_history : {i}0000\t0.{9 - i}\tnan"
             for i in (1, 2, 3)]
    assert _log(tmp_path, lines).run["framework"] == "peptidex"
    # a script's own logger in that layout names no tool
    lines = [f"2024-03-04 05:06:0{i},100 INFO [__main__/MainProcess] train : step {i} loss 0.{9 - i}" for i in (1, 2, 3)]
    assert _log(tmp_path, lines).run["framework"] is None


def test_parenthesised_versions_and_attributes_name_nothing():
    assert package_of("using release (v1.2) of the data") is None
    assert package_of("tensor shape (x.shape) mismatched in loss (self.training)") is None
    assert package_of("[INFO](torch.distributed.run) - started") is None  # a carrier


def test_accelerate_alone_with_its_console_script_names_the_run(tmp_path):
    lines = [
        "Loading checkpoint shards: 100%|##########| 4/4 [00:40<00:00, 10.0s/it]",
        " WARNING  Sending process 7 closing signal SIGTERM        api.py:699",
        " ERROR    failed (exitcode: -9) local_rank: 1 (pid: 8) of  api.py:673",
        "╭──────────── Traceback (most recent call last) ────────────╮",
        "│ /home/me/env/bin/accelerate:8 in <module>                 │",
        "│   5 from accelerate.commands.accelerate_cli import main   │",
        "╰───────────────────────────────────────────────────────────╯",
    ]
    assert _log(tmp_path, lines).run["framework"] == "Accelerate"


@pytest.mark.parametrize("row", ENTRY_POINTS, ids=[e.package for e in ENTRY_POINTS])
def test_every_entry_point_example_names_its_carrier(tmp_path, row):
    assert _log(tmp_path, ["starting", row.example, "step 1 loss 2.0"]).run["framework"] == row.framework


def test_a_carrier_imported_by_a_tool_does_not_name_the_run(tmp_path):
    # accelerate's own frames under a tool's: the tool is named, not the carrier
    lines = [
        "accelerate launch train.py --config cfg.yaml",
        "Traceback (most recent call last):",
        '  File "/env/lib/python3.11/site-packages/acmetune/trainer.py", line 40, in fit',
        '  File "/env/lib/python3.11/site-packages/accelerate/accelerator.py", line 900, in backward',
        "RuntimeError: boom",
    ]
    assert _log(tmp_path, lines).run["framework"] == "acmetune"


def test_a_carrier_warning_alone_names_nothing(tmp_path):
    lines = [
        "/env/lib/python3.10/site-packages/accelerate/accelerator.py:400: FutureWarning: old flag",
        "step 1 loss 2.0",
        "step 2 loss 1.9",
    ]
    assert _log(tmp_path, lines).run["framework"] is None


def test_a_notebooks_launcher_frames_name_no_tool(tmp_path):
    # a traceback from a notebook cell passes through the kernel's launcher (traitlets, ipykernel) above the
    # tool's own frames: the tool is the package that trained
    lines = [f"2024-03-04 05:06:0{i} [INFO] epoch {i} iter 10/40 loss {2.0 - i / 10:.2f}" for i in (1, 2, 3)]
    lines += [
        "Traceback (most recent call last):",
        '  File "/env/lib/python3.7/site-packages/traitlets/config/application.py", line 664, in launch_instance',
        "    app.start()",
        '  File "/env/lib/python3.7/site-packages/ipykernel/kernelapp.py", line 612, in start',
        "    self.io_loop.start()",
        '  File "/env/lib/python3.7/site-packages/acmedet/models/base.py", line 114, in train_loop',
        "    self.evaluate()",
        "ValueError: bad box",
    ]
    assert _log(tmp_path, lines).run["framework"] == "acmedet"


def test_a_capitalised_logger_before_its_level_names_the_project(tmp_path):
    # ``%(asctime)s %(name)s %(levelname)s: %(message)s`` with a project's own logger name
    lines = [
        f"2024-03-04 05:06:0{i},120 TextNet INFO: [3/200], [{i}/9], global_step: {100 + i}, loss: 0.{9 - i}"
        for i in (1, 2, 3)
    ]
    assert _log(tmp_path, lines).run["framework"] == "TextNet"


def test_a_users_logger_named_by_a_project_word_in_any_case_names_no_tool(tmp_path):
    # ``logging.getLogger("Model")``: a carrier's word ("model") capitalised is still the user's own logger
    lines = [f"2024-03-04 05:06:0{i},100 - Model - INFO - Training mean loss: 0.{9 - i}1" for i in (1, 2, 3)]
    assert _log(tmp_path, lines).run["framework"] is None
    lines = [f"2024-03-04 05:06:0{i},100 - acmeseg - INFO - Training mean loss: 0.{9 - i}1" for i in (1, 2, 3)]
    assert _log(tmp_path, lines).run["framework"] == "acmeseg"
