"""Which whole number of a mined template counts the run's steps, read from how its values behave across the
template's records (a bar that never moves, a total that changes, a number alone in brackets, a number that
opens every line): the rules ``fallback`` applies after the step words of ``_steps.step_position``.

Why one module: every rule here reads the same thing, a template's values across its records, and they are
tried in one order on one template; split, each part would re-read the rows and re-derive the others' terms."""

from __future__ import annotations

import re

from assay.operators.logs._evaluation_lines import evaluation_line
from assay.operators.logs._fields import variable_names
from assay.operators.logs._leading_counters import ORDINAL, leading_counter
from assay.operators.logs._miner import Cluster
from assay.operators.logs._names import AMOUNT_WORDS, key_slug, metric_name
from assay.operators.logs._numbers import whole_number
from assay.operators.logs._step_keys import (
    PASS_WORDS,
    UPDATE_WORDS,
    counts_iterations,
    counts_within,
    step_word,
)


def _within_its_total(cluster: Cluster, pos: int) -> bool:
    """Whether the count at ``pos`` is printed with its total on every record and stops short of it
    (``100/110``), or is the iteration field of a logger's record, in brackets of its own (MMEngine's
    ``[3][110/110]``): a count of iterations that stands at its epoch's end because the epoch is shorter than the
    logging interval, not a bar drawn to its end."""
    template = cluster.template
    if template[pos + 1 : pos + 3] != ["/", "<*>"]:
        return False
    pairs = [(whole_number(row[2][pos]), whole_number(row[2][pos + 2])) for row in cluster.rows]
    if any(n is None or total is None or n > total for n, total in pairs):
        return False
    bracketed = template[pos - 1 : pos] == ["["] and template[pos + 3 : pos + 4] == ["]"]
    return bracketed or all(n < total for n, total in pairs)


def moving_counter(
    cluster: Cluster, pos: int, percent: set[int], names: dict[int, str] | None = None
) -> int | None:
    """A step that does not move over three or more records (a bar drawn to its end each time, ``833/833``) is
    no step where another whole number of the template rises on every record: the one that reaches furthest
    (``s 833``, ``1666``, ... over an epoch's ``miniE 1``, ``2``) counts the run; so does a step key whose values
    wander (``_wanders``). An epoch taken for the step
    gives way the same way, from two records on, to a named counter that rises on every record with a steady
    stride (``epoch: 1, iters: 100,`` then ``iters: 200,``; ``epoch: 2 | nupdates: 3074``): the epoch changes
    rarely and by one, the counter of updates is the finer step (never a count of samples, tokens or time)."""
    rows = cluster.rows
    if not any(_a_count(row[2][pos]) for row in rows):
        return None  # a counter word before no count (``waiting for batch 0.020s``): no step of its own
    if names is not None:
        passes = passes_between_repeats(cluster, pos, names)
        if passes is not None:
            return passes
    if names is not None and "epoch" in names.get(pos, "").lower():
        paired = counter_with_total(cluster, names, percent)
        if paired is not None:
            return paired  # ``Epoch 1.06 / 50, i = 21 / 17800``: the counter with its total counts the steps
    if names is not None and names.get(pos, "").lower() == "epoch" and _fractional(row[2][pos] for row in rows):
        return None  # an epoch printed as a fraction (``'epoch': 0.25``) counts no steps, not even at 1.00
    # (over two records already where the epoch beside it goes up: ``Epoch 6 | ... | Steps: 289`` then ``Epoch 7
    # | ... | Steps: 289`` prints the epoch's length)
    still = len({row[2][pos] for row in rows}) == 1 and (len(rows) >= 3 or _epoch_rises(cluster, pos, names))
    if still and _within_its_total(cluster, pos) and _epoch_rises(cluster, pos, names, split_too=True):
        # one record an epoch at the same place in it (``Epoch(train) [3][100/110]``, a record every 100
        # iterations of 110; ``[3][8/8]``, an epoch of 8 under an interval of 50): the record's place in its
        # epoch, made global as any in-epoch counter with its total (docs/gold-conventions.md D7)
        still = False
    by_epoch = not still and names is not None and "epoch" in names.get(pos, "").lower() and len(rows) >= 2
    if names and not still:
        running = _running_twin(rows, pos, names)
        if running is not None:
            return running
    within = names is not None and counts_within(cluster.template, pos, names)  # ``episode steps: 13``
    if not still and not by_epoch and not within and not _wanders([row[2][pos] for row in rows]):
        return pos
    epochs = [whole_number(row[2][pos]) for row in rows]
    rising = []
    for at, token in enumerate(cluster.template):
        if token != "<*>" or at == pos or at in percent or _in_clock(cluster.template, at):
            continue
        values = [whole_number(row[2][at]) for row in rows]
        if None in values or not all(a < b for a, b in zip(values, values[1:], strict=False)):
            continue
        # an unnamed number in brackets (``epoch 0[500]``) counts beside the epoch as a named counter does
        name = (names or {}).get(at) or ("[]" if cluster.template[at - 1 : at + 2] == ["[", "<*>", "]"] else "")
        if by_epoch and not _steady_counter(name, values, epochs):
            continue
        rising.append((values[-1], at))
    return max(rising)[1] if rising else pos


def _epoch_rises(cluster: Cluster, pos: int, names: dict[int, str] | None, split_too: bool = False) -> bool:
    """Whether another field of two or more records, named the epoch (``split_too``: also with its split,
    MMEngine's ``Epoch(train)``), goes up on every record."""
    for at, name in (names or {}).items():
        epoch = name.lower() == "epoch" or (split_too and re.fullmatch(r"epoch\(\w+\)", name.lower()))
        if at != pos and epoch and len(cluster.rows) >= 2:
            values = [whole_number(row[2][at]) for row in cluster.rows]
            if None not in values and all(a < b for a, b in zip(values, values[1:], strict=False)):
                return True
    return False


def _in_clock(template: list[str], at: int) -> bool:
    """Whether the value at ``at`` is a part of a clock time (a bar's ``[14:15<00:00``, ``eta 1:02:03``): its
    seconds rise from record to record as no counter does."""
    return (template[at - 2 : at] == ["<*>", ":"]) or (template[at + 1 : at + 3] == [":", "<*>"])


def passes_between_repeats(cluster: Cluster, pos: int, names: dict[int, str]) -> int | None:
    """An update counter taken for the step (``step 1`` beside ``iter 2``: ``_step_keys.optimizer_step``) whose records
    are at most one update apart: the loop prints on every pass, not every N updates (LitGPT's old fine-tuning loop
    prints ``iter 2 step 1``, ``iter 3 step 1``, ... under gradient accumulation, the updating pass marked, so one
    template may hold every other pass), and LitGPT's own logger steps those records by the pass
    (``fabric.log_dict(metrics, step=iter_num)``): the passes counter, rising on every record, is the step.
    ``None`` where records are several updates apart (``iter 3050700 step 610140`` every 60 updates: the update is
    the step), with one record, or where nothing counts passes."""
    rows, template = cluster.rows, cluster.template
    if step_word(names.get(pos, "")) not in UPDATE_WORDS:
        return None
    updates = [whole_number(row[2][pos]) for row in rows]
    strides = [b - a for a, b in zip(updates, updates[1:], strict=False)] if None not in updates else []
    if not strides or max(strides) > 1:
        return None  # records several updates apart: a loop that logs every N updates is stepped by them
    for at, name in sorted(names.items()):
        if at == pos or step_word(name) not in PASS_WORDS or template[at + 1 : at + 2] == ["/"]:
            continue  # a counter printed with its total counts within an epoch (``it[ 7/ 20]``), not the run's passes
        passes = [whole_number(row[2][at]) for row in rows]
        if None in passes or any(p < u for p, u in zip(passes, updates, strict=False)):
            continue  # the passes of a run are at least its updates
        if all(a < b for a, b in zip(passes, passes[1:], strict=False)):
            return at
    return None


def of_a_total(cluster: Cluster, pos: int) -> bool:
    """A value printed before ``/`` and another is a count of a total (``Train: 3/80``) where it is whole in every
    record; a fraction over its bound is a measured value and its goal (MATLAB's ``Performance 0.0378/1e-12``)."""
    return all(whole_number(row[2][pos]) is not None for row in cluster.rows)


#: A count printed in thousands (EDSR's ``[Iter: 0.1k / lr: 1.00e-4]``, ``Step: 11k``).
_THOUSANDS = re.compile(r"^\d+(?:\.\d{1,3})?[kK]$")


def _a_count(token: str) -> bool:
    """A value that can count steps: a whole number, a separator glued after it (``90,``), or printed with a
    zero fraction (``1.00``), tqdm's ``586it``, a count in thousands (``0.1k``, ``11k``: 100, 11000); not a
    measurement with its unit (``0.020s``) nor a word."""
    if counts_iterations(token):
        return True
    if _THOUSANDS.match(token):
        return float(token[:-1]) * 1000 % 1 == 0
    try:
        return float(token.rstrip(",;:)]}")).is_integer()
    except ValueError:
        return False


def counter_with_total(cluster: Cluster, names: dict[int, str], percent: set[int]) -> int | None:
    """Where no step word names the step, a named value printed with its total (``i = 21 / 17800``,
    ``k 3/500``) whose total stays the same over the records and whose value is a whole number that never goes
    down (and within its total) is the step counter, whatever its name: a loop that prints its position in the
    run writes it so. Not an epoch (it has a finer counter beside it), an amount (``mem 10/80``) or a metric the
    synonym table knows, nor on an evaluation's line; a value that never moves over two or more records counts
    nothing."""
    rows, template = cluster.rows, cluster.template
    if evaluation_line(template):
        return None  # an evaluation's counter (``Test: [ 10/196]``) counts its batches: it takes the training step
    for pos in sorted(names):
        word = names[pos]
        if template[pos + 1 : pos + 3] != ["/", "<*>"] or pos in percent or pos + 2 in percent:
            continue
        if "epoch" in word.lower() or AMOUNT_WORDS.search(word) or metric_name(word):
            continue
        values = [whole_number(row[2][pos]) for row in rows]
        totals = {whole_number(row[2][pos + 2]) for row in rows}
        if None in values or None in totals or len(totals) != 1:
            continue
        total = totals.pop()
        if any(a > b for a, b in zip(values, values[1:], strict=False)) or values[-1] > total:
            continue
        if len(values) >= 2 and values[0] == values[-1]:
            continue
        return pos
    return None


def _fractional(values) -> bool:
    """Some value is a number with a fraction that is not whole (``0.25``; ``1.00`` is whole)."""
    for value in values:
        try:
            if not float(value.rstrip(",;}")).is_integer():
                return True
        except ValueError:
            continue
    return False


def _running_twin(rows: list, pos: int, names: dict[int, str]) -> int | None:
    """A step key whose values go back (``'updates': 81`` then ``28``: the updates since the last report) beside
    a key of the same word with a qualifier whose values never go back and rise (``'total_train_updates': 151``
    then ``179``): the qualified one counts the run, so it is the step."""
    word = key_slug(names.get(pos, "")).split("_")[-1]
    twins = [at for at, name in sorted(names.items()) if at != pos and word and key_slug(name).endswith("_" + word)]
    if not twins:
        return None
    values = [whole_number(row[2][pos]) for row in rows]
    if None in values or not any(a > b for a, b in zip(values, values[1:], strict=False)):
        return None
    for at in twins:
        twin = [whole_number(row[2][at]) for row in rows]
        if None not in twin and all(a <= b for a, b in zip(twin, twin[1:], strict=False)) and twin[-1] > twin[0]:
            return at
    return None


#: Records read to tell whether a step key wanders.
_WANDER_RECORDS = 200


def _wanders(values: list[str]) -> bool:
    """A step key's values that go down at least as often as they go up over three or more records
    (keras-rl's ``episode steps: 164``, ``142``, ``109``, ``200``: the length of each episode) count no steps:
    a counter rises, and one that starts again at each epoch goes down once an epoch. The template's
    number that rises on every record is the step then (``11087/50000:``, ``11229/50000:``)."""
    numbers = [whole_number(v) for v in values[:_WANDER_RECORDS]]  # a key that wanders does so from the start
    if len(numbers) < 3 or None in numbers:
        return False
    pairs = list(zip(numbers, numbers[1:], strict=False))
    down = sum(a > b for a, b in pairs)
    return down >= 2 and down >= sum(a < b for a, b in pairs)



def _steady_counter(name: str, values: list[int], epochs: list[int | None]) -> bool:
    """A named counter (not an amount) that reaches past the epoch and rises by a steady stride (no step more
    than three times another): the updates of a run, not an epoch or a sample count."""
    if not name or AMOUNT_WORDS.search(name) or None in epochs or values[-1] <= max(epochs):
        return False
    strides = [b - a for a, b in zip(values, values[1:], strict=False)]
    return max(strides) <= 3 * min(strides)


def steady_named_counter(cluster: Cluster, names: dict[int, str], percent: set[int]) -> int | None:
    """Where a template names no step word, a named counter with its total (``counter_with_total``), else the
    named whole number that rises by the same stride on every
    record (three or more) is its step, as a loop that logs every N updates prints it (``Up. 14000``, ``16000``
    ...; ``tick 0``, ``1``, ...): an amount it has processed (samples, tokens, time) rises unevenly, and a metric
    the synonym table knows (a loss, a rate) is a value, not a counter."""
    rows = cluster.rows
    paired = counter_with_total(cluster, names, percent)
    if paired is not None:
        return paired
    if (frames := _environment_frames(cluster, names)) is not None:
        return frames
    if len(rows) < 3:
        return None
    for pos in sorted(names):
        if pos in percent or AMOUNT_WORDS.search(names[pos]) or metric_name(names[pos]):
            continue
        values = [whole_number(row[2][pos]) for row in rows]  # a separator glued on (``env_step=50000,``)
        if None in values:
            continue
        strides = {b - a for a, b in zip(values, values[1:], strict=False)}
        if len(strides) == 1 and strides.pop() > 0:
            return pos
    return None


#: A count of an environment's steps (``Total num frames: 153772032``, ``timesteps 2048``): reinforcement learning
#: counts its run by them (docs/gold-conventions.md), in strides as uneven as the collection.
_FRAMES = re.compile(r"(?i)^(?:total[_ ]?)?(?:num[_ ]?)?(?:env[_ ]?)?(?:frames|timesteps|time_steps|env_steps)$")


def _environment_frames(cluster: Cluster, names: dict[int, str]) -> int | None:
    """A named count of environment frames or timesteps that never goes down over two records or more and rises:
    the step."""
    rows = cluster.rows
    if len(rows) < 2:
        return None
    for pos in sorted(names):
        if not _FRAMES.match(names[pos].replace(" ", "_")):
            continue
        # (a sentence's full stop may be glued on: ``Total num frames: 153772032. Throughput``)
        values = [whole_number(row[2][pos].rstrip(".")) if pos < len(row[2]) else None for row in rows]
        # (it stands still where collection stopped: a run whose workers failed reports its last count on)
        if None not in values and all(a <= b for a, b in zip(values, values[1:], strict=False)) and values[-1] > values[0]:
            return pos
    return None


def step_number(token: str) -> int | None:
    """A step as a counter prints it: a whole number (``100``, ``100,``) or an ordinal (``20th``)."""
    ordinal = ORDINAL.match(token)
    return int(ordinal[1]) if ordinal else whole_number(token)


def second_counts(cluster: Cluster, pos: int) -> bool:
    """A pair ``a/b`` whose second number changes from record to record while the first stays (WeNet's
    ``TRAIN Batch 4/203700`` then ``4/203800``) is no counter with its total: a total does not change within
    an epoch. The first is the epoch, the second counts."""
    if cluster.template[pos + 1 : pos + 3] != ["/", "<*>"] or len(cluster.rows) < 2:
        return False
    firsts = {row[2][pos] for row in cluster.rows}
    seconds = [row[2][pos + 2] for row in cluster.rows]
    if len(firsts) != 1 or len(set(seconds)) < 2 or not all(v.isdigit() for v in seconds):
        return False
    return all(int(a) <= int(b) for a, b in zip(seconds, seconds[1:], strict=False))


def bracketed_counter(cluster: Cluster, evaluating: bool = False) -> int | None:
    """A whole number alone in brackets that never goes down across the records, and moves (clu's ``logging_writer.py:35]
    [400] train_loss=...``, XLNet's ``[21500] | gnorm 0.25``): the step. A rank tag (``[0]``, ``[1]``, ``[0]``) goes back and forth, and the
    number after a word naming a save (``Checkpoint [3]  Validation-perplexity=19.2`` after batch 3000) counts
    saves. On an
    evaluation's line, a number in brackets right after another bracketed one (``Epoch(val) [8][1730]``: the
    epoch, then the batches it evaluated) counts the evaluation, not the run: the line takes the training step."""
    t = cluster.template
    if leading_counter(cluster):
        return 0
    enclosed = _enclosed_position(cluster)
    if enclosed is not None:
        return None if evaluating else enclosed
    if (counter := _epoch_then_counter(cluster)) is not None:  # ``[  2]  480 || ...``
        return None if evaluating else counter
    for pos in range(1, len(t) - 2):
        # followed by a key (``[400] train_loss=``, R's ``[5]:  train's l2:``), not by another bracket (mmengine's
        # ``[1][25/25]``)
        # ... or by a field separator and then a key (XLNet's ``train_gpu.py:303] [21500] | gnorm 0.25``)
        after = t[pos + 3] if t[pos + 2] in (":", "|", "-", ",") and pos + 3 < len(t) else t[pos + 2]
        if t[pos - 1] == "[" and t[pos] == "<*>" and t[pos + 1] == "]" and after[:1].isalpha():
            if t[pos - 2 : pos - 1] in (["="], [":"]):
                continue  # a key's value printed as a list (RecBole's ``train_batch_size = [2048]``), no step
            if evaluating and t[pos - 2 : pos - 1] == ["]"]:
                return None
            if t[pos - 4 : pos - 1] == [":", "<*>", "]"]:
                continue  # a tag right after a bracketed time (``[06:49:42,401][03519]``): a process, no step
            values = [row[2][pos] for row in cluster.rows]
            if pos >= 2 and _SAVE_WORD.match(t[pos - 2]):
                return None  # a save's count (``Checkpoint [3]  Train-ppl=38.2``), no step
            # (the same number on every one of two records or more names a process, ``[02013]``, no step)
            if all(v.isdigit() for v in values) and _rises_in_runs([int(v) for v in values]):
                return pos
            return None
    return _counter_beside_time(cluster)


def _rises_in_runs(values: list[int]) -> bool:
    """Whether a counter never goes down, and moves; or goes down only to start again from where it began, each
    stretch rising over three records or more (a script that trains twice, its rounds ``[0]`` ... ``[29]`` then
    ``[0]`` again). A rank tag going back and forth (``[0]``, ``[1]``, ``[0]``) makes no such stretches."""
    if len(values) < 2:
        return True
    stretches = [[values[0]]]
    for a, b in zip(values, values[1:], strict=False):
        if b < a:
            stretches.append([b])
        else:
            stretches[-1].append(b)
    if len(stretches) == 1:
        return len(set(values)) > 1
    start = stretches[0][0]
    whole = all(len(s) >= 3 and s[-1] > s[0] for s in stretches[:-1])
    return whole and all(s[0] <= start + 1 for s in stretches)


def _counter_beside_time(cluster: Cluster) -> int | None:
    """A bracket that opens the line with a whole number and, after a bar, the time passed (gpt-2's training
    script: ``[12 | 301.45] loss=3.10 avg=3.21``): the number is the step where it never goes down."""
    t = cluster.template
    if t[:5] != ["[", "<*>", "|", "<*>", "]"]:
        return None
    counts = [row[2][1] for row in cluster.rows]
    times = [row[2][3] for row in cluster.rows]
    if not all(c.isdigit() for c in counts) or not all(re.fullmatch(r"\d+\.\d+", v) for v in times):
        return None
    return 1 if all(int(a) <= int(b) for a, b in zip(counts, counts[1:], strict=False)) else None


def _epoch_then_counter(cluster: Cluster) -> int | None:
    """A whole number alone in brackets, then a bare whole number with no name, opening the line (``[  2]
    480 || ...``): the epoch, then the loop's counter, the step. The epoch never goes down and the counter rises
    within an epoch from record to record (two or more); a rank tag going back and forth is no such pair."""
    t, rows = cluster.template, cluster.rows
    if len(rows) < 2 or t[:4] != ["[", "<*>", "]", "<*>"] or t[4:5] in ([":"], ["/"], ["."]):
        return None
    pairs = [(whole_number(row[2][1]), whole_number(row[2][3])) for row in rows]
    if any(None in pair for pair in pairs) or any(b <= a for a, b in zip(pairs, pairs[1:], strict=False)):
        return None
    return 3


#: A word naming a save, whose bracketed number counts saves (``Checkpoint [3]``, ``Snapshot [2]``), not steps.
_SAVE_WORD = re.compile(r"(?i)^(?:checkpoint|ckpt|snapshot|save|saved)s?$")
#: The brackets a position with its total is printed in (``(1000/40000)``, ``[ 30/500]``).
_OPENS = {"(": ")", "[": "]"}


def _enclosed_position(cluster: Cluster) -> int | None:
    """A position printed with its total in brackets or parentheses and no name of its own, opening the fields
    after it (``[node 0][Fit](1000/40000) mean loss: 0.93``, one such line per metric, each repeating the
    counter), or opening the line without brackets (``51000 / 1000000 eps 0.899 | Loss 9.2e-03``): where its
    total stays the same and its value rises on every record (two or more) within that total, it is the loop's
    position in the run, the step. A value that stays or goes back (a rank, a part out of parts) counts
    nothing."""
    t, rows = cluster.template, cluster.rows
    if len(rows) < 2:
        return None
    for pos in range(0, len(t) - 4):
        close = _OPENS.get(t[pos - 1]) if pos else None
        if close and t[pos : pos + 4] == ["<*>", "/", "<*>", close] and t[pos + 4][:1].isalpha():
            pass
        elif pos == 0 and t[:3] == ["<*>", "/", "<*>"] and t[3][:1].isalpha():
            pass  # opening the line unbracketed: ``51000 / 1000000 eps 0.899 |  avgR -0.997 | Loss ...``
        else:
            continue
        values = [whole_number(row[2][pos]) for row in rows]
        totals = {whole_number(row[2][pos + 2]) for row in rows}
        if None in values or None in totals or len(totals) != 1:
            return None
        total = totals.pop()
        if all(a < b for a, b in zip(values, values[1:], strict=False)) and values[-1] <= total:
            return pos
        return None
    return None


#: A value printed with a fraction, an exponent or as a non-finite word: a measurement, never a count.
_MEASURED = re.compile(r"^[-+]?(?:\d*\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|nan|inf)$", re.I)


def positional_counter(cluster: Cluster, names: dict[int, str], percent: set[int]) -> int | None:
    """A key followed by two values, ``Train loss 12 0.81`` or ``Validation loss 12: 0.85``, where the first is
    a whole number that rises from record to record and the second a measurement (a fraction): the first
    counts the records (the step) and the key names the second, as a loop that prints ``name, step, value``
    writes it. Read from behaviour: two records rising (or one, where a colon sets the value apart from its
    counter), every second value a measurement. ``names`` is updated: the key moves to the value."""
    t, rows = cluster.template, cluster.rows
    for pos, token in enumerate(t[:-1]):
        colon = t[pos + 1 : pos + 3] == [":", "<*>"]
        value_at = pos + 1 if t[pos + 1] == "<*>" else pos + 2 if colon else None
        if token != "<*>" or value_at is None or value_at in names or pos in percent:
            continue  # one value, or the next one has a name of its own
        # ``loss 12: 0.85`` reads as a clock (``12:05``) to the template alone; its name, read without what follows
        name = names.get(pos) or (variable_names(t[: pos + 1]).get(pos) if colon else None)
        if not name or AMOUNT_WORDS.search(name):
            continue
        counts = [row[2][pos] for row in rows]
        if not all(c.isdigit() for c in counts) or not all(_MEASURED.match(row[2][value_at]) for row in rows):
            continue
        rising = all(int(a) < int(b) for a, b in zip(counts, counts[1:], strict=False))
        if rising and (len(rows) >= 2 or colon):
            names[value_at] = name
            names[pos] = "step"
            return pos
    return None


def leading_pair(cluster: Cluster, names: dict[int, str]) -> int | None:
    """Two unnamed whole numbers opening a record before its named fields (``333 154 Loss=0.51 Time=0.04``, a
    script's ``print(epoch, i, ...)``): the first the epoch, which never goes down, the second the counter within
    it, which rises while the epoch stays and starts again when it goes up; the second is the step (as printed,
    no epoch length being printed, D7) and the first is named ``epoch``. Two records or more."""
    t, rows = cluster.template, cluster.rows
    if len(rows) < 2 or len(t) < 4 or t[:2] != ["<*>", "<*>"] or not t[2][:1].isalpha() or 0 in names or 1 in names:
        return None
    if not all(row[2][0].isdigit() and row[2][1].isdigit() for row in rows):
        return None
    pairs = [(int(row[2][0]), int(row[2][1])) for row in rows]
    for (e0, i0), (e1, i1) in zip(pairs, pairs[1:], strict=False):
        if e1 < e0 or (e1 == e0 and i1 <= i0):
            return None  # the epoch went back, or the counter did not rise within it
    if len({e for e, _ in pairs}) == len(pairs):
        return None  # every record a new first number: no counter within it
    names[0] = "epoch"
    return 1


def listed_counter(cluster: Cluster, names: dict[int, str]) -> int | None:
    """A Python list of a record's numbers printed alone (VITS-style trainers log ``[loss_d, loss_g, ...,
    global_step, lr]``): the one place holding a whole number on every record, the others measurements, is the
    step; the others have no name in the text, so each is named by its place (``column_<k>``, counted from 1 as
    a headerless table's columns are), its numbers kept rather than lost. ``names`` is updated."""
    t, rows = cluster.template, cluster.rows
    opened = len(t) - 1 - t[::-1].index("[") if "[" in t else -1
    if opened < 0 or len(t) - opened < 5 or t[-1] != "]" or any(tok != "," for tok in t[opened + 2 : -1 : 2]):
        return None
    places = list(range(opened + 1, len(t) - 1, 2))
    # before the list only a logger's prefix (a level's word names no value of the list); no key of its own
    if any(t[p] != "<*>" for p in places) or any(p < opened and t[p] == "<*>" for p in names):
        return None
    whole = [p for p in places if all(row[2][p].isdigit() for row in rows if p < len(row[2]))]
    if len(whole) != 1 or not all(_MEASURED.match(row[2][p]) for row in rows for p in places if p not in whole):
        return None
    for k, p in enumerate(places, 1):
        names.pop(p, None)
        if p != whole[0]:
            names[p] = f"column_{k}"
    return whole[0]


#: Separators a template sets its fields apart with, a counter standing alone between two of them.
_FIELD_SEPARATORS = ("-", "|")


def separated_counter(cluster: Cluster, names: dict[int, str]) -> int | None:
    """A whole number standing alone as a field between two separators, with no name, before two named fields
    or more (XLM's ``INFO - 10/04/19 14:41:25 - 0:11:11 -    1135 -   56.12 sent/s - ... MLM-en:  7.74``): the
    loop's counter, where it rises on every record (two or more) and no other field of the line is such a
    lone whole number (two would leave which one counts in doubt)."""
    t, rows = cluster.template, cluster.rows
    if len(rows) < 2:
        return None
    lone = [
        pos
        for pos in range(1, len(t) - 1)
        if t[pos] == "<*>" and pos not in names and t[pos - 1] == t[pos + 1] and t[pos - 1] in _FIELD_SEPARATORS
        and all(row[2][pos].isdigit() for row in rows)
    ]
    if len(lone) != 1 or sum(1 for p in names if p > lone[0]) < 2:
        return None
    values = [int(row[2][lone[0]]) for row in rows]
    return lone[0] if all(a < b for a, b in zip(values, values[1:], strict=False)) else None


def range_end(cluster: Cluster, pos: int, names: dict[int, str] | None = None) -> int:
    """A counter printed as the range of batches a report covers (``minibatches 40-49``, ``Minibatch[ 1- 500]``):
    the report is at the range's end, so the step is the position of the range's second number (``pos`` if the
    value after it is no range's end). Every record's range must go forward; a range glued without a space
    (``40-49``) reads its end as a negative number, made whole again in the records. The range's first number is
    the counter's, no series: it leaves ``names``."""
    t, rows = cluster.template, cluster.rows
    if t[pos + 1 : pos + 3] == ["-", "<*>"]:
        end, glued = pos + 2, False
    elif t[pos + 1 : pos + 2] == ["<*>"]:
        end, glued = pos + 1, True
    else:
        return pos
    for row in rows:
        first, last = row[2][pos], row[2][end]
        last = last[1:] if glued and last[:1] == "-" else (None if glued else last)
        if not (first.isdigit() and last and last.isdigit() and int(last) > int(first)):
            return pos
    if glued:
        for row in rows:
            row[2][end] = row[2][end][1:]
    if names is not None:
        names.pop(pos, None)
    return end
