"""Ready pipelines written in the DSL, loadable by name: ``assay run papers``, ``assay run logs``."""
