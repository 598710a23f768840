"""Token authentication for a Ray cluster (Ray 2.60), decided before Ray is imported.

``ray start --head`` turns token authentication on when ``~/.ray/auth_token`` exists, and a driver without
``RAY_AUTH_MODE=token`` is then refused. A driver that presents the token is accepted by a cluster with or
without authentication, so when a token is at hand and nothing says otherwise, assay uses it. Ray reads the
mode when it is imported: the command line calls :func:`prefer_token_auth` before importing Ray.
"""

from __future__ import annotations

import os


def token_available() -> bool:
    home = os.path.expanduser("~/.ray/auth_token")
    return bool(os.environ.get("RAY_AUTH_TOKEN")) or os.path.isfile(os.environ.get("RAY_AUTH_TOKEN_PATH") or home)


def prefer_token_auth(address: str | None) -> bool:
    """Set ``RAY_AUTH_MODE=token`` for a cluster ``address`` when a token is at hand and the mode is unset;
    whether it was set now."""
    if not address or "RAY_AUTH_MODE" in os.environ or not token_available():
        return False
    os.environ["RAY_AUTH_MODE"] = "token"
    return True
