"""Progress on stderr: one line per phase (Ray, plan, records, combine) with counts and rates.

On a terminal the records line is rewritten in place; in a log file (CI, ``nohup``) a line is written every
``every_log_s`` seconds instead, so a long phase never goes silent.
"""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, name: str, n_files: int, *, enabled: bool = True, every_s: float = 0.5,
                 every_log_s: float = 10.0):
        self.name = name
        self.n_files = n_files
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.every_s = every_s if self.tty else every_log_s
        self._t0 = time.perf_counter()
        self._last = time.perf_counter()
        self._line = ""

    def __enter__(self) -> Progress:
        self._t0 = self._last = time.perf_counter()
        return self

    def phase(self, message: str) -> None:
        """A line of its own: a phase has finished or begun."""
        if not self.enabled:
            return
        self._end_line()
        sys.stderr.write(f"{self.name}: {message}\n")
        sys.stderr.flush()

    def update(self, done: int, quarantined: int) -> None:
        now = time.perf_counter()
        if not self.enabled or now - self._last < self.every_s:
            return
        self._last = now
        rate = done / max(now - self._t0, 1e-9)
        self._line = (f"{self.name}: {done} docs from {self.n_files} files | {rate:,.1f} docs/s | "
                      f"{quarantined} quarantined")
        sys.stderr.write(("\r" + self._line) if self.tty else (self._line + "\n"))
        sys.stderr.flush()

    def _end_line(self) -> None:
        if self.tty and self._line:
            sys.stderr.write("\n")
        self._line = ""

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self._end_line()
