"""Score what the logs operators read from the real-log measuring set against what a person read from it.

``python tests/reallogs_score.py [REALLOGS_DIR] [--pipeline] [--quiet] [--all-mismatches] [--by-field]`` reads every file of ``REALLOGS_DIR/logs``
(default: ``<repo>/../shared/reallogs``) as ``assay run logs`` does: with ``parse_log`` (split, parse, combine in
this process) or, with ``--pipeline``, through ``run_pipeline`` on Ray into a temporary DuckDB file, which is then
queried. It compares the fields of ``gold.jsonl`` and prints each file's mismatches and the share of fields right;
mismatches are printed for the development part only (the test part is only measured), unless
``--all-mismatches`` says the whole set is for development (a held-out set after its one measured reading).

Scoring rules (the set's README): each listed field counts once; ``n_steps``, ``first_step`` and ``last_step`` are
the training records' count, first and last in file order (``record_steps``; where no record has a step, the
records are counted a line each); a loss matches within 1e-3 relative or 0.011
absolute (at most 5 % of the gold), NaN matches NaN and an infinity the same infinity; an event matches an event of the same kind at the exact step, or within +-50 steps
where the gold says the step is implied (``approx``, a ``note``, or no step); events marked ``excluded`` are
left out. ``framework`` compares the run's framework entity through ``FRAMEWORKS``.

A missed field is ``outside text`` when the text never prints its gold value (``outside_field``, decided from
the gold and the log's text only; docs/gold-conventions.md, section 4); beside the totals each part gets a line
with the misses outside the text by field and the share right of the other fields, and a dev mismatch line
ends ``[outside text]``.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SET = REPO.parent / "shared" / "reallogs"

#: The run's framework entity -> the gold's framework key.
FRAMEWORKS = {
    "Megatron-LM": "megatron",
    "Megatron-DeepSpeed": "megatron_deepspeed",
    "DeepSpeed": "deepspeed",
    "Nanotron": "nanotron",
    "TorchTitan": "torchtitan",
    "NeMo": "nemo",
    "Hugging Face Transformers": "hf_trainer",
    "PyTorch Lightning": "lightning",
    "nanoGPT": "nanogpt",
    "Colossal-AI": "colossalai",
    "Horovod": "horovod",
    "TorchElastic": "torchelastic",
    # tools named by the framework markers (operators/logs/_frameworks.py), no parser of their own
    "DeepSpeed-Chat": "deepspeed_chat",
    "TRL": "trl",
    "LLaMA-Factory": "llamafactory",
    "Axolotl": "axolotl",
    "XTuner": "xtuner",
    "MMDetection3D": "mmdet3d",
    "MMDetection": "mmdet",
    "MMSegmentation": "mmseg",
    "MMEditing": "mmediting",
    "MMPose": "mmpose",
    "MMOCR": "mmocr",
    "MMAction2": "mmaction2",
    "MMClassification": "mmcls",
    "MMPretrain": "mmpretrain",
    "MMEngine": "mmengine",
    "Detectron2": "detectron2",
    "YOLOX": "yolox",
    "YOLOv5": "yolov5",
    "Ultralytics": "ultralytics",
    "fairseq": "fairseq",
    "torchtune": "torchtune",
    "LitGPT": "litgpt",
    "Composer": "composer",
    "OLMo": "olmo",
    "OpenNMT": "opennmt",
    "ESPnet": "espnet",
    "icefall": "icefall",
    "kohya-ss sd-scripts": "kohya_sd_scripts",
    "Diffusers": "diffusers",
    "modded-nanogpt": "modded_nanogpt",
    "MLX LM": "mlx_lm",
    "PyTorch/XLA": "pytorch_xla",
    "MaxText": "maxtext",
    "Flax": "flax",
    "PaddleOCR": "paddleocr",
    "PaddleDetection": "paddledetection",
    "PaddleSeg": "paddleseg",
    "PaddleNLP": "paddlenlp",
    "OneFlow": "oneflow",
    "MindSpore": "mindspore",
    "SpeechBrain": "speechbrain",
    "timm": "timm",
    "Keras": "keras",
    "TensorFlow": "tensorflow",
    "Unsloth": "unsloth",
    "PaddleClas": "paddleclas",
    "Marian": "marian",
    "Sockeye": "sockeye",
    "AllenNLP": "allennlp",
    "T5X": "t5x",
    "Levanter": "levanter",
    "fastai": "fastai",
    "Stable-Baselines3": "stable_baselines3",
    "GPT-NeoX": "gpt_neox",
    "nnU-Net": "nnunet",
    "DLLogger": "dllogger",
    "veRL": "verl",
    "OpenCLIP": "open_clip",
    "MONAI": "monai",
    "tensorpack": "tensorpack",
    "MLX VLM": "mlx_vlm",
    "OpenPCDet": "openpcdet",
    "PaddlePaddle": "paddle",
    "ms-swift": "swift",
    "skorch": "skorch",
    "Caffe": "caffe",
    "MXNet": "mxnet",
    "Flair": "flair",
    "RecBole": "recbole",
    "darkflow": "darkflow",
    "Coqui TTS": "coqui_tts",
    "WeNet": "wenet",
    "3D Gaussian Splatting": "gaussian_splatting",
    "OpenRLHF": "openrlhf",
    "trlx": "trlx",
    "Detectron": "detectron",
    "MMSkeleton": "mmskeleton",
    "PaddleSpeech": "paddlespeech",
    "NeMo AutoModel": "nemo_automodel",
    "DeepFaceLab": "deepfacelab",
    "fastText": "fasttext",
    "DLRM": "dlrm",
    "RLlib": "rllib",
    "guided-diffusion": "guided_diffusion",
    "EasyDeL": "easydel",
    "YOLOv7": "yolov7",
    # a package the framework table does not know names the run by itself (``verl``), as the gold's keys do
}
LAYOUT_FIELDS = ("world_size", "dp", "tp", "pp", "micro_batch_size", "global_batch_size")
#: Metric names that are not training-step values (a record holding only these is not a training step).
_NOT_TRAINING = ("val_", "eval_", "test_")
_IMPLIED_TOLERANCE = 50
#: The gold's event words that differ from the contract's kinds (``events.kind``).
_KIND = {"preemption": "preempted"}


@dataclass
class Read:
    """What the operators read from one file, reduced to the gold's fields."""

    framework: str | None
    #: the training records' steps in file order (see ``record_steps``): their count is ``n_steps``, the
    #: first and the last are ``first_step`` and ``last_step``
    steps: list[int]
    last_loss: tuple[int | None, float] | None
    last_val: tuple[int | None, float] | None
    layout: dict[str, Any]
    events: list[tuple[str, int | None]]
    #: where no training record has a step (loss dicts with no step key and no bar): the records, a line each,
    #: counted in file order as the gold counts them; ``first_step`` and ``last_step`` stay unknown
    stepless: int = 0


@dataclass
class FileScore:
    file: str
    right: int = 0
    total: int = 0
    mismatches: list[str] = field(default_factory=list)
    #: the names of the fields that missed (``framework``, ``last_loss``, ``event:oom`` ...)
    missed: list[str] = field(default_factory=list)
    #: those of ``missed`` whose gold value the text never prints (``outside_field``)
    outside: list[str] = field(default_factory=list)

    def check(self, name: str, ok: bool, got: Any, want: Any, outside: bool = False) -> None:
        self.total += 1
        if not ok:
            self.missed.append(name)
        if ok:
            self.right += 1
        else:
            if outside:
                self.outside.append(name)
            tag = " [outside text]" if outside else ""
            self.mismatches.append(f"{name}: got {got!r}, want {want!r}{tag}")


def reduce(
    run: dict[str, Any], metric_rows: list[tuple], events: list[tuple[str, int | None]], lines: list[int] | None = None
) -> Read:
    """The gold's fields from a run row, its ``(step, name, value)`` rows in line order (``lines``: each row's line)
    and its events."""
    last_loss = last_val = None
    for step, name, value in metric_rows:
        if name == "loss":
            last_loss = (step, value)
        elif name == "val_loss":
            last_val = (step, value)
    return Read(
        framework=FRAMEWORKS.get(run.get("framework") or "", run.get("framework")),
        steps=record_steps(metric_rows),
        last_loss=last_loss,
        last_val=last_val,
        layout={k: run.get(k) for k in LAYOUT_FIELDS},
        events=events,
        stepless=len({
            line for line, (step, name, _) in zip(lines or [], metric_rows, strict=False)
            if step is None and not name.startswith(_NOT_TRAINING) and "epoch" not in name
        }),
    )


def record_steps(metric_rows: list[tuple]) -> list[int]:
    """The steps of the training records in file order, as the gold counts them (``n_steps`` is the number of
    records, ``first_step`` and ``last_step`` the first and the last in file order): a record is a step's
    first row within a stretch of the run whose counter goes on; a counter going back to the stretch's first
    step or below starts another (an in-epoch counter starting again, a second run), where a step seen before
    is a record again. A counter going back a little (ranks printing out of order) stays in its stretch.
    Per-epoch aggregates (``train_loss_epoch``, ``epoch_time``) and evaluation values are no records."""
    out: list[int] = []
    seen: set[int] = set()
    first = None
    for step, name, _ in metric_rows:
        if step is None or name.startswith(_NOT_TRAINING) or "epoch" in name:
            continue
        if out and step < out[-1] and first is not None and step <= first:
            seen = set()
        if not seen:
            first = step
        if step not in seen:
            seen.add(step)
            out.append(step)
    return out


def read_file(path: Path) -> Read:
    """One file through the operators in this process."""
    from assay.operators.logs import parse_log

    log = parse_log(str(path))
    table = log.metrics.sort_by([("line_no", "ascending")])
    rows = list(zip(*(table.column(c).to_pylist() for c in ("step", "name", "value")), strict=True))
    return reduce(log.run, rows, [(e["kind"], e.get("step")) for e in log.events], table.column("line_no").to_pylist())


def read_with_pipeline(logs: Path, db: Path) -> dict[str, Read]:
    """Every file under ``logs`` through ``run_pipeline`` into ``db``; the result by path relative to ``logs``."""
    import duckdb

    from assay.dsl import load_pipeline
    from assay.runtime import run_pipeline

    run_pipeline(load_pipeline("logs"), [logs], db=db, progress=False)
    reads: dict[str, Read] = {}
    with duckdb.connect(str(db), read_only=True) as con:
        cursor = con.execute("select * from runs")
        columns = [d[0] for d in cursor.description]
        for row in cursor.fetchall():
            run = dict(zip(columns, row, strict=True))
            rows = con.execute(
                "select step, name, value, line_no from metrics where run_id = ? order by line_no, rank",
                [run["run_id"]],
            ).fetchall()
            events = con.execute("select kind, step from events where run_id = ?", [run["run_id"]]).fetchall()
            key = Path(run["source_uri"]).resolve().relative_to(logs.resolve()).as_posix()
            reads[key] = reduce(run, [r[:3] for r in rows], events, [r[3] for r in rows])
    return reads


def same_loss(got: float | None, want: float | None) -> bool:
    if got is None or want is None:
        return got is None and want is None
    if math.isnan(want) or math.isnan(got):
        return math.isnan(want) and math.isnan(got)
    if math.isinf(want) or math.isinf(got):
        return got == want
    # 0.011 absolute forgives a loss rounded to two places; capped at 5 % of the gold so that a small
    # loss (0.004) does not match any other small number
    return abs(got - want) <= max(1e-3 * abs(want), min(0.011, 0.05 * abs(want)))


def _event_found(want: dict[str, Any], events: list[tuple[str, int | None]]) -> bool:
    implied = want.get("approx") or want.get("note") or want.get("step") is None
    kind = _KIND.get(want["kind"], want["kind"])
    candidates = [s for k, s in events if k == kind]
    if want.get("step") is None:
        return bool(candidates)
    tolerance = _IMPLIED_TOLERANCE if implied else 0
    return any(s is not None and abs(s - want["step"]) <= tolerance for s in candidates)


#: Tools that gold files may key by another name than the entity's letters: the package's and the project's
#: (ms-swift is ``swift``, MMTracking's package ``mmtrack``), or the repository the code was first published in
#: (InternEvo's training code came out in the InternLM repository), a fork of the same code (keras-rl2), or the
#: short name (OpenAI's ``baselines``, Pax for Paxml).
TOOL_ALIASES = {"msswift": "swift", "mmtracking": "mmtrack", "internlm": "internevo", "kerasrl2": "kerasrl",
                "baselines": "openaibaselines", "pax": "paxml", "pyslowfast": "slowfast", "pytorchignite": "ignite"}


def tool_key(name: str | None) -> str | None:
    """A tool's name as its letters and digits, lower-cased: a package's spellings (``vowpal_wabbit``,
    ``vowpalwabbit``, ``Vowpal Wabbit``, ``llama-recipes``) are one tool, as a reader of the log would say."""
    if name is None:
        return None
    key = re.sub(r"[^0-9a-z]", "", name.lower())
    return TOOL_ALIASES.get(key, key)


def same_tool(read: str | None, want: str | None) -> bool:
    return tool_key(read) == tool_key(want)


def tool_names(key: str) -> set[str]:
    """Every name this scorer takes for the tool keyed ``key``: the key, the framework entities it stands for,
    and the ``TOOL_ALIASES`` of it."""
    want = tool_key(key)
    names = {key}
    names |= {e for e, k in FRAMEWORKS.items() if want in (tool_key(e), tool_key(k))}
    names |= {k for k in FRAMEWORKS.values() if tool_key(k) == want}
    names |= {a for a, k in TOOL_ALIASES.items() if want in (a, k)} | {k for k in TOOL_ALIASES.values() if k == want}
    return names


#: Fields whose gold value is a number the log prints as it is (rules L3, L4, L6): missed, they are outside the
#: text when the text prints no such number. Steps are not: a step is read from printed numbers by rules L2 and
#: D7 (an in-epoch counter made global, the next of a sequence, a record counted), so an unprinted step does not
#: say that a reader could not get it; an epoch base the text never shows (D6) the gold marks in ``outside_text``.
#: ``n_steps`` and events are counted or placed by the reading rules, never printed as such.
PRINTED_FIELDS = ("last_loss", "last_val_loss")


def outside_field(name: str, gold: dict[str, Any], text: str | None) -> bool:
    """Whether the missed field ``name`` has a gold value the text never prints: listed in the gold's
    ``outside_text``; a tool named by none of its names (``tool_names``, any usual spelling); a loss or a layout
    number the text prints at no precision (``outside_text.number_printed``). Everything else is in the text."""
    listed = set(gold.get("outside_text") or ())
    if name in listed or name.split(".")[0] in listed or (name.startswith("event ") and "events" in listed):
        return True
    if text is None:
        return False
    if name == "framework":
        want = gold["framework"]
        return want not in (None, "custom") and not _outside.name_printed(tool_names(want), text)
    if name in PRINTED_FIELDS:
        want = gold.get(name)
    elif name.startswith("layout."):
        want = gold["layout"].get(name.split(".", 1)[1])
    else:
        return False
    return isinstance(want, int | float) and not isinstance(want, bool) and not _outside.number_printed(want, text)


def score_file(gold: dict[str, Any], read: Read, text: str | None = None) -> FileScore:
    """One file's fields scored; with the log's ``text``, each miss is also classified (``outside_field``)."""
    score = FileScore(gold["file"])

    def check(name: str, ok: bool, got: Any, want: Any) -> None:
        score.check(name, ok, got, want, outside=not ok and outside_field(name, gold, text))

    # "custom" is the gold's word for a user's own script: no framework name is right there
    want_framework = None if gold["framework"] == "custom" else gold["framework"]
    check("framework", same_tool(read.framework, want_framework), read.framework, want_framework)
    n_steps = len(read.steps) or read.stepless
    check("n_steps", n_steps == gold["n_steps"], n_steps, gold["n_steps"])
    first = read.steps[0] if read.steps else None
    last = read.steps[-1] if read.steps else None
    check("first_step", first == gold["first_step"], first, gold["first_step"])
    check("last_step", last == gold["last_step"], last, gold["last_step"])
    step, value = read.last_loss or (None, None)
    check("last_loss", same_loss(value, gold["last_loss"]), value, gold["last_loss"])
    check("last_loss_step", step == gold["last_loss_step"], step, gold["last_loss_step"])
    if "last_val_loss" in gold:
        step, value = read.last_val or (None, None)
        check("last_val_loss", same_loss(value, gold["last_val_loss"]), value, gold["last_val_loss"])
        check("last_val_step", step == gold.get("last_val_step"), step, gold.get("last_val_step"))
    for key, want in gold["layout"].items():
        check(f"layout.{key}", read.layout.get(key) == want, read.layout.get(key), want)
    for want in gold["events"]:
        if want.get("excluded"):
            continue
        found = _event_found(want, read.events)
        check(f"event {want['kind']}@{want.get('step')}", found, read.events, want["kind"])
    return score


def score_set(root: Path = DEFAULT_SET, *, pipeline_db: Path | None = None) -> list[FileScore]:
    """Every gold file scored; read by the operators in this process, or by the pipeline into ``pipeline_db``."""
    golds = [json.loads(line) for line in (root / "gold.jsonl").read_text().splitlines() if line.strip()]

    def text(gold: dict[str, Any]) -> str:
        return (root / "logs" / gold["file"]).read_text("utf-8", errors="replace")

    if pipeline_db is None:
        return [score_file(gold, read_file(root / "logs" / gold["file"]), text(gold)) for gold in golds]
    reads = read_with_pipeline(root / "logs", pipeline_db)
    missing = Read(None, [], None, None, {}, [])  # a file the pipeline wrote no run for scores nothing
    return [score_file(gold, reads.get(gold["file"], missing), text(gold)) for gold in golds]


def share_right(scores: list[FileScore]) -> float:
    total = sum(s.total for s in scores)
    return sum(s.right for s in scores) / total if total else 0.0


def _sibling(name: str):
    """A module of this folder by file (``shared_split``, ``outside_text``), however this script is loaded."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _split():
    return _sibling("shared_split")


_outside = _sibling("outside_text")


def _kind(missed: str) -> str:
    """The field of a missed name: ``layout.tp`` as it is, ``event oom@120`` as ``event``."""
    return missed.split(":")[0].split(" ")[0]


def reachable_line(name: str, part: list[FileScore]) -> str:
    """A part's fields right, its misses outside the text by field, and the share right of the other fields."""
    right, total = sum(s.right for s in part), sum(s.total for s in part)
    counts: dict[str, int] = {}
    for s in part:
        for missed in s.outside:
            counts[_kind(missed)] = counts.get(_kind(missed), 0) + 1
    k = sum(counts.values())
    fields = f" ({', '.join(f'{f} {n}' for f, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))})" if k else ""
    reachable = total - k
    share = 100 * right / reachable if reachable else 0.0
    return (
        f"  {name:<4} fields right: {right}/{total} = {100 * right / total if total else 0.0:.1f} % ; "
        f"misses outside the text: {k}{fields} ; right of the reachable fields: {right}/{reachable} = {share:.1f} %"
    )


def by_part(scores: list[FileScore]) -> dict[str, list[FileScore]]:
    """The scores of the development and the test part of the set (``tests/shared_split.py``)."""
    split = _split()
    parts: dict[str, list[FileScore]] = {split.DEV: [], split.TEST: []}
    for s in scores:
        parts[split.part(s.file)].append(s)
    return parts


#: The options ``main`` reads; any other is refused, so a mistyped one is not silently ignored.
OPTIONS = ("--pipeline", "--quiet", "--all-mismatches", "--by-field")


def main(argv: list[str]) -> int:
    unknown = [a for a in argv if a.startswith("--") and a not in OPTIONS]
    if unknown:
        print(f"unknown option {unknown[0]}: the options are {', '.join(OPTIONS)}")
        return 2
    quiet = "--quiet" in argv
    # a set that is development through and through (a held-out set once it has been measured) shows every file
    show_all = "--all-mismatches" in argv
    args = [a for a in argv if not a.startswith("--")]
    root = Path(args[0]) if args else DEFAULT_SET
    if not (root / "gold.jsonl").exists():
        print(f"no gold.jsonl under {root}; nothing to score")
        return 2
    if "--pipeline" in argv:
        with tempfile.TemporaryDirectory() as tmp:
            scores = score_set(root, pipeline_db=Path(tmp) / "assay.duckdb")
    else:
        scores = score_set(root)
    split = _split()
    for s in scores:
        # the test part is only measured: its files' mismatches are never shown (tests/shared_split.py)
        if split.part(s.file) != split.DEV and not show_all:
            continue
        if s.mismatches or not quiet:
            print(f"{s.right:>2}/{s.total:<2} {s.file}")
            for mismatch in s.mismatches:
                print(f"        {mismatch}")
    right, total = sum(s.right for s in scores), sum(s.total for s in scores)
    for name, part in by_part(scores).items():
        r, t = sum(s.right for s in part), sum(s.total for s in part)
        print(f"  {name:<4} ({len(part)} files): {r}/{t} = {100 * share_right(part):.1f} %")
    print(f"fields right: {right}/{total} = {100 * share_right(scores):.1f} %")
    if "--by-field" in argv:
        # which fields miss, counted per part: a test part's misses by kind, never by file
        for name, part in by_part(scores).items():
            counts: dict[str, int] = {}
            for s in part:
                for missed in s.missed:
                    kind = _kind(missed)
                    counts[kind] = counts.get(kind, 0) + 1
            print(f"  {name:<4} misses by field: " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items(), key=lambda kv: -kv[1])))
    # beside the totals: the misses of a value the text never prints, and the share right of the rest
    for name, part in {**by_part(scores), "all": scores}.items():
        print(reachable_line(name, part))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
