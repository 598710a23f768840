"""The one split of each shared measuring set (``../shared/reallogs``, ``../shared/realpapers``) into a
development part, which rules may be tuned on, and a test part, which is only measured.

A file belongs to the test part when the SHA-256 of its name (the gold's ``file`` for logs, ``doc`` for
papers), read as a number from its first 8 hex digits, is divisible by 3: about a third of each set, fixed
by the name alone, so adding files to a set never moves the ones already in it. A gap between the two
parts' scores means rules fitted to files.
"""

from __future__ import annotations

import hashlib

DEV = "dev"
TEST = "test"


def part(name: str) -> str:
    """``"test"`` or ``"dev"`` for a file of a shared set, by its name."""
    return TEST if int(hashlib.sha256(name.encode("utf-8")).hexdigest()[:8], 16) % 3 == 0 else DEV
