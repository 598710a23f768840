"""Lines that state a run's settings rather than record its progress, told by their shape: a configuration
printed again as it was (each time a process starts), a command's options (``--seed 99 --epoch 80``), a dump
opened by a word that names settings (``hyperparameters: lr0=0.01, ...``), and a whole number that counts the
noun after it (``Model Summary: 355 layers, 3094312 parameters``), and the rows of a table of settings
(``Arguments | Values``). The general reader (``_emit``, ``fallback``) writes no rows for them."""

from __future__ import annotations

import re

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


#: Optimizers' class names, as their settings are printed (``optimizer: AdamW(lr=0.001667, momentum=0.9) with
#: parameter groups ...``, Ultralytics' start-up line; ``SGD (`` in PyTorch's own repr).
_OPTIMIZERS = {"sgd", "adam", "adamw", "adamax", "nadam", "radam", "rmsprop", "adagrad", "adadelta", "lamb", "lars",
               "lion", "adafactor", "sophia", "muon", "fusedadam", "fusedlamb", "deepspeedcpuadam", "adamw8bit"}


def optimizer_settings(template: list[str]) -> bool:
    """Whether the line's first value is an optimizer's setting: inside its class's brackets (``AdamW(lr=<*>``)."""
    first = next((i for i, tok in enumerate(template) if tok == "<*>"), None)
    if first is None:
        return False
    opened = next((j for j in range(first - 1, -1, -1) if template[j] in ("(", ")")), None)
    return opened is not None and opened > 0 and template[opened] == "(" and template[opened - 1].lower() in _OPTIMIZERS


#: The words a flag's value is printed as (Python's ``True``/``False``, YAML's).
_FLAG_VALUES = {"true", "false"}


def prints_flags(template: list[str], metrics: dict[int, str]) -> bool:
    """Whether a line pairs two keys or more with a flag's value, at least as many as its numbers (``use_gpu:
    True, use_xpu: False, ..., infer_batch_size: 1024``): a script's settings. A record may carry a flag or two
    beside its values (``loss 0.31 | val_loss 0.35 | acc 0.9 | is_best: True | stop: False``), never more."""
    flags = sum(
        tok.lower() in _FLAG_VALUES and template[i - 1 : i] in ([":"], ["="])
        for i, tok in enumerate(template)
        if i >= 2
    )
    return flags >= 2 and flags >= len(metrics)


def command_line(template: list[str], metrics: dict[int, str]) -> bool:
    """Whether most of a template's values (two or more) are a command's options, each after its ``--flag``."""
    flagged = 0
    for pos in metrics:
        key = pos - 2 if template[pos - 1 : pos] == ["="] else pos - 1
        flagged += key >= 2 and template[key - 2 : key] == ["-", "-"]
    return flagged >= 2 and flagged * 2 > len(metrics)


#: The header of a two-column table of settings (``Arguments | Values``, ``Parameter | Value``, ``Key | Value``),
#: as scripts print their arguments before training (ReChorus' ``format_arg_str``, tabulate's ``psql`` layout).
#: Its first column's name: a word that names settings (``_SETTINGS_WORDS``), in the singular too, or the key.
_HEADER_WORDS = sorted(
    {w for word in _SETTINGS_WORDS - {"namespace"} for w in (word, word.removesuffix("s"))} | {"key", "keys", "name", "names"},
    key=len,
    reverse=True,
)
SETTINGS_HEADER = rf"^\s*\|?\s*(?i:{'|'.join(re.escape(w) for w in _HEADER_WORDS)})\s*\|\s*(?i:values?)\s*\|?\s*$"
_SETTINGS_HEADER = re.compile(SETTINGS_HEADER)
#: A row of such a table: a name, a bar, a value (``lr | 0.001``, ``metric | ["NDCG","HR"]``).
_SETTINGS_ROW = re.compile(r"^\s*\|?\s*(?P<key>[A-Za-z_][\w.\-/]*)\s*\|\s*(?P<value>[^|]*?)\s*\|?\s*$")
#: A rule of the table's frame (``=====``, ``+------+-------+``).
_FRAME_RULE = re.compile(r"^\s*[=\-+|]{3,}\s*$")
#: The title of a block of settings between rules (``------Learning Details------``, ``===== Config =====``): words
#: only, one of them naming settings (an epoch's banner, ``===== Epoch 3 =====``, has a number).
#: Any title of words between rules, for the reader's prefilter (RE2: no lookahead); ``_RULED_TITLE`` decides.
RULED_TITLE = r"^\s*[=\-*#]{3,}\s*[A-Za-z][A-Za-z ]{0,40}?\s*[=\-*#]{3,}\s*$"
_RULED_TITLE_WORDS = (
    rf"^\s*[=\-*#]{{3,}}\s*(?=[A-Za-z ]*\b(?i:{'|'.join(re.escape(w) for w in sorted(set(_HEADER_WORDS) | {'details', 'setup', 'setting'}))})\b)"
    r"[A-Za-z][A-Za-z ]{0,40}?\s*[=\-*#]{3,}\s*$"
)
_RULED_TITLE = re.compile(_RULED_TITLE_WORDS)
#: A row of such a block: a name, a colon, a value (``batch_size : 32``, ``Optimizer : Adam``).
_RULED_ROW = re.compile(r"^\s*(?P<key>[A-Za-z_][\w.\-/ ]{0,40}?)\s*:\s*(?P<value>\S[^:]*?)\s*$")


class SettingsTable:
    """A two-column table of settings under its header (``Arguments | Values`` between rules of ``=``): its rows
    are the run's settings, never records (its ``epoch | 100`` is the number of epochs asked for, no step, and
    its ``lr | 0.001`` no point of a curve). The table ends at the first line of another shape."""

    def __init__(self) -> None:
        self.open = False
        self.ruled = False  # in a block of ``key : value`` rows under a ruled title, until its closing rule

    def see(self, text: str) -> tuple[str, str] | bool:
        """True for the header or a rule of the table, a row's ``(key, value)``, False for any other line. A block
        of ``key : value`` rows under a ruled title (``------Learning Details------``) up to its closing rule is one
        too (its ``epoch : 1000`` is the epochs asked for, no step)."""
        if self.ruled:
            if _FRAME_RULE.match(text):
                self.ruled = False
                return True
            row = _RULED_ROW.match(text)
            if row:
                return row["key"], row["value"]
            self.ruled = False
            return False
        if ("--" in text or "==" in text) and _RULED_TITLE.match(text):
            self.ruled = True
            return True

        if not self.open and "|" not in text:
            return False  # (every line passes here: most have no bar, and no header without one)
        if _SETTINGS_HEADER.match(text):
            self.open = True
            return True
        if not self.open:
            return False
        if _FRAME_RULE.match(text):
            return True
        row = _SETTINGS_ROW.match(text)
        if row:
            return row["key"], row["value"]
        self.open = False
        return False
