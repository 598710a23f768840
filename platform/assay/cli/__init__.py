"""The ``assay`` command line: a thin layer over the library (every command calls one library function).

Wrong arguments get one line that names the flag and the fix, not a traceback.
"""

from __future__ import annotations

import sys

from typer import Abort, Exit

from assay.cli._core import app

try:  # typer >= 0.20 vendors click
    from typer._click.exceptions import MissingParameter, NoArgsIsHelpError, UsageError
except ImportError:  # pragma: no cover
    from click.exceptions import MissingParameter, NoArgsIsHelpError, UsageError

__all__ = ["app", "main"]


def main(argv: list[str] | None = None) -> None:
    from assay.ray_session import quiet_ray

    quiet_ray()  # every command is quiet about Ray; `--verbose` (run, jobs) shows its lines
    try:
        result = app(args=argv, prog_name="assay", standalone_mode=False)
    except NoArgsIsHelpError:
        app(args=[*(argv or sys.argv[1:]), "--help"], prog_name="assay", standalone_mode=False)
        sys.exit(0)
    except UsageError as exc:
        where = exc.ctx.command_path if exc.ctx is not None else "assay"
        message = " ".join(exc.format_message().split())
        param = getattr(exc, "param", None)
        if isinstance(exc, MissingParameter) and param is not None and param.opts:
            flag = max(param.opts, key=len)
            message = f"missing {flag}" + (f" ({param.help})" if getattr(param, "help", None) else "")
        print(f"{where}: error: {message} (see '{where} --help')", file=sys.stderr)
        sys.exit(2)
    except Abort:
        print("assay: aborted", file=sys.stderr)
        sys.exit(130)
    except Exit as exc:
        sys.exit(exc.exit_code)
    except Exception as exc:
        if not _is_user_error(exc):
            raise
        from assay.errors import one_line

        print(f"assay: {one_line(exc)}", file=sys.stderr)
        sys.exit(2)
    sys.exit(result if isinstance(result, int) else 0)


def _is_user_error(exc: Exception) -> bool:
    """An error whose message says what to fix (a wrong pipeline, input, spec, cluster or a busy database): one
    line with its catalogue code, no traceback."""
    from assay.errors import AssayError

    return isinstance(exc, AssayError | FileNotFoundError)


if __name__ == "__main__":  # pragma: no cover
    main()
