"""Which tool wrote a log, for the tools that have no parser of their own: a declared table of markers, and the
matching that picks a file's tool from it.

A marker is something only that tool prints: its logger's name (``d2.utils.events``, ``- mmdet - INFO -``,
``INFO:tensorflow:``, ``olmo.train``), a module path of its package, a banner, or a set of fields nobody else
prints together (``avr_loss=`` on a tqdm bar, ``Train time/batch:``). Every row carries an example line in
the tool's shape (written for this table); ``tests/unit/test_logs_frameworks.py`` runs each one through
``parse_log`` and checks the run's framework, and that no other row's pattern matches it. Adding a tool is adding
a row with its example, its pattern read from the tool's own source (the row's comment names the file).

The rows are data, kept by domain: language-model and text tools (``_markers_llm``), vision
(``_markers_vision``), speech, reinforcement learning and tabular learners (``_markers_speech_rl``); the
frameworks and runners other tools are built on, and the launchers, close the table here.

Naming never changes which parser reads a file: the generic reader still reads a file no parser claimed,
and only the ``runs.framework`` (and the 'system' entity) changes.

Who wins (specificity):

1. a framework parser's own name (Megatron-LM, DeepSpeed, Hugging Face Transformers, TorchElastic, ...)
   stands, unless a row found in the file says it runs *on top of* that framework (``over``): TRL,
   LLaMA-Factory or DeepSpeed-Chat drive the HF Trainer or DeepSpeed, mmediting runs under torchrun;
2. with no framework parser, the first row of the table found in the file names it. Rows are ordered from
   the most specific tool to the most general (an OpenMMLab codebase before MMEngine, Keras before
   TensorFlow, a launcher such as Horovod last);
3. the name so far is none, or a runner other tools are built on (MMEngine, the HF Trainer, Megatron-LM,
   TensorFlow, ...: ``_packages.RUNNERS``): the package the log's own loggers, source paths, command lines
   and banners point at, weighed (``_tool_evidence``), names the more specific tool, so a codebase on MMEngine, a tuning tool on the HF
   Trainer or a package nobody listed (``verl``) is named by its code rather than by one more row;
4. nothing found: no name. A user's own script prints none of these and stays unnamed.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from assay.operators.logs._marker import ELASTIC, Marker
from assay.operators.logs._markers_llm import LLM_ROWS
from assay.operators.logs._markers_speech_rl import SPEECH_RL_ROWS
from assay.operators.logs._markers_vision import VISION_ROWS
from assay.operators.logs._packages import RUNNERS
from assay.operators.logs._tool_evidence import tool_of

__all__ = ["ANY_MARKER", "MARKERS", "NAMES", "Marker", "name_framework"]

#: The frameworks, loggers and runners other tools print through or are built on, then the launchers: only when
#: nothing more specific is found (an OpenMMLab codebase before MMEngine, Keras-RL before Keras, Keras before
#: TensorFlow, the Horovod launcher last).
_GENERAL_ROWS: tuple[Marker, ...] = (
    Marker("DLLogger", r"(?:^|[\]\s])DLL \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ - ",
           "DLL 2023-03-04 05:06:07.891011 - Training Epoch: 1 Training Iteration: 300  step_loss : 1.204"),
    Marker("PyTorch/XLA", r"\bDevice=xla:\d|\btorch_xla[./]", "| Training Device=xla:0/3 Epoch=2 Step=80 Loss=0.114"),
    Marker("Flax", r"\blogging_writer\.py:\d+\] \[\d+\] \w+=|\bflax[./](?:training|linen|core)\b",
           "I0708 09:10:11.120000 1402 logging_writer.py:48] [600] train_loss=2.71, train_accuracy=0.41"),
    Marker("OneFlow", r"\boneflow[./]|^Rank\[\d+\], Step \d+, Loss [\d.na]+, Latency [\d.]+ ms, Throughput",
           "Rank[1], Step 30, Loss 0.4712, Latency 21.5 ms, Throughput 2980.1, 2023-01-02 03:04:05"),
    Marker("MindSpore", r"\bmindspore[./]|\bmindformers\b|^epoch: \d+ step: \d+, loss is "
           r"|\{ Epoch:\[ *\d+/ *\d+\], step:\[ *\d+/ *\d+\], loss:|\bepoch time: [\d.]+ ?ms, per step time: ",
           "epoch: 3 step: 1560, loss is 0.41205"),
    # BigDL's optimizers head each iteration's line with ``Optimizer.header``: ``[Epoch $epoch $count/$total][Iteration
    # $iter][Wall Clock ${t}s]`` (intel-analytics/BigDL spark/dl/.../optim/Optimizer.scala, DistriOptimizer.scala)
    Marker("BigDL", r"\[Epoch \d+ \d+/\d+\]\[Iteration \d+\]\[Wall Clock [\d.]+s\]",
           "2019-02-03 04:05:06 INFO  DistriOptimizer$:408 - [Epoch 3 51200/60000][Iteration 1200][Wall Clock 310.4s] "
           "Trained 512 records in 0.31 seconds. Throughput is 1651.6 records/second. Loss is 0.412."),
    Marker("Caffe", r"\b(?:sgd_)?solver\.cpp:\d+\] (?:Iteration \d+|Snapshotting|Train net output)",
           "I0102 03:04:05.600000  4242 solver.cpp:219] Iteration 800 (2.1 iter/s, 4.7s/10 iters), loss = 0.31"),
    Marker("MXNet", r"\bEpoch\[\d+\] Batch \[\d+\]\s+Speed: [\d.]+ samples/sec|\bEpoch\[\d+\] Train-[\w-]+=",
           "2019-03-04 05:06:07,800 Epoch[2] Batch [400]\tSpeed: 812.50 samples/sec\taccuracy=0.61"),
    # Chainer's PrintReport table: the reporter's 'main/' observer in its header (chainer/chainer
    # chainer/training/extensions/print_report.py with the usual entries); after ESPnet, whose v1 trainer uses it
    Marker("Chainer", r"^\s*(?:epoch|iteration)\s+(?:[\w/]+\s+)*main/loss\b|\bchainer/training/",
           "epoch       main/loss   validation/main/loss  main/accuracy  validation/main/accuracy  elapsed_time"),
    Marker("MMEngine", r"(?:^|\s)- mmengine - (?:INFO|WARNING|ERROR|DEBUG) - |\b(?:Epoch|Iter)\((?:train|val|test)\) +\[",
           "06/07 08:09:10 - mmengine - INFO - Epoch(train)  [2][ 100/1250]  lr: 2.0e-02  loss: 0.8123",
           over=(ELASTIC,)),
    # also its Progbar at verbose=2, one line per epoch: ``80/80 - 1s - loss: 0.41`` (Keras 3 adds ``- 9ms/step``)
    Marker("Keras", r"^\s*\d+/\d+ (?:━+|\[[=>.]+\])[^\n]*? - \w+: [\d.na]"
           r"|^\s*\d+/\d+ - \d+m?s(?: - \d+m?s/step)? - \w+: [-\d.na]",
           "150/150 ━━━━━━━━━━━━━━━━━━━━ 12s 80ms/step - accuracy: 0.7012 - loss: 0.8120 - val_loss: 0.9100"),
    Marker("TensorFlow", r"^(?:INFO|WARNING|ERROR):tensorflow:", "INFO:tensorflow:global step 40: loss = 2.7130 "
           "(0.412 sec/step)"),
    Marker("DeepSpeed", r"\[(?:deepspeed|deepscale)\] OVERFLOW!|\bdeepspeed/runtime/"
           r"|\[INFO\] \[(?:stage3|stage_1_and_2|engine|loss_scaler)\.py:\d+:\w+\]",
           "[2024-01-02 03:04:05,600] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 "
           "Skipping step. Attempted loss scale: 4096, reducing to 2048"),
    Marker("Horovod", r"\bhorovod\b|\bhvd\.|\[\d+,\d+\]<std(?:out|err)>:",
           "[1,0]<stdout>:Epoch 1 batch 40 loss=0.61 (hvd.size()=4)"),
)

#: Most specific first (see the module's docstring): the domain tables, then the general rows.
MARKERS: tuple[Marker, ...] = LLM_ROWS + VISION_ROWS + SPEECH_RL_ROWS + _GENERAL_ROWS


#: Every row's pattern in one RE2 pattern (the rows are written in the subset RE2 and Python share): one
#: pass in C++ over the sampled lines picks the few that carry any marker; Python's ``re`` then tells which.
ANY_MARKER = "|".join(f"(?:{m.pattern})" for m in MARKERS)


def _by_markers(text: str, parsed: str | None) -> str | None:
    """``parsed`` unless a row that runs on top of it is found; with no parser framework, the first row found."""
    rows = [m for m in MARKERS if parsed is None or parsed in m.over]
    if not rows or not text:
        return parsed
    lines = pa.array(text.splitlines(), pa.large_string())
    found = "\n".join(lines.filter(pc.match_substring_regex(lines, ANY_MARKER)).to_pylist())
    if found:
        for marker in rows:
            if marker.regex.search(found):
                return marker.framework
    return parsed


def name_framework(text: str, parsed: str | None) -> str | None:
    """The framework of a file from its sampled ``text`` and ``parsed`` (the detected parser's framework).

    The markers decide first (see the module); then the packages the log's own references point at
    (``_tool_evidence``: loggers, source paths, command lines, banners, weighed) name a more specific tool: with nothing named, or over a runner or library other
    tools are built on (``RUNNERS``: MMEngine, the HF Trainer, Megatron-LM, TensorFlow, ...)."""
    marked = _by_markers(text, parsed)
    if marked is not None and marked not in RUNNERS:
        return marked
    found = tool_of(text, over=marked is not None)
    return found or marked

#: The ``framework`` entity names this table can give (for documentation and scoring).
NAMES: tuple[str, ...] = tuple(dict.fromkeys(m.framework for m in MARKERS))

