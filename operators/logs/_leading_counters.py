"""A whole number that opens every line of a template and counts its records (``   12 4.31 s run, 2.87 loss``,
``100 train loss: 0.52 ...``, ``20th train loss: ...``): the loop's counter, printed first."""

from __future__ import annotations

import re

from assay.operators.logs._fields import variable_names
from assay.operators.logs._miner import Cluster
from assay.operators.logs._numbers import whole_number


def leading_counter(cluster: Cluster) -> bool:
    """A whole number that opens every line of a template whose fields are all named, and that rises from
    record to record (``   12 4.31 s run, 2.87 loss, ...``): the step, as a loop that prints its counter first
    writes it, also printed with its total (``1290/2680 = 48.1%, ...``); so is an ordinal that opens every line
    and rises (``20th train loss: ...``, ``21th ...``), which numbers its record whatever word follows. Needs three records: two lines rising by chance say nothing."""
    names, _, _ = cluster.typed or ({}, None, set())
    t = cluster.template
    if t[:1] != ["<*>"] or len(t) < 3 or 0 in names:
        return False
    if len(cluster.rows) < 3 and not _before_keyed_fields(cluster) and not _from_the_loop_start(cluster):
        return False
    ordinals = [ORDINAL.match(row[2][0]) for row in cluster.rows]
    if all(ordinals):  # ``20th train loss: ...``: an ordinal numbers the record, whatever word follows it
        values = [int(m[1]) for m in ordinals]
    elif _opens_fields(t) or _with_its_total(cluster):
        values = [whole_number(row[2][0]) for row in cluster.rows]  # ``490,`` (``490, loss 5.49``) too
    else:
        return False
    return None not in values and all(a < b for a, b in zip(values, values[1:], strict=False))


def _from_the_loop_start(cluster: Cluster) -> bool:
    """Two records whose leading number, a colon after it and a key after that (``0:  learn: 0.74  test: ...``,
    then ``100: ...``), starts at the loop's first value (0 or 1) and goes up: a loop printing every so many
    iterations, shown twice (a run stopped early); two lines rising from anywhere else say nothing."""
    t, rows = cluster.template, cluster.rows
    if len(rows) != 2 or t[1:2] != [":"] or not t[2:3] or not t[2][:1].isalpha():
        return False
    first, second = (whole_number(row[2][0]) for row in rows)
    return first in (0, 1) and second is not None and second > first


def _before_keyed_fields(cluster: Cluster) -> bool:
    """A whole number standing alone as the first ``|``-separated field of a row whose other fields are named
    (``4000 | loss 2.87 | lr 4.5e-04 | 812.44ms | mfu 31.07%``): the row's counter, from its first record on;
    its separator sets it apart as a field of its own, and the only one without a name. Every field after it
    holds a named value or a value with its unit (``812.44ms``), never an unnamed whole number; two named."""
    t = cluster.template
    names = variable_names(t)
    if t[1:2] != ["|"] or sum(1 for pos in names if pos > 1) < 2:
        return False
    loose = [pos for pos in range(2, len(t)) if t[pos] == "<*>" and pos not in names]
    return all(whole_number(row[2][pos]) is None for row in cluster.rows for pos in loose)


#: An ordinal number as a loop prints its count (``1st``, ``22nd``, ``20th``; ``21th`` as scripts write it).
ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$", re.I)


def _with_its_total(cluster: Cluster) -> bool:
    """A leading number printed with a total that every record prints the same (ELECTRA's ``1290/2680 = 48.1%,
    SPS: 0.1, ...``): a counter of the run's steps; not a date (``2024/05/01``, a second slash)."""
    t = cluster.template
    if t[1:3] != ["/", "<*>"] or t[3:4] == ["/"]:
        return False
    return len({row[2][2] for row in cluster.rows}) == 1


def _opens_fields(t: list[str]) -> bool:
    """What follows a leading number opens the record's fields: a value, a separator (``490 | loss 5.7 |``,
    ``12: loss 2.1``), or the first field's key right away, a word followed by its value (``490, loss 5.49``,
    the comma glued to the number), or of two words before its colon; not a word the number counts (``12 GPUs
    available``)."""
    if t[1] in ("<*>", ":", "|", ",", ";", "-"):
        return True
    if t[1][:1].isalpha() and t[2:3] and t[2][:1].isalpha() and t[3:4] in ([":"], ["="]):
        return True  # a key of two words (``100 train loss: 0.52 recon_error: 0.48``)
    return t[1][:1].isalpha() and t[2] in ("<*>", ":", "=")
