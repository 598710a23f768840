"""Package discovery for the fixed top-level layout: four source folders, one import namespace.

pyproject.toml maps the folders (``package-dir``); setuptools' own finder cannot follow a mapping into
sub-packages, so they are listed here. Data folders (pipeline samples, job specs, workload traces) are
found as namespace packages too: setuptools warns about every importable folder missing from ``packages``,
and ``package-data`` ships their files either way.
"""

from setuptools import find_namespace_packages, setup

MAPPED = {"assay.operators": "operators", "assay.pipelines": "pipelines", "assay.dashboards": "dashboards"}
NOT_PACKAGES = ["*__pycache__*"]

packages = find_namespace_packages("platform", include=["assay", "assay.*"], exclude=NOT_PACKAGES)
for prefix, folder in MAPPED.items():
    packages += [prefix] + [f"{prefix}.{sub}" for sub in find_namespace_packages(folder, exclude=NOT_PACKAGES)]

setup(packages=packages)
