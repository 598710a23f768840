"""Two values of one line never land in one series: where two keys map to the same name, which keeps it and
what the others are called (their own key, their bracketed group's label, or their key's whole phrase)."""

from __future__ import annotations

import re

from assay.operators.logs._losses import whole_rank
from assay.operators.logs._names import key_slug, metric_name


def keep_series_apart(
    metrics: dict[int, str], names: dict[int, str], groups: dict[int, str] | None = None, template: list[str] = ()
) -> None:
    """Two values of one line never land in one series: where two keys map to the same name, a key the synonym
    table names so keeps it over one named by its ending (fairseq's ``loss`` over ``nll_loss``); between equals
    (a running-mean ``loss=`` beside ``reduced_train_loss=``) the last printed keeps it, unless each sits in a
    group labelled before its bracket (``loss[loss=0.74, ...], tot_loss[loss=1.08, ...]``): the group whose label
    names the whole loss more surely keeps it (the batch's own over an aggregate's). The others keep their own
    names (under their group's label where they have one), or where their key is the same word, the words
    their key's phrase opens with in ``template`` (``Mean Reward: 0.3 ... Std of Reward: 0.4``: ``mean_reward``)."""
    groups = groups or {}
    last: dict[str, int] = {}
    for pos in sorted(metrics):
        keeper = last.get(metrics[pos])
        if (
            keeper is not None and pos in groups and keeper in groups
            and _loss_rank(groups[pos]) != _loss_rank(groups[keeper])
            and (metrics[pos] != "loss" or _loss_rank(names[pos]) == _loss_rank(names[keeper]))
        ):
            if _loss_rank(groups[pos]) < _loss_rank(groups[keeper]):
                last[metrics[pos]] = pos
            continue
        if keeper is not None and metrics[pos] == "val_loss" and _tests(names[pos]) != _tests(names[keeper]):
            # a validation loss beside a test loss (``Vali Loss: 0.59 Test Loss: 0.69``): the test loss is no
            # validation loss and keeps its own name
            if _tests(names[keeper]):
                last["val_loss"] = pos
            continue
        if keeper is not None and metrics[pos] in ("loss", "val_loss") and _loss_rank(names[pos]) != _loss_rank(names[keeper]):
            # the whole loss over a term or a running average (``Loss`` over ``LM Loss``, ``loss`` over
            # ``avg_loss``), whichever is printed first; so for a split's (``val loss 0.04, val mse 0.02``: the
            # loss the split names over an error the synonym table reads as one)
            if _loss_rank(names[pos]) < _loss_rank(names[keeper]):
                last[metrics[pos]] = pos
            continue
        # a later key takes the name, unless only the earlier one is in the synonym table
        if keeper is None or metric_name(names[pos]) or not metric_name(names[keeper]):
            last[metrics[pos]] = pos
    renamed: dict[int, str] = {}
    phrased = _all_qualified(metrics, template)
    for pos in sorted(metrics):
        name = metrics[pos]
        if pos in phrased:
            renamed[pos] = phrased[pos]
            continue
        if last[name] != pos:
            own = key_slug(names[pos])
            if pos in groups and key_slug(groups[pos]):
                own = f"{key_slug(groups[pos])}_{own}"
            if not own or own == name:
                own = _key_phrase(template, pos)
            keeper = last[name]
            phrase = _key_phrase(template, keeper)
            if (not own or own == name) and phrase and phrase != name and keeper not in renamed:
                # the bare word beside a qualified one (``reward -21, avg reward -20.5``): the bare key keeps
                # the name, the qualified one its phrase
                renamed[keeper] = phrase
                continue
            metrics[pos] = own if own and own != name else f"{name}_at_{pos}"
    metrics.update(renamed)


def _all_qualified(metrics: dict[int, str], template: list[str]) -> dict[int, str]:
    """Values whose keys all qualify one word differently (``batch time: 0.41, data time: 0.02``): none is the
    bare word the synonym table reads, so each keeps its own phrase (``batch_time``, ``data_time``). Losses are
    weighed by their own rules above."""
    by_name: dict[str, list[int]] = {}
    for pos, name in metrics.items():
        if "loss" not in name:
            by_name.setdefault(name, []).append(pos)
    out: dict[int, str] = {}
    for positions in by_name.values():
        phrases = [_key_phrase(template, p) for p in positions]
        if len(positions) > 1 and all(phrases) and len(set(phrases)) == len(phrases):
            out.update(zip(positions, phrases, strict=True))
    return out


#: Words a key's phrase may hold before its last word (``Std of Reward``, ``Mean Episode Length``), and the units
#: that end the value before it (``Time Elapsed: 80.9 s Mean Reward``), which are no part of it.
_PHRASE_WORD = re.compile(r"^[A-Za-z][A-Za-z-]*$")
_UNIT_WORDS = {"s", "sec", "secs", "seconds", "ms", "min", "mins", "h", "hrs", "it", "gb", "mb", "kb", "x"}


def _key_phrase(template: list[str], pos: int) -> str | None:
    """The slug of the words (up to three) that make the key of the value at ``pos``, where the template has more
    than its last word before the separator: ``Std of Reward: <*>`` gives ``std_of_reward``."""
    j = pos - 1
    while j >= 0 and template[j] in (":", "="):
        j -= 1
    words: list[str] = []
    while j >= 0 and len(words) < 3 and _PHRASE_WORD.match(template[j]) and template[j].lower() not in _UNIT_WORDS:
        words.append(template[j])
        j -= 1
    return key_slug("_".join(reversed(words))) if len(words) >= 2 else None


def bracket_groups(template: list[str], positions) -> dict[int, str]:
    """The label of the bracketed group each value sits in (``tot_loss`` for the value in ``tot_loss[loss=<*>]``),
    where a word opens the group right before its ``[``."""
    found: dict[int, str] = {}
    for pos in positions:
        depth = 0
        for j in range(pos - 1, 0, -1):
            if template[j] == "]":
                depth += 1
            elif template[j] == "[":
                if depth == 0:
                    if template[j - 1][:1].isalpha():
                        found[pos] = template[j - 1]
                    break
                depth -= 1
    return found


def _tests(word: str) -> bool:
    """A key that names a test split's value (``Test Loss``, ``test/loss``), not a validation split's."""
    parts = key_slug(word).replace("/", "_").split("_")
    return "test" in parts or "testloss" in parts


def _loss_rank(word: str) -> int:
    """How surely a key names the whole loss: its qualifiers' rank (``loss`` 0, ``total_loss`` 1, a running
    average 2), a term's (``lm_loss``, ``nll_loss``) after them all."""
    rank = whole_rank(key_slug(word))
    return 9 if rank is None else rank
