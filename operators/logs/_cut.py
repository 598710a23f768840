"""The last record of a log cut mid-line: it joins the template it starts, and its last value is read where
the cut cannot have changed its size.

An excerpt copied from a terminal, or a file whose writer died, often ends inside a record
(``... loss:2.744 lr:0.000`` where the others go on to ``epoch_Time:87.0min:``). Alone, that line forms a
template of one record that no behaviour across records can type. Joined to its template, its last value is
the question: the digits the cut took are the value's last ones, so a decimal keeps its magnitude while it
still holds its leading digits; only a cut that may have taken the integer part or the exponent changes it."""

from __future__ import annotations

import re
from collections.abc import Callable

from assay.operators.logs._miner import Cluster, TemplateMiner
from assay.operators.logs._processes import rank_in

#: Significant digits (after a decimal's leading zeros) a cut decimal keeps before it is read: with four, the
#: digits the cut took change the value by less than 0.1 % (a loss read as the same one) and its magnitude not
#: at all; with three (``26.2`` of ``26.4548``) the cut may have moved it by 1 %, and the value is unknown.
SIGNIFICANT = 4

#: Cut values with the verdict, as examples (the siblings: the same field in the template's complete records).
EXAMPLES = {
    ("0.165142580", ("0.3141889274120331", "0.09738539159297943")): True,  # 9 digits of 17: the same loss
    ("2.744", ("2.7441", "2.6120")): True,
    ("26.2", ("26.454792", "27.101234")): False,  # three: the cut may have moved it by 1 %
    ("0.000", ("0.00030000", "0.00030000")): False,  # no significant digit left
    ("0.00019", ("0.00019999", "0.00020000")): False,  # two: the cut may have changed it by 5 %
    ("1.234", ("1.2345e-05", "1.1000e-05")): False,  # its siblings print an exponent: the cut may have taken it
    ("1.2e-", ("1.2e-05", "1.1e-05")): False,  # the exponent itself cut
    ("12", ("1250", "1300")): False,  # a whole number shorter than the field ever is: its digits were cut
    ("1300", ("1250", "1300")): True,
}

_DIGITS = re.compile(r"^[-+]?(\d*)\.(\d*)$")
_EXPONENT = re.compile(r"\d[eE]")


def cut_value_kept(value: str, siblings: list[str] | tuple[str, ...]) -> bool:
    """Whether the last value of a cut record still says its number (see ``EXAMPLES``)."""
    if not value or value[-1] in "eE+-":
        return False  # empty, or cut inside its exponent (``1.2e-``)
    shortest = min((len(s) for s in siblings), default=0)
    decimal = _DIGITS.match(value)
    if decimal is None or any(_EXPONENT.search(s) for s in (value, *siblings)):
        # a whole number, whose integer part may have been cut, or a value printed with an exponent, which the
        # cut may have taken: read only when it is as long as the field ever is
        return len(value) >= shortest
    significant = (decimal.group(1) + decimal.group(2)).lstrip("0")
    return len(significant) >= SIGNIFICANT or len(value) >= shortest


def join_cut_record(miner: TemplateMiner, step_of: Callable[[Cluster], tuple]) -> None:
    """The file's last record, alone in a template of its own and shorter than its siblings, joins the
    template it starts: when its tokens up to the last are the start of a template of two or more records
    that all end on the same text (``min:``, a bar's ``]``) and it does not end so, it is that template's
    record, cut. Its missing fields are empty, and its last value is read where the cut kept its size
    (``cut_value_kept``). ``step_of``: a template's typing (names, step position, percentages)."""
    clusters = miner.clusters()
    if not clusters:
        return
    last = max(row[0] for c in clusters for row in c.rows)
    cut = next((c for c in clusters if len(c.rows) == 1 and c.rows[0][0] == last), None)
    if cut is None or len(cut.template) < 4:
        return
    size = len(cut.template)
    # a record that stops on a separator after a value (``reward: -19,``) was cut between two fields (the
    # separator glued to the value, or a token of its own)
    stops_between = (cut.rows[0][2][-1][-1:] in (",", ";", "|") and cut.template[-1] == "<*>") or (
        cut.template[-1] in (",", ";", "|") and cut.template[-2] == "<*>"
    )
    for whole in sorted(clusters, key=lambda c: -len(c.rows)):
        # a value that every complete record follows with its format's punctuation (``M: 5.79 | S: ...``,
        # ``[-2.41, 0.84]``), or a key that they follow with its separator and value (``, Eta`` before ``:``),
        # where the last line stops without it: cut there (D9), whatever the records end on; its last value is
        # read as any cut value is (``cut_value_kept``)
        follows = whole.template[size] if len(whole.template) > size else ""
        punctuation = follows not in ("", "<*>") and not follows[:1].isalnum()
        before_separator = (cut.template[-1] == "<*>" and punctuation) or (
            cut.template[-1][:1].isalpha() and follows in (":", "=")
        )
        # or it stops where the records go on with their next key (``... best: 0.83 (1)`` before ``total: 17s``)
        before_separator = before_separator or (
            follows[:1].isalpha() and whole.template[size + 1 : size + 2] in ([":"], ["="])
        )
        # or a key cut inside its word (``Total reward: 180.0 Expl`` where the records go on ``Explore P:``)
        inside_key = cut.template[-1][:1].isalpha() and _cut_word(cut.template[-1], whole.template[size - 1 : size])
        if len(whole.rows) < 2 or len(whole.template) <= size or (
            whole.template[-1] == "<*>" and not stops_between and not before_separator and not inside_key
        ):
            continue  # (records that end on a value give no sign of where a complete one ends, unless the cut
            # one stops on the separator that follows a value inside them)
        if cut.rows[0][2][-1] == whole.template[-1]:
            continue  # it ends as a whole record does: a shorter record of its own, not a cut one
        head = whole.template[: size - 1]
        if all(t == "<*>" or t == u for t, u in zip(head, cut.template[: size - 1], strict=True)):
            # the template is typed from its complete records before the cut one joins; a record cut before
            # its own step (or the total after it) stays apart
            step_pos = step_of(whole)[1]
            if step_pos is not None and step_pos + (3 if whole.template[step_pos + 1 : step_pos + 2] == ["/"] else 1) >= size:
                return
            line_no, rank, tokens, step = cut.rows[0]
            kept = list(tokens[:size])
            siblings = [r[2][size - 1] for r in whole.rows]
            # a value every complete record follows with its format's separator, printed without it and with fewer
            # decimals than the one width they all print (``3.7745`` where each prints ``3.79102 | scale``): cut
            # inside it (D9); any other cut value is read where the cut kept its size
            if whole.template[size - 1] == "<*>" and (
                (before_separator and _fewer_decimals(kept[-1], siblings)) or not cut_value_kept(kept[-1], siblings)
            ):
                kept[-1] = ""
            rank = rank if rank is not None else rank_in(whole.template, kept)  # ``rank: 12`` on the cut line
            whole.rows.append((line_no, rank, kept + [""] * (len(whole.template) - size), step))
            miner.by_length[size].remove(cut)
            return


def _cut_word(word: str, whole: list[str]) -> bool:
    """Whether ``word`` is the start of the complete records' word at its place, the rest cut off."""
    return bool(whole) and whole[0] != word and whole[0].startswith(word)


_FIXED = re.compile(r"^[-+]?\d+\.(\d+)$")


def _decimals(value: str) -> int | None:
    m = _FIXED.match(value)
    return len(m.group(1)) if m else None


def _fewer_decimals(value: str, siblings: list[str]) -> bool:
    """Whether ``value`` prints fewer decimals than its ``siblings``, which all print one number of them."""
    widths = {_decimals(v) for v in siblings}
    printed = _decimals(value)
    return len(widths) == 1 and None not in widths and printed is not None and printed < widths.pop()


def blank_cut_tail(miner: TemplateMiner) -> None:
    """The file's last record, when its template ends on a value that each of its other records (three or more;
    or those of the longer template it starts, where the cut took the fields after it too) prints with the same
    number of decimals (a fixed format, ``{:.6f}``) and it prints fewer (two fewer than the shortest where the
    widths vary, as ``%g`` prints them): the line was cut inside that value, so
    the value is not read (docs/gold-conventions.md, D9). ``Loss: 0.000001305`` after records that print
    ``Loss: 0.000002487727670``; ``loss 0`` after records that print ``loss 0.16778``."""
    clusters = miner.clusters()
    if not clusters:
        return
    last = max(row[0] for c in clusters for row in c.rows)
    cluster = next(c for c in clusters if any(row[0] == last for row in c.rows))
    if cluster.template[-1] != "<*>":
        return
    siblings = [row[2][-1] for row in cluster.rows if row[0] != last and row[2]]
    if len(siblings) < 3:
        # cut before the fields after it too (``[31]:  train's l2:0.084``): the value at the same place in the
        # template whose records start as it does
        at = len(cluster.template) - 1
        longer = [c for c in clusters if len(c.rows) >= 3 and len(c.template) > at + 1
                  and all(t == u or "<*>" in (t, u) for t, u in zip(c.template[:at], cluster.template[:at], strict=False))
                  and c.template[at] == "<*>"]
        siblings = [row[2][at] for c in longer for row in c.rows if len(row[2]) > at]
    if len(siblings) < 3:
        return
    widths = {_decimals(v) for v in siblings}
    if None in widths:
        return
    # a fixed format prints one width; ``%g`` drops trailing zeros, so its widths vary by a digit or two: a value
    # two digits shorter than the shortest of them was cut
    fixed = len(widths) == 1
    width = min(widths)
    row = next(row for row in cluster.rows if row[0] == last)
    printed = _decimals(row[2][-1]) if row[2] else None
    # a whole number where every other record prints decimals (``loss 0`` after ``loss 0.16778``): the cut took
    # the point and what followed it
    whole = bool(row[2]) and re.fullmatch(r"[-+]?\d+", row[2][-1]) is not None
    if width >= 2 and (whole or (printed is not None and printed < width - (0 if fixed else 1))):
        row[2][-1] = ""


def mend_cut_tail(miner: TemplateMiner, step_of: Callable[[Cluster], tuple]) -> None:
    """The file's last record, if the excerpt cut it: joined to its template, and a value the cut shortened blanked."""
    join_cut_record(miner, step_of)
    blank_cut_tail(miner)
