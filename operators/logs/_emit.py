"""Every template's values as metric rows, once a file's lines are mined (``fallback``): which position of a
template prints its step (``step_of``), which its series, how a line that sums an epoch up is told from a
step's record, and the step each record is at.

Why one module: naming a template's values, choosing its loss and placing its rows are one pass over the
mined templates that shares their typed fields; the rules it consults live in their own modules."""

from __future__ import annotations

import bisect
import re

from assay.operators.logs._counters import (
    bracketed_counter,
    leading_pair,
    listed_counter,
    moving_counter,
    of_a_total,
    positional_counter,
    range_end,
    second_counts,
    separated_counter,
    steady_named_counter,
)
from assay.operators.logs._decisions import template_decision
from assay.operators.logs._epochs import averages, averages_records, split_named, sums_up
from assay.operators.logs._evaluation_lines import evaluation_line
from assay.operators.logs._fields import MODULE_PATH, series_name, variable_names
from assay.operators.logs._gate import only_a_nan_message
from assay.operators.logs._losses import names_whole_loss, pick_loss, split_objectives, total_of_terms
from assay.operators.logs._miner import Cluster, TemplateMiner
from assay.operators.logs._names import STANDARD_METRICS, is_step_key, key_slug, split_error
from assay.operators.logs._numbers import memory_of, parse_quantity
from assay.operators.logs._pairs import split_paired_keys
from assay.operators.logs._processes import process_ranks
from assay.operators.logs._rounded_counts import unround_steps
from assay.operators.logs._samples import printed_batches, samples_per_step
from assay.operators.logs._series_apart import bracket_groups, keep_series_apart
from assay.operators.logs._settings_lines import (
    command_line,
    counts_its_noun,
    optimizer_settings,
    prints_flags,
    restated,
    settings_dump,
)
from assay.operators.logs._split_sections import evaluation_loss
from assay.operators.logs._steps import (
    counts_each_epoch,
    says_epoch_ended,
    step_position,
)
from assay.operators.logs._units import durations_in_seconds, rises_as_a_clock

#: The standard series a template's values must name one of to be records of the run (with the rates per device).
_RECOGNISED = {*STANDARD_METRICS, "tokens_per_s_per_gpu", "samples_per_s_per_gpu"}
#: MMEngine's ``Epoch(train)``: the epoch.
#: The epoch an evaluation's own tag names (mmengine's ``Epoch(val)``, ``Epoch(test)``).
_EVALUATION_EPOCH = re.compile(r"(?i)^epoch\s*\((?:val|valid|test|eval)\)$")
#: A counter of runs, not of a run's steps: a sweep's trial (Optuna's ``Trial 12 finished with value: ...``), a
#: cross-validation's fold, a repeated experiment's run or seed (a Monte Carlo ``sweep`` is a step). A line it
#: numbers reports a whole run. (``RUN_WORDS``: the general reader's line that opens with one of them is the next
#: run's when its number changes.)
RUN_WORDS = r"trials?|fold|run|seed|experiment"
_RUN_COUNTER = re.compile(rf"(?i)^(?:{RUN_WORDS})(?:_?(?:id|idx|no|num))?$")
#: Words that make a step word part of a phrase about a quantity (``Number of nodes during this epoch: 2063``,
#: ``batches per epoch: 390``): the number is that quantity, not the epoch's (or step's) number.
_QUANTIFIERS = frozenset({"this", "per", "each", "every", "an", "a"})
_SPLIT_EPOCH = re.compile(r"(?i)^(?:epoch\s*\((?:train|training|val|test)\)|(?:train|training)[\s_]+epoch)$")


def _prints_loss(cluster: Cluster) -> bool:
    names, step_pos, _ = step_of(cluster)
    return any("loss" in key_slug(word) for pos, word in names.items() if pos != step_pos)


def names_metric(word: str) -> bool:
    """A word that names a metric assay knows (``loss``, ``lr``), not a step's."""
    return not is_step_key(word) and series_name(word, keep_unknown=False) is not None


def _drop_non_values(cluster: Cluster, names: dict[int, str]) -> None:
    """Positions named by a dotted module path whose values are whole numbers are source locations
    (``yolox.core.trainer:246``), not series; so is a whole number between two colons after the first word
    behind a logger's bracketed tags (``[05/20 00:23:45][INFO] train_net:  302: Start epoch: 1``)."""
    t = cluster.template
    for pos, word in list(names.items()):
        if not all(_whole(row[2][pos]) for row in cluster.rows):
            continue
        located = pos >= 3 and t[pos - 1] == ":" and t[pos + 1 : pos + 2] == [":"] and t[pos - 3] == "]"
        if MODULE_PATH.match(word) or located or counts_its_noun(t, pos):
            del names[pos]


def _whole(token: str) -> bool:
    """A whole number, the field separator a token keeps included (``[pkg.mod:62, rank=0]``)."""
    return token.removesuffix(",").isdigit()


def _percent_positions(cluster: Cluster, names: dict[int, str]) -> set[int]:
    """Positions whose values are printed as percentages (a bar's ``7%``): never a step counter."""
    return {pos for pos in names if any(row[2][pos].endswith("%") for row in cluster.rows)}


def _quantified(template: list[str], pos: int) -> bool:
    """Whether the key of the value at ``pos`` is a step word after a quantifier (``this epoch:``, ``per step``)."""
    at = pos - 1
    while at >= 0 and template[at] in (":", "=", "#", "-"):
        at -= 1
    return at >= 1 and template[at - 1].lower() in _QUANTIFIERS


def step_of(cluster: Cluster) -> tuple[dict[int, str], int | None, set[int]]:
    """The template's named values (a bar's own percentage, ``7%|``, left out), where it prints its step, and
    which positions hold percentages; worked out once per template (its rows are read for it)."""
    if cluster.typed is None:
        names = variable_names(cluster.template)
        split_paired_keys(cluster.template, names)
        _drop_non_values(cluster, names)
        percent = _percent_positions(cluster, names) | process_ranks(cluster, names)  # neither is a step
        found = step_position(cluster.template, names, not_counters=percent, rows=cluster.rows)
        if found is not None and second_counts(cluster, found):
            found += 2  # ``Batch 4/203700``: the epoch, then the counter
        if found is not None:
            found = moving_counter(cluster, found, percent, names)
        for pos in percent:
            if cluster.template[pos + 1 : pos + 2] == ["|"]:
                names.pop(pos, None)
        if found is None:
            found = listed_counter(cluster, names)
        if found is None:
            found = bracketed_counter(cluster, evaluating=evaluation_line(cluster.template))
        if found is None:
            found = positional_counter(cluster, names, percent)
        if found is None:
            found = leading_pair(cluster, names)
        if found is None:
            found = steady_named_counter(cluster, names, percent)
        if found is None:
            found = separated_counter(cluster, names)
        if found is not None:
            found = range_end(cluster, found, names)
        if found is not None and _EVALUATION_EPOCH.match(names.get(found, "")):
            found = None  # an evaluation's epoch (``Epoch(val) [3][108/108]``): the line takes the training step
        if found is not None and _RUN_COUNTER.match(names.get(found, "")):
            names.pop(found, None)  # the runs a sweep has finished count no steps of one run, nor are they values
            found = None
        for pos in [p for p, name in names.items() if p != found and _RUN_COUNTER.match(name)]:
            if all(t[pos].isdigit() for _, _, t, _ in cluster.rows[:8]):
                names.pop(pos)  # which run of a sweep a record is of (``Run 01 | Epoch 5``): no value of the run
        if found is not None and _quantified(cluster.template, found):
            names.pop(found, None)  # the count of a phrase about the epoch, no counter and no value of a known name
            found = None
        cluster.typed = (names, found, percent)
    names, step_pos, percent = cluster.typed
    return dict(names), step_pos, percent




def _numbers_of(rows: list, pos: int) -> list[float]:
    """The numbers a template's rows print at ``pos`` (a row without one ends the list)."""
    out = []
    for row in rows:
        parsed = parse_quantity(row[2][pos]) if pos < len(row[2]) else None
        if parsed is None:
            break
        out.append(parsed[0])
    return out


def _split_of_the_loss(metrics: dict[int, str], names: dict[int, str]) -> None:
    """A record whose validation loss is named with a split's prefix (fairseq's ``"valid_loss"``) names its other
    values with the same prefix (``"valid_accuracy"``, ``"valid_wps"``): they are the validation's too, under
    the contract's ``val_`` (``val_accuracy``); its ``best`` (fairseq's ``| best 6.43``, the best of the split's
    loss so far, which picks the checkpoint) is the split's too (``val_best``)."""
    prefixes = {
        slug.split("_", 1)[0]
        for pos, name in metrics.items()
        if name == "val_loss" and "_" in (slug := key_slug(names[pos])) and not slug.startswith("val_")
    }
    for pos, name in metrics.items():
        head, _, rest = key_slug(names[pos]).partition("_")
        if head in prefixes and rest and not name.startswith("val_"):
            metrics[pos] = f"val_{rest}"
        elif prefixes and head == "best":
            metrics[pos] = f"val_{key_slug(names[pos])}"


#: A validation loss named in a line's own words.
_VAL_LOSS_WORDS = {"val_loss", "valid_loss", "validation_loss", "eval_loss", "dev_loss"}


def _epochs_by_finer_templates(clusters: list[Cluster], shifts: dict[int, int]) -> None:
    """A bracketed ``[k/N]`` that a template takes its step from is the epoch where another template opens with
    the same words and bracket and counts a finer step after it (``[38/200], [584/604], global_step: 13682,
    loss: ...`` beside ``[38/200], train_loss: 1.03, time: 542``): the line is the epoch's, numbered by its
    epoch among lines that count steps, at the step of the last finer record before it (see ``emit_series``)."""
    finer: dict[tuple[str, ...], list[tuple[int, int]]] = {}  # the words before the bracket -> (line, step)
    for c in clusters:
        _names, pos, _ = step_of(c)
        t = c.template
        for at in range(1, len(t) - 3):
            if t[at - 1 : at + 4] == ["[", "<*>", "/", "<*>", "]"] and pos is not None and pos > at + 3:
                steps = finer.setdefault(tuple(t[:at]), [])
                steps += [(r[0], int(r[2][pos]) + shifts.get(r[0], 0)) for r in c.rows if r[2][pos].isdigit()]
    for c in clusters:
        names, pos, percent = step_of(c)
        t = c.template
        if not pos or t[pos - 1 : pos + 4] != ["[", "<*>", "/", "<*>", "]"] or tuple(t[:pos]) not in finer:
            continue
        if is_step_key(names.get(pos, "")):
            continue
        steps = sorted(finer[tuple(t[:pos])])
        lines = [line for line, _ in steps]
        rows = []
        for line_no, rank, tokens, current in c.rows:
            before = bisect.bisect_left(lines, line_no)
            rows.append((line_no, rank, tokens, steps[before - 1][1] if before else current))
        c.rows, c.typed, c.epoch_of_finer = rows, ({**names, pos: "epoch"}, pos, percent), True


def _summaries_beside_placed_records(clusters: list[Cluster]) -> None:
    """A template that names its epoch and the run's update counter but no place within the epoch, printing three
    or more of the values another template prints beside the same counter and its place in the epoch, is the
    epoch's summary (``| epoch 008 | loss 6.33 | ... | num_updates 21896`` beside ``| epoch 009:  1000 / 2737
    loss=6.22, ..., num_updates=22897``): its values are the epoch's averages (``epoch_loss``) at the counter it
    prints, no step record (L1, L3)."""

    def keyed(c: Cluster) -> tuple[str, set[str], bool] | None:
        names, pos, _ = step_of(c)
        if pos is None or evaluation_line(c.template) or not is_step_key(names.get(pos, "")):
            return None
        keys = {key_slug(w) for at, w in names.items() if at != pos} - {"epoch"}
        return key_slug(names[pos]), keys, any(word.lower() == "epoch" for word in c.template)

    typed = [(c, keyed(c)) for c in clusters]
    placed = [k for c, k in typed if k and k[2] and _counts_batches(c.template)]
    for c, k in typed:
        if not k or not k[2] or _counts_batches(c.template):
            continue
        if any(step == k[0] and len(keys & k[1]) >= 3 for step, keys, _ in placed):
            c.epoch_of_finer = True


def emit_all(
    miner: TemplateMiner,
    out,
    *,
    keep_unknown: bool = False,
    shifts: dict[int, int] | None = None,
    fixed: dict[int, int] | None = None,
    relative: dict[int, int] | None = None,
) -> None:
    """Every template's values as metric rows. The order of appearance numbers no records: beside a real
    counter, a line that prints none (an overflow notice, a summary) has no step of its own, and numbering it
    0, 1, 2 ... invented steps and restarts; in a file with no counter at all, the position of a line is no
    step either (a line repeated, a record per epoch without its number): the values keep an unknown step."""
    clusters = miner.clusters()
    _epochs_by_finer_templates(clusters, shifts or {})
    _summaries_beside_placed_records(clusters)
    # (a template numbered by its epoch counts no finer step: a log of one line per epoch sums nothing up)
    typed = [(c, *step_of(c)[:2]) for c in clusters]
    counted = any(
        (pos is not None and names.get(pos, "").lower() != "epoch") or any(row[3] is not None for row in c.rows)
        for c, names, pos in typed
    )
    # a key that names the whole loss somewhere in the file (``train_loss: 0.48  step:2``) leaves a lone term
    # on a line of its own (``train_ma_ce_loss: 0.10  step:2``) under its own name
    whole = any(names_whole_loss(word) and at != pos for _, names, pos in typed for at, word in names.items())
    trained = {key_slug(w) for c, names, _ in typed if not evaluation_line(c.template) for w in names.values()}
    # a validation loss some line names in its own words (``val loss is 0.031``): no other line's error is one
    val_named = any(key_slug(w) in _VAL_LOSS_WORDS for _, names, _ in typed for w in names.values())
    samples = {}  # a counter's total -> its batch, where the counter counts samples (see samples_per_step)
    printed = printed_batches(getattr(out, "settings", {}))
    for c in clusters:
        pos = step_of(c)[1]
        if pos is not None and c.template[pos + 1 : pos + 2] == ["/"] and (found := samples_per_step([row[2] for row in c.rows], pos, printed)):
            samples[int(c.rows[0][2][pos + 2])] = found
    # the steps of records that print a loss themselves (no average over others): a line that averages at one of
    # them sums the records up
    valued = {row[3] for c in clusters if not averages(c.template) and _prints_loss(c) for row in c.rows}
    closing = _closing_evaluations(clusters)
    for cluster in clusters:
        if only_a_nan_message(cluster.template, [row[2] for row in cluster.rows]):
            continue  # the NaN event's message (see _events), not a record
        emit_series(
            cluster,
            out,
            keep_unknown=keep_unknown,
            shifts=shifts,
            stepped_elsewhere=counted,
            fixed=fixed,
            relative=relative,
            whole_loss_named=whole and trained,
            samples_by_total=samples,
            valued_steps=valued - {None},
            bare_keys=trained,
            val_loss_named=val_named,
            after_evaluation=cluster in closing,
        )


def _closing_evaluations(clusters: list[Cluster]) -> list[Cluster]:
    """Templates with no counter of their own whose every line comes right after an evaluation loop's lines, one
    of the last three of them counting its batches (the summary an evaluation loop closes with: torchvision's
    ``* Acc@1 0.640 Acc@5 2.270 loss 9.432`` after ``Test:  [78/79] ...`` and ``Test: Total time: ...``): their
    values are the evaluation's, not the training's. (A notice after a line that only names the validation,
    ``Validation loss decreased (0.47 --> 0.45)``, follows no loop.)"""
    lines = sorted((row[0], evaluation_line(c.template), _counts_batches(c.template)) for c in clusters for row in c.rows)
    numbers = [line for line, _, _ in lines]
    out = []
    for c in clusters:
        if evaluation_line(c.template) or step_of(c)[1] is not None:
            continue
        before = [bisect.bisect_left(numbers, row[0]) - 1 for row in c.rows]
        if all(at >= 0 and lines[at][1] and any(e and n for _, e, n in lines[max(0, at - 2) : at + 1]) for at in before):
            out.append(c)
    return out


def _counts_batches(template: list[str]) -> bool:
    """Whether a line prints a count with its total (``[78/79]``): an evaluation line of a loop over batches."""
    return any(template[i : i + 3] == ["<*>", "/", "<*>"] for i in range(len(template) - 2))


def emit_series(
    cluster: Cluster,
    out,
    *,
    keep_unknown: bool = False,
    shifts: dict[int, int] | None = None,
    stepped_elsewhere: bool = False,
    fixed: dict[int, int] | None = None,
    relative: dict[int, int] | None = None,
    whole_loss_named: set[str] | bool = False,
    samples_by_total: dict[int, tuple[int, int]] | None = None,
    valued_steps: set[int] | None = None,
    bare_keys: set[str] | None = None,
    val_loss_named: bool = False,
    after_evaluation: bool = False,
) -> None:
    """The template's values as metric rows; ``shifts`` (line number -> steps to add) makes the steps of a
    per-epoch counter printed ``N/M`` global (see :class:`EpochCounters`); ``stepped_elsewhere``: a template of the
    file counts steps. A row without a step of its own or from its context keeps an unknown step: its position
    among the records is no step (a record printed twice, or once per epoch with no counter, would invent
    steps); ``fixed``: line number -> a step already known from the
    line's context (a Keras bar under its ``Epoch k/N``), over what the line prints; ``relative``: line number ->
    steps to add to a counter printed without its total that starts again each epoch (see :class:`EpochRelative`);
    ``valued_steps``: the steps the records that print their own counter and values are at; ``bare_keys``: the
    keys the file's training templates print."""
    shifts, relative = shifts or {}, relative or {}
    names, step_pos, _ = step_of(cluster)
    counted = step_pos is not None and cluster.template[step_pos + 1 : step_pos + 2] == ["/"]
    # a line numbered by its epoch (``Epoch 1/1 with loss 2.12``) among lines that count steps takes their step,
    # unless the step counter on its line never moves (``counts_each_epoch``): then its step is the epoch itself
    by_epoch = step_pos is not None and names.get(step_pos, "").lower() == "epoch"
    own_epoch = by_epoch and not cluster.epoch_of_finer and counts_each_epoch(cluster, step_pos, names)
    by_epoch = by_epoch and not own_epoch
    # among lines that count finer steps, such a line that averages (``epoch 3 average loss: 0.2``) sums up
    # the epoch: no step record of its own, and its values are the epoch's averages, not the step's
    summary = sums_up(cluster.template) if by_epoch and (
        stepped_elsewhere or any(row[3] is not None for row in cluster.rows)
    ) else None
    # or a line with no counter of its own that averages after records that printed their values at its step
    # (an evaluation's mean is the evaluation's value)
    if not summary and step_pos is None and not evaluation_line(cluster.template):
        summary = "avg" if averages_records(cluster.template, cluster.rows, valued_steps or set()) else None
    if not summary and split_named(names, bare_keys or set()):
        summary = "avg"  # fairseq's end of epoch, ``{"epoch": 3, "train_loss": ...}``, beside its bare step records
    metrics: dict[int, str] = {}
    for pos, word in names.items():
        if pos == step_pos or (cluster.template[pos + 1 : pos + 3] == ["/", "<*>"] and of_a_total(cluster, pos)):
            continue  # the step, or a counter printed with its total (``Train:  3/80``, an epoch of 80): no series
        # ``Epoch(train)``, ``Epoch(val)``, ``Train Epoch: 113 [0%]``: the split's epoch is the epoch
        name = series_name(_SPLIT_EPOCH.sub("epoch", word), keep_unknown)
        if name:
            metrics[pos] = name
    pick_loss(metrics, names)
    total_of_terms(cluster.template, cluster.rows, metrics, names)
    split_objectives(cluster.rows, metrics, names)
    if whole_loss_named:  # a term taken for the loss only for want of another: its own name again (on an
        # evaluation's line, a term the training lines print too; another is its loss, ``logloss: 2.5``)
        for pos, name in metrics.items():  # (an identifier, ``train_ma_ce_loss``, or words before a separator,
            # ``cls loss: 0.52`` as its underscored form; not prose, ``with loss 2.1``)
            key = " " not in names[pos] or cluster.template[pos - 1 : pos] in ([":"], ["="])
            key = key and (not evaluation_line(cluster.template) or key_slug(names[pos]) in whole_loss_named)
            if name == "loss" and key and not names_whole_loss(names[pos]):
                metrics[pos] = key_slug(names[pos])
    evaluation_loss(cluster.template, metrics, val_loss_named)
    if val_loss_named:  # an error read as the validation loss (``test mse``), where a line names that loss itself
        for pos, name in metrics.items():
            if name == "val_loss" and key_slug(names[pos]) not in _VAL_LOSS_WORDS and split_error(names[pos]):
                metrics[pos] = key_slug(names[pos])
    keep_series_apart(metrics, names, bracket_groups(cluster.template, metrics), cluster.template)
    _split_of_the_loss(metrics, names)  # (after the terms kept apart by their printed names, a second loss too)
    if after_evaluation:  # an evaluation's closing summary: each value is the split's
        metrics = {pos: n if n.startswith(("val_", "test_")) else f"val_{n}" for pos, n in metrics.items()}
    if summary:  # ``avg`` or ``total``: how the line sums the steps up
        metrics = {pos: f"epoch_{summary}_{name}" for pos, name in metrics.items()}
    elif cluster.epoch_of_finer or says_epoch_ended(cluster.template, any(row[3] is not None for row in cluster.rows)):
        # ``| end of epoch 7 | time: 131s | valid loss 4.2``: the epoch's
        metrics = {pos: n if n.startswith("val_") else f"epoch_{n}" for pos, n in metrics.items()}
    # a template whose records mostly follow a counter line (an excerpt may open inside the record before)
    stepped = step_pos is not None or sum(row[3] is not None for row in cluster.rows) * 2 >= len(cluster.rows)
    # names assay does not know, printed once outside an evaluation (``Batch size per device = 2``): a
    # setting, not a series; but a loss term under a counter's line (``Value function loss: 0.51`` below
    # ``Learning iteration 8391/10000``) is the record's, printed once where the excerpt holds one record
    once = len(cluster.rows) == 1 and step_pos is None and not evaluation_line(cluster.template) and not summary
    once = once and not (cluster.rows[0][3] is not None and any("loss" in n for n in metrics.values()))
    if not any(name in _RECOGNISED for name in metrics.values()) and not (
        keep_unknown and stepped and metrics and not once
    ):
        return  # no known metric and no step: a line with numbers, not a series
    if step_pos is not None and set(metrics.values()) == {"epoch"}:
        return  # a header that prints its step and epoch only (``[step=7/50,epoch=1]``): the values follow it
    if step_pos is None and restated(cluster.rows, metrics):
        return  # settings printed again as they were (a restarted process's config): no record
    settings = command_line(cluster.template, metrics) or settings_dump(cluster.template, metrics)
    if settings or prints_flags(cluster.template, metrics) or optimizer_settings(cluster.template):
        return  # a command's options (``--seed 99 --epoch 80``, a wrapped command line's too), a dump of its
        # settings (``hyperparameters: lr0=0.01, momentum=0.937, ...``, ``use_gpu: True, ...``), an optimizer's
        # (``optimizer: AdamW(lr=0.001667, momentum=0.9) ...``): no record
    if hasattr(out, "decide"):
        out.decide(template_decision(cluster.template, names, step_pos, metrics, bool(fixed), stepped_elsewhere))
    if step_pos is not None:
        unround_steps(cluster.rows, step_pos)  # ``step:1K`` printed three times: the stride carries on
    # a duration whose unit changes from record to record (``61.2ms``, ``2.1s``, ``1m 4s``): in seconds
    timed = {p: d for p in metrics if (d := durations_in_seconds([r[2][p] if p < len(r[2]) else "" for r in cluster.rows]))}
    for pos in [p for p, name in metrics.items() if name == "step_time_ms"]:
        if rises_as_a_clock(timed.get(pos) or _numbers_of(cluster.rows, pos)):
            metrics[pos] = "elapsed_s"  # the run's time so far, in seconds, not each step's
    for at, (line_no, rank, tokens, current) in enumerate(cluster.rows):
        step = current
        if summary and current is None:
            continue  # an epoch's summary before any step was counted: at no step
        if step_pos is not None and not (by_epoch and current is not None) and not (fixed and line_no in fixed):
            parsed = parse_quantity(tokens[step_pos])
            if parsed is None or parsed[0] != parsed[0]:
                continue
            total = int(tokens[step_pos + 2]) if counted and tokens[step_pos + 2].isdigit() else None
            samples = (samples_by_total or {}).get(total)
            if samples and float(parsed[0]).is_integer() and int(parsed[0]) % samples[0] == 0:
                # a count of samples: the batch's index, after the batches of the epochs before
                epochs_before = shifts.get(line_no, 0) // total
                step = int(parsed[0]) // samples[0] - samples[1] + epochs_before * -(-total // samples[0])
            elif float(parsed[0]).is_integer():  # a fractional epoch (0.25) counts no steps
                step = int(parsed[0]) + ({} if own_epoch else shifts if counted else relative).get(line_no, 0)
        for pos, name in metrics.items():
            parsed = parse_quantity(tokens[pos])
            if parsed is None:
                continue
            value, unit = parsed
            value = timed[pos][at] if pos in timed else value
            if name == "elapsed_s" and pos not in timed:
                if unit == "ms":
                    value /= 1000.0
                elif unit not in (None, "", "s", "sec"):
                    continue
            if name == "step_time_ms":
                if not unit and pos + 1 < len(tokens) and tokens[pos + 1] in ("s", "sec", "ms"):
                    unit = tokens[pos + 1]  # the unit printed apart: "step time: 409.9 ms"
                if unit in ("s", "sec"):
                    value *= 1000.0
                elif unit != "ms":
                    continue
            if name == "memory_mb":
                value = memory_of(tokens[pos], tokens[pos + 1] if pos + 1 < len(tokens) else "")
                if value is None:
                    continue
            out.metric(name, step, value, line_no, rank)
