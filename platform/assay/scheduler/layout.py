"""The parallel layout, as the scheduler's modules and users' scripts have imported it: it lives in the
domain layer (:mod:`assay.domain.layout`), below both job control and the scheduler, which both speak it.
New code imports it from :mod:`assay.domain`."""

from assay.domain.layout import DEGREES, Layout

__all__ = ["DEGREES", "Layout"]
