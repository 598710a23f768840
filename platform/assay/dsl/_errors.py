"""Errors that carry a code and the likely fix, in the manner of spaCy's ``Errors``."""


class PipelineError(ValueError):
    """A pipeline that cannot run as written. The message says which step and how to fix it."""

    def __init__(self, code: str, message: str, fix: str | None = None):
        self.code = code
        self.fix = fix
        text = f"[{code}] {message}"
        if fix:
            text += f" Fix: {fix}"
        super().__init__(text)
