"""Built-in operators. Importing this package registers them by name (see ``assay operators``)."""
from assay.operators import (
    logs,  # noqa: F401
    papers,  # noqa: F401
)
