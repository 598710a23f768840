"""Which tool a log's own references point at: the package its loggers and source paths name.

A log refers to the code that printed it: a logger's name (``INFO:ppdet.engine:``, ``- mmpose - INFO -``,
``[d2.utils.events]``, ``yolox.core.trainer:261``), a traceback's frames (``File ".../site-packages/verl/...``,
``File "/home/me/nnUNet/nnunet/training/..."``) and a warning's path. The top-level package most of them
point at names the tool, skipping the carriers (``CARRIERS``, each group with its reason: Python's own modules,
the libraries every script imports such as torch, numpy, absl, tqdm, wandb, and the folders of one's own code)
and, when anything more specific is found, the runners tools are
built on (``RUNNERS``: MMEngine, the HF Trainer, Megatron-LM, DeepSpeed, TensorFlow, ...). ``PACKAGES``
maps a package to its tool where the two are spelled differently (``ppdet`` is PaddleDetection) or where a
repository folder names the tool whose code sits under it (``gpt-neox/megatron/...`` is GPT-NeoX); any
other package names itself (``verl``). A traceback counts once, by its outermost frame in a package: the
caller is the more specific code (a tool's frame sits above the libraries it calls). A path the table does
not know outside ``site-packages`` is a user's own code and names nothing, so a ``train.py`` stays unnamed.

Every ``PACKAGES`` row carries a line that refers to it (``tests/unit/test_logs_frameworks.py`` runs each
through ``parse_log``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HF = "Hugging Face Transformers"
_ELASTIC = "TorchElastic"


@dataclass(frozen=True)
class Package:
    """A package (or the repository folder a tool is cloned into) and the tool it is, where the two are
    spelled differently or the package is a runner; ``example`` is a line that refers to it."""

    package: str
    framework: str
    example: str


#: Packages whose tool goes by another name (``ppdet`` is PaddleDetection); a package not listed names
#: itself (``verl``). Repository folders (``gpt-neox``) name the tool whose code sits under them.
PACKAGES: tuple[Package, ...] = (
    Package("ppdet", "PaddleDetection", "[03/04 05:06:07] ppdet.engine.callbacks INFO: Epoch: [2] [ 40/900] loss: 1.91"),
    Package("ppocr", "PaddleOCR", '  File "/src/PaddleOCR/ppocr/modeling/heads/rec_ctc_head.py", line 40, in forward'),
    Package("ppcls", "PaddleClas", '  File "/src/PaddleClas/ppcls/engine/train/train.py", line 55, in train_epoch'),
    Package("paddleseg", "PaddleSeg", "2023-01-02 03:04:05 [WARNING]\tpaddleseg.cvlibs.config: no val dataset"),
    Package("paddlenlp", "PaddleNLP", "[2024-01-02 03:04:05,600] [    INFO] paddlenlp.trainer.trainer - loss: 2.1"),
    Package("pcdet", "OpenPCDet", '  File "/work/OpenPCDet/pcdet/models/detectors/pv_rcnn.py", line 12, in forward'),
    Package("nnunet", "nnU-Net", '  File "/opt/nnUNet/nnunet/training/network_training/network_trainer.py", line 9'),
    Package("nnunetv2", "nnU-Net", "/env/lib/python3.10/site-packages/nnunetv2/training/loss/dice.py:71: RuntimeWarning"),
    Package("monai", "MONAI", "2022-05-06 07:08:09,100 - monai.engines.trainer - INFO - Epoch: 3/100, Iter: 5/40"),
    Package("open_clip", "OpenCLIP", '  File "/env/lib/python3.11/site-packages/open_clip/loss.py", line 88, in forward'),
    Package("open_clip_train", "OpenCLIP", "INFO:open_clip_train.main:Start epoch 2"),
    Package("verl", "veRL", '  File "/env/lib/python3.10/site-packages/verl/trainer/ppo/ray_trainer.py", line 90'),
    Package("dllogger", "DLLogger", '  File "/workspace/bert/dllogger/logger.py", line 51, in log'),
    Package("mlx_vlm", "MLX VLM", '  File "/env/lib/python3.12/site-packages/mlx_vlm/trainer/trainer.py", line 77'),
    Package("gpt-neox", "GPT-NeoX", '  File "/home/me/gpt-neox/megatron/training.py", line 480, in train_step'),
    Package("mmdet", "MMDetection", "2024-01-02 03:04:05,600 - mmdet.models.losses - WARNING - empty targets"),
    Package("mmdet3d", "MMDetection3D", '  File "/src/mmdet3d/models/detectors/base.py", line 60, in forward'),
    Package("mmseg", "MMSegmentation", '  File "/src/mmseg/models/segmentors/base.py", line 101, in train_step'),
    Package("mmedit", "MMEditing", '  File "/src/mmedit/models/restorers/basic_restorer.py", line 80, in forward'),
    Package("mmpose", "MMPose", '  File "/env/lib/python3.8/site-packages/mmpose/models/heads/hm_head.py", line 2'),
    Package("mmocr", "MMOCR", '  File "/src/mmocr/models/textrecog/recognizers/base.py", line 44, in forward'),
    Package("mmaction", "MMAction2", '  File "/src/mmaction/models/recognizers/base.py", line 130, in forward'),
    Package("mmcls", "MMClassification", '  File "/src/mmcls/models/classifiers/base.py", line 99, in train_step'),
    Package("mmpretrain", "MMPretrain", '  File "/src/mmpretrain/models/heads/cls_head.py", line 10, in loss'),
    Package("d2", "Detectron2", "[04/05 06:07:08 d2.engine.hooks]: Overall training speed: 100 iterations"),
    Package("detectron2", "Detectron2", '  File "/src/detectron2/engine/train_loop.py", line 149, in train'),
    Package("fairseq_cli", "fairseq", '  File "/src/fairseq/fairseq_cli/train.py", line 180, in main'),
    Package("onmt", "OpenNMT", '  File "/src/OpenNMT-py/onmt/trainer.py", line 240, in train'),
    Package("espnet2", "ESPnet", '  File "/src/espnet/espnet2/train/trainer.py", line 290, in run'),
    Package("llamafactory", "LLaMA-Factory", "[INFO|2024-05-06 07:08:09] llamafactory.data.loader:52 >> Loading dataset"),
    Package("llmtuner", "LLaMA-Factory", '  File "/src/LLaMA-Factory/src/llmtuner/tuner/tune.py", line 30, in run_exp'),
    Package("axolotl", "Axolotl", '  File "/src/axolotl/src/axolotl/train.py", line 160, in train'),
    Package("xtuner", "XTuner", '  File "/src/xtuner/xtuner/engine/runner/loops.py", line 30, in run'),
    Package("trl", "TRL", '  File "/env/lib/python3.11/site-packages/trl/trainer/dpo_trainer.py", line 900'),
    Package("yolox", "YOLOX", "2022-01-02 03:04:05 | INFO     | yolox.core.trainer:190 - Training start..."),
    Package("EasyDel", "EasyDeL", '  File "/env/lib/python3.10/site-packages/EasyDel/trainer/base_trainer.py", line 90'),
    Package("easydel", "EasyDeL", '  File "/env/lib/python3.11/site-packages/easydel/trainers/trainer.py", line 410'),
    Package("TTS", "Coqui TTS", '  File "/env/lib/python3.10/site-packages/TTS/tts/models/vits.py", line 1200'),
    Package("yolov7", "YOLOv7", '  File "/data/me/yolov7/utils/loss.py", line 585, in __call__'),
    Package("yolov5", "YOLOv5", '  File "/home/me/yolov5/utils/general.py", line 720, in non_max_suppression'),
    Package("ultralytics", "Ultralytics", '  File "/env/lib/python3.10/site-packages/ultralytics/engine/trainer.py", line 3'),
    Package("torchtune", "torchtune", "INFO:torchtune.utils._logging:Model is initialized with precision torch.bfloat16."),
    Package("litgpt", "LitGPT", '  File "/env/lib/python3.11/site-packages/litgpt/finetune/lora.py", line 200, in fit'),
    Package("olmo", "OLMo", "2024-03-04T05:06:07.890 node0:0 olmo.train:1200 INFO Saving checkpoint"),
    Package("allennlp", "AllenNLP", '  File "/env/lib/python3.7/site-packages/allennlp/training/trainer.py", line 4'),
    Package("speechbrain", "SpeechBrain", "speechbrain.core - Info: ckpt_interval_minutes arg from hparam file: 15"),
    Package("mlx_lm", "MLX LM", '  File "/env/lib/python3.12/site-packages/mlx_lm/tuner/trainer.py", line 260'),
    Package("ignite", "PyTorch Ignite",
            "[2024-01-02 03:04:05.600][ INFO](ignite.engine.engine.SupervisedTrainer) - Epoch: 2/9, Iter: 1/4 -- loss: 1"),
    Package("tensor2tensor", "Tensor2Tensor",
            '  File "/env/lib/python3.6/site-packages/tensor2tensor/utils/trainer_lib.py", line 410, in train'),
    # runners and libraries other tools are built on (``RUNNERS``): they name a run only when nothing sits on top
    Package("mmengine", "MMEngine", '  File "/env/lib/python3.9/site-packages/mmengine/runner/runner.py", line 1'),
    Package("megatron", "Megatron-LM", '  File "/src/Megatron-LM/megatron/training/training.py", line 700'),
    Package("deepspeed", "DeepSpeed", '  File "/env/lib/python3.10/site-packages/deepspeed/runtime/engine.py", line 9'),
    Package("transformers", _HF, "INFO:transformers.trainer:***** Running training *****"),
    Package("pytorch_lightning", "PyTorch Lightning", "INFO:pytorch_lightning.utilities.rank_zero:GPU available: True"),
    Package("lightning", "PyTorch Lightning", "INFO:lightning.pytorch.utilities.rank_zero:GPU available: True"),
    Package("tensorflow", "TensorFlow", '  File "/env/lib/python3.8/site-packages/tensorflow/python/client/session.py"'),
    Package("keras", "Keras", '  File "/env/lib/python3.10/site-packages/keras/src/trainers/trainer.py", line 3'),
    Package("flax", "Flax", '  File "/env/lib/python3.10/site-packages/flax/training/checkpoints.py", line 500'),
    Package("torch_xla", "PyTorch/XLA", '  File "/env/lib/python3.10/site-packages/torch_xla/core/xla_model.py", line 9'),
    Package("colossalai", "Colossal-AI", '  File "/env/lib/python3.10/site-packages/colossalai/booster/booster.py"'),
    Package("horovod", "Horovod", '  File "/env/lib/python3.8/site-packages/horovod/torch/__init__.py", line 30'),
    Package("mindspore", "MindSpore", '  File "/env/lib/python3.9/site-packages/mindspore/train/model.py", line 1000'),
    Package("paddle", "PaddlePaddle", '  File "/env/lib/python3.9/site-packages/paddle/fluid/dygraph/base.py", line 1'),
)
_PACKAGE = {p.package: p.framework for p in PACKAGES}
#: Runners and libraries other tools are built on: a more specific package found beside them wins.
RUNNERS: frozenset[str] = frozenset(
    {_PACKAGE[k] for k in ("mmengine", "megatron", "deepspeed", "transformers", "pytorch_lightning", "tensorflow",
                           "keras", "flax", "torch_xla", "colossalai", "horovod", "mindspore", "paddle")}
    | {_ELASTIC}
)
@dataclass(frozen=True)
class Carrier:
    """Packages a log refers to without their code being the tool that printed it, and why: they carry the
    tool's records (a logging helper, a progress bar), sit under its frames (torch in every traceback) or are
    the names of one's own code. ``example`` is a line that refers to one of them and names no tool."""

    packages: tuple[str, ...]
    reason: str
    example: str


def _carrier(packages: str, reason: str, example: str) -> Carrier:
    return Carrier(tuple(packages.split()), reason, example)


#: The carriers: packages that name no tool, each group with its reason. The tool is the package whose code
#: printed the records; these appear in nearly every log whatever the tool (a traceback passes through
#: Python's modules and torch, a record through a logging helper), so counting them would name every run
#: after them.
CARRIERS: tuple[Carrier, ...] = (
    _carrier("__main__ main root py", "a script's own logger (``logging.getLogger(__name__)`` in the script run, "
             "the root logger, Python's warnings logger): the user's code, not a tool's",
             "2024-01-02 10:00:00 - __main__ - INFO - epoch 1 done"),
    _carrier("""builtins abc argparse asyncio atexit codecs collections concurrent contextlib copy ctypes dataclasses
             datetime distutils encodings enum faulthandler functools gc glob importlib inspect io json logging
             math multiprocessing os pathlib pickle queue random re runpy selectors shutil signal site socket
             socketserver ssl string subprocess sys tempfile threading time timeit traceback typing unittest
             urllib warnings weakref http email xml sqlite3 pdb bdb cProfile profile""",
             "Python's own modules: every traceback, worker and warning passes through them",
             "WARNING:multiprocessing.pool:worker exited"),
    _carrier("torch torchvision torchaudio torchtext torchdata torchmetrics torch_npu habana_frameworks",
             "the tensor library every PyTorch tool calls and its device plug-ins: its frames sit under the "
             "tool's in every traceback",
             "/env/lib/python3.10/site-packages/torch/nn/modules/module.py:1501: UserWarning: hook"),
    _carrier("numpy scipy pandas sklearn skimage PIL cv2 matplotlib seaborn h5py numba numexpr pyarrow cupy",
             "numeric, image and data libraries any script imports",
             "/env/lib/python3.10/site-packages/numpy/core/fromnumeric.py:88: RuntimeWarning: overflow"),
    _carrier("jax jaxlib optax orbax chex", "JAX and its optimiser and checkpoint libraries: what JAX tools "
             "are built from, as torch is for PyTorch tools",
             "/env/lib/python3.11/site-packages/jax/_src/xla_bridge.py:900: UserWarning: no GPU"),
    _carrier("absl google six tqdm rich click typer fire hydra omegaconf jsonargparse yaml ruamel",
             "command-line, configuration and progress-bar helpers: they parse or draw for the tool",
             "I0102 03:04:05.600000 140 absl.logging:12] flags parsed"),
    _carrier("tensorboard tensorboardX wandb mlflow comet_ml neptune",
             "experiment trackers: they record what the tool logs",
             "INFO:wandb.sdk.wandb_run:run synced"),
    _carrier("""datasets huggingface_hub tokenizers safetensors accelerate peft bitsandbytes apex triton xformers
             flash_attn einops timm vllm sglang mmcv""",
             "model-building blocks, kernels and launchers tools import: a training tool calls them",
             "/env/lib/python3.10/site-packages/accelerate/accelerator.py:400: FutureWarning: old flag"),
    _carrier("""ray dask fsspec s3fs boto3 botocore filelock packaging setuptools pkg_resources pip IPython
             ipykernel tornado zmq grpc mpi4py pytest _pytest requests urllib3 aiohttp psutil pynvml GPUtil
             setproctitle tensorrt onnx onnxruntime traitlets jupyter_client jupyter_core ipython_genutils
             nbconvert nbformat notebook jupyter_server debugpy prompt_toolkit""",
             "infrastructure: distribution, storage, networking, packaging, notebooks, device queries, export",
             "/env/lib/python3.10/site-packages/urllib3/connectionpool.py:1100: InsecureRequestWarning: https"),
    _carrier("sentencepiece tiktoken nltk spacy regex lxml", "text processing a data pipeline calls",
             "/env/lib/python3.10/site-packages/nltk/tokenize/punkt.py:30: UserWarning: punkt"),
    _carrier("yapf addict terminaltables prettytable tabulate coloredlogs loguru termcolor colorama",
             "formatting and logging helpers: a record's printer, not its author",
             "/env/lib/python3.10/site-packages/loguru/_logger.py:700: UserWarning: sink"),
    _carrier("""fvcore iopath pycocotools lvis albumentations imgaug nibabel SimpleITK soundfile librosa""",
             "data formats and augmentation for vision, medical images and audio",
             "/env/lib/python3.8/site-packages/pycocotools/coco.py:80: UserWarning: annotations"),
    _carrier("""model models util utils data dataset dataloader engine engines tool tools lib libs src core module
             modules common config configs trainer trainers training train scripts script net nets network
             networks layers ops losses loss eval evaluation evaluator tasks task runner runners callbacks hooks
             helpers misc logger log logs app experiment experiments pipeline solver solvers optim optimizer""",
             "the folders a project of one's own is laid out in (``logging.getLogger('trainer')`` is a user's "
             "logger, ``models/net.py`` a user's module)",
             "2024-01-02 03:04:05,600 - trainer - INFO - epoch 1 done"),
)
#: Every carrier package: counted for no tool.
GENERIC: frozenset[str] = frozenset(p for c in CARRIERS for p in c.packages)
def _generic(top: str) -> bool:
    """Whether a package, module or logger name is a carrier's, also capitalised (a user's logger is named in any
    case: ``logging.getLogger("Model")``)."""
    return top in GENERIC or top.lower() in GENERIC

#: Where a log refers to a module: a logger's name (``INFO:name:``, ``- name - INFO -``, ``- INFO - name -``,
#: ``| INFO | name |``, ``name INFO:``, ``[name.sub]``, ``name.sub:123``) and a source path (a traceback's
#: ``File "..."`` line, a warning's ``/path/file.py:12:``).
_LOGGER = re.compile(
    r"^(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL):(?P<a>[A-Za-z_][\w.]*):"
    # after a time stamp, or first once the file's time-stamp prefix is stripped (``- mmdet.ssod - INFO -``)
    r"|(?:^|\s)- (?P<b>[A-Za-z_][\w.]*) - (?:INFO|WARNING|ERROR|DEBUG|CRITICAL) - "
    r"|(?:^|\s)- (?:INFO|WARNING|ERROR|DEBUG|CRITICAL) - (?P<c>[A-Za-z_][\w.]*) - "
    # (loguru's default layout names the module, its function and line: ``| INFO     | pkg.mod:train:196 - ``)
    r"|\| (?:INFO|WARNING|ERROR|DEBUG) +\| (?P<d>[A-Za-z_][\w.]*)(?: [|:-]|:\w+:\d+ - )"
    # (``%(name)s %(levelname)s:`` after the time: ``seg INFO:``, a project's own capitalised ``DBNet INFO:``)
    r"|(?:^|[\s\]])(?P<e>[a-z_][\w.]*|[A-Z][A-Za-z]*[a-z][\w.]*) (?:INFO|WARNING|ERROR|DEBUG):"
    # a dotted name alone in brackets, or closing a bracketed record header (``[04/14 20:50:27 d2.utils.events]:``)
    r"|\[(?:[^\]\[\n]*\s)?(?P<f>[a-z_]\w*(?:\.\w+)+)\]"
    # (a name padded into a table's column is a layer's, ``synthesis.b4:0      8192   [32, 512, 4, 4]``: no logger)
    r"|(?:^|[\s\[(|])(?P<g>[a-z_]\w*(?:\.[a-z_]\w*)+):\d+\b(?![.:]\d|\s{2})"
    # a logger that prints its name in brackets beside a bracketed level: ``[LightGBM] [Info]``, ``[ACME][INFO]:``;
    # a name ending on a digit is a device or a rank (``[GPU0] [INFO]``, ``[rank1][INFO]``), no tool
    r"|(?:^|[\s\]])\[(?P<h>[A-Za-z][A-Za-z0-9_]*[A-Za-z_])\] ?\[(?i:info|warn|warning|error|debug|fatal|critical)\]"
    # a dotted name in parentheses as a record header's logger: right after the header's bracket
    # (``[ INFO](ignite.engine.engine.SupervisedTrainer) - ...``) or before the message's separator
    # (``(acme.train.loop) - step 3``); each part a name, so a version (``(v1.2)``) is none
    r"|(?:(?<=\])|(?<=\]\s))\((?P<i>[a-z_]\w*(?:\.[A-Za-z_]\w*)+)\)"
    r"|\((?P<j>[a-z_]\w*(?:\.[A-Za-z_]\w*)+)\)(?= - |: )"
    # a record that opens with its logger (``pkg.engine - INFO - ...``), or a dotted logger right after the level
    # (``INFO pkg.engine: ...``, ``2024-01-02 03:04:05 WARNING pkg.data.loader - ...``)
    r"|^(?P<k>[a-z_]\w*(?:\.\w+)*) - (?:INFO|WARNING|ERROR|DEBUG|CRITICAL) - "
    r"|(?:^|[\s\]])(?:INFO|WARNING|ERROR|DEBUG|CRITICAL) +(?P<l>[a-z_]\w+(?:\.[a-z_]\w*)+)(?::| - )"
    # a dotted logger right after the record's time and a bar, before its message (``%(asctime)s | %(name)s:``:
    # ``2023-02-01T10:00:00 | pkg.trainers.loop: Starting``; the bar opens the line once the file's time-stamp
    # prefix is stripped); the bar keeps a flattened config (``optim.lr: 0.1``) out
    r"|(?:^|\d\d:\d\d:\d\d(?:[.,]\d+)? )\| (?P<m>[a-z_]\w*(?:\.[a-z_]\w*)+): "
    # a logger's name in brackets with the process that printed it (``%(name)s/%(processName)s``: ``INFO
    # [pkg/MainProcess] model.fit :``)
    r"|\[(?P<n>[a-z_]\w*(?:\.\w+)*)/(?:MainProcess|(?:Spawn|Fork)?Process-\d+)\]",
    re.M,
)
_PATH = re.compile(
    r"""(?:(?:^|[\s:\]])File "(?P<tb>[^"]+)", line \d|(?P<warn>/[^\s:"']+\.py):\d+: )"""
    # a rich console's frame inside its box: ``│ /env/.../site-packages/pkg/mod.py:197 in train │``
    r"""|[│|] +(?P<rich>/[^\s:"']+\.py):\d+ in \S"""
    # a logger's record header naming the module by its path from the working folder:
    # ``[12-01 10:00:00|INFO|pkg/sub/mod.py:86:fn]``, ``pkg/trainer.py:120]``
    r"""|(?:^|[\s\[|(])(?P<rel>[A-Za-z_]\w*(?:/[\w.-]+)+\.py):\d+[:\]]""",
    re.M,
)
#: The launch command a log opens with, running a package's module (``python -m pkg.train``, ``torchrun ... -m
#: pkg.cli``): the package is the tool's code.
_RUN_MODULE = re.compile(
    r"(?:^|[\s$>])(?:python[\d.]*|torchrun|accelerate launch|deepspeed)\b[^\n]{0,200}?\s-m\s+([A-Za-z_][\w.]*)", re.M
)
_TRACEBACK = re.compile(r"Traceback \(most recent call last\)")
_SITE = re.compile(r"(?:site|dist)-packages/([A-Za-z_]\w*)/")
#: Dotted names that are files or hosts, not modules.
_NOT_MODULE = re.compile(r"\.(?:py|pyc|pt|pth|ckpt|json|yaml|yml|txt|log|sh|cc|cpp|cu|c|h|hpp|go|rs|java|js|ts|com|org|net|io|local|internal|edu)$")


def _module_package(name: str) -> str | None:
    if _NOT_MODULE.search(name):
        return None
    top = name.split(".", 1)[0]
    return None if _generic(top) or not top.isidentifier() else top


def _path_package(path: str) -> str | None:
    """The package a source path belongs to: the folder under ``site-packages``; outside it, the first folder
    the table knows (a repository such as ``gpt-neox`` or a package such as ``nnunet``). A path the table knows
    nothing of is a user's own code: no package."""
    found = _SITE.search(path)
    if found:
        top = found[1]
        return None if _generic(top) else top
    for part in path.replace("\\", "/").split("/")[:-1]:
        if part in _PACKAGE:
            return part
    return None


#: Folders a repository lays its runnable code out in (``examples/``, ``recipes/``): a path from the working
#: folder that starts with one names no package.
_LAYOUT = frozenset("examples example demo demos benchmarks benchmark recipes egs projects playground research "
                    "notebooks third_party external contrib tests test".split())


def _relative_package(path: str) -> str | None:
    """The package a path from the working folder starts with (``pkg/sub/mod.py``): a logger that prints its
    module's path prints it from the folder the package is run from. A layout folder (``examples/``), a
    generic one (``src/``, ``models/``) or a file at the top (``train.py``) names nothing."""
    top = path.split("/", 1)[0]
    return None if _generic(top) or top in _LAYOUT or not top.isidentifier() else top


def evidence(text: str) -> list[tuple[str, str, str]]:
    """(package, kind, line) for every reference: every logger name and warning path; a traceback once, by
    its outermost frame that is in a package (the caller is the more specific code: a tool's frame sits above
    the libraries it calls)."""
    found: list[tuple[str, str, str]] = []
    bare: list[tuple[str, str, str]] = []
    for m in _LOGGER.finditer(text):
        # a bracketed name is printed as its author spells the tool (``LightGBM``); the package is lower case
        top = _module_package(m["h"].lower() if m["h"] else next(g for g in m.groups() if g))
        if top:
            # Python logging's default layout with an undotted name (``INFO:alto_voice:``): a script's own logger,
            # often named after its run's folder, unless the table knows it or the log refers to it otherwise
            (bare if m["a"] and "." not in m["a"] and top not in _PACKAGE else found).append((top, "logger", m[0].strip()))
    for m in _RUN_MODULE.finditer(text):
        top = _module_package(m.group(1))
        if top:
            found.append((top, "python -m", m[0].strip()))
    pending = True  # the current traceback has not counted yet
    for line in text.splitlines():
        if "Traceback" in line and _TRACEBACK.search(line):
            pending = True
            continue
        if ".py" not in line:
            continue
        m = _PATH.search(line)
        if not m:
            continue
        top = _relative_package(m["rel"]) if m["rel"] else _path_package(m["tb"] or m["warn"] or m["rich"])
        every = bool(m["warn"] or m["rel"])  # a warning's path or a record's header counts each time
        if top and (every or pending):
            kind = ("warning path" if m["warn"] else "record path" if m["rel"]
                    else "site-packages frame" if _SITE.search(line) else "known folder frame")
            found.append((top, kind, line.strip()))
            # a runner's frames around the tool's (TensorFlow's ``app.run`` calling a trainer's ``main``): the
            # traceback still counts for the first package below them
            pending = pending and (every or _PACKAGE.get(top, top) in RUNNERS)
    named = {top for top, _kind, _line in found}
    return found + [ref for ref in bare if ref[0] in named]


def references(text: str) -> dict[str, int]:
    """How often each package is referred to (:func:`evidence`)."""
    counts: dict[str, int] = {}
    for top, _kind, _line in evidence(text):
        counts[top] = counts.get(top, 0) + 1
    return counts


@dataclass(frozen=True)
class EntryPoint:
    """A carrier that is a tool in its own right where the log shows its own command line running the script
    (its console script, its CLI module): with nothing more specific named, the run is named after it.
    ``example`` is a line that shows it. (``torchrun``'s own agent is named by the TorchElastic markers.)"""

    package: str
    framework: str
    pattern: str
    example: str


ENTRY_POINTS: tuple[EntryPoint, ...] = (
    EntryPoint("accelerate", "Accelerate",
               r"/bin/accelerate\b|\baccelerate\.commands\.|(?:^|[\s$>])accelerate launch\b",
               "│ /usr/local/bin/accelerate:8 in <module>                                  │"),
)
_ENTRY_POINT = re.compile("|".join(f"(?P<e{i}>{e.pattern})" for i, e in enumerate(ENTRY_POINTS)), re.M)


def _entry_point(text: str) -> str | None:
    """The carrier whose own command line the log shows (``ENTRY_POINTS``), the first one shown."""
    found = _ENTRY_POINT.search(text)
    if not found:
        return None
    return next(e.framework for i, e in enumerate(ENTRY_POINTS) if found[f"e{i}"])


def package_of(text: str, *, over: bool = False) -> str | None:
    """The tool the log's own references point at: the most referred-to package that is not a runner or a
    generic library, through ``PACKAGES`` to its tool's name, else the package's own name (``verl``).
    ``over``: the run is named after a runner already; a package the table does not know must then be
    referred to twice to rename it (one stray frame of an unknown library does not)."""
    counts = {k: v for k, v in references(text).items() if _PACKAGE.get(k, k) not in RUNNERS}
    if over:
        counts = {k: v for k, v in counts.items() if k in _PACKAGE or v >= 2}
    if not counts:
        # nothing but carriers: one whose own command line ran the script names the run
        return None if over else _entry_point(text)
    top = max(counts, key=lambda k: (counts[k], k))
    return _PACKAGE.get(top, top)
