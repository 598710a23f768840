"""A number inside a phrase that counts the noun after it (``Time taken for 1 epoch: 630.2 secs``): no value of
its own, and the noun it counts is no key of the value after it."""

from __future__ import annotations

#: Prepositions a count follows inside a phrase (``Time taken for 1 epoch``, ``loss over 50 steps``).
_COUNTING = {"for", "in", "per", "over", "after", "within", "every"}


def counted_in_phrase(template: list[str], i: int) -> bool:
    """The value at ``i`` counts the noun after it inside a phrase (``for 1 epoch``, ``over 50 steps``): a
    preposition before it, a word after it; it is no value of its own, named by the preposition."""
    if i < 1 or template[i + 1 : i + 2] == []:
        return False
    # (the noun may end its sentence: ``for 100 batches.`` is read as one word with its full stop)
    noun = template[i + 1].rstrip(".,;:")
    if template[i - 1].lower() == "at":  # ``... accuracy/top1 at 1 epoch``: where, counted in the run's units
        return noun.lower() in _RUN_UNITS
    return template[i - 1].lower() in _COUNTING and noun.isalpha()


#: The units a run is counted in: ``at 3 epochs`` says where, not what a value is (``at 0.5 for`` may be a value).
_RUN_UNITS = {"epoch", "epochs", "step", "steps", "iter", "iters", "iteration", "iterations"}


def head_before_count(template: list[str], i: int) -> str | None:
    """The name of a value whose key is a counted noun (``Time taken for 1 epoch: 630.2 secs``): the words that
    head the phrase before the count's preposition (``Time taken``), not the noun (the value is no epoch)."""
    j = i - 1
    while j >= 0 and template[j] in (":", "="):
        j -= 1
    if j < 3 or not template[j].isalpha() or template[j - 1] != "<*>" or not counted_in_phrase(template, j - 1):
        return None
    start = j - 2
    while start > 0 and j - 2 - start < 3 and template[start - 1].isalpha():
        start -= 1
    return " ".join(template[start : j - 2]) or None
