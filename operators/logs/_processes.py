"""Which process printed a record: a key that names the process (``rank: 3``, ``local_rank=1``, ``gpu 2``,
``worker: 5``) inside a record of an unknown format gives the record's rank (the metrics table's ``rank``
column), never a step nor a series. Several processes print one step each (``rank: 9 ... step: 400``, then
``rank: 15 ... step: 400``): the rank going up and down is who printed, not the run going back."""

from __future__ import annotations

from assay.operators.logs._miner import Cluster
from assay.operators.logs._names import key_slug
from assay.operators.logs._numbers import whole_number

#: Keys that name the process a line comes from (the event reader masks a few such words in event texts to
#: group a message every rank prints: ``_collect._WHO``, a list of its own).
PROCESS_KEYS = {
    "rank",
    "local_rank",
    "global_rank",
    "gpu",
    "gpu_id",
    "device",
    "device_id",
    "worker",
    "worker_id",
    "node",
    "node_rank",
    "proc",
    "process",
}


def process_ranks(cluster: Cluster, names: dict[int, str]) -> set[int]:
    """The positions of ``names`` whose key names a process and whose value is a whole number on every record:
    taken out of ``names`` (no series), and each record's rank set from it where the line's prefix gave none.
    Returns those positions, so that no counter rule takes one for the step."""
    found = set()
    for pos, word in list(names.items()):
        if key_slug(word) not in PROCESS_KEYS:
            continue
        values = [whole_number(row[2][pos]) for row in cluster.rows]
        if None in values:
            continue  # ``device: cuda``, ``gpu: 4.1G``: no process number
        found.add(pos)
        del names[pos]
    if len(found) == 1:
        pos = next(iter(found))
        cluster.rows = [(n, whole_number(t[pos]) if r is None else r, t, s) for n, r, t, s in cluster.rows]
    return found


def rank_in(template: list[str], tokens: list[str]) -> int | None:
    """The rank a record's own process key gives (``rank: 12`` in a line of the template), for a record that
    joins its template after the template was typed (a cut last line, ``_cut``); ``None`` if it names none."""
    for at, token in enumerate(template[: len(tokens)]):
        keyed = at >= 2 and template[at - 1] in (":", "=") and key_slug(template[at - 2]) in PROCESS_KEYS
        if token == "<*>" and keyed:
            return whole_number(tokens[at])
    return None
