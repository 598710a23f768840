"""A record's loss by meaning: which of its loss terms is the whole loss (``total``, ``avg``, ``batch`` qualify
the whole; ``act_loss``, ``kl_loss`` are parts). How two keys that map to one series are kept apart is
``_series_apart``'s."""

from __future__ import annotations

import re

from assay.operators.logs._names import AMOUNT_WORDS, EVALUATION_WORDS, TRAINING_WORDS, key_slug, metric_name


def loss_by_ending(slug: str) -> str | None:
    """``loss`` or ``val_loss`` for a name that ends in loss, or in loss and an average (``loss_avg``), and is no
    auxiliary term."""
    slug = TOTALLED.sub("", _AVERAGED.sub("", slug))
    if not slug.endswith("loss") or _AUXILIARY_LOSS.search(slug):
        return None
    return "val_loss" if _EVALUATION_HEAD.match(slug) else "loss"


#: An evaluation split at the head of a loss's name (``val_loss``, ``evalloss``, ``test_nll_loss``), a word of
#: its own: ``value_function_loss`` is an RL critic's term, no validation.
_EVALUATION_HEAD = re.compile(r"^(?:val|eval|valid|validation|test)(?:_|loss)")


#: A loss term named by an ``l_`` prefix (BasicSR's and MMEditing's ``l_pix``, ``l_percep``, ``l_g_gan``): a term
#: like ``pix_loss``, so the loss when it is a record's only one.
_PREFIXED_TERM = re.compile(r"^l_[a-z][a-z0-9_]*$")


def _loss_term(slug: str) -> str | None:
    """``loss`` or ``val_loss`` for a loss term by its ending (``mse_loss``) or by the ``l_`` prefix (``l_pix``)."""
    return loss_by_ending(slug) or ("loss" if _PREFIXED_TERM.match(slug) else None)


#: An average after the loss word, also with what it is averaged over (``loss_avg_rank``: this process's average;
#: ``loss_avg_slice``: over a slice of the data): the loss itself, averaged, not a term of it.
_AVERAGED = re.compile(
    r"_(?:avg|average|mean|ema|smoothed|running)"
    r"(?:_(?:rank|gpu|device|node|worker|slice|shard|epoch|batch|step|iter|window|all|global|local))?$"
)
#: A total printed after the loss word (``Gen Loss Total``): the same loss as ``gen_total_loss``.
TOTALLED = re.compile(r"(?<=loss)_(?:total|sum|overall|all)$")


#: Words that qualify a loss as the whole of it (an average, a total, this batch's), not one of its terms; the
#: lower the rank the nearer to the step's own value (``batch avg loss`` over a running ``total avg loss``).
_WHOLE_LOSS_WORDS = {
    **dict.fromkeys(("batch", "step", "iter", "cur", "current", "train", "training", "tr", "reduced"), 0),
    **dict.fromkeys(("total", "sum", "overall", "full", "all", "final", "weighted", "global", "net"), 1),
    **dict.fromkeys(("avg", "avr", "average", "mean", "running", "smoothed", "moving", "ema", "epoch"), 2),
    **dict.fromkeys(("val", "eval", "valid", "validation", "test"), 0),
}


#: The rank of a loss synonym written without the word loss: after every qualified whole loss.
_SYNONYM_RANK = 3


def pick_loss(metrics: dict[int, str], words: dict[int, str]) -> None:
    """The loss of a record by meaning, where no name of the synonym table gives it: its only loss term, else
    the whole loss among several (``total``, ``avg``, ``batch`` qualify the whole; the nearest to the step wins:
    ``batch avg loss`` over ``total avg loss``, a running average over the epoch);
    loss terms that are all parts (``act_loss``, ``cri_loss``; ``box_loss``, ``cls_loss``) give no loss and keep
    their own names."""
    for split in ("loss", "val_loss"):
        if split in metrics.values():
            continue
        found = [
            p for p in sorted(metrics) if not metric_name(words[p]) and _loss_term(key_slug(words[p])) == split
        ]
        if not found and not any(_loss_term(key_slug(w)) for w in words.values()):
            found = lone_criterion(metrics, words, split)
        if found and all(separate_objective(words[p]) for p in found):
            continue  # an RL trainer's policy, value, KL terms: separate objectives, no single loss
        if found and all(_OBJECTIVE_TERM.match(key_slug(words[p])) for p in found) and sum(
            bool(_OBJECTIVE_TERM.match(key_slug(w)) or key_slug(w) in _RL_TERMS) for w in words.values()
        ) >= 2:
            # the same unprefixed (``policy_loss`` beside ``value_loss``, Stable Baselines' table; PPO ports'
            # ``action_loss`` beside ``entropy``)
            continue
        # one loss term, with or without its running average (``closs: 1.08 (1.13)``): the term is the loss
        plain = [p for p in found if not _AVERAGED.search(key_slug(words[p]))]
        if len({_AVERAGED.sub("", key_slug(words[p])) for p in found}) == 1:
            metrics[(plain or found)[0]] = split
            continue
        ranks = {p: whole_rank(key_slug(words[p])) for p in found if loss_by_ending(key_slug(words[p]))}
        wholes = [p for p in ranks if ranks[p] is not None]
        if wholes:
            metrics[min(wholes, key=lambda p: (ranks[p], -p))] = split


#: A loss criterion's short name (``nll``, ``ce``, ``ctc``), after the split it was computed on (``valid_nll``);
#: also MATLAB's name for the function its ``train`` minimises, the performance function (``Performance 0.0378/
#: 1e-12``: the value and its goal; ``Best Validation Performance``, the validation loss).
_CRITERION = re.compile(
    r"^(?:(?P<split>train|training|val|valid|validation|eval|test)_)?"
    r"(?:nll|ce|bce|xe|ctc|mse|obj|f|perf|performance)$"
)
#: A detector's loss terms (YOLO's ``box obj cls total``): beside them ``obj`` is the objectness term, not the
#: objective a solver's trace prints alone (CRF++'s and Wapiti's ``obj=13987.47``).
_DETECTION_TERMS = {"box", "cls", "dfl", "seg", "total", "giou", "iou", "noobj", "l1", "kpt", "kobj"}


def lone_criterion(metrics: dict[int, str], words: dict[int, str], split: str) -> list[int]:
    """A record with no loss word whose one objective is printed under its criterion's short name (``nll=2.88 |
    ppl=17.8``, ``ce: 3.1``, a solver's ``obj=139.8``, a trust-region trace's function value ``f 1.829e-02``,
    MATLAB's ``Performance 0.0378/1e-12``):
    that value is the record's loss of ``split`` (``loss`` unless its key names an
    evaluation's split; on an evaluation's line the loss becomes its ``val_loss``). Two criteria (``ce`` beside
    ``ctc``) are parts: none is."""
    found = [(p, m) for p in sorted(metrics) if (m := _CRITERION.match(key_slug(words[p])))]
    if len(found) != 1:
        return []
    if key_slug(words[found[0][0]]).endswith("obj") and _DETECTION_TERMS & {key_slug(w) for w in words.values()}:
        return []
    named = found[0][1]["split"]
    return [found[0][0]] if ("loss" if named in (None, "train", "training") else "val_loss") == split else []


def names_whole_loss(word: str) -> bool:
    """A key that names the whole loss (``loss``, ``train_loss``, ``total_loss``), not one term of it."""
    slug = key_slug(word)
    return metric_name(word) == "loss" or (loss_by_ending(slug) == "loss" and whole_rank(slug) is not None)


def whole_rank(slug: str) -> int | None:
    """The rank of a loss name whose qualifiers all say it is the whole loss, else ``None``."""
    totalled = TOTALLED.search(slug)
    if totalled:  # ``gen_loss_total`` is ranked as ``gen_total_loss``
        slug = slug[: totalled.start() - len("loss")] + slug[totalled.start() + 1 :] + "_loss"
    averaged = _AVERAGED.search(slug)
    if averaged:
        slug = slug[: averaged.start()]
        rank = whole_rank(slug)
        return None if rank is None else max(rank, 2)  # a running average: after the step's own value
    if not slug.endswith("loss"):
        # a synonym without the word (``xent``, ``objf``, ``cost``): the loss where it is alone, but beside a
        # ``Loss`` (``Loss 9.18  Xent 8.67  RegLoss 0.52``) a part of it
        return _SYNONYM_RANK
    qualifiers = [w for w in slug[: -len("loss")].split("_") if w]
    if not qualifiers:
        return 0
    if not all(w in _WHOLE_LOSS_WORDS for w in qualifiers):
        return None
    return min(_WHOLE_LOSS_WORDS[w] for w in qualifiers)


#: The terms of an RL/RLHF trainer's objectives, each minimised on its own (the policy's, the value
#: function's, their KL and entropy terms): printed under a namespace (``actor/pg_loss``, ``critic/vf_loss``,
#: ``policy/entropy_loss``), they are separate objectives, and a record of only such terms has no single loss.
_OBJECTIVE_TERM = re.compile(
    # (a twin critic's numbered terms too: SAC's ``q1_loss``, CleanRL's ``qf2_loss``)
    r"^(?:pg|policy|policy_gradient|actor|act|action|ppo|clip|surrogate|vf|value|critic|cri|q\d?|qf\d?|kl|entropy|ent|alpha|"
    r"temperature)_?loss$"
)
#: An RL objective's terms printed without the word loss (``entropy: 0.65``, ``approx_kl``): beside a policy
#: term they make it one of several objectives.
_RL_TERMS = {"entropy", "dist_entropy", "policy_entropy", "kl", "approx_kl", "clip_fraction", "clipfrac"}
_OBJECTIVE_SPACES = {"actor", "critic", "policy", "value", "ref", "reward", "rm", "agent", "learner", "rl"}


def separate_objective(word: str) -> bool:
    """A namespaced term of an RL objective (``actor/pg_loss``, ``critic/vf_loss``): its own series, never the
    run's loss."""
    if "/" not in word:
        return False
    parts = [key_slug(p) for p in word.split("/") if p.strip()]
    return len(parts) >= 2 and bool(_OBJECTIVE_TERM.match(parts[-1]) or (
        parts[-2] in _OBJECTIVE_SPACES and parts[-1].endswith("loss") and parts[-1] != "loss"
    ))


#: Loss terms printed beside the objective (``actor/entropy_loss``, ``kl_loss``, ``load_balancing_loss``): kept
#: under their own names, never taken for the loss.
_AUXILIARY_LOSS = re.compile(
    r"(?:^|_)(?:entropy|kl|aux|z|load_balancing|lb|balance|router|moe|vf|value|value_function|critic|reg|l1|l2|penalty|"
    # an RL objective's policy term (PPO's ``Mean surrogate loss`` beside ``Mean value loss``): a part
    r"surrogate)_?loss$"
)


#: Fewest terms a total must add up before it is taken for one: two numbers summing to a third happens by chance.
_MIN_TERMS = 3


def total_of_terms(template: list[str], rows: list, metrics: dict[int, str], names: dict[int, str]) -> None:
    """A record whose loss no name gives, printed as its terms under keys that say nothing (``A: 1.20 | Q: 3.40 |
    Z: 0.65 | W: 5.25``): the field of a group that equals the sum of the group's other fields on every record
    (three terms or more, within the rounding of the decimals printed) is their total, the loss. The structure
    says it, not the key's letter. A group is the run of fields between double separators (``||``); its terms
    and total are its measurements (fractions) under keys the synonym table does not know as another metric
    and that name no amount (a time, a size); the terms are all the group's other fields, or the run of three
    or more right before the total (a score printed after it is none). Two complete records at least;
    ``metrics`` is updated."""
    if "loss" in metrics.values() or len(rows) < 2:
        return
    for group in _groups(template, names):
        group = [p for p in group if _a_term(names[p])]
        if len(group) < _MIN_TERMS + 1:
            continue
        # (a cut record, its fields blank, left out)
        whole = [row for row in rows if all(p < len(row[2]) and row[2][p] for p in group)]
        if len(whole) < 2:
            continue
        for k, total in enumerate(group):
            # the group's other fields, or the run of fields right before the total (``[Losses: x 0.27, y 0.25,
            # w 4.8, h 4.6, total 9.92, recall: 0.05]``: a score beside the terms is none of them)
            runs = [[p for p in group if p != total]] + [group[start:k] for start in range(k - _MIN_TERMS, -1, -1)]
            if any(all(_adds_up(row[2], total, terms) for row in whole) for terms in runs):
                metrics[total] = "loss"
                return


def _groups(template: list[str], names: dict[int, str]) -> list[list[int]]:
    """The named positions of a template in runs that a double separator (``||``, ``| |``) parts."""
    groups: list[list[int]] = [[]]
    last = None
    for pos in sorted(names):
        between = template[last + 1 : pos] if last is not None else []
        if "||" in between or any(a == b == "|" for a, b in zip(between, between[1:], strict=False)):
            groups.append([])
        groups[-1].append(pos)
        last = pos
    return [g for g in groups if g]


def _a_term(word: str) -> bool:
    known = metric_name(word)
    loss_like = known is None or known == "loss" or loss_by_ending(key_slug(word)) is not None
    return loss_like and not AMOUNT_WORDS.search(word)


#: A number printed with decimals, in scientific notation too (``79.166``, ``7.9166e+01``).
_DECIMALS = re.compile(r"^[-+]?\d*\.(\d+)(?:[eE]([-+]?\d+))?$")


def _adds_up(tokens: list[str], total: int, terms: list[int]) -> bool:
    """The value at ``total`` is the sum of those at ``terms``, each printed with decimals, within the error
    their rounding allows (half a unit of the finest last digit printed, for each number)."""
    printed = [_DECIMALS.match(tokens[p].rstrip(",;|")) for p in (total, *terms)]
    if not all(printed):
        return False
    values = [float(m.group(0)) for m in printed]
    unit = min(10.0 ** (int(m.group(2) or 0) - len(m.group(1))) for m in printed)
    slack = 0.5 * unit * len(values) + 1e-12
    return abs(values[0]) > slack and abs(values[0] - sum(values[1:])) <= slack


#: A split's name standing alone as a value's key (``train: 0.52  val: 0.61``; a boosting library's ``learn:
#: 0.68  test: 0.69``): the value of the split's objective.
_TRAINING_ALONE = TRAINING_WORDS | {"learn"}
_EVALUATION_ALONE = EVALUATION_WORDS


def split_objectives(rows: list, metrics: dict[int, str], names: dict[int, str]) -> None:
    """A record that names no loss but prints a value under a split's name alone, a measurement on every record
    (a fraction: ``Test: [ 10/196]`` counts batches), has that value as the split's loss: the training split's
    is the loss, an evaluation split's the validation loss. ``metrics`` is updated."""
    if "loss" in metrics.values() or "val_loss" in metrics.values():
        return
    for pos, word in sorted(names.items()):
        slug = key_slug(word)
        split = "loss" if slug in _TRAINING_ALONE else "val_loss" if slug in _EVALUATION_ALONE else None
        if split is None or split in metrics.values():
            continue
        if rows and all(pos < len(row[2]) and _DECIMALS.match(row[2][pos].rstrip(",;|")) for row in rows):
            metrics[pos] = split
    best = next((pos for pos, word in names.items() if key_slug(word) == "best"), None)
    held_out = next((pos for pos, name in metrics.items() if name == "val_loss"), None)
    if best is not None and held_out is not None and _rises_to_best(rows, best, held_out):
        # the best value kept is above the evaluation's values: a score that rises (CatBoost's ``learn: 0.95
        # test: 0.82 best: 0.84 (1)`` under an AUC), no loss
        for pos, name in list(metrics.items()):
            if name in ("loss", "val_loss") and key_slug(names.get(pos, "")) in _TRAINING_ALONE | _EVALUATION_ALONE:
                metrics[pos] = "score" if name == "loss" else "val_score"


def _rises_to_best(rows: list, best: int, held_out: int) -> bool:
    """Whether the best value a record keeps is at or above its evaluation value on every record, and above it
    on some: the best of a score that rises (a loss's best is at or below every value)."""
    pairs = []
    for row in rows:
        try:
            pairs.append((float(row[2][best].rstrip(",;|")), float(row[2][held_out].rstrip(",;|"))))
        except (IndexError, ValueError):
            return False
    return bool(pairs) and all(b >= v for b, v in pairs) and any(b > v for b, v in pairs)
