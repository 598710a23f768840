"""Lines that state a run's settings rather than record its progress, told by their shape: a configuration
printed again as it was (each time a process starts), a command's options (``--seed 99 --epoch 80``), a dump
opened by a word that names settings (``hyperparameters: lr0=0.01, ...``), and a whole number that counts the
noun after it (``Model Summary: 355 layers, 3094312 parameters``). The general reader (``_emit``) writes no rows
for them."""

from __future__ import annotations

from assay.operators.logs._options import DUMP_WORDS


def counts_its_noun(template: list[str], pos: int) -> bool:
    """Whether the whole number at ``pos`` counts the plural noun after it, a field of its own (``Model Summary:
    355 layers, 3094312 parameters, ...``): no value of the key before it."""
    noun = template[pos + 1] if pos + 1 < len(template) else ""
    return (
        len(noun) > 3 and noun.isalpha() and noun.islower() and noun.endswith("s")
        and template[pos + 2 : pos + 3] in ([","], [";"], [])
    )


#: Values a line prints, at least, for the same values on every line of its template to be settings restated
#: (an evaluation's progress line may print its few timings alike twice).
_RESTATED_VALUES = 5


def restated(rows: list, metrics: dict[int, str]) -> bool:
    """Whether a template's lines print five values or more, each the same on every one of its two or more
    lines: a configuration printed again (each time a process starts), not records of a run."""
    if len(rows) < 2 or len(metrics) < _RESTATED_VALUES:
        return False
    return all(len({row[2][pos] for row in rows if pos < len(row[2])}) == 1 for pos in metrics)


#: Words a script opens a dump of its settings with (``hyperparameters: lr0=0.01, ...``, ``Namespace(lr=0.1,``):
#: the options reader's, and the spellings of hyperparameters and settings.
_SETTINGS_WORDS = {
    *DUMP_WORDS, "namespace", "hyperparameters", "hyper-parameters", "hyp", "configuration", "settings", "params",
    "parameters",
}


def settings_dump(template: list[str], metrics: dict[int, str]) -> bool:
    """Whether the line's first word names settings and a colon, a parenthesis or a brace follows it, before
    three values or more."""
    first = next((i for i, tok in enumerate(template) if tok[:1].isalpha()), None)
    return (
        first is not None
        and template[first].lower() in _SETTINGS_WORDS
        and template[first + 1 : first + 2] in ([":"], ["("], ["{"], ["="])
        and len(metrics) >= 3
    )


def command_line(template: list[str], metrics: dict[int, str]) -> bool:
    """Whether most of a template's values (two or more) are a command's options, each after its ``--flag``."""
    flagged = 0
    for pos in metrics:
        key = pos - 2 if template[pos - 1 : pos] == ["="] else pos - 1
        flagged += key >= 2 and template[key - 2 : key] == ["-", "-"]
    return flagged >= 2 and flagged * 2 > len(metrics)
