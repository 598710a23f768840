"""The epoch around a run's records: Keras' ``Epoch k/N`` header over its bars, a banner before the records
(``===== Epoch 3 =====``, ``Starting epoch 4``) or a footer after them (``End of epoch 3``), a line that prints
the epoch's length; counters that start again at each epoch are made global from them."""

from __future__ import annotations

import bisect
import re

from assay.operators.logs._miner import Cluster
from assay.operators.logs._names import key_slug
from assay.operators.logs._step_keys import PASS_WORDS, UPDATE_WORDS, epoch_and_length, step_word

#: A line that is only an epoch header: Keras' ``Epoch 41/190``.
_EPOCH_HEADER = re.compile(r"^\s*Epoch\s+(?P<k>\d+)\s*/\s*(?P<of>\d+)\s*$", re.I)
#: A line that opens with its batch counter: Keras' ``244/244 ━━━━ 270s 911ms/step - loss: 0.41`` or
#: ``244/244 [======] - 270s - loss: 0.41``.
#: MONAI's tutorials print ``3/16, train_loss: 0.41``.
_LEADING_COUNTER = re.compile(r"^\s*(?P<n>\d+)/(?P<of>\d+)(?:\s+(?:\[|[^\w\s])|,\s)")
#: A bar's time per sample: its counter counts samples.
_PER_SAMPLE = re.compile(r"\d(?:us|µs|ms|s)/sample\b")
#: A line that prints an epoch's record with no counter, its time first: Keras 2's ``verbose=2``
#: (`` - 8s - loss: 0.41 - acc: 0.91``), Keras 1's with no dash before the time (``812s - loss: 0.41``).
_TIMED_RECORD = re.compile(r"^\s*(?:-\s+)?\d+(?:\.\d+)?m?s\b(?:\s+\d+\w*/step)?\s+-\s+\w[\w/]*:\s")


class EpochBars:
    """Counters that open their lines under an ``Epoch k/N`` header line (Keras' ``model.fit``). A file whose
    bars all reached their total prints one record per epoch: its step is the epoch; otherwise a bar's step
    counts on from the epochs before, ``(k - 1) * M + n``. Bars before the first header belong to the epoch
    before it (an excerpt that starts mid-run)."""

    def __init__(self) -> None:
        self.epoch: dict[int | None, int] = {}
        self.first_header: int | None = None
        self.bars: list[tuple[int, int | None, int, int]] = []  # line, epoch (None: before any header), n, M
        self.timed: list[tuple[int, int]] = []  # line, epoch: an epoch's record printed with no bar
        # headers that go back (``Epoch 1/N`` after ``Epoch 9/N``): (line, the header before's line, whether
        # that one was the last of its fit, ``N/N``); another fit where it was, or where the run said it ended
        # in between (``new_fits``)
        self.went_back: list[tuple[int, int, bool]] = []
        self._last: dict[int | None, tuple[int, int, int]] = {}  # rank -> its last header's (k, N, line)
        # the bars count samples (``405/405 [====] - 0s 984us/sample``, Keras' ``fit`` on arrays in TF 1.x): no
        # optimizer step is printed, the epoch is the step
        self.per_sample = False

    def see(self, text: str, line_no: int, rank: int | None) -> bool:
        """Take a header line (True: the line says nothing else); note a bar line's counter."""
        m = _EPOCH_HEADER.match(text)
        if m:
            k, of = int(m.group("k")), int(m.group("of"))
            last = self._last.get(rank)
            if last is not None and k < last[0]:
                self.went_back.append((line_no, last[2], last[0] == last[1]))
            self._last[rank] = (k, of, line_no)
            self.epoch[rank] = k
            if self.first_header is None:
                self.first_header = int(m.group("k"))
            return True
        b = _LEADING_COUNTER.match(text)
        if b:
            self.bars.append((line_no, self.epoch.get(rank), int(b.group("n")), int(b.group("of"))))
            self.per_sample = self.per_sample or bool(_PER_SAMPLE.search(text))
        elif self.epoch.get(rank) is not None and _TIMED_RECORD.match(text):
            self.timed.append((line_no, self.epoch[rank]))
        return False

    def new_fits(self, ended: list[int]) -> list[int]:
        """The headers that open another fit (the counter going back there is a new run's, no restart): the fit
        before reached its last epoch, or a line said it ended (``ended``, sorted: Keras' ``Epoch 00008: early
        stopping``, printed before that epoch's record) since its last header."""
        return [
            line
            for line, before, last in self.went_back
            if last or bisect.bisect_right(ended, before) < bisect.bisect_left(ended, line)
        ]

    def steps(self) -> dict[int, int]:
        """Line number -> the bar's step, once every line is seen. With no bars at all, an epoch's record printed
        under its header without one (Keras 2's ``verbose=2``) is at its epoch."""
        if self.first_header is None:
            return {}
        if not self.bars:
            return dict(self.timed)
        # the last bar may be an epoch cut short (a killed run, an excerpt): it decides nothing
        decided = self.bars[:-1] if len(self.bars) > 1 else self.bars
        per_epoch = self.per_sample or all(n == of for _, _, n, of in decided) or _left_over(decided)
        out = {}
        for line_no, epoch, n, of in self.bars:
            k = epoch if epoch is not None else self.first_header - 1
            out[line_no] = k if per_epoch else (k - 1) * of + n
        return out


def _left_over(bars: list[tuple[int, int | None, int, int]]) -> bool:
    """Whether the bars on the way through an epoch are leftovers of a bar drawn in place: most epochs print
    only their closing bar (``33/33 [====]``), and a bar part-way (``13/33 [===>..]``) stands only in the few
    epochs where other output cut into its redraw (a library's warning). The run reports by epoch, as a run
    printing only closing bars does; a bar part-way in most epochs (``verbose=1`` written to a file) counts on."""
    epochs: dict[int | None, bool] = {}
    for _, epoch, n, of in bars:
        epochs[epoch] = epochs.get(epoch, False) or n < of
    part_way = sum(epochs.values())
    return len(epochs) >= 4 and 0 < part_way * 3 < len(epochs) and all(
        any(n == of for _, e, n, of in bars if e == epoch) for epoch in epochs)


def counts_each_epoch(cluster: Cluster, pos: int, names: dict[int, str]) -> bool:
    """Whether the epoch at ``pos`` numbers its records because the step counter beside it on the same line
    never moves (``Epoch 7 | Steps: 5120 | Loss: 40.7``, the same count on three or more records while the epoch
    rises): that counter is each epoch's number of batches, so the record is the epoch's and its step the epoch
    (a tool that prints epochs only), never that count made global across the epochs. A counter printed with
    its total (``iter 500/500``) is not one: its length is printed, and it is made global (``EpochCounters``)."""
    rows = cluster.rows
    return len(rows) >= 3 and any(
        at != pos
        and step_word(name) in UPDATE_WORDS | PASS_WORDS
        and cluster.template[at + 1 : at + 2] != ["/"]
        and len({row[2][at] for row in rows}) == 1
        for at, name in names.items()
    )


class EpochRelative:
    """A step printed without its total beside an epoch (MindSpore's ``epoch: 2 step: 100, loss is 1.9``) that
    goes back exactly when the epoch goes up counts within the epoch, no restart. Where a line prints the epoch's
    length (``steps per epoch: 300``) the steps go on across epochs; where none does the counter stays as printed
    (``started_again`` tells the reader a new epoch began there): a length guessed from the largest counter
    seen would number steps the run never had (its last batches are seldom printed).

    The epoch may also come from the lines around the records (:meth:`banner`): a banner before them
    (``Epoch 3/20``, ``===== Epoch 3 =====``, ``Starting epoch 4``) or a footer after them (``End of epoch 3``,
    ``Epoch 3 finished, avg loss 0.41``: the records after it are the next epoch's). Where the epoch's length is
    printed, the steps are the run's: ``step = (epoch - first) * length + i``, ``first`` the run's first epoch
    (1, or 0 once an epoch 0 is named), as for a counter with its total (:class:`EpochCounters`)."""

    def __init__(self) -> None:
        self.state: dict[int | None, tuple[float, int, int]] = {}  # rank -> epoch, last counter, offset
        self.offsets: dict[int, int] = {}  # line number -> steps added to its counter (where > 0)
        self.banners: dict[int | None, int] = {}  # rank -> the epoch its last banner or footer puts it in
        self.zero = False  # an epoch 0 was named: the run counts its epochs from 0
        self.length: int | None = None  # steps per epoch, where a line prints it
        self.started_again = False  # the last step's counter started again with a new epoch, no length printed
        self._next: dict[int | None, int] = {}  # rank -> the epoch a footer starts, from the line after it
        self.named = False  # a line named its epoch itself: lines that name none are in no epoch
        # the epoch a banner opened on its line, or a footer that prints nothing else (``***** Epoch=1 end *****``)
        # on the line after it
        self.opened: int | None = None
        self._bare_footer = False
        # the counter lines stepped before any length was printed: (line, rank, epoch, printed), shifted once a
        # line after them prints the length (``late_length``)
        self._unshifted: list[tuple[int, int | None, float, int]] = []
        self._went_back = False  # a counter went back when its epoch went up, with no length printed
        self.closed_at: int | None = None  # the step a summary with the epoch's length closes its epoch at
        # counter line -> its counter as printed, and the steps added once the length was printed after it
        self.late: dict[int, tuple[int, int]] = {}

    def banner(self, text: str, rank: int | None) -> None:
        """Note the epoch a banner, a footer or a steps-per-epoch line says (the line is read on as before). A
        banner's epoch holds from its own line (it prints nothing else), a footer's next epoch from the line
        after it (the footer's own values are the ended epoch's). Lines of any rank follow the last banner."""
        self.opened = self.closed_at = None
        if self._next:
            self.banners.update(self._next)
            if self._bare_footer:
                self.opened = self._next.get(rank, self._next.get(None))
            self._next = {}
        if "poch" not in text and "POCH" not in text:
            return
        m = EPOCH_BANNER.match(text)
        footer = None if m else _EPOCH_FOOTER.search(text)
        if m:
            self.banners[rank] = self.banners[None] = int(m.group(1))
            self.zero = self.zero or m.group(1) == "0"
            if not _EPOCH_HEADER.match(text):  # Keras' ``Epoch 3/20`` numbers its bars (``EpochBars``)
                self.opened = int(m.group(1))
            return
        if footer:
            ended = int(footer.group(1) or footer.group(2))
            self._next[rank] = self._next[None] = ended + 1
            self.zero = self.zero or ended == 0
            self._bare_footer = not text[footer.end() :].strip(" *=-#|.:!")  # it prints nothing else
            return
        per = _STEPS_PER_EPOCH.search(text)
        if per:
            self.length = int(per.group(1) or per.group(2) or per.group(3))
            return
        summed = epoch_and_length(text)
        if summed:
            self.late_length(*summed)

    def late_length(self, epoch: int, length: int) -> None:
        """A line that sums an epoch up and prints its length (``Epoch: 2, Steps: 281 | Train Loss: ...``, printed
        after the epoch's records): the epoch ends at its last step, ``(epoch - first + 1) * length``, and a
        counter that went back with each epoch before it counts on across epochs from here, its earlier
        lines shifted as they would have been had the length come first. A counter that never went back is the
        run's own (one that goes past the length): nothing moves."""
        first = 0 if self.zero else 1
        self.closed_at = (epoch - first + 1) * length
        if self.length is not None:
            return
        self.length = length
        if not self._went_back and any(printed > length for *_, printed in self._unshifted):
            return  # a counter past the epoch's length that never went back counts the whole run
        for line_no, _, at, printed in self._unshifted:
            if at != _BEFORE and round(at) > first:
                self.offsets[line_no] = length * (round(at) - first)
                self.late[line_no] = (printed, self.offsets[line_no])
        for rank, (at, last, _) in list(self.state.items()):
            self.state[rank] = (at, last, length * max(0, round(at) - first))

    def banner_of(self, rank: int | None) -> int | None:
        """The epoch the banners put ``rank`` in, if any did."""
        return self.banners.get(rank, self.banners.get(None))

    def epoch_of(self, text: str, rank: int | None) -> float | None:
        """The epoch a line names (``epoch: 2 step: 100``), else the one its banner put it in. Before any
        banner or footer (in a file whose lines name no epoch), the epoch before the first one the file names
        (``_BEFORE``): a footer's ``End of epoch 1`` then starts the next epoch after those lines."""
        m = EPOCH_NUMBER.search(text)
        if m:
            self.zero = self.zero or (m.group(1) or m.group(2)) == "0"
            self.named = True
            return float(m.group(1) or m.group(2))
        k = self.banners.get(rank, self.banners.get(None))
        if k is None:
            return None if self.named else _BEFORE
        return float(k)

    def step(self, rank: int | None, epoch: float, printed: int, line_no: int) -> int:
        if rank not in self.state and self.length and printed <= self.length:
            # a printed epoch length: the run's epochs before this one (from 1, or 0 where it starts at 0)
            self.state[rank] = (epoch, printed, self.length * max(0, round(epoch) - (0 if self.zero else 1)))
        last_epoch, last, offset = self.state.get(rank, (epoch, printed, 0))
        self.started_again = False
        if epoch > last_epoch and printed <= last:  # the counter did not go on when the epoch went up
            if self.length:
                offset += self.length * (1 if last_epoch == _BEFORE else round(epoch - last_epoch))
            else:  # the epoch's length is not printed (yet): the counter stays as printed, a new epoch's
                self.started_again = self._went_back = True
        self.state[rank] = (epoch, printed, offset)
        if not self.length:
            self._unshifted.append((line_no, rank, epoch, printed))
        return printed + offset


#: The epoch of the lines before the first banner or footer: the one before the first the file names.
_BEFORE = -1.0
#: A line that only announces an epoch, the one recogniser of such lines (``_event_steps`` places events by it too):
#: ``Epoch 3/20``, ``===== Epoch 3 =====``, ``Starting epoch 4``, ``--- Beginning epoch 2 of 10 ---``, ``[Epoch 5]``,
#: ``>>> Train Epoch: [9 / 500]``, ``Epoch 3/20 (runs/exp1):`` (the run's name in parentheses), after a logger's
#: level (``P3047 INFO ***** Epoch=2 start *****``) or a logger's dotted name that prints no level (``acme.loop.epochs -
#: Going into epoch 2``). Nothing else on the line: a value would make it a record.
EPOCH_BANNER = re.compile(
    r"(?i)^(?:[^\n]*?\b(?:INFO|DEBUG|NOTICE)\b:?|[a-z_]\w*(?:\.\w+)+\s+-)?\W*"
    r"(?:(?:start(?:ing|ed)?|begin(?:ning)?|running|train(?:ing)?|going into|entering)\s+)?"
    r"epoch\s*[:#=]?\s*\[?\s*(\d+)"
    r"\s*(?:(?:/|of)\s*\d+\s*)?\]?(?:\s*(?:starts?|started|begins?|begun)\b)?(?:\s*\([^()]*\))?\W*$"
)
#: A progress bar over the epochs (``Epoch:  40%|████      | 2/5 [10:00<15:00, 300.0s/it]``): tqdm's
#: ``trange(epochs, desc="Epoch")`` in sentence-transformers' ``SentenceTransformer.fit`` and the HF Trainer before
#: 4.0 (``trange(epochs_trained, num_train_epochs, desc="Epoch")``). Its count is the epochs done, so the run is in
#: the epoch of that number, counted from 0.
_EPOCH_BAR = re.compile(r"(?i)^\s*epochs?\s*:?\s*\d{1,3}%\|[^|\n]*\|\s*(\d+)/\d+\s*\[")


def epoch_opened(text: str) -> int | None:
    """The epoch a line opens and says nothing else about: a banner (``EPOCH_BANNER``) or a bar over the epochs
    (``_EPOCH_BAR``, its count from 0); ``None`` for any other line."""
    m = EPOCH_BANNER.match(text) or _EPOCH_BAR.match(text)
    return int(m.group(1)) if m else None


#: A line that says an epoch ended: ``End of epoch 3``, ``Epoch 3 finished ... avg loss 0.41``, ``epoch 3 done``,
#: ``***** Epoch=3 end *****``.
_EPOCH_FOOTER = re.compile(
    r"(?i)\bend of epoch\s*[:#]?\s*(\d+)|\bepoch\s*[:#=]?\s*(\d+)\s*(?:/\s*\d+\s*)?[,:]?\s*"
    r"(?:finished|done|completed?|ended|end|is over)\b"
)
#: Words after an epoch's number that say it ended (``Epoch 3 finished``, ``epoch 3/20 done``).
_ENDED_WORDS = {"finished", "done", "complete", "completed", "ended"}


def says_epoch_ended(template: list[str], finer: bool = True) -> bool:
    """A mined template that reports an epoch's end (``end of epoch 7``, ``Epoch <*> finished, loss <*>``): its
    values are the epoch's (at the epoch's last step), not a step's. It says so only among ``finer`` steps (the
    file counts steps within the epoch): alone, one such line per epoch is the record (a loop that prints
    only ``End of epoch 17 | loss 4.18``)."""
    words = [t.lower() for t in template if t not in (",", ":", "|", "-")]
    for i, word in enumerate(words):
        if words[i : i + 3] == ["end", "of", "epoch"]:
            return finer
        if word == "epoch" and words[i + 1 : i + 2] == ["<*>"]:
            after = words[i + 4 : i + 5] if words[i + 2 : i + 4] == ["/", "<*>"] else words[i + 2 : i + 3]
            if finer and after and after[0] in _ENDED_WORDS:
                return True
    return False


#: Words that make a line a summary of steps already printed (``epoch 3 average loss: 0.2``).
_AGGREGATE_WORDS = {"average", "averaged", "avg", "mean"}  # (torchvision's ``Averaged stats:``)


def sums_up(template: list[str]) -> str | None:
    """How a line numbered by its epoch sums up the epoch's steps: ``avg`` where it averages them (``average``,
    ``avg``, ``mean`` among its words), ``total`` where it adds them (JoeyNMT's ``Epoch 6: total training loss
    2426.79``), else None."""
    words = {t.lower() for t in template}
    return "avg" if _AGGREGATE_WORDS & words else "total" if "total" in words else None


def split_named(names: dict[int, str], bare: set[str]) -> bool:
    """Whether every value of a template but its epoch is named with the training split before it, three or more,
    and other lines print the same names bare (``bare``): fairseq's end of an epoch, ``{"epoch": 3, "train_loss":
    "3.92", "train_num_updates": "4791", ...}`` after its ``{"loss": ..., "num_updates": ...}`` records, the
    epoch's summary."""
    keys = [key_slug(word) for word in names.values() if key_slug(word) != "epoch"]
    if len(keys) < 3 or not all(k.startswith("train_") for k in keys):
        return False
    return sum(k.removeprefix("train_") in bare for k in keys) >= 2


def averages(template: list[str]) -> bool:
    """Whether a template says it averages."""
    return sums_up(template) == "avg"


def averages_records(template: list[str], rows: list, valued_steps: set[int]) -> bool:
    """Whether a template with no counter of its own is an average over records printed before it: it says it
    averages, and each of its lines comes at a step whose record printed its own counter and values
    (``Train Epoch: 0 [7010/7010]  Loss: 0.11`` then ``Train Error: Avg loss: 0.23``). Where the counter is a line
    of its own (``Iter 100:`` then ``avg loss 2.3``), the averaged line is that step's record."""
    return bool(rows) and averages(template) and all(row[3] in valued_steps for row in rows)


#: A line that prints the epoch's length: ``steps per epoch: 300``, ``300 iterations per epoch``; or the line
#: that opens an epoch with its count of batches (DeepSpeed-Chat's ``Beginning of Epoch 1/18, Total Micro Batches
#: 8``: the epoch's, where a ``Total Batches`` printed alone may be the run's).
_STEPS_PER_EPOCH = re.compile(
    r"(?i)\b(?:steps|iterations|iters|batches|updates)[ _]per[ _]epoch\s*[:=]?\s*(\d+)"
    r"|\b(\d+)\s+(?:steps|iterations|iters|batches|updates) per epoch\b"
    r"|\bepoch\s*\d+(?:\s*/\s*\d+)?\s*,\s*total\s+(?:micro[ _-]?)?(?:batches|steps|iterations|iters)\s*[:=]?\s*(\d+)"
)


#: The epoch a line names, printed without its total (``epoch: 2 step: 100``).
#: ``Epoch: [4]  [ 0/5005]`` (torchvision's references) and ESPnet's ``2epoch:train:`` too.
#: The split may qualify the word (MMEngine's ``Epoch(train) [147][300/351]``).
EPOCH_NUMBER = re.compile(
    # (not a bar's percentage after the split's name: catalyst's ``Epoch (train): 100% 127/127``)
    r"(?i)\bepoch\b(?:\s*\((?:train|training)\))?\s*[:=#]?\s*\[?\s*(\d+)(?!\d|\s*/|%)|\b(\d+)epoch\b"
)
