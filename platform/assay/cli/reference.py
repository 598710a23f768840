"""The command-line reference, ``docs/cli.md``, written from the commands themselves (every group walked, so
``assay jobs run`` is in it as ``assay run`` is):

    python -m assay.cli.reference > docs/cli.md      # or: make docs

``tests/unit/test_cli_reference.py`` fails when the file in the repository is not what this writes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer.main

from assay.cli._core import app

#: Help is wrapped at this width whatever the terminal, so the file does not depend on who wrote it.
WIDTH = 100

HEADER = """\
# Command-line reference

Every `assay` command with its options, as `assay COMMAND --help` prints them. This file is generated:
run `make docs` (or `python -m assay.cli.reference > docs/cli.md`) after changing a command;
`tests/unit/test_cli_reference.py` fails while it is stale.

Every command takes its database as `--db FILE` (default: `$ASSAY_DB`, else `./assay.duckdb`). A wrong
argument is one line on stderr that names the flag, `assay COMMAND: error: ... (see 'assay COMMAND --help')`,
and exit status 2; an error of the library is one line with its code and fix, `assay: error [E021]: ... Fix:
...` (every code is in `docs/errors.md`).
"""


def walk(command: Any, ctx: Any) -> Iterator[tuple[Any, Any]]:
    """The (click) command and, for a group, every command below it, depth first in the order ``--help``
    lists them. Typed ``Any``: typer vendors its own click, whose classes are not ``click``'s."""
    yield command, ctx
    for name in command.list_commands(ctx) if hasattr(command, "list_commands") else ():
        sub = command.get_command(ctx, name)
        if sub is not None and not sub.hidden:
            yield from walk(sub, _context(sub, name, ctx))


def _context(command: Any, name: str, parent: Any = None) -> Any:
    return command.context_class(command, info_name=name, parent=parent, terminal_width=WIDTH,
                                 max_content_width=WIDTH)


def reference() -> str:
    """The whole of ``docs/cli.md``."""
    root = typer.main.get_command(app)
    top = _context(root, "assay")
    commands = list(walk(root, top))
    parts = [HEADER]
    parts += [f"- [`{ctx.command_path}`](#{_anchor(ctx.command_path)})" for _, ctx in commands]
    for command, ctx in commands:
        parts.append(f"\n## {ctx.command_path}\n\n```text\n{command.get_help(ctx).rstrip()}\n```")
    return "\n".join(parts) + "\n"


def _anchor(title: str) -> str:
    """GitHub's anchor for a ``##`` title made of words and spaces."""
    return title.lower().replace(" ", "-")


if __name__ == "__main__":  # pragma: no cover
    print(reference(), end="")
