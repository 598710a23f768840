"""A one-line progress display: documents done, documents per second, quarantined so far."""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, name: str, n_files: int, *, enabled: bool = True, every_s: float = 0.5):
        self.name = name
        self.n_files = n_files
        # A progress line rewritten in place only makes sense on a terminal; logs get the final summary.
        self.enabled = enabled and sys.stderr.isatty()
        self.every_s = every_s
        self._t0 = time.perf_counter()
        self._last = 0.0
        self._line = ""

    def __enter__(self) -> Progress:
        self._t0 = time.perf_counter()
        return self

    def update(self, done: int, quarantined: int) -> None:
        now = time.perf_counter()
        if not self.enabled or now - self._last < self.every_s:
            return
        self._last = now
        rate = done / max(now - self._t0, 1e-9)
        self._line = (f"{self.name}: {done} docs from {self.n_files} files | {rate:,.1f} docs/s | "
                      f"{quarantined} quarantined")
        sys.stderr.write("\r" + self._line)
        sys.stderr.flush()

    def __exit__(self, *exc: object) -> None:
        if self.enabled and self._line:
            sys.stderr.write("\n")
