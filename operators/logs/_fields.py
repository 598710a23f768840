"""The fields of a line template: which word names each value (by the separators the template uses, never a
source location, a word of a sentence or the value of another key), the series each name goes to through the
synonym table (which of a record's loss terms is its loss is ``_losses``'s).

Why one module: the walk back from a value to its key (``variable_names``) asks, word by word, whether the word
is a key, a label's value, a verb or a source file; those tests and the walk change together."""

from __future__ import annotations

import re

from assay.operators.logs._counted_phrases import counted_in_phrase, head_before_count
from assay.operators.logs._key_shapes import bracketed_keys, possessive_name
from assay.operators.logs._losses import TOTALLED, loss_by_ending
from assay.operators.logs._names import (
    SPLIT_NAMES,
    extra_metric_name,
    is_step_key,
    key_slug,
    metric_name,
)
from assay.operators.logs._step_keys import UPDATE_WORDS
from assay.operators.logs._units import RATE_UNITS as _RATE_UNITS
from assay.operators.logs._units import rate_unit, units_follow_values

_TIME_NAMES = {"time", "dt", "iter_time", "step_time", "batch_time", "elapsed"}


#: Words between a name and its value (``Total loss is 26.7``, ``loss of 2.3``): skipped when naming.
#: A duration's unit spelled out after its value.
_DURATION_WORDS = {"seconds", "secs", "sec", "minutes", "mins"}
#: (``avg loss so far is 0.11``: "so far" says the value is running, the name is before it)
_FILLER = {"is", "was", "are", "were", "of", "at", "to", "now", "currently", "so", "far", "equals", "became", "becomes"}
#: A word before a metric's name that says which split it is about (``val loss 2.4``).
_QUALIFIERS = {"train", "training", "val", "valid", "validation", "eval", "test", "dev"}


def variable_names(template: list[str]) -> dict[int, str]:
    """Each variable position named by the nearest word before it (punctuation and filler words skipped),
    or by a rate unit right after it. A clock time (``7:57:00``) is no value."""
    names: dict[int, str] = {}
    split_of = None
    for i, token in enumerate(template):
        if token != "<*>":
            continue
        after = template[i + 1 : i + 3]
        # a rate unit after the value names it (``812 img/s``), unless it is the next field's key (``img/s: 812``)
        if after and rate_unit(after[0]) and after[1:2] not in ([":"], ["="]):
            # ... or the next value's, when this value has its own key and one follows the unit
            # (``loss 0.9 tok/s 1234``: the template pairs key then value), unless units follow every value
            if not (after[1:2] == ["<*>"] and _keyed(template, i)) or units_follow_values(template, i):
                names[i] = after[0].lower()
                continue
        if after and after[0].lower() in _DURATION_WORDS and not _keyed(template, i):
            # a duration with no key before it, its unit spelled out (``2.69 83.57 seconds for 100 batches``)
            names[i] = "seconds" if after[0].lower().startswith("sec") else "minutes"
            continue
        if template[i - 1 : i] == ["|"] and len(after) >= 1 and after[0].lower() in UPDATE_WORDS and (
            after[1:2] in ([], ["|"])
        ):
            # a field of its own holding a count and its noun (fairseq-lua's ``| 0046063 updates |``): the count
            # of updates, named after its value
            names[i] = after[0].lower()
            continue
        counts = i > 1 and (is_step_key(template[i - 2]) or template[i - 2].lower() in ("epoch", "ep"))
        if i and template[i - 1] == "#" and not counts:
            continue  # an ordinal (Caffe's ``Train net output #0``, ``GPU #3``) labels a line; ``Epoch #7`` counts
        running = _running_average(template, i, names)
        if running is not None:
            if running:
                names[i] = running
            continue
        # hours of a clock time (7:57:00, eta: 1:23), unless a metric's name comes right before a value that
        # only a colon follows (torchtune's "Loss: 2.26:  4%|")
        clock = after == [":", "<*>"] and (
            template[i + 3 : i + 4] == [":"] or not _metric_before_colons(template, i)
        )
        if clock or counted_in_phrase(template, i) or _in_a_change(template, i):
            continue
        head = head_before_count(template, i)
        if head:
            names[i] = head
            continue
        for j in range(i - 1, max(-1, i - 5), -1):
            word = template[j]
            if word == "|" and j == i - 1 and _label_column(template, i):
                continue  # ``train CrossEntropyLoss |  2.06``: a label, then its value in a column of its own
            if word == "<*>" or word in _NAME_STOPS:
                break  # a name is never read across a value, a bracket or a field separator
            if (word[0].isalpha() or word[0] == "_") and word.lower() not in _FILLER:
                before = template[j - 1] if j > 0 else ""
                if not _is_key(word, before, template[j - 2] if j > 1 else "") and not _after_logger(template, j):
                    if not _opens_pairs(template, j, i):
                        break
                if template[j + 1 : j + 2] == ["to"] and (
                    word.lower().endswith(("ing", "ed"))
                    or any(w.lower() in ("set", "setting") for w in template[max(0, j - 2) : j])
                ):
                    # a verb going to a value ("reducing to 1.0", "scale reduced to 8", "setting loss scale to:
                    # 16.0") tells a change, no field of a record
                    break
                if {word.lower(), before.lower()} in _TIME_TO_GO:
                    break  # the time left to the end of the run (``left time: 1071.29s``), an ETA, no step's time
                if before in ("(", "[") and template[i + 1 : i + 2] in ([")"], ["]"]) and template[j + 1 : i] == [":"]:
                    if not (metric_name(word) or loss_by_ending(key_slug(word))):  # "(loss: 0.7)" is a pair
                        break  # a tag, "(trainer:672)" (a module and its line) or "[xla:3]" (a device), names no value
                # "val loss 2.4" is the validation loss, "train loss 2.3" the training loss; so is LitGPT's
                # "loss train: 2.3" (the split after the metric's name)
                if before.lower() in _QUALIFIERS and word.isalpha():
                    names[i] = f"{before.lower()}_{word}"
                elif word.lower() in _QUALIFIERS and before.isalpha() and metric_name(before):
                    names[i] = f"{word.lower()}_{before}"
                    split_of = before  # "loss train: 2.3, val: 2.5": the next split alone is the same metric's
                elif word.lower() in _QUALIFIERS and split_of:
                    names[i] = f"{word.lower()}_{split_of}"
                elif word.lower() in _COUNT_WORDS and template[i + 1 : i + 2] and template[i + 1].lower() in _COUNTS:
                    pass  # ``of the total 306968 batches``: a count of the run, no series
                else:
                    phrased = phrase_name(template, j)
                    if phrased:
                        names[i] = phrased
                break
        if i not in names and (subject := _subject_of_is(template, i) or _subject_at_step(template, i)) is not None:
            names[i] = subject
        if names.get(i) in _INDEX_LETTERS and i > 2 and template[i - 1] in (":", "=") and (
            is_step_key(template[i - 3]) or template[i - 3].lower() in ("batch", "epoch", "update")
        ):
            names[i] = template[i - 3]  # a loop's index letter after its counter word (``batch i:12``): the counter
    _count_before_its_word(template, names)
    _value_first_names(template, names)
    bracketed_keys(template, names)
    return names


#: The two words of an ETA's name, in either order (``left time``, ``time remaining``).
_TIME_TO_GO = [{"left", "time"}, {"remaining", "time"}]


#: The letters a loop's index is written with after its counter word (``batch i``, ``step t``).
_INDEX_LETTERS = {"i", "j", "k", "t"}


def _subject_of_is(template: list[str], i: int) -> str | None:
    """The name of a value a sentence states with "is" after qualifiers that hold numbers of their own
    (``Average objective function for 'output' for minibatches 40-49 is -35.0``): the words before the first
    ``for``/``over``/``on`` of the qualifiers, as far as the synonym table knows them, else None; a value stated
    at a step (``Score at iteration 60 is 2.5``, Deeplearning4j's listener) is named by its words whatever they
    are, the step being the qualifier's."""
    if i < 3 or template[i - 1].lower() not in ("is", "was"):
        return None
    first = at_step = None
    for j in range(i - 2, max(0, i - 16), -1):
        if template[j] != "," and template[j] in _NAME_STOPS:
            break
        if template[j].lower() in ("for", "over", "on", "at") and template[j - 1][:1].isalpha():
            first = j
            at_step = template[j].lower() == "at" and is_step_key(template[j + 1]) and template[j + 2] == "<*>"
    if first is None:
        return None
    phrased = phrase_name(template, first - 1)
    known = phrased and (metric_name(phrased) or loss_by_ending(key_slug(phrased)))
    return phrased if known or (phrased and at_step) else None


def _label_column(template: list[str], i: int) -> bool:
    """The value at ``i`` ends the line in a column of its own after the words that label it and a bar, the
    line's only one (Trax's ``Step 100: eval  CrossEntropyLoss |  5.536``): the words name it. Fields joined by
    bars (``loss 0.5 | lr 0.1``) have a value, not a word, before each bar."""
    return i == len(template) - 1 and template.count("|") == 1 and i >= 2 and template[i - 2][:1].isalpha()


def _subject_at_step(template: list[str], i: int) -> str | None:
    """The name of a value stated at a step after a colon (``Training loss (for 1 batch) at step 200: 3.02``,
    ``val loss at epoch 3: 0.5``): the words before ``at``, past a parenthesis that qualifies them; the step is
    the qualifier's, not the value's name."""
    if i < 5 or template[i - 1] != ":" or template[i - 2] != "<*>" or template[i - 4].lower() != "at":
        return None
    if not (is_step_key(template[i - 3]) or template[i - 3].lower() in ("epoch", "batch", "iteration")):
        return None
    j = i - 5
    if template[j] == ")":  # ``(for 1 batch)`` qualifies the name before it
        opened = [k for k in range(j - 1, max(-1, j - 8), -1) if template[k] == "("]
        if not opened:
            return None
        j = opened[0] - 1
    if j < 0 or not template[j][:1].isalpha():
        return None
    return phrase_name(template, j)


def _opens_pairs(template: list[str], j: int, i: int) -> bool:
    """The word at ``j`` is the first key of a run of ``key value`` fields that a group's label and its colon open
    (``[Losses: x 0.29, y 0.27, ...]``): its value right after it, then a separator, a word and a value, as the
    fields after it are printed; a word that is a label's value (``Device=xla:0``) has its own colon."""
    after = template[i + 1 : i + 4]
    return i == j + 1 and len(after) == 3 and after[0] in ",;|" and after[1][:1].isalpha() and after[2] == "<*>"


def _metric_before_colons(template: list[str], i: int) -> bool:
    """A metric's name right before the value at ``i``, behind its colon or a doubled one (``Loss: 2.26``, the
    ``Loss :: 0.0830`` of prismatic-style bar descriptions)."""
    j = i - 1
    while j >= 0 and template[j] == ":" and i - j <= 2:
        j -= 1
    return j < i - 1 and j >= 0 and bool(metric_name(template[j]))


#: Separators between the fields of a line (``a, b``, ``a | b``, ``a; b``).
_FIELD_SEPARATORS = {",", ";", "|"}


#: Words that say a count was reached, before it and its counter word (``After 3 Round:``, ``finished 2 epochs``).
_REACHED = {"after", "finished", "completed", "ending", "done"}
_COUNTER_WORDS = {"round", "rounds", "epoch", "epochs", "episode", "episodes"}


def _count_before_its_word(template: list[str], names: dict[int, str]) -> None:
    """A count printed before its counter word, after a word saying it was reached or opening the line (Flower's
    ``After 3 Round: loss = 0.46``): the counter, named by its word."""
    for i in range(len(template) - 1):
        if template[i] != "<*>" or i in names:
            continue
        word = template[i + 1]
        if not (is_step_key(word) or word.lower() in _COUNTER_WORDS):
            continue
        if i == 0 or template[i - 1].lower() in _REACHED:
            names[i] = word.rstrip("s") if word.lower().endswith(("rounds", "epochs", "episodes")) else word


def _value_first_names(template: list[str], names: dict[int, str]) -> None:
    """Names printed after their values (``11.87 loss, 1e-05 LR, 642 GB used``): where most of a template's
    separated fields are a value followed only by words, and none is a word followed by a value, each such value
    is named by the words after it (the longest run the synonym table knows, else the words themselves). A
    field that holds two values before its words (``12 4.3 s run``) names the last; the first stays a candidate
    counter."""
    fields: list[list[int]] = [[]]
    for i, token in enumerate(template):
        if token in _FIELD_SEPARATORS:
            fields.append([])
        else:
            fields[-1].append(i)
    trailing: dict[int, list[str]] = {}
    keyed = 0
    for positions in fields:
        tokens = [template[i] for i in positions]
        values = [k for k, t in enumerate(tokens) if t == "<*>"]
        if not values:
            continue
        last = values[-1]
        words = tokens[last + 1 :]
        if any(t[:1].isalpha() or t[:1] == "_" for t in tokens[:last]):
            keyed += 1  # a name before the value: this template names its values first
        elif words and len(words) <= 3 and all(_is_word(w) for w in words):
            trailing[positions[last]] = words
    if len(trailing) < 2 or keyed:
        return
    for pos, words in trailing.items():
        if pos in names:
            continue
        known = next((" ".join(words[k:]) for k in range(len(words)) if metric_name(" ".join(words[k:]))), None)
        names[pos] = known or "_".join(words)


#: Words that say a value in parentheses is the running average of the value before it: ``(Avg 0.61)``.
_AVERAGE_WORDS = {"avg", "average", "mean", "ema", "smoothed", "running"}


def _running_average(template: list[str], i: int, names: dict[int, str]) -> str | None:
    """The name of a value in parentheses right after a named value (``Loss 0.52 (0.61)``, ``loss 2.1 (Avg
    2.3)``): that value's running average, ``<name>_avg``, kept apart from the value itself."""
    if template[i + 1 : i + 2] != [")"]:
        return None
    j = i - 1
    if j >= 0 and template[j].lower() in _AVERAGE_WORDS:
        j -= 1
    if j < 1 or template[j] != "(" or template[j - 1] != "<*>" or (j - 1) not in names:
        return None
    if key_slug(names[j - 1]).startswith("best"):
        return ""  # where the best value was (CatBoost's ``best: 0.83 (41)``): its iteration, no series
    return f"{names[j - 1]}_avg"


#: Plural counter words that a ``Total``/``Number of`` before them makes a count of the run, not a series
#: (``Total Batches 800``, ``Number of steps 1000``).
_COUNTS = {"batches", "steps", "iterations", "iters", "epochs", "updates", "samples", "examples", "tokens"}
_COUNT_WORDS = {"total", "num", "number", "n"}


def phrase_name(template: list[str], j: int) -> str | None:
    """The name a field's words give the value after them: the longest run of words ending at ``j`` that the
    synonym table knows (``Learning Rate 2e-05`` is lr), a loss named by its whole phrase (``batch avg ctc loss``
    and ``batch avg loss`` are two series), ``None`` for a count of the run (``Total Batches 800``), else the
    word at ``j`` itself."""
    possessed = possessive_name(template, j)  # a booster's ``train's l2``: the split's objective
    if possessed:
        return possessed
    start = j
    while start > 0 and j - start < 3 and _is_word(template[start - 1]):
        start -= 1
    words = template[start : j + 1]
    if len(words) > 1 and (key_slug(words[-1]).endswith("loss") or TOTALLED.search(key_slug("_".join(words)))):
        # the loss's own words say whether it is the loss (see pick_loss), also with a total after the
        # loss word (``Gen Loss Total : 49.0``)
        return " ".join(words)
    if len(words) > 1 and words[-1].lower() == "cost":
        return " ".join(words)  # what is costed names it: ``time cost 0.5s`` is a timing, ``train cost`` the loss
    for k in range(len(words) - 1):  # the longest known run first
        if metric_name(" ".join(words[k:])):
            return " ".join(words[k:])
    if len(words) > 1 and _qualifies_another(words[-2], words[-1]):
        return " ".join(words[-2:])  # ``Logit Scale 14.3``: a scale, but no loss scale
    if words[-1].lower() in _COUNTS and any(w.lower() in _COUNT_WORDS for w in words[:-1]):
        return None
    return words[-1]


#: Words before a name that leave it naming the same quantity: a split, an aggregate, "current".
_SAME_QUANTITY = {"train", "training", "trn", "total", "avg", "mean", "global", "reduced", "all", "current", "cur"}


def _qualifies_another(qualifier: str, word: str) -> bool:
    """Whether ``qualifier`` makes ``word`` another quantity than the one the synonym table reads alone: a word
    standing for a compound name (``scale`` for ``loss_scale``) after a word that is none of that name's parts
    (``Logit Scale`` is CLIP's temperature)."""
    standard = metric_name(word)
    if not standard or "_" not in standard or key_slug(word) not in standard.split("_"):
        return False
    q = key_slug(qualifier)
    return q not in standard.split("_") and q not in _SAME_QUANTITY


def _in_a_change(template: list[str], i: int) -> bool:
    """Whether the value at ``i`` is an end of a change printed as ``(a --> b)`` (an early-stopping message's
    ``Validation loss decreased (0.41 --> 0.38)``) or the value tried before one: a report on the record before
    it, no field of its own."""
    before, after = "".join(template[max(0, i - 5) : i]), "".join(template[i + 1 : i + 6])
    if any(w.lower() in ("attempted", "tried") for w in template[max(0, i - 5) : i]):
        return True  # a value tried and given up (DeepSpeed's ``Attempted loss scale: 65536, reducing to 32768``)
    return bool(_ARROW_AFTER.match(after) or _ARROW_BEFORE.search(before)) and "(" in template[max(0, i - 6) : i]


_ARROW_AFTER = re.compile(r"^(?:-+>|=+>|→)<\*>")
_ARROW_BEFORE = re.compile(r"<\*>(?:-+>|=+>|→)$")


def _is_word(token: str) -> bool:
    """A word of a field's name: letters, or letters then digits (``F0 Loss``, ``L1 loss`` name terms)."""
    return (token.isalpha() or (token[:1].isalpha() and token.isalnum() and len(token) <= 3)) and (
        token.lower() not in _FILLER
    )


#: Tokens a name is never read across: ``] [2021-06-08`` is no value of the bar's ``it``, ``(0/7) Epoch``...
_NAME_STOPS = {"]", ")", "|", ",", ";", "}", "{", "│", "┃"}
#: Words before a word that make it prose, not a key: a verb (``Tried to allocate 20 MiB``, ``we found is 1``).
_PROSE_BEFORE = {"to", "we", "i", "you", "they", "he", "she", "will", "would", "can", "could", "should", "must"}
#: Words of a sentence that name nothing: a value after one is named elsewhere, if at all (``The best checkpoint
#: with 77.4 accuracy/top1 at 1 epoch``).
_FUNCTION_WORDS = {"with", "in", "on", "for", "from", "by", "than", "and", "or", "the", "a", "an"}
#: A source location (``trainer.py:412``, ``yolox.core.trainer:246``): a file name or a dotted module path.
_SOURCE_FILE = re.compile(r"(?i)^[\w/.\-]*\.(?:py|pyx|cc|cpp|cxx|c|h|hpp|cu|cuh|go|rs|java|scala|js|ts|jl|lua|rb)$")
#: A folder path (``runs/exp3/save/ckpt+2024-...``): four or more parts, or a part of digits only inside it; a
#: metric's structured name has at most three (``throughput/device/data``, ``lr/0``).
_FOLDER_PATH = re.compile(r"^[\w.\-]*(?:/[\w.\-]+){3,}$|^[\w.\-]*(?:/[\w.\-]+)*/\d+/")
#: A dotted module path (``yolox.core.trainer:246``): a source location where its values are whole numbers (a
#: dotted metric name, mmseg's ``decode.loss_seg: 0.1234``, holds fractions).
MODULE_PATH = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")


def _keyed(template: list[str], i: int) -> bool:
    """The value at ``i`` comes right after its own key word (``loss 0.9``, ``loss: 0.9``, ``loss=0.9``)."""
    j = i - 2 if template[i - 1 : i] in ([":"], ["="]) else i - 1
    word = template[j] if j >= 0 else ""
    return word[:1].isalpha() and word != "<*>" and word.lower() not in _FILLER and word.lower() not in _RATE_UNITS


#: Python logging's default layout, ``LEVEL:logger:message`` (``logging.BASIC_FORMAT``, as ``basicConfig`` and
#: absl-less TensorFlow 1 print it: ``INFO:tensorflow:loss = 0.41, step = 200``): its logger is no key.
_LEVELS = {"DEBUG", "INFO", "WARNING", "WARN", "ERROR", "CRITICAL"}
#: The levels a loop prints its records at; a warning's or an error's numbers are the report's (``WARNING: loss
#: is nan at step 540`` is no record).
_RECORD_LEVELS = {"DEBUG", "INFO"}


def _after_logger(template: list[str], j: int) -> bool:
    """Whether the word at ``j`` opens the message after a ``LEVEL:logger:`` prefix at the template's start."""
    return j == 4 and template[0] in _LEVELS and template[1] == ":" and template[3] == ":"


def _is_key(word: str, before: str, key: str) -> bool:
    """Whether ``word`` names the value after it: not when it is itself the value of a ``key`` before it
    (``Device=xla:0``), a verb of a sentence (``we found``, ``to allocate``), or a file name (``x.py:12``)."""
    if (
        before in (":", "=") and key[:1].isalpha() and key.lower() not in SPLIT_NAMES and key not in _RECORD_LEVELS
        and key.lower() not in _COUNTER_WORDS and not is_step_key(key)  # a counter's value is a number
    ):
        # (a split's tag before a colon, ``DEV : loss 0.04``, heads the fields after it; a record's level and its
        # colon, ``INFO: Epoch [3/300]``, are a prefix: a key follows)
        return False
    if before.lower() in _PROSE_BEFORE or word.lower() in _FUNCTION_WORDS:
        return False
    return not _SOURCE_FILE.match(word) and not _FOLDER_PATH.match(word)


def series_name(word: str, keep_unknown: bool = True) -> str | None:
    """The metric a word before a value names: the contract's name through the synonym table, a loss
    term by its ending, else (``keep_unknown``) the word itself as a slug."""
    slug = key_slug(word)
    name = _RATE_UNITS.get(word) or metric_name(word) or ("step_time_ms" if slug in _TIME_NAMES else None)
    if name is None and loss_by_ending(slug):
        name = extra_metric_name(word)  # a loss term: :func:`pick_loss` says whether it is the loss
    if name is None and keep_unknown and not is_step_key(word) and slug not in _NOT_SERIES:
        name = None if _SIZE_COUNT.match(slug) else extra_metric_name(word)
    return name


#: Names of a count that sizes the run or its epochs, printed once an epoch (fairseq's ``grouped total_num_itrs =
#: 794``, ``num_batches: 500``, ``steps_per_epoch: 300``): a setting restated, no series of progress.
_SIZE_COUNT = re.compile(r"^(?:total_num_[a-z_]+|(?:num|total)_(?:itrs|iters|batches)|[a-z_]+_per_epoch)$")


#: Words that name no series of their own: bookkeeping (a version, a rank, an ETA) and units.
_NOT_SERIES = {
    "v",
    "v_num",
    "rank",
    "local_rank",
    "eta",
    "gpu",
    "gpus",
    # which instance a line is about (``Model 0 test rmse = 7.89``, ``Fold 3``): a label, no value
    "model",
    "fold",
    "node",
    "nodes",
    "pid",
    "s",
    "ms",
    "it",
    # a log level before a value glued to a word (ESPnet's ``INFO: 1epoch:train:...``)
    "info",
    "warning",
    "warn",
    "debug",
    "error",
    "critical",
    # the counter of an evaluation line (``Test: [ 10/196]``), not a series of its own
    "test",
    "val",
    "eval",
    "valid",
    "validation",
}
