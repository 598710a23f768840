"""Package discovery for the fixed top-level layout: four source folders, one import namespace.

pyproject.toml maps the folders (``package-dir``); setuptools' own finder cannot follow a mapping into
sub-packages, so they are listed here.
"""

from setuptools import find_packages, setup

MAPPED = {"assay.operators": "operators", "assay.pipelines": "pipelines", "assay.dashboards": "dashboards"}

packages = find_packages("platform")
for prefix, folder in MAPPED.items():
    packages += [prefix] + [f"{prefix}.{sub}" for sub in find_packages(folder)]

setup(packages=packages)
