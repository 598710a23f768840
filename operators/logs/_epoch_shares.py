"""A counter printed with its total beside an epoch printed with its own (``Epoch [12/400], Step [4410/150000]``)
that counts the whole run, not the epoch: read from where its values stand in the total."""

from __future__ import annotations

import re

#: Fewer epochs than this make an epoch's share of the total too wide to tell a run's counter by: an in-epoch
#: counter falls in it by chance one time in the number of epochs.
_MANY_EPOCHS = 20

Key = tuple[int | None, str, int]


class EpochShares:
    """Where the total is the run's, the epoch ``k`` of ``E`` holds the counter's values from ``(k - 1)`` to ``k``
    times ``total / E``: a counter whose every record lies in its epoch's share of the total, one of them past
    the first epoch (where an in-epoch counter also starts low), counts the run; its printed value is the step,
    never made global as an in-epoch index (``4410`` of ``150000`` in epoch 12 of 400, not ``11 * 150000 +
    4410``). One record outside its share says it counts within the epoch."""

    def __init__(self) -> None:
        self._verdict: dict[Key, bool] = {}  # False once a record stood outside its share
        self._past_first: set[Key] = set()
        self._held: dict[Key, dict[int, int]] = {}  # a counter taken for the run's: line -> its epoch's offset

    def give_back(self, key: Key, offsets: dict[int, int], shifted: dict[Key, list[int]]) -> bool:
        """Where a counter read as the run's turned out to count the epoch: its records take the offsets their
        epochs give them back (into ``offsets``, line -> offset, and ``shifted``), once. False where it was
        never read as the run's."""
        if key not in self._past_first:
            return False
        self._past_first.discard(key)
        held = self._held.pop(key, {})
        offsets.update(held)
        shifted.setdefault(key, []).extend(held)
        return True

    def see(self, key: Key, line_no: int, done: int, n: int, total: int, epoch: re.Match) -> bool | None:
        """Note the record on ``line_no``: ``done`` epochs before its own, counter ``n`` of ``total``, ``epoch``
        its ``k/N`` match (``of``/``bof``: the run's epochs). True where the counter counts the run, False where it
        counts the epoch, None while undecided."""
        epochs = int(epoch.group("of") or epoch.group("bof") or 0)
        if epochs < _MANY_EPOCHS or self._verdict.get(key) is False:
            return self._verdict.get(key)
        share = total / epochs
        if done < 0 or not done * share - 1 < n <= (done + 1) * share + 1:
            self._verdict[key] = False
            return False
        if done > 0:
            self._past_first.add(key)
        if key in self._past_first:
            self._verdict[key] = True
            if done > 0:  # the offset its epoch gives it as an in-epoch index, should a record say it is one
                self._held.setdefault(key, {})[line_no] = done * total
        return self._verdict.get(key)
