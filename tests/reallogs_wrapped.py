"""How much of what the log reader gets right survives the layers that wrap a log on its way to a user.

``python tests/reallogs_wrapped.py [REALLOGS_DIR ...] [--wrappers NAME,NAME]`` reads every text log of each set
(default: ``<repo>/../shared/reallogs``, its development part only) as it is and again with one wrapper applied
to every line (a rank's tag, every line printed by two ranks, Ray's worker tag, docker compose's service, glog's header, log4j's, Python's logging
(the Hugging Face examples' format, loguru's, rich's), a date stamp, colours,
``\\r\\n`` line ends, blanks at line ends, a warning every fourth line, a blank line between lines), scores both
against the set's gold (``reallogs_score``) and prints, per wrapper, how many of the fields right as it is are
wrong when wrapped, with each file that lost one. A meaning-preserving rewrite that changes the reading is a
reader that learnt a shape, not a structure; no gold is needed to see it, only the reading as it is.

A wrapper applied to a whole file is not always what a user sees: a console wraps a long record after its
collector's tag (so a wrapped record's continuation has none), and a blank line between the lines of a block
of ``key: value`` lines ends the block. Losses there are the wrapper's, not the reader's: read the files.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reallogs_score as rs  # noqa: E402  -- a sibling script, run from anywhere
from named_option import names_and_sets  # noqa: E402

#: The fields whose loss is counted (the gold's layout and events vary by file).
FIELDS = ("framework", "n_steps", "first_step", "last_step", "last_loss", "last_loss_step", "last_val_loss",
          "last_val_step")


def _each_line(prefix: str) -> Callable[[str], str]:
    return lambda text: "\n".join(prefix + line if line.strip() else line for line in text.split("\n"))


def _warnings(text: str) -> str:
    out = []
    for i, line in enumerate(text.split("\n")):
        out.append(line)
        if i % 4 == 3:
            out.append("/opt/venv/lib/python3.10/site-packages/torch/utils/data/loader.py:561: UserWarning: "
                       "This loader will create 8 worker processes in total.")
    return "\n".join(out)


def _two_ranks(text: str) -> str:
    """Every line printed by two processes, torchrun tagging each, but the last: a file cut in a line cuts it
    once."""
    lines = text.split("\n")
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    out: list[str] = []
    for i, line in enumerate(lines):
        ranks = () if not line.strip() else (1,) if i == last else (0, 1)
        out += [f"[rank{r}]:{line}" for r in ranks] or [line]
    return "\n".join(out)


def _dated(text: str) -> str:
    return "\n".join(
        f"2026-01-02 03:{i // 60 % 60:02d}:{i % 60:02d},{i * 7 % 1000:03d} {line}" if line.strip() else line
        for i, line in enumerate(text.split("\n"))
    )


WRAPPERS: dict[str, Callable[[str], str]] = {
    "crlf": lambda text: text.replace("\n", "\r\n"),
    "two ranks": _two_ranks,
    "date": _dated,
    "torchrun": _each_line("[rank0]: "),
    "ray": _each_line("(RayTrainWorker pid=4242, ip=10.0.0.1) "),
    "compose": _each_line("trainer-1  | "),
    "glog": _each_line("I1203 12:00:00.123456  1234 run.py:42] "),
    "logging": _each_line("12/06/2026 10:00:00 - INFO - __main__ - "),
    "loguru": _each_line("2026-12-06 10:00:00.123 | INFO     | train:main:42 - "),
    "log4j": _each_line("2026-12-06 10:00:00 INFO  Trainer$:88 - "),
    "rich": lambda text: "\n".join(
        f"[12/06/26 10:00:00] INFO     {line:<100}   train.py:42" if line.strip() else line for line in text.split("\n")
    ),
    "colours": lambda text: "\n".join(f"\x1b[32m{line}\x1b[0m" if line.strip() else line for line in text.split("\n")),
    "end blanks": lambda text: "\n".join(line + "   " for line in text.split("\n")),
    "warnings": _warnings,
    "blank lines": lambda text: "\n\n".join(text.split("\n")),
}
#: Files read as data, not text: no wrapper applies.
_NOT_TEXT = (".json", ".jsonl", ".csv", ".tsv", ".tfevents")


def wrapped_losses(root: Path, wrappers: list[str], dev_only: bool) -> dict[str, tuple[int, list[str]]]:
    """Per wrapper: the fields right as read, and a line per file that lost any."""
    golds = [json.loads(line) for line in (root / "gold.jsonl").read_text().splitlines() if line.strip()]
    if dev_only:
        golds = [g for g in golds if rs._split().part(g["file"]) == "dev"]
    out: dict[str, tuple[int, list[str]]] = {name: (0, []) for name in wrappers}
    for gold in golds:
        path = root / "logs" / gold["file"]
        if path.suffix in _NOT_TEXT or ".tfevents" in path.name:
            continue
        text = path.read_text("utf-8", errors="replace")
        plain = rs.score_file(gold, rs.read_file(path), text)
        checked = FIELDS if "last_val_loss" in gold else FIELDS[:6]
        right = [f for f in checked if f not in plain.missed]
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / path.name
            for name in wrappers:
                wrapped = WRAPPERS[name](text)
                copy.write_bytes(wrapped.encode("utf-8", "surrogateescape"))
                score = rs.score_file(gold, rs.read_file(copy), wrapped)
                lost = [m for m in score.mismatches if m.split(":")[0] in right]
                count, files = out[name]
                out[name] = (count + len(right), files + ([f"{gold['file']}: " + " | ".join(lost)] if lost else []))
    return out


def main(argv: list[str]) -> int:
    wrappers, roots = names_and_sets(argv, "--wrappers", WRAPPERS, rs.DEFAULT_SET)
    totals = {name: [0, 0] for name in wrappers}
    for root in roots:
        for name, (right, files) in wrapped_losses(root, wrappers, dev_only=root == rs.DEFAULT_SET).items():
            totals[name][0] += right
            totals[name][1] += sum(line.count(" | ") + 1 for line in files)
            for line in files:
                print(f"{name:12s} {root.name}/{line}")
    for name, (right, lost) in totals.items():
        print(f"{name:12s} {lost} of {right} fields right as read are wrong when wrapped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
