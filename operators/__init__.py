"""Built-in operators: ``assay.operators.papers`` and ``assay.operators.logs``. Importing either registers
its operators by name (the registry imports both when a name is looked up, see ``assay operators``).

This package imports neither: a worker that parses logs does not pay for the papers extractor's modules
(0.3 s of its start-up), nor one that extracts claims for the log parsers'."""
