"""The DSL's error: a catalogued code (see ``assay.errors``), the message and the likely fix."""

from assay.errors import AssayError


class PipelineError(AssayError, ValueError):
    """A pipeline that cannot run as written. The message says which step and how to fix it."""

    def __init__(self, code: str, message: str, fix: str | None = None):
        super().__init__(message, fix, code=code)
        # The code leads the text, as it did before the catalogue: "[E011] Step 1 ... Fix: ..."
        self.args = (f"[{code}] {self.args[0]}",)
