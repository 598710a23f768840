"""Built-in operators. Importing this package registers them by name (see ``assay operators``)."""
