"""Which of several step keys on one line is the step: the actors' environment steps among the roles' counters
(Acme's ``Actor Steps`` / ``Learner Steps``), the optimizer's updates over the passes between them (LitGPT's ``iter N step
M``); a step word that a setting's word qualifies (``Total steps = 60``), no counter; a progress line's count of
iterations with its unit (tqdm's ``586it/2.06kit``). Read from the tools' own code; ``_steps.step_position``
applies them, ``_counters.passes_between_repeats`` reads the records when updates repeat."""

from __future__ import annotations

import re

from assay.operators.logs._names import is_step_key, key_slug

#: Words before a step word that make it a setting of the run, not its counter (``Total steps = 60``,
#: ``Gradient Accumulation steps = 4``, ``max steps: 1000``).
_SETTING_WORDS = {"total", "max", "maximum", "num", "number", "accumulation", "warmup", "save", "eval", "logging"}


def after_a_setting_word(text: str, at: int) -> bool:
    """One of the (up to three) words right before ``at`` is one of ``_SETTING_WORDS``: the step word is a
    setting's head noun (``Total steps``, ``num_steps``, ``Total prediction steps = 3``)."""
    if _CONFIG_OBJECT.search(text, max(0, at - 12), at):
        return True  # an attribute of the run's configuration (LeRobot's ``cfg.steps=50000``)
    before = _WORDS_BEFORE.search(text[max(0, at - 40) : at].lower())
    return before is not None and any(w in _SETTING_WORDS for w in re.split(r"[ _]+", before.group(1).strip(" _")))


#: A configuration object right before the step word, its attribute (``cfg.steps``, ``args.max_iters``).
_CONFIG_OBJECT = re.compile(r"(?i)\b(?:cfg|config|conf|args|opts?|hparams|params|flags)\.$")


def an_epochs_length(text: str, at: int, key: str) -> bool:
    """A plural step word at ``at`` printed after an epoch and its separator (``Epoch: 3, Steps: 9 | ...``):
    the epoch's length, how many steps it had, no position in it."""
    return _PLURAL_COUNT.fullmatch(key) is not None and _EPOCH_BEFORE.search(text, 0, at) is not None


_PLURAL_COUNT = re.compile(r"(?i)steps|iters|iterations|batches|updates")
_EPOCH_BEFORE = re.compile(r"(?i)\bepoch\b\s*[:=#]?\s*\d+\s*[,|]")
#: An epoch's number and its length right after it (``Epoch: 3, Steps: 281 | Train Loss: ...``, the summary
#: Time-Series-Library's loop prints after the epoch's records).
_EPOCH_AND_LENGTH = re.compile(rf"(?i)\bepoch\b\s*[:=#]?\s*(\d+)\s*[,|]\s*(?:{_PLURAL_COUNT.pattern[4:]})\s*[:=#]?\s*(\d+)\b")


def epoch_and_length(text: str) -> tuple[int, int] | None:
    """The epoch a line sums up and how many steps it had (``Epoch: 3, Steps: 281 | ...``), if it prints both."""
    m = _EPOCH_AND_LENGTH.search(text)
    return (int(m.group(1)), int(m.group(2))) if m else None


#: The words (letters only) a step word's noun phrase ends with before it, up to three.
_WORDS_BEFORE = re.compile(r"((?:[a-z]+[ _]){1,3})$")


def a_setting(template: list[str], pos: int) -> bool:
    """The value at ``pos`` is named by a step word that a setting's word qualifies."""
    j = pos - 1
    while j >= 0 and template[j] in (":", "=", "of"):
        j -= 1
    if j < 1 or not template[j][:1].isalpha():
        return False
    words: list[str] = []  # the words of the name's own phrase before it (up to three), none across a value
    for w in reversed(template[max(0, j - 3) : j]):
        if not w.isalpha():
            break
        words.append(w.lower())
    return any(w in _SETTING_WORDS for w in words)


#: Roles whose counter counts the environment's steps (the run-wide step of reinforcement learning, D10 of
#: docs/gold-conventions.md), not the learner's updates nor the evaluator's own episodes.
_ENVIRONMENT_ROLES = {"actor", "actors", "env", "environment", "agent", "rollout", "sampler", "explorer", "collector",
                      "worker"}


def environment_steps(template: list[str], names: dict[int, str], keys: list[int]) -> list[int]:
    """Several step keys of one word, each after the role that counts it (Acme's ``TerminalLogger`` prints every
    counter of its ``counting.Counter``, titled: ``Actor Steps = 825 | ... | Learner Steps = 2``): the actors'
    counts the environment's steps, the run's step in reinforcement learning; the learner's counts its updates and
    the evaluator's its own episodes. ``keys`` unchanged where no key's role is an actor's."""
    if len(keys) < 2:
        return keys
    own = []
    for pos in keys:
        at = pos - 1
        while at >= 0 and template[at] in ("=", ":"):
            at -= 1
        name = names[pos].lower().split()
        role = name[-2] if len(name) >= 2 else (template[at - 1].lower() if at >= 1 else "")
        if role in _ENVIRONMENT_ROLES:
            own.append(pos)
    return own if own and len(own) < len(keys) else keys


#: Step words that count optimizer updates, and words that count the passes (micro-batches) between them.
UPDATE_WORDS = {"step", "steps", "update", "updates", "optimizer_step", "opt_step"}
PASS_WORDS = {"iter", "iters", "iteration", "iterations", "it", "micro_step", "micro_batch"}


def step_word(name: str) -> str:
    """A step key's word without its split (``train_iter`` -> ``iter``)."""
    return re.sub(r"^(?:train|training)_", "", key_slug(name))


def optimizer_step(keys: list[int], names: dict[int, str]) -> int:
    """Of several step keys on one line (none counting across epochs), the one that counts optimizer updates where
    another counts the passes between them: LitGPT prints ``iter {iter_num} step {step_count}``, ``iter_num``
    going up on every micro-batch and ``step_count`` on every optimizer step (``litgpt/pretrain.py``). Records
    several updates apart are read at the update, as the held-out sets' convention reads them (LitGPT's own
    ``log_dict`` steps by ``iter_num``: that reading stays where records come at every pass,
    ``_counters.passes_between_repeats``). Else the first key."""
    slugs = {pos: step_word(names[pos]) for pos in keys}
    if any(slug in PASS_WORDS for slug in slugs.values()):
        update = next((pos for pos in keys if slugs[pos] in UPDATE_WORDS), None)
        if update is not None:
            return update
    return keys[0]


def counts_within(template: list[str], pos: int, names: dict[int, str]) -> bool:
    """A step key whose word follows the name of another counter of the same line (``episode: 569, ...,
    episode steps: 13``): it counts the steps of that unit (an episode's length), not the run's, whatever its
    values do; the template's number that rises on every record is the step then."""
    at = pos - 1
    while at >= 0 and template[at] in (":", "=", "#"):
        at -= 1
    if at < 1 or not template[at][:1].isalpha() or not is_step_key(template[at]):
        return False
    unit = template[at - 1].lower()
    return unit.isalpha() and any(p != pos and word.lower() == unit for p, word in names.items())


def a_record_count(rows: list, pos: int) -> bool:
    """A step key a setting's word qualifies (``total step: 32900``) that every record of a template prints is
    the records' step, not a setting (printed once, in a banner): over two records or more, its value changes,
    or each record at it comes from another process (``rank: 9``, ``rank: 15``, at one step; ``_processes``)."""
    values, ranks = [row[2][pos].rstrip(",;") for row in rows], [row[1] for row in rows]
    if len(rows) < 2 or not all(v.isdigit() for v in values):
        return False
    return len(set(values)) > 1 or (None not in ranks and len(set(ranks)) == len(ranks))


#: A count of iterations as tqdm prints it with its unit (``586it``).
_ITERATIONS = re.compile(r"\d+it")


def counts_iterations(token: str) -> bool:
    """Whether ``token`` is tqdm's count of iterations with its unit (``586it``)."""
    return _ITERATIONS.fullmatch(token) is not None


def iterations_count(template: list[str], rows: list) -> int | None:
    """Where a template prints tqdm's count of iterations with its total (``586it/2.06kit``, a progress
    line's): that count is the step."""
    for pos in range(len(template) - 2):
        if template[pos : pos + 3] == ["<*>", "/", "<*>"] and all(
            counts_iterations(row[2][pos]) for row in rows if len(row[2]) > pos
        ):
            return pos
    return None
