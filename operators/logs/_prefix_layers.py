"""The layers that wrap a log's lines on their way to a user, learnt per file from its head: a pasted quote, a
viewer's line numbers, a date stamp, a collector's tag (Ray, docker compose, kubectl), a logger's header (Python's
logging, loguru, rich, glog, log4j), and the rank styles of ``_lines``. The learnt ``PrefixStyle`` is what the parsers
and ``LineBlock`` take off each line."""

from __future__ import annotations

import re

from assay.operators.logs._lines import PREFIX_STYLES, PrefixStyle

#: A logger's level word.
_LEVEL = r"(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|FATAL|TRACE|SUCCESS|NOTICE)"
#: Layers that wrap a log's own text, outermost first: a markdown quote of a pasted log, a log viewer's line
#: number, a markdown list's number, a host name (pdsh, some launchers), a date stamp put in front by a logger or
#: ``ts``, the tags that collectors put on every line they pass on (Ray's worker tag, docker compose's service
#: name, ``kubectl logs --prefix``'s pod and container) and the headers loggers write (a level tag, Python's
#: logging in its usual set-ups, glog's). A file's prefix is the layers (and the one rank style) that at least a
#: third of its lines carry, in any order. Each entry: the pattern, and an example line it peels
#: (``tests/unit/test_logs_line_wrappers.py`` reads every one through ``parse_log``).
#: A date and time as loggers stamp them: 2024-05-06 or, as PaddlePaddle's tools print it, [2024/05/06 07:08:09];
#: month first as Python's logging is often told to print it (``datefmt="%m/%d/%Y %H:%M:%S"``, the Hugging Face
#: examples' and nanotron's).
_DATE = (
    r"[ \t]*\[?(?:\d{4}(?:-\d{2}-\d{2}|/\d{2}/\d{2})|\d{2}/\d{2}/\d{4})[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?"
    r"(?:Z|[+-]\d{2}:?\d{2})?\]?:?(?:[ \t]+|$)"
)
_LAYER_TABLE = {
    "quote": (r">[ \t]?", "> step 10 loss 2.5"),
    "lineno": (r"\[\d{1,9}\][ \t]", "[12] step 10 loss 2.5"),
    # a markdown list's numbers (``1.  ``, ``2.  ``) a pasted excerpt was given, an emphasis mark glued to one
    "listno": (r"_?\d{1,4}\.[ \t]+", "3.  step 10 loss 2.5"),
    "host": (r"[A-Za-z][\w-]*\d[\w.-]*: ", "gpu-node07: step 10 loss 2.5"),  # pdsh, clush: the node's name
    "date": (_DATE, "2024-05-06 07:08:09,123 step 10 loss 2.5"),
    # a logger's short upper-case tag before its date (NVIDIA's DLLogger stdout backend: ``DLL 2024-05-06
    # 07:08:09.123456 - ``), taken off with the date it tags: the tag is no key of a value the year would be
    "dated_tag": (rf"[A-Z][A-Z0-9]{{1,7}}[ \t]+{_DATE}(?:-[ \t]+)?", "DLL 2024-05-06 07:08:09.123456 - step 10 loss 2.5"),
    # a date written with the day's and the month's names: ``%a %d %b %Y %H:%M:%S`` (RecBole's logger, ``Thu 03
    # Sep 2026 16:34:10``) or C's ``asctime`` (``Thu Sep  3 16:34:10 2026``)
    "dayname": (
        r"[ \t]*\[?(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[ \t]+(?:\d{1,2}[ \t]+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct"
        r"|Nov|Dec)[ \t]+\d{4}[ \t]+\d{2}:\d{2}:\d{2}|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[ \t]+\d{1,2}"
        r"[ \t]+\d{2}:\d{2}:\d{2}[ \t]+\d{4})\]?:?(?:[ \t]+|$)",
        "Tue 05 Mar 2024 07:08:09 INFO  step 10 loss 2.5",
    ),
    # a bracketed date of two-digit parts and its time, joined by a space or a bar (torchlight's, ST-GCN's
    # ``[03.24.23|09:56:11]``)
    # (not rich's ``[05/06/24 07:08:09]``, whose level follows: its own layer below)
    "stamp": (r"\[(?:\d{2}\.\d{2}\.\d{2,4}[ |T]|\d{2}[/-]\d{2}[/-]\d{2,4}\|)\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\][ \t]+",
              "[05.06.24|07:08:09] step 10 loss 2.5"),
    # Ray forwards each worker's output tagged with its actor (or task) and process: ``(RayTrainWorker
    # pid=4242, ip=10.0.0.1)``, ``(pid=4242)``
    "ray": (r"\((?:[\w.-]+ )?pid=\d+(?:, ip=[\d.]+)?\)[ \t]", "(RayTrainWorker pid=4242, ip=10.0.0.1) step 10 loss 2.5"),
    # docker compose: the service's container name, padded, and a bar
    "compose": (r"[A-Za-z][\w.-]*[-_]\d+[ \t]+\|[ \t]?", "trainer-1  | step 10 loss 2.5"),
    "pod": (r"\[pod/[\w.-]+/[\w.-]+\][ \t]", "[pod/trainer-0/main] step 10 loss 2.5"),
    # a logger's level with the process's coordinates (nanotron: ``[INFO|DP=0|PP=0|TP=0]:``): the ranks of a
    # parallel layout, no values of the run
    "level": (r"\[(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL)\|[\w=|.,-]{1,80}\]:?[ \t]",
              "[INFO|DP=0|PP=1|TP=0]: step 10 loss 2.5"),
    # Python's logging, as its formats are usually set: ``- INFO - __main__ - `` after the date (the Hugging
    # Face examples', MMEngine's ``- mmdet - INFO - ``), ``INFO:__main__:`` (``basicConfig``'s default), loguru's
    # ``| INFO     | train:main:42 - ``, rich's handler ``[12/06/26 10:00:00] INFO     ``
    "logger": (rf"-[ \t]+(?:{_LEVEL}[ \t]+-[ \t]+[\w.<>-]+|[\w.<>-]+[ \t]+-[ \t]+{_LEVEL})[ \t]+-[ \t]",
               "2024-05-06 07:08:09,123 - INFO - __main__ - step 10 loss 2.5"),
    # the same with a dash a format string wrote as an en or em dash
    "logger_dash": (rf"[–—][ \t]+[\w.<>-]+[ \t]+[–—][ \t]+{_LEVEL}[ \t]+[–—][ \t]",
                    "2024-05-06 07:08:09,123 — trainer.vpg — INFO — step 10 loss 2.5"),
    # the level and the time in brackets before a dash (WeNet's family of speech toolkits, WeSpeaker and WeSep:
    # ``format='[ %(levelname)s : %(asctime)s ] - %(message)s'``)
    "level_time": (rf"\[[ \t]*{_LEVEL}[ \t]*:[ \t]*\d{{4}}-\d{{2}}-\d{{2}}[ T]\d{{2}}:\d{{2}}:\d{{2}}(?:[.,]\d+)?[ \t]*\][ \t]*-[ \t]",
                   "[ INFO : 2024-05-06 07:08:09,123 ] - step 10 loss 2.5"),
    "pylevel": (rf"{_LEVEL}:[\w.<>-]*:[ \t]?", "INFO:__main__:step 10 loss 2.5"),
    "loguru": (rf"\|[ \t]*{_LEVEL}[ \t]*\|[ \t]*[\w.<>-]+:[\w.<>-]+:\d+[ \t]+-[ \t]",
               "2024-05-06 07:08:09.123 | INFO     | train:main:42 - step 10 loss 2.5"),
    "rich": (rf"\[(?:\d{{2}}/\d{{2}}/\d{{2,4}} )?\d{{2}}:\d{{2}}:\d{{2}}\][ \t]+{_LEVEL}[ \t]+",
             "[05/06/24 07:08:09] INFO     step 10 loss 2.5"),
    # glog's (absl's) header, but not a FATAL line's: the event rules read that one as it is
    "glog": (r"[IWE]\d{4} \d{2}:\d{2}:\d{2}\.\d{6}[ \t]+\d+ [\w.-]+:\d+\][ \t]",
             "I1203 12:00:00.123456  1234 train.py:42] step 10 loss 2.5"),
    # log4j's (and logback's) usual layouts, as JVM tools (Spark, BigDL, Flink) print: the level, perhaps the
    # thread, the class with its line, a dash (``%-5p [%t] %c{1}:%L - %m``)
    "log4j": (rf"{_LEVEL}[ \t]+(?:\[[^\]\n]{{1,40}}\][ \t]+)?[A-Za-z_$][\w$.]*(?::\d+)?[ \t]+-[ \t]",
              "INFO  DistriOptimizer$:392 - step 10 loss 2.5"),
    # the same layout from Python's logging, a colon for the dash: the level, the logger and process in brackets,
    # the module and function (``%(levelname)s [%(name)s/%(processName)s] %(module)s.%(funcName)s : ``)
    "pybracket": (rf"{_LEVEL}[ \t]+\[[^\]\n]{{1,60}}\][ \t]+[A-Za-z_][\w.<>]*[ \t]+:[ \t]",
                  "2024-05-06 07:08:09,123 INFO [tool/MainProcess] model._log_history : step 10 loss 2.5"),
    # a logger's fields parted by tabs, the level last (``%(asctime)s\t%(hostname)s:%(rank)s\t%(name)s:%(lineno)s
    # \t%(levelname)s\t%(message)s``, OLMo's): the host's name, the rank and the source line are no values
    "tabbed": (rf"(?:[^\t\n]{{1,80}}\t){{0,3}}{_LEVEL}\t", "node-07:0\ttrain.loop:88\tINFO\tstep 10 loss 2.5"),
}
_LAYERS = {name: pattern for name, (pattern, _example) in _LAYER_TABLE.items()}
#: Each layer's example line, for the test that reads them through ``parse_log``.
LAYER_EXAMPLES = {name: example for name, (_pattern, example) in _LAYER_TABLE.items()}
_LAYER_RE = {name: re.compile(pattern) for name, pattern in _LAYERS.items()}
_MAX_LAYERS = 4


def detect_prefix(head_lines: list[str]) -> PrefixStyle | None:
    """The prefix at least a third of the head's non-empty lines carry, if any: one of ``PREFIX_STYLES``, or
    a ``learnt`` style when wrapping layers (quote, line number, date stamp) come with or instead of it."""
    lines = [ln for ln in head_lines if ln.strip()]
    if not lines:
        return None
    # a record printed over several lines (its values indented under its header) is one record: the share is
    # of the lines that open one, where some lines open at the margin and others are indented under them
    openers = [ln for ln in lines if not ln[0].isspace()]
    if len(openers) >= 2 and len(openers) < len(lines):
        lines = openers
    counts = dict.fromkeys((*_LAYERS, *(s.name for s in PREFIX_STYLES)), 0)
    styles = {s.name: s.pattern for s in PREFIX_STYLES if "rank" in s.pattern.groupindex}
    # what those layers read, line by line
    peeled: dict[str, list[str]] = {"lineno": [], "listno": [], **{n: [] for n in _REPEATED_TAGS}}
    for line in lines:
        for name, text in _peel(line, {**_LAYER_RE, **styles}):
            counts[name] += 1
            if name in peeled:
                peeled[name].append(text)
    common = [n for n, c in counts.items() if c * 3 >= len(lines) and c >= 2]
    if "lineno" in common and (not _numbers_every_line(peeled["lineno"]) or _tabbed(peeled["lineno"])):
        common.remove("lineno")  # ``[10]\ttraining's logloss``: a round counted in brackets, no viewer's numbering
    if "listno" in common and not _numbers_every_line(peeled["listno"]):
        common.remove("listno")  # ``1. 5 2.0``: a number that opens a line of numbers, no list's numbering
    for name in _REPEATED_TAGS:
        if name in common and not _repeats(peeled[name]):
            common.remove(name)  # ``resnet-50  | 0.76``: a table's first column, each row its own, no service's tag
    if "srun" in common and _counts_up(lines, styles["srun"]):
        common.remove("srun")  # `` 1000: 2.31, 2.40 avg loss``: an iteration counter opens each line, no rank
    rank_styles = [n for n in common if n in styles]
    rank = max(rank_styles, key=lambda n: counts[n]) if rank_styles else None
    return _layered([n for n in common if n in _LAYERS], rank)


def _layered(layers: list[str], rank: str | None) -> PrefixStyle | None:
    """The style of ``layers`` (names of ``_LAYERS``) and the rank style ``rank``, in any order."""
    rank_style = next((s for s in PREFIX_STYLES if s.name == rank), None)
    if not layers:
        return rank_style
    parts = [_LAYERS[n] for n in layers]
    if rank_style is not None:
        parts.append(rank_style.pattern.pattern.lstrip("^"))
    name = "+".join([*layers, *([rank] if rank_style else [])])
    # blanks may part one layer from the next (``[rank0]: > ...``); those after the last stay the line's own
    return PrefixStyle(name, re.compile(f"^(?:[ \\t]*(?:{'|'.join(parts)})){{0,{_MAX_LAYERS}}}"))


#: Layers that say which tool printed a line: glog's header names its source file and line (``solver.cpp:219]``,
#: ``logging_writer.py:35]``), a level tag its logger's format (``[INFO|DP=0|PP=0|TP=0]:``, nanotron's), a
#: Python logger its name (``- mmdet - INFO -``, ``INFO:tensorflow:``, loguru's module), a dated tag its logger
#: (``DLL 2024-05-06 ...``, DLLogger's).
_TOOL_EVIDENCE = (
    "glog", "level", "logger", "logger_dash", "pylevel", "loguru", "log4j", "pybracket", "dated_tag", "tabbed"
)


def for_detection(style: PrefixStyle | None) -> list[PrefixStyle | None]:
    """The parts of ``style`` to take off the text that tools are recognised by, the first kept most: all of it
    but the layers that say which tool wrote the line (``_TOOL_EVIDENCE``); then also one of those (glog's
    header over a logger's ``INFO:tensorflow:``); then all of it. A style without such a layer is one part."""
    names = style.name.split("+") if style is not None else []
    evidence = [n for n in names if n in _TOOL_EVIDENCE]
    if not evidence:
        return [style]
    ranks = [n for n in names if n not in _LAYERS]
    rank = ranks[0] if ranks else None
    plain = [n for n in names if n in _LAYERS and n not in _TOOL_EVIDENCE]
    parts = [_layered(plain, rank)]
    if len(evidence) > 1:
        parts += [_layered([*plain, n], rank) for n in evidence]
    return [*parts, style]


def _counts_up(lines: list[str], pattern: re.Pattern[str]) -> bool:
    """Whether the numbers a rank-like prefix carries never go down over six or more lines and are mostly new:
    srun's ranks repeat as the processes' lines interleave (one process's lines repeat one rank); a loop's
    iteration counter goes up, a line or two sharing one (``25000: saving model``, then ``25001: loss ...``)."""
    values = [int(m.group("rank")) for line in lines if (m := pattern.match(line))]
    return (
        len(values) >= 6
        and all(a <= b for a, b in zip(values, values[1:], strict=False))
        and len(set(values)) * 4 >= len(values) * 3
    )


#: A collector's tags: a job has a few services, pods or workers, each tagging many lines.
_REPEATED_TAGS = ("compose", "pod", "ray")


def _repeats(tags: list[str]) -> bool:
    """Whether the tags are a few, each on several lines (at most eight, and half as many as the lines)."""
    distinct = len({" ".join(t.split()) for t in tags})
    return distinct <= 8 and distinct * 2 <= len(tags)


_NUMBER = re.compile(r"\d+")


def _numbers_every_line(numberings: list[str]) -> bool:
    """A viewer's line numbers (or a list's: ``numberings``, as the layer read them, line by line) go up by one
    from a numbered line to the next (most of the time): a counter printed in brackets by the log itself (a
    boosting round every 10, a writer's step after glog's header) does not, and no viewer numbers a line 0,
    where a counter of rounds from its first (``[0]\ttrain-rmse:0.61``) starts."""
    numbers = [int(m[0]) for text in numberings if (m := _NUMBER.search(text))]
    if 0 in numbers:
        return False
    steps = [b - a for a, b in zip(numbers, numbers[1:], strict=False)]
    return not steps or sum(d == 1 for d in steps) * 2 > len(steps)


def _tabbed(numberings: list[str]) -> bool:
    """A number in brackets with a tab after it on every line (``[33]\ttraining's multi_logloss: 0.067``): a
    boosting library's round, one per line as its evaluation log prints them; a viewer numbers with a space."""
    return all(text.endswith("\t") for text in numberings)


_BLANKS = re.compile(r"[ \t]*")


def _peel(line: str, layers: dict[str, re.Pattern[str]]) -> list[tuple[str, str]]:
    """The layers found at the start of ``line``, outermost first: each one's name and the text it covers."""
    seen: list[tuple[str, str]] = []
    pos = 0
    for _ in range(_MAX_LAYERS):
        for name, pattern in layers.items():
            if any(name == done for done, _text in seen):
                continue
            m = pattern.match(line[pos:])  # (sliced: the rank styles anchor at ``^``)
            if m and m.end() > 0:
                seen.append((name, m[0]))
                pos = _BLANKS.match(line, pos + m.end()).end()  # ``[rank0]: > ...``: a layer's space before the next
                break
        else:
            break
    return seen
