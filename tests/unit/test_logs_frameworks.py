"""The framework markers (``operators/logs/_frameworks.py``): every row's example names its tool through the
whole ``parse_log`` path, a user's own script stays unnamed, and naming never changes the parser."""

from __future__ import annotations

import pytest

from assay.operators.logs import parse_log
from assay.operators.logs._frameworks import MARKERS, NAMES, name_framework
from assay.operators.logs._packages import GENERIC, PACKAGES, RUNNERS, package_of


def _write(tmp_path, name, lines):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.mark.parametrize("marker", MARKERS, ids=[m.framework for m in MARKERS])
def test_every_example_names_its_tool_through_parse_log(tmp_path, marker):
    path = _write(tmp_path, "train.log", ["starting", marker.example, "done"])
    log = parse_log(path)
    assert log.run["framework"] == marker.framework
    assert any(e["type"] == "system" and e["name"] == marker.framework for e in log.entities)


def test_names_are_unique_and_rows_carry_examples():
    assert len(NAMES) == len(MARKERS)
    assert all(m.example.strip() for m in MARKERS)


def _overlaps() -> list[tuple[str, str]]:
    """(example's tool, pattern's tool) for every row whose pattern matches another tool's example line, where
    neither row says it runs on top of the other."""
    return [
        (a.framework, b.framework)
        for a in MARKERS
        for b in MARKERS
        if a is not b and b.framework not in a.over and a.framework not in b.over and b.regex.search(a.example)
    ]


def test_no_rows_pattern_matches_another_tools_example():
    """A pattern that matches another tool's line is too broad: it would name that tool's logs after its own."""
    assert _overlaps() == []


#: Own scripts in the shapes people print: no tool's marker in them.
CUSTOM = [
    ["epoch 1 step 10 loss 2.31", "epoch 1 step 20 loss 2.12", "epoch 1 step 30 loss 1.98"],
    ["Step [100/600], Loss: 0.4120", "Step [200/600], Loss: 0.3811", "Step [300/600], Loss: 0.3502"],
    ["iter=5 train_loss=1.20 lr=0.001", "iter=10 train_loss=1.10 lr=0.001"],
    ["2024-01-02 10:00:00 INFO training started", "2024-01-02 10:00:05 INFO step 1 | loss 4.5 | lr 1e-4"],
    ["[epoch 3] batch 40/400 loss=0.71 acc=0.62", "[epoch 3] batch 80/400 loss=0.69 acc=0.63"],
    # the shapes near the rows read from tools' sources, printed by one's own loop
    ["Epoch: [2]  [ 100/500]  eta: 0:01:10  lr: 0.000100  loss: 1.2040 (1.3001)  time: 0.2101  data: 0.0010",
     "Epoch: [2]  [ 200/500]  eta: 0:00:50  lr: 0.000100  loss: 1.1002 (1.2500)  time: 0.2100  data: 0.0011"],
    ["[10]\tloss: 0.52 acc: 0.81", "[20]\tloss: 0.47 acc: 0.83"],
    ["global_step=100 loss=0.91 reward=1.5", "global_step=200 loss=0.88 reward=2.1"],
    ["Episode 10: reward: 21.0, steps: 200", "Episode 20: reward: 35.5, steps: 200"],
    ["[train] epoch: 1, iter: 100, lr: 0.001, loss: 0.82", "[train] epoch: 1, iter: 200, lr: 0.001, loss: 0.79"],
    ["Iteration 100/1500 | mean reward 12.1 | loss 0.31", "Iteration 200/1500 | mean reward 14.0 | loss 0.29"],
    ["epoch  train_loss  val_loss  val_acc", "1      0.91        0.95      0.61", "2      0.82        0.88      0.66"],
]


@pytest.mark.parametrize("lines", CUSTOM)
def test_a_users_own_script_stays_unnamed(tmp_path, lines):
    log = parse_log(_write(tmp_path, "mine.log", lines))
    assert log.run["framework"] is None


def test_naming_leaves_the_generic_reader_reading(tmp_path):
    lines = [
        f"2022-03-04 05:06:{i:02d},800 - mmseg - INFO - Iter [{i * 50}/8000]\tlr: 9.9e-03, loss: {1 - i / 50:.3f}"
        for i in range(1, 6)
    ]
    log = parse_log(_write(tmp_path, "seg.log", lines))
    assert log.run["framework"] == "MMSegmentation"
    assert log.records[0]["log_format"] == "generic"
    assert [s for s, _ in log.series("loss")] == [50, 100, 150, 200, 250]


def test_a_tool_on_top_of_a_parsed_framework_wins_only_with_its_marker():
    hf = "Hugging Face Transformers"
    assert name_framework("{'loss': 1.0, 'learning_rate': 1e-05, 'epoch': 0.1}", hf) == hf
    assert name_framework("{'loss': 1.0, 'reward_std': 0.3, 'epoch': 0.1}", hf) == "TRL"
    # a marker of a tool that does not run on top of the parsed framework does not rename it
    assert name_framework("INFO:tensorflow:global step 3: loss = 1.0", "Megatron-LM") == "Megatron-LM"
    # the most specific row wins when two are found
    assert name_framework("[deepspeed] OVERFLOW! Rank 0\nTotal Generation Batches 12", None) == "DeepSpeed-Chat"


#: Other shapes of the same tools (own-worded): a second marker of a row must name it too.
MORE_SHAPES = [
    (["default_scope = 'mmdet'", "06/07 08:09:10 - mmengine - INFO - Epoch(train) [1][50/500]  loss: 1.2"],
     "MMDetection"),
    (["model = dict(type='xtuner.model.SupervisedFinetune')",
      "05/06 10:11:12 - mmengine - INFO - Iter(train) [ 10/900]  lr: 2.0e-05  loss: 1.91"], "XTuner"),
    (["iter 320 | step 40: loss 1.7312, iter time: 211.40 ms (optimizer.step)"], "LitGPT"),
    (["[batch=3/100]:", "\t Train loss/train/total: 6.91"], "Composer"),
    (["[INFO|trainer.py:2210] >> ***** Running training *****",
      "  File \"/srv/LLaMA-Factory/src/llamafactory/train/sft/workflow.py\", line 90, in run_sft"], "LLaMA-Factory"),
    (["1563/1563 [==============================] - 21s 13ms/step - loss: 0.4410 - accuracy: 0.8420"], "Keras"),
    (["2023-01-02 03:04:05 | INFO | train_inner | epoch 002:    300 / 1100 loss=5.12, nll_loss=3.9, ppl=14.9"],
     "fairseq"),
    (["1|48|Loss: 1.0921:  10%|█         | 48/480 [01:10<10:30,  1.46s/it]"], "torchtune"),
    # the same bar under a multi-node launcher's line prefix
    (["[worker1|0]:2|7|Loss: 0.9911:   7%|▋         | 7/101 [00:40<08:10,  5.22s/it]"], "torchtune"),
    (["INFO:tensorflow:Step = 1200 ; steps/s = 2.10, source words/s = 21000 ; Learning rate = 0.0007 ; "
      "Loss = 3.41"], "OpenNMT"),
    (["2024-05-06 07:08:09,100 - mindformers - INFO - { Epoch:[  1/  3], step:[   20/ 500], loss:[3.120/3.120]"],
     "MindSpore"),
    (["{'loss': 1.21, 'grad_norm': 0.4, 'learning_rate': 2e-05, 'mean_token_accuracy': 0.71, 'epoch': 0.3}"],
     "Hugging Face Transformers"),  # TRL's SFT trainer logs as the HF Trainer does
    (['{"global_step": 40, "log_history": [{"epoch": 0.1, "loss": 0.69, "rewards/chosen": 0.01, "step": 10}]}'],
     "TRL"),
    (["                 Class     Images  Instances      Box(P          R      mAP50  mAP50-95): 100%|█| 4/4",
      "                   all        120        410      0.612      0.544      0.571      0.332"], "Ultralytics"),
    (["                 Class     Images  Instances          P          R      mAP50   mAP50-95: 100%|█| 4/4"],
     "YOLOv5"),
    (["2022-03-04 05:06:07 | INFO | valid | epoch 003 | valid on 'valid' subset | loss 4.9 | ppl 29.8"], "fairseq"),
    (["[gpu3] 2023-02-03 04:05:06,789 (trainer:338) INFO: 4epoch results: [train] iter_time=0.12, loss=38.1"],
     "ESPnet"),
    (["epoch time: 51230.4 ms, per step time: 27.33 ms"], "MindSpore"),
    # a codebase's own heads' fields on the MMEngine runner's lines name the codebase, not the runner
    (["03/04 05:06:07 - mmengine - INFO - Epoch(train)  [2][ 300/4000]  lr: 5.0e-04  loss: 0.0021  "
      "loss_kpt: 0.0021  acc_pose: 0.611"], "MMPose"),
    (["03/04 05:06:07 - mmengine - INFO - Epoch(train)  [1][  50/7330]  lr: 2.0e-02  loss: 2.91  "
      "loss_rpn_cls: 0.61  loss_rpn_bbox: 0.12  loss_cls: 1.4"], "MMDetection"),
    (["03/04 05:06:07 - mmengine - INFO - Iter(train) [  400/160000]  lr: 6.0e-05  loss: 1.05  "
      "decode.loss_ce: 1.05  decode.acc_seg: 61.2"], "MMSegmentation"),
    # the rows read from the tools' own sources (issue 25, fifth round): their other shapes
    (["default_scope = 'mmyolo'", "05/06 10:11:12 - mmengine - INFO - Epoch(train)  [3][ 50/925]  lr: 1.0e-02  "
      "loss: 1.91  loss_cls: 0.51  loss_bbox: 0.88"], "MMYOLO"),
    (["epoch       iteration   main/loss   main/loss_ctc  main/loss_att  validation/main/loss  elapsed_time",
      "1           500         141.2       190.4          120.1          101.2                 310.5"], "ESPnet"),
    (["Will train until validation-logloss hasn't improved in 20 rounds.", "[0]\tvalidation-logloss:0.65012"],
     "XGBoost"),
    (["[LightGBM] [Warning] No further splits with positive gain, best gain: -inf", "[10]\tvalid_0's l2: 0.52"],
     "LightGBM"),
    (["3000/50000: episode: 12, duration: 2.310s, episode steps: 250, steps per second: 108, episode reward: 250.000, "
      "mean reward: 1.000 [1.000, 1.000]"], "Keras-RL"),
    (["Epoch #5: test_reward: 95.400000, best_reward: 120.300000 in #4"], "Tianshou"),
    (["Training  [  300/125000]  eta: 3 days, 0:10:00  lr: 0.0002 (0.0002)  dino_local_crops_loss: 9.91 (9.95)  "
      "ibot_loss: 1.20 (1.22)"], "DINOv2"),
    (["I0506 07:08:09.100000 140 terminal.py:91] [Environment Loop] Episode Length = 1000 | Episode Return = 12.5 | "
      "Steps Per Second = 880.1"], "Acme"),
    (["[TRAIN_..][epoch: 12, iter:  60,000, lr:(5.000e-05,5.000e-05,)] [eta: 10:01:02, time (data): 0.301 (0.002)] "
      "l_g_pix: 1.1e-02 l_g_percep: 2.3e+00"], "BasicSR"),
    (["2024-05-06 07:08:09,100\tINFO train.py:300 in record_current_batch_training_metrics -- tflops=99.1,step=3,"
      "loss=7.21"], "InternEvo"),
    (['{"train_loss": 10.41, "train_lr": 0.0004, "train_wd": 0.04, "epoch": 3}'], "DINO"),
    (["5 * Epoch (valid) metrics: accuracy01: 0.9012 | loss: 0.3311"], "Catalyst"),
    (["| eprewmean            | 18.2        |", "| fps                  | 1210        |"], "OpenAI Baselines"),
    (["2024-01-02 03:04:05 INFO fairseq2 - Validation Metrics (step 500) - Loss: 2.011 | Perplexity: 7.47"],
     "fairseq2"),
]


@pytest.mark.parametrize(("lines", "name"), MORE_SHAPES, ids=[n for _, n in MORE_SHAPES])
def test_other_shapes_of_a_tool(tmp_path, lines, name):
    assert parse_log(_write(tmp_path, "x.log", lines)).run["framework"] == name


# -- the package a log's own references point at (operators/logs/_packages.py) -----------------------------------

_SPECIFIC = [p for p in PACKAGES if p.framework not in RUNNERS]
_RUNNER_ROWS = [p for p in PACKAGES if p.framework in RUNNERS]


@pytest.mark.parametrize("row", _SPECIFIC, ids=[p.package for p in _SPECIFIC])
def test_every_package_row_names_its_tool_through_parse_log(tmp_path, row):
    log = parse_log(_write(tmp_path, "run.log", ["starting", "step 1 loss 2.0", row.example, "step 2 loss 1.9"]))
    assert log.run["framework"] == row.framework


@pytest.mark.parametrize("row", _RUNNER_ROWS, ids=[p.package for p in _RUNNER_ROWS])
def test_a_package_on_top_of_a_runner_wins_over_it(tmp_path, row):
    """A runner's reference names nothing by itself here; a package nobody listed, called above it and logging
    under its own name, names the run by that name."""
    lines = [
        "INFO:acmetrain.fit:step 1 loss 2.0",
        "Traceback (most recent call last):",
        '  File "/env/lib/python3.10/site-packages/acmetrain/loops/fit.py", line 41, in run',
        row.example,
        "RuntimeError: shapes do not match",
    ]
    assert parse_log(_write(tmp_path, "run.log", lines)).run["framework"] == "acmetrain"
    assert package_of(row.example) is None


#: A user's own code in a traceback, its own logger, the libraries every script imports: no tool.
CUSTOM_WITH_CODE = [
    ["INFO:__main__:epoch 1 step 10 loss 2.3", "INFO:root:epoch 1 step 20 loss 2.2"],
    ["step 5 loss 1.2", "Traceback (most recent call last):", '  File "train.py", line 88, in <module>',
     '  File "/home/me/proj/models/net.py", line 12, in forward',
     '  File "/env/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1501, in _call_impl',
     "ValueError: bad shape"],
    ["/env/lib/python3.9/site-packages/numpy/core/fromnumeric.py:3474: RuntimeWarning: Mean of empty slice.",
     "epoch 2 loss 0.91", "I0102 03:04:05.600000 1400 checkpoint_manager.cc:120] step 100 loss 0.8"],
    ["2024-01-02 03:04:05 | INFO | trainer | step 40 loss 1.1", "connected to master.cluster.local:29500 ok"],
]


@pytest.mark.parametrize("lines", CUSTOM_WITH_CODE)
def test_a_users_own_code_and_generic_libraries_name_no_tool(tmp_path, lines):
    assert parse_log(_write(tmp_path, "mine.log", lines)).run["framework"] is None


def test_the_outermost_frame_in_a_package_is_the_tool():
    """A traceback counts once, by its caller: the tool sits above the libraries it calls."""
    text = "\n".join([
        "Traceback (most recent call last):",
        '  File "run.py", line 3, in <module>',
        '  File "/env/lib/python3.11/site-packages/acmetune/cli.py", line 20, in main',
        '  File "/env/lib/python3.11/site-packages/otherlib/ops.py", line 90, in apply',
        "KeyError: 'x'",
    ])
    assert package_of(text) == "acmetune"


def test_a_frame_behind_a_rank_tag_counts():
    text = "[rank1]:   File \"/env/lib/python3.11/site-packages/acmetune/cli.py\", line 20, in main"
    assert package_of(text) == "acmetune"


def test_specificity_over_parsed_frameworks():
    hf, megatron = "Hugging Face Transformers", "Megatron-LM"
    peft_frame = '  File "/env/lib/python3.10/site-packages/peft/tuners/lora.py", line 9, in forward'
    assert name_framework(peft_frame, hf) == hf  # a library the script calls is no tool
    one_stray = '  File "/env/lib/python3.10/site-packages/somelib/x.py", line 1, in f'
    assert name_framework(one_stray, hf) == hf  # one frame of an unlisted package does not rename a runner
    neox = '  File "/home/me/gpt-neox/megatron/training.py", line 600, in train'
    assert name_framework(neox, megatron) == "GPT-NeoX"  # the repository holds Megatron's code
    assert name_framework("06/07 08:09:10 - mmengine - INFO - Epoch(train) [1][50/90]  loss: 1.0\n"
                          "INFO:mmrotate.models:built\nINFO:mmrotate.models:loaded", None) == "mmrotate"


def test_package_tables_are_consistent():
    assert len({p.package for p in PACKAGES}) == len(PACKAGES)
    assert not {p.package for p in PACKAGES} & GENERIC
    assert all(p.example.strip() for p in PACKAGES)
