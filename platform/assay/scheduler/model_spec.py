"""The model catalogue, as the scheduler's modules and users' scripts have imported it: it lives in the
domain layer (:mod:`assay.domain.model_spec`), below both job control and the scheduler, which both speak
it. New code imports it from :mod:`assay.domain`."""

from assay.domain.model_spec import (
    ALIASES,
    NAMESPACE,
    PRESETS,
    ModelSpec,
    find_model,
    get_model,
    model_from_config,
    parse_count,
    preset_names,
    shaped_like_gpt3,
)

__all__ = ["ALIASES", "NAMESPACE", "PRESETS", "ModelSpec", "find_model", "get_model", "model_from_config",
           "parse_count", "preset_names", "shaped_like_gpt3"]
