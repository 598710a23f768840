"""Keys printed together before values printed together: ``epoch/iter: 20/5399`` names two values, the epoch
20 and the iteration 5399, not a counter 20 of a total 5399. Read from the template's shape: a key of words
joined by ``/`` followed by as many values joined by ``/``."""

from __future__ import annotations

import re

from assay.operators.logs._names import metric_name

#: A key of two or three words joined by slashes (``epoch/iter``, ``loss/acc``); each word two letters or more.
_JOINED_KEY = re.compile(r"^[A-Za-z_][A-Za-z_]+(?:/[A-Za-z_][A-Za-z_]+){1,2}$")


def split_paired_keys(template: list[str], names: dict[int, str]) -> None:
    """Where ``names`` holds a joined key (``epoch/iter``) for a value followed by ``/`` and as many more
    values as the key has words, each value takes its own word. A rate (``tok/s: 900``) is followed by one
    value and stays as it is. A metric's name right before the joined key (``Loss span/answer/total=0.52/0.11/
    0.63``) is each word's head noun: ``span Loss``, ``answer Loss``, ``total Loss`` (the whole one, by its word)."""
    for pos, name in list(names.items()):
        if not _JOINED_KEY.match(name):
            continue
        words = name.split("/")
        at = [pos + 2 * k for k in range(len(words))]
        if at[-1] >= len(template) or not all(template[p - 1] == "/" and template[p] == "<*>" for p in at[1:]):
            continue
        if template[at[-1] + 1 : at[-1] + 2] == ["/"]:
            continue  # more values than words: a date or a path, not a pair
        key = next((j for j in range(pos - 1, max(-1, pos - 4), -1) if template[j] == name), None)
        head = template[key - 1] if key else ""
        head = head if head[:1].isalpha() and metric_name(head) else ""
        for p, word in zip(at, words, strict=True):
            names[p] = f"{word} {head}" if head else word
