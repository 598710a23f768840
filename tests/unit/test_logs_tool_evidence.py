"""A run's tool named by structure, for tools no table knows (issue 25): the command line that ran a package's
script or console script, the training loop's traceback frame in a repository's package, the tool's own
version banner; each weighed, the strongest first, with its reason (``_tool_evidence.explain``). Guards: a
user's bare script, Python's and the carriers' modules, a project's own folders, the environment's banners and a
library deep in the stack name nothing."""

from __future__ import annotations

import pytest

from assay.operators.logs import parse_log
from assay.operators.logs._tool_evidence import explain

_STEPS = [f"step {i} | loss {2.0 - i / 10:.3f} | lr 1e-4" for i in range(1, 6)]
_HF_DICTS = [f"{{'loss': {1.5 - i / 10:.2f}, 'learning_rate': 2e-05, 'epoch': {i / 10:.1f}}}" for i in range(1, 6)]


def _framework(tmp_path, lines):
    path = tmp_path / "run.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return parse_log(str(path)).run["framework"]


def _traceback(*frames):
    out = ["Traceback (most recent call last):"]
    for path, func in frames:
        out += [f'  File "{path}", line 42, in {func}', "    do_it()"]
    return [*out, "RuntimeError: CUDA error: device-side assert triggered"]


@pytest.mark.parametrize(
    "lines",
    [
        # a script inside the package, run by python or a launcher
        ["$ python quokkadet/tools/train.py --cfg exp/base.yaml", *_STEPS],
        ["torchrun --nproc_per_node 8 quokkadet/scripts/pretrain.py --lr 3e-4", *_STEPS],
        # the package's console script
        ["$ quokkadet-train data/ --arch small --max-epoch 9", *_STEPS],
        ["CUDA_VISIBLE_DEVICES=0,1 quokkadet-cli fit --config run.yaml", *_STEPS],
        # the training loop's frame in a repository's package: cloned as its name, or under src/
        [*_STEPS, *_traceback(("train.py", "<module>"), ("/home/ana/QuokkaDet/quokkadet/engine/loop.py", "train"),
                              ("/env/lib/python3.10/site-packages/torch/nn/modules/module.py", "_call_impl"))],
        [*_STEPS, *_traceback(("/srv/work/proj/src/quokkadet/runner.py", "fit"),
                              ("/env/lib/python3.10/site-packages/torch/autograd/__init__.py", "backward"))],
        # the tool's own banner
        ["QuokkaDet v0.4.1", *_STEPS],
        ["Welcome to QuokkaDet!", "quokkadet version 1.2.3", *_STEPS],
    ],
)
def test_structure_names_an_unknown_tool(tmp_path, lines):
    assert (_framework(tmp_path, lines) or "").lower() == "quokkadet"


def test_a_packages_script_renames_a_run_read_as_the_hf_trainer(tmp_path):
    lines = ["$ accelerate launch quokkatune/recipes/sft.py --model tiny", "***** Running training *****", *_HF_DICTS]
    assert _framework(tmp_path, lines) == "quokkatune"


def test_one_banner_does_not_rename_a_run_read_as_the_hf_trainer(tmp_path):
    assert _framework(tmp_path, ["quokkatune v0.2.0", *_HF_DICTS]) == "Hugging Face Transformers"


@pytest.mark.parametrize(
    "lines",
    [
        # a user's bare script, or one in a layout or project folder
        ["$ python train.py --epochs 3", *_STEPS],
        ["$ python tools/train.py configs/base.py", *_STEPS],
        ["$ python examples/vision/train.py", *_STEPS],
        ["$ python src/utils/train.py", *_STEPS],
        # a user's script through torch and numpy, or its own src/utils module
        [*_STEPS, *_traceback(("train.py", "<module>"), ("train.py", "main"),
                              ("/env/lib/python3.10/site-packages/torch/nn/modules/module.py", "_call_impl"))],
        [*_STEPS, *_traceback(("train.py", "main"), ("/env/lib/python3.10/site-packages/numpy/core/fromnumeric.py",
                                                     "_wrapreduction"))],
        [*_STEPS, *_traceback(("/home/ana/proj/src/utils/logger.py", "train"))],
        # a library deep in the stack: its frame is no training loop
        [*_STEPS, *_traceback(("./my_train.py", "main"), ("/opt/k9/k9/python/k9/fsa.py", "get_scores"),
                              ("/opt/k9/k9/python/k9/autograd.py", "forward"))],
        # the environment's banners
        ["CUDA version 12.1", "Python version: 3.10.4", "NCCL version 2.18.1+cuda12.1", "torch v2.1.0", *_STEPS],
        # a command-line parser's logger, and a flattened config whose dotted keys are no loggers
        ["2024-01-02 03:04:05 | jsonargparse.core: parsed 12 options", *_STEPS],
        ["lr_sched.warmup.steps: 100", "lr_sched.decay.kind: cosine", *_STEPS],
    ],
)
def test_guards_name_nothing(tmp_path, lines):
    assert _framework(tmp_path, lines) is None


def test_a_user_script_on_transformers_stays_as_today(tmp_path):
    lines = [*_HF_DICTS, *_traceback(("run_sft.py", "main"),
                                     ("/env/lib/python3.10/site-packages/transformers/trainer.py", "train"),
                                     ("/env/lib/python3.10/site-packages/torch/autograd/__init__.py", "backward"))]
    assert _framework(tmp_path, lines) == "Hugging Face Transformers"


def test_candidates_are_ranked_with_their_reasons():
    text = "\n".join(["$ python quokkadet/tools/train.py", "INFO:otherlib.loader:opened", *_STEPS])
    ranked = explain(text)
    assert [c.package for c in ranked] == ["quokkadet", "otherlib"]
    assert ranked[0].score > ranked[1].score
    assert ranked[0].reasons[0].startswith("command line: ")


def test_a_banner_describing_ones_own_program_names_nothing(tmp_path):
    assert _framework(tmp_path, ["== quokka-trainer v0.3 ==", *_STEPS]) is None


@pytest.mark.parametrize(
    "line",
    ["quokkadet.engine - INFO - epoch 1 started", "2024-01-02 03:04:05 INFO quokkadet.engine: epoch 1 started",
     "2024-01-02 03:04:05 WARNING quokkadet.data.loader - short shard",
     # ``%(asctime)s | %(name)s: %(message)s``: the stamp is stripped as the file's prefix, the bar stays
     "2024-01-02T03:04:05 | quokkadet.trainers.loop: epoch 1 started"],
)
def test_a_logger_before_or_after_its_level_names_its_package(tmp_path, line):
    assert (_framework(tmp_path, [line, *_STEPS]) or "").lower() == "quokkadet"


@pytest.mark.parametrize(
    "lines",
    [
        ["[ time:2.0s total_exs:640 epochs:0.2 time_left:30.0s ] {'exs': 640, 'loss': 3.1, 'ppl': 22.2}",
         "[ time:4.0s total_exs:1280 epochs:0.4 time_left:28.0s ] {'exs': 640, 'loss': 2.7, 'ppl': 14.9}"],
        [f"Training Epoch: 1/2, step {i}/50 completed (loss: 0.{9 - i}1):  10%|█         | 1/10 [00:10<01:30]"
         for i in range(1, 4)],
        [f"Epoch: [1]  [{i}0/500]  eta: 0:10:00  lr: 0.000100  loss: 9.{i} (9.5)  loss_vfl: 0.8{i} (0.85)"
         for i in range(1, 4)],
    ],
)
def test_line_shapes_of_parlai_llama_recipes_and_rt_detr(tmp_path, lines):
    assert _framework(tmp_path, lines) in {"ParlAI", "llama-recipes", "RT-DETR"}


@pytest.mark.parametrize(
    "line",
    ["2031-04-05 06:07:08.900 INFO: quokkadet version: 0.4.7", "[2031-04-05 06:07:08] INFO - quokkadet v1.2.0"],
)
def test_a_version_banner_printed_through_a_logger_names_its_tool(tmp_path, line):
    assert (_framework(tmp_path, [line, "2031-04-05 06:07:08.901 INFO: cuda version: 12.6", *_STEPS]) or "").lower() == (
        "quokkadet"
    )


def test_the_environments_versions_through_a_logger_name_nothing(tmp_path):
    lines = ["2031-04-05 06:07:08.900 INFO: cuda version: 12.6", "2031-04-05 06:07:08.900 INFO: Python 3.11.4"]
    assert _framework(tmp_path, [*lines, *_STEPS]) is None
