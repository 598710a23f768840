""""w.r.t." and "with respect to" compare like "relative to": what follows them is the claim's baseline."""

import pytest
from papers_extract import extracted_claims


@pytest.mark.parametrize("cue", ["w.r.t.", "with respect to"])
def test_with_respect_to_names_the_baseline(cue):
    claims = extracted_claims(f"FooSys cuts energy by 12%-40% {cue} the default setting.\n")
    assert len(claims) == 1, claims
    assert claims[0]["versus"] == "default setting"


def test_with_respect_to_names_a_system():
    claims = extracted_claims("QuxTrain runs 2.1x faster with respect to BarPipe on the large model.\n")
    assert [c["versus"] for c in claims if c["unit"] == "x"] == ["BarPipe"]

