"""Counters that start again at each epoch (``Step [600/600]``, then ``Step [100/600]``; ``Epoch 2 | 143/573 |``),
made global: the epochs before a record each add their total; a bar drawn once per epoch is the epoch's."""

from __future__ import annotations

import re

from assay.operators.logs._epoch_bases import printer_of
from assay.operators.logs._epoch_shares import EpochShares
from assay.operators.logs._epochs import EPOCH_NUMBER
from assay.operators.logs._steps import COUNTED_AFTER, COUNTER_KEYS, QUOTED_SEP

#: A counter printed with its total: ``Step [100/600]``, ``Batch 16/5000``, ``progress 20/2754`` (a position
#: with its total is a counter whatever counts), a bar's ``100/1875 [``, a bracketed ``[  50/1000]``, a count
#: before its word (``|   200/ 2983 batches |``), a count that is a field of its own beside the epoch.
_COUNTER_OF = re.compile(
    rf"\b(?:{COUNTER_KEYS}|progress)\b{QUOTED_SEP}\[?\s*(?P<n>\d+)\s*/\s*(?P<total>\d+)"
    # (a bracketed date is no count: ``[2025/05/20 10:00:00]`` goes on with a slash, ``[05/20 00:23:44]`` with a time)
    r"|(?P<bar>\d+)/(?P<bar_total>\d+) \[|\[\s*(?P<bracket>\d+)/(?P<bracket_total>\d+)\b(?!/\d|\s+\d{1,2}:\d{2})"
    rf"|(?P<after>\d+)\s*/\s*(?P<after_total>\d+)\s+(?:{COUNTED_AFTER})\b"  # "200/ 2983 batches"
    r"|\|\s*(?P<piped>\d+)\s*/\s*(?P<piped_total>\d+)\s*\|",  # a field of its own (``Epoch 1 | 143/573 |``)
    re.I,
)


#: An epoch printed with its total before a counter: ``epoch: 8/40, iter: 1340/1816``, ``Epoch [2/10]``, or
#: a bracketed pair right before the bracketed counter (``[3/25][300/3183]``: epoch 3 of 25, batch 300).
_EPOCH_OF = re.compile(
    rf"(?i)\bepoch\b{QUOTED_SEP}\[?\s*(?P<k>\d+)\s*/\s*(?P<of>\d+)|\[\s*(?P<bk>\d+)\s*/\s*(?P<bof>\d+)\s*\]\s*$"
)


#: The epoch in a bar's postfix, after its counter: ``epoch=2/100`` (1-based, of its total) or ``epoch=1``.
_POSTFIX_EPOCH = re.compile(rf"(?i)\bepoch\b{QUOTED_SEP}(?P<k>\d+)(?:\s*/\s*(?P<of>\d+))?")


#: A counter that says it counts the whole run (``epoch 2/ 10 | global iteration 920/ 3402``): its steps are as
#: printed, never shifted by the epoch beside it.
_GLOBAL_WORD = re.compile(r"(?i)\bglobal[\s_-]*(?:[a-z]+[\s_-]*)?[:=#]?\s*\[?\s*$")
_END_OF_EPOCH = re.compile(r"(?i)\bend of epoch\s*[:#]?\s*(\d+)")


class EpochCounters:
    """Steps of a counter that starts again at each epoch (``Step [600/600]``, then ``Step [100/600]``), made
    global. When a counter goes back after its last stride reached its total, that total is added to the
    steps after it; a counter going back from mid-way is left alone (a restart from a checkpoint). Counters
    with different totals (a training and an evaluation bar), different words before them (``_counter_word``)
    and ranks are apart."""

    def __init__(self) -> None:
        # (rank, counter word, total) -> last counter, stride, offset, last bare epoch number
        self._state: dict[tuple[int | None, str, int], tuple[int, int, int, int | None]] = {}
        self.offsets: dict[int, int] = {}  # line number -> what its counter's steps are shifted by (where > 0)
        self.zero_based: set[int | None] = set()  # ranks that printed an epoch 0
        self.last_total: dict[int | None, int] = {}  # rank -> the total of the counter it printed last
        # counters seen going on (not back) when the epoch beside them went up: they count the whole run
        # (PaddleSeg's ``epoch: 2, iter: 80/300``), and the lines given an epoch's offset lose it
        self.run_wide: set[tuple[int | None, str, int]] = set()
        # counters seen going back when the epoch beside them went up: one that goes on once later is a gap in
        # the log (an excerpt's missing lines), not a counter of the whole run
        self._started_again: set[tuple[int | None, str, int]] = set()
        self._shifted: dict[tuple[int | None, str, int], list[int]] = {}
        self._last_text: dict[tuple[int | None, str, int], str] = {}  # key -> the line its last record was on
        # a bar's records with the epoch beside them: key -> (line, epoch as printed, printed k/N, n, total)
        self._bars: dict[tuple[int | None, str, int], list[tuple[int, int | None, bool, int, int]]] = {}
        self.zero_printed = False  # the file names an epoch 0 somewhere (``Epoch[0] Elapsed time``)
        # the first epoch's number as the printer of the file's counter lines numbers it (``_epoch_bases``)
        self.printer_first: int | None = None
        # the first epoch's number that puts the first record right after a step the log stated before it (a
        # resumed run's ``global_step 85329``, then ``Epoch 171[1/499]``: 171 * 499 + 1, so epochs count from 0)
        self.prior_first: int | None = None
        self._shares = EpochShares()  # counters whose every record lies in its epoch's share of the total

    def first(self, rank: int | None) -> int:
        """The run's first epoch: 0 once the text names an epoch 0 (the text wins), else the base that follows on
        from a step stated before the first record, else the base of the printer whose shape the counter lines are
        in (``_epoch_bases.PRINTERS``), else 1."""
        if rank in self.zero_based or self.zero_printed:
            return 0
        if self.prior_first is not None:
            return self.prior_first
        return self.printer_first if self.printer_first is not None else 1

    def note(self, text: str) -> None:
        """Note an epoch 0 on any line: the run counts its epochs from 0."""
        if not self.zero_printed and ("poch" in text or "POCH" in text):
            m = EPOCH_NUMBER.search(text) or _EPOCH_OF.search(text)
            # (not a metric's path, ``Train time/epoch: 0``: the epochs a run has completed, Composer's, whose
            # console numbers its first epoch 1)
            self.zero_printed = bool(m) and next(g for g in m.groups() if g is not None) == "0"
            self.zero_printed = self.zero_printed and text[m.start() - 1 : m.start()] != "/"

    def bare_bar(self, text: str, line_no: int, rank: int | None, banner: int | None) -> None:
        """A bar of progress and rate only (``BARE_BAR``) under an epoch's banner: no record and no context of
        its own, but one drawn to its total once per epoch makes the lines after it the epoch's."""
        found = _COUNTER_OF.search(text)
        if found and found.group("bar") and banner is not None:
            n, total = int(found.group("bar")), int(found.group("bar_total"))
            self._bars.setdefault((rank, "|", total), []).append((line_no, banner, False, n, total))

    def per_epoch(self, step_records=None) -> dict[int, int]:
        """Line number -> epoch, for a bar drawn once per epoch: every record of it (but a last one, cut
        short) at its total, two or more, each beside its epoch, and its loss the epoch's (``step_records`` says
        of a bar's lines whether they are step records instead) (``4000/4000 [34:43, 1.9it/s, epoch=2/100,
        loss=0.29]``, or under a banner): the record is the epoch's, so its step is the epoch, as the run
        numbers them (an epoch printed ``k/N`` is the ``k``-th: ``k - 1`` where the file names an epoch 0)."""
        out: dict[int, int] = {}
        for rows in self._bars.values():
            rows = _epochs_before_the_first_banner(rows)
            decided = rows[:-1] if len(rows) > 1 else rows
            if len(rows) < 2 or any(k is None for _, k, _, _, _ in rows) or any(n != of for *_, n, of in decided):
                continue
            if step_records is not None and step_records([line for line, *_ in rows]):
                continue  # bars whose losses are their last steps', not the epochs' (``_bar_losses``)
            for line_no, k, of_form, n, total in rows:
                if n == total or line_no != rows[-1][0]:  # a last bar cut short: its epoch made no record
                    out[line_no] = k - 1 + (0 if self.zero_printed else 1) if of_form else k
        return out

    def see(
        self, text: str, line_no: int, rank: int | None, banner: int | None = None, prior: int | None = None
    ) -> int | None:
        """The global step of ``text``'s innermost counter with a total, if it has one. ``banner``: the epoch
        a banner line before put the line in (``Epoch 3/20`` above ``[120/500] loss 0.8``: the epochs before
        it each counted 500 steps), for a line that prints no epoch of its own. ``prior``: the step a line before
        it stated (a restored checkpoint's), which the first record follows on from."""
        counters = list(_COUNTER_OF.finditer(text))
        if not counters:
            return None
        found = counters[-1]  # the innermost: "Epoch [2/10], Step [100/600]" counts steps
        n, total = _count_and_total(found)
        kind = _kind_of(found)
        before = text[: found.start()]
        if kind == "piped" and not EPOCH_NUMBER.search(before):
            return None  # a field that is a count only beside its epoch (``_within_epoch``)
        key = (rank, _counter_word(before), total)
        last, stride, offset, last_epoch = self._state.get(key, (None, 0, 0, None))
        epoch = _EPOCH_OF.search(before)
        bare = EPOCH_NUMBER.search(before)
        if kind == "bar" and not epoch and not bare:  # the epoch in a bar's postfix (``4000/4000 [.., epoch=2/100``)
            epoch = _POSTFIX_EPOCH.search(text, found.end())
            bare = epoch if epoch and epoch.group("of") is None else None
            epoch = None if bare else epoch
        now = int(bare.group(1) or bare.group(2)) if bare else None
        known = printer_of(text)
        if known is not None:
            if self.printer_first is None:
                self.printer_first = known[0].first_epoch
            if epoch is None and now is None and known[1].start("k") < found.start():
                now = int(known[1]["k"])  # an epoch printed without its word (timm's ``Train: 5 [ 600/1200``)
        k = int(epoch.group("k") or epoch.group("bk")) if epoch else None
        if kind == "bar":
            at = k if k is not None else now if now is not None else banner
            self._bars.setdefault(key, []).append((line_no, at, k is not None, n, total))
        if k == 0 or now == 0:
            self.zero_based.add(rank)
        # the epoch of the banner above a line that prints none: the epochs count from the first banner's
        banner_now = banner if banner is not None and not epoch and not bare else None
        if banner_now is not None:
            now = banner_now  # and a counter that went on when it went up counts the whole run (below)
            if banner_now == 0:
                self.zero_based.add(rank)
        # (a counter before the first banner is in the epoch before it: one going on across the banner counts too)
        at_epoch = now if now is not None else k  # the epoch beside it, printed bare or ``k/N``
        went_up = last_epoch is not None and at_epoch is not None and at_epoch > last_epoch
        if went_up and last is not None and n < last:
            self._started_again.add(key)
        went_on_up = went_up and key not in self._started_again
        share = self._shares.see(key, line_no, k - self.first(rank), n, total, epoch) if k is not None else None
        if share or (last is not None and n > last and (went_on_up or (last_epoch is None and banner_now is not None))):
            self.run_wide.add(key)
            for line in self._shifted.pop(key, []):
                self.offsets.pop(line, None)
        if share is False and self._shares.give_back(key, self.offsets, self._shifted):
            self.run_wide.discard(key)  # a record outside its share: those read as the run's take their offset
        if _GLOBAL_WORD.search(before[-40:]):
            self.run_wide.add(key)  # it says it counts the whole run (``global iteration 920/ 3402``)
        if key in self.run_wide:
            self._state[key] = (n, stride, 0, at_epoch)
            self.last_total[rank] = total
            return n
        if last is None and prior is not None and self.prior_first is None and at_epoch is not None and at_epoch >= 1:
            fits = [base for base in (0, 1) if 0 < (at_epoch - base) * total + n - prior <= total]
            if len(fits) == 1:
                self.prior_first = fits[0]
        first = self.first(rank)
        if epoch and first <= k <= int(epoch.group("of") or epoch.group("bof")):
            # the epoch printed k/N before it: the counter's steps go on from the epochs before
            offset = (k - first) * total
        elif banner_now is not None and n <= total:
            offset = max(0, banner_now - first) * total  # the run's epochs before the banner's, each ``total`` long
        elif now is not None and now >= first and n <= total and (last is None or last_epoch is not None):
            # an epoch number beside the counter (``Epoch [2][100/267]``, ``| epoch  73 |   400/ 1106 batches``):
            # the epochs before it each counted ``total`` steps
            offset = (now - first) * total
        elif last is not None:
            if n < last and now is not None and last_epoch is not None and now > last_epoch:
                offset += total * (now - last_epoch)  # a new epoch printed beside it (``Train Epoch: 2 [0/60000``)
            elif n < last and (last + max(stride, 1) >= total or (n <= max(stride, 1) and 2 * last >= total)):
                # the counter reached its total, or went back to its start from its second half: an epoch
                # whose last batches were not printed (every 50th of 156) ended, no run restarted
                offset += total
            elif (
                n == last == total
                and kind == "bar"
                and at_epoch is None
                and "epoch" not in text.lower()  # an epoch word the counters do not read places the bar itself
                and text != self._last_text.get(key)
            ):
                # a bar with no epoch beside it drawn to its total again with other values: the next epoch's bar,
                # kept only as its end (a file of completed bars); the same line again is a reprint, no new epoch
                offset += total
            elif n > last:
                stride = n - last
        self._state[key] = (n, stride, offset, at_epoch)
        self._last_text[key] = text
        self.last_total[rank] = total
        if offset:
            self.offsets[line_no] = offset
            self._shifted.setdefault(key, []).append(line_no)
        return n + offset

    def end_of_epoch(self, text: str, rank: int | None) -> int | None:
        """The last step of the epoch a line says has ended (``| end of epoch  7 | valid loss 4.2``), from the
        per-epoch total of the counter seen before it."""
        m = _END_OF_EPOCH.search(text)
        total = self.last_total.get(rank)
        if not m or total is None:
            return None
        return (int(m.group(1)) - self.first(rank) + 1) * total

    def place(self, text: str, line_no: int, rank: int | None) -> None:
        """An evaluation line that repeats a training counter with its epoch (``Epoch 3 Batch 50/225 - Test
        Loss: 2.1`` after the training line of the same batch) is at that training step; it changes nothing."""
        counters = list(_COUNTER_OF.finditer(text))
        if not counters:
            return
        found = counters[-1]
        total = _count_and_total(found)[1]
        bare = EPOCH_NUMBER.search(text[: found.start()])
        if (rank, _counter_word(text[: found.start()]), total) not in self._state or not bare:
            return  # an evaluation's own counter (another total), or no epoch beside it
        offset = (int(bare.group(1) or bare.group(2)) - self.first(rank)) * total
        if offset > 0:
            self.offsets[line_no] = offset


def _kind_of(found: re.Match) -> str:
    """Which of ``_COUNTER_OF``'s shapes matched: ``n`` (after a counter word), ``bar``, ``bracket``, ``after``,
    ``piped``."""
    return next((k for k in ("bar", "bracket", "after", "piped") if found.group(k)), "n")


def _count_and_total(found: re.Match) -> tuple[int, int]:
    kind = _kind_of(found)
    return int(found.group(kind)), int(found.group("total" if kind == "n" else f"{kind}_total"))


def _counter_word(before: str) -> str:
    """The word a counter is printed after (``batch`` of ``Reading in batch: 2000 / 2000``, ``it`` of ``training
    it 1000/2000``): two counters with one total but different words count different things (a data loader's
    batches, the training's iterations), so one going back is no new epoch of the other."""
    words = _LAST_WORD.findall(before[-40:])
    return words[-1].lower() if words else ""


_LAST_WORD = re.compile(r"[A-Za-z]{2,}")


def _epochs_before_the_first_banner(rows: list[tuple]) -> list[tuple]:
    """Bars ``(line, epoch, of_form, n, total)`` whose first ones precede the first banner (a loop that announces
    ``Going into epoch 7`` only after the first epoch it ran): where every bar after them has its epoch, one up
    from the bar before, those first bars are the epochs before it."""
    known = next((i for i, row in enumerate(rows) if row[1] is not None), None)
    if not known or any(row[1] is None for row in rows[known:]):
        return rows
    if any(b[1] != a[1] + 1 for a, b in zip(rows[known:], rows[known + 1 :], strict=False)):
        return rows
    first = rows[known][1] - known
    return [(line, first + i, *rest) if epoch is None else (line, epoch, *rest)
            for i, (line, epoch, *rest) in enumerate(rows)]
