"""extract_knowledge: entities, mentions, claims and relations, on the blank and the trained pipeline."""

from __future__ import annotations

import importlib.util

import pytest

from assay.dsl import get_operator
from assay.ids import content_id
from assay.operators.papers import _nlp, segment_text
from assay.operators.papers._gazetteer import entity_id

TRAINED = importlib.util.find_spec(_nlp.TRAINED_MODEL) is not None
EXTRACT = get_operator("extract_knowledge")

STRATA = (
    "We present Strata, a pipeline scheduler for large model training. On 64 V100 GPUs, Strata achieves "
    "up to 2.3x higher training throughput than GPipe and 1.4x over PipeDream-Flush, and reduces bubble "
    "time by 38% on average. When training GPT-3 175B, Strata reaches 47% of peak FLOPs. We build Strata "
    "on ZeRO, not on zero copies."
)
HERON = (
    "我们提出了Heron，一个自动搜索混合并行策略的训练系统。在64块A100 GPU上的实验表明，与Megatron-LM相比，"
    "Heron训练GPT-3 13B的吞吐量提升了1.8倍，峰值显存占用降低了37％。"
)


@pytest.fixture(scope="module")
def blank():
    return EXTRACT.bind(model="blank")


def doc(text: str, **extra) -> dict:
    return segment_text({"doc_id": content_id(text), "source_uri": "/x.txt", "text": text, **extra})


def run(bound, *texts: str) -> list[dict]:
    out, failures = bound.process([doc(t) for t in texts])
    assert not failures, failures
    return out


def by_text(rows: list[dict]) -> dict[str, dict]:
    return {r["text"]: r for r in rows}


def entity_names(record: dict) -> dict[str, str]:
    return {e["name"]: e["type"] for e in record["entities"]}


# -- entities and mentions --------------------------------------------------------------------------------
def test_gazetteer_counts_sizes_and_proposals(blank):
    (r,) = run(blank, STRATA)
    names = entity_names(r)
    assert names["Strata"] == "system"  # proposed: not in the gazetteer
    assert names["GPipe"] == names["PipeDream"] == "system"  # the alias PipeDream-Flush names PipeDream
    assert names["V100"] == "hardware" and names["64 V100 GPUs"] == "hardware"
    assert names["GPT-3 175B"] == "model"
    assert names["ZeRO"] == "method"
    zero_mentions = [m for m in r["mentions"] if m["entity_id"] == entity_id("method", "ZeRO")]
    assert [m["text"] for m in zero_mentions] == ["ZeRO"]  # case-sensitive: "zero copies" is not ZeRO


def test_mention_offsets_point_into_the_text(blank):
    for r in run(blank, STRATA, HERON):
        ids = {e["entity_id"] for e in r["entities"]}
        for m in r["mentions"]:
            assert r["text"][m["start"] : m["end"]] == m["text"]
            assert m["entity_id"] in ids and m["doc_id"] == r["doc_id"]
            assert m["operator"] == "extract_knowledge@1"


def test_chinese_proposals_counts_and_names(blank):
    (r,) = run(blank, HERON)
    names = entity_names(r)
    assert names["Heron"] == "system" and names["Megatron-LM"] == "system"
    assert "64 A100 GPUs" in names and "GPT-3 13B" in names


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We propose Tessera, a compiler that derives tensor-parallel plans.", "Tessera"),
        ("This paper presents Kestrel, a cluster scheduler.", "Kestrel"),
        ("We introduce a near-exascale all-optical network architecture called RAMP, which scales.", "RAMP"),
        ("Cinder is a serving system that caches popular experts. Cinder wins.", "Cinder"),
        ("本文提出了一个分布式GNN训练系统的BGL，旨在解决瓶颈。", "BGL"),
        ("我们提出了Celeritas，这是一个快速的框架。", "Celeritas"),
        ("我们展示了Amazon Sagemaker模型并行性，这是一个软件库。", "Amazon Sagemaker"),
    ],
)
def test_proposed_system_is_found_and_related_to_the_paper(blank, text, name):
    (r,) = run(blank, text)
    proposes = [x for x in r["relations"] if x["predicate"] == "proposes"]
    assert [x["object_id"] for x in proposes][:1] == [entity_id("system", name)]
    assert proposes[0]["subject_id"] == r["doc_id"]


def test_generic_words_are_not_proposed(blank):
    (r,) = run(blank, "We propose GPU kernels for DNN training. We design a new system.")
    assert not [x for x in r["relations"] if x["predicate"] == "proposes"]


def test_user_gazetteer_extends_the_builtin_one(tmp_path):
    terms = tmp_path / "terms.tsv"
    terms.write_text("# mine\nHyperion\tsystem\tHyp-1\nNeuronCore-v2\thardware\n飞桨\tsystem\tPaddle Fluid\n")
    bound = EXTRACT.bind(gazetteer=str(terms))
    (r,) = run(bound, "Hyp-1 beats GPipe on 32 NeuronCore-v2 chips, unlike 飞桨 (PaddlePaddle).")
    names = entity_names(r)
    assert names["Hyperion"] == "system" and names["GPipe"] == "system" and names["飞桨"] == "system"
    assert names["NeuronCore-v2"] == "hardware" and "32 NeuronCore-v2 chips" in names


def test_malformed_gazetteer_names_file_and_line(tmp_path):
    terms = tmp_path / "bad.tsv"
    terms.write_text("Good\tsystem\nBad\tsystem\talias\tweird-flag\n")
    with pytest.raises(ValueError, match=r"bad\.tsv:2: unknown flag 'weird-flag'"):
        EXTRACT.bind(gazetteer=str(terms))
    with pytest.raises(FileNotFoundError, match="gazetteer file"):
        EXTRACT.bind(gazetteer=str(tmp_path / "missing.tsv"))


# -- claims -----------------------------------------------------------------------------------------------
def test_claims_carry_attribution_and_sentence_offsets(blank):
    (r,) = run(blank, STRATA)
    claims = by_text(r["claims"])
    first = claims["2.3x"]
    assert (first["value"], first["unit"], first["qualifier"], first["subject"], first["versus"]) == (
        2.3,
        "x",
        "up to",
        "Strata",
        "GPipe",
    )
    assert first["metric"] == "throughput improvement" and "64 V100 GPUs" in first["setting"]
    assert claims["1.4x"]["versus"] == "PipeDream-Flush" and claims["1.4x"]["qualifier"] == "up to"
    assert claims["38%"]["qualifier"] == "on average" and claims["38%"]["metric"] == "time reduction"
    assert claims["47%"]["metric"] == "utilization" and claims["47%"]["setting"] == "GPT-3 175B"
    for c in r["claims"]:
        assert r["text"][c["start"] : c["end"]] == c["text"]
        assert c["sentence_start"] <= c["start"] < c["end"] <= c["sentence_end"]
        assert c["operator"] == "extract_knowledge@1" and 0 < c["confidence"] <= 1


def test_chinese_claims_with_baseline_and_qualifiers(blank):
    (r,) = run(blank, HERON + "与NCCL相比，Lattice平均将带宽提高了2.6倍，最高可达3.9倍。")
    claims = by_text(r["claims"])
    assert claims["1.8倍"]["versus"] == "Megatron-LM" and claims["1.8倍"]["subject"] == "Heron"
    assert claims["1.8倍"]["metric"] == "throughput improvement"
    assert claims["37％"]["unit"] == "%" and claims["37％"]["metric"] == "memory reduction"
    assert claims["2.6倍"]["qualifier"] == "on average" and claims["3.9倍"]["qualifier"] == "up to"
    assert claims["2.6倍"]["versus"] == "NCCL"


def test_claim_ids_are_deterministic(blank):
    first = [c["claim_id"] for c in run(blank, STRATA)[0]["claims"]]
    again = [c["claim_id"] for c in run(EXTRACT.bind(), STRATA)[0]["claims"]]
    assert first == again and len(set(first)) == len(first)


# -- relations --------------------------------------------------------------------------------------------
def test_compared_with_and_evaluated_on(blank):
    (r,) = run(blank, STRATA)
    strata = entity_id("system", "Strata")
    rel = {(x["predicate"], x["object_id"]) for x in r["relations"] if x["subject_id"] == strata}
    assert ("compared_with", entity_id("system", "GPipe")) in rel
    assert ("compared_with", entity_id("system", "PipeDream")) in rel
    assert ("evaluated_on", entity_id("hardware", "64 V100 GPUs")) in rel
    assert ("evaluated_on", entity_id("model", "GPT-3 175B")) in rel
    keys = [(x["subject_id"], x["predicate"], x["object_id"]) for x in r["relations"]]
    assert len(keys) == len(set(keys))  # one row per fact and document
    for x in r["relations"]:
        assert 0 <= x["start"] < x["end"] <= len(r["text"])


# -- long texts, limits, bad records ----------------------------------------------------------------------
def test_long_text_is_read_in_pieces_with_offsets_kept(blank):
    text = (
        "Filler sentence about training. " * 8000 + "We compare with Megatron-LM on 64 GPUs and win by 2.5x."
    )
    (r,) = run(blank, text)
    megatron = [m for m in r["mentions"] if m["text"] == "Megatron-LM"]
    assert megatron and text[megatron[0]["start"] : megatron[0]["end"]] == "Megatron-LM"
    assert [c["value"] for c in r["claims"]] == [2.5]


def test_limits_keep_the_first_rows_and_report_the_rest():
    bound = EXTRACT.bind(max_claims=5, max_mentions=8)
    text = "Orca reaches 1.5x over ZeRO on 8 GPUs and " * 400
    (r,) = run(bound, text)
    assert len(r["claims"]) == 5 and len(r["mentions"]) == 8
    errors = [i["error"] for i in r["issues"]]
    assert any("more than 5 numeric claims" in e for e in errors)
    assert any("more than 8 entity mentions" in e for e in errors)


def test_missing_text_is_a_clear_error(blank):
    out, failures = blank.process([{"doc_id": "d"}])
    assert not out and "run read_paper" in failures[0].error


def test_memory_zone_keeps_the_vocabulary_from_growing():
    bound = EXTRACT.bind()
    nlp = bound.fn.blank
    for i in range(3):
        (r,) = run(bound, f"Unseenword{i} reaches {i + 2}x over GPipe.")
        assert r["claims"][0]["value"] == i + 2
    assert not any(f"Unseenword{i}" in nlp.vocab.strings for i in range(3))


# -- the trained pipeline ---------------------------------------------------------------------------------
@pytest.mark.skipif(not TRAINED, reason=f"{_nlp.TRAINED_MODEL} is not installed")
def test_trained_pipeline_finds_the_same_claims_and_adds_named_entities():
    trained = EXTRACT.bind(model=_nlp.TRAINED_MODEL)
    assert trained.fn.model == _nlp.TRAINED_MODEL
    text = STRATA + " The work was done at Google and at Quillford University."
    (t,) = run(trained, text)
    (b,) = run(EXTRACT.bind(), text)
    assert [c["claim_id"] for c in t["claims"]] == [c["claim_id"] for c in b["claims"]]
    assert {"Strata", "GPipe", "64 V100 GPUs"} <= set(entity_names(t))
    # the built-in list names well-known companies; the trained pipeline's recogniser adds the others
    assert entity_names(b).get("Google") == entity_names(t).get("Google") == "organization"
    assert entity_names(t).get("Quillford University") == "organization"
    assert "Quillford University" not in entity_names(b)


@pytest.mark.skipif(not TRAINED, reason=f"{_nlp.TRAINED_MODEL} is not installed")
def test_auto_uses_the_trained_pipeline_for_english_only():
    auto = EXTRACT.bind(model="auto")
    assert auto.fn.model == _nlp.TRAINED_MODEL
    (r,) = run(auto, HERON)  # Chinese goes through the blank pipeline
    assert "Heron" in entity_names(r)


def test_without_the_trained_pipeline(monkeypatch):
    monkeypatch.setattr(_nlp, "trained_model_available", lambda: False)
    assert EXTRACT.bind(model="auto").fn.model == "blank"
    with pytest.raises(OSError, match="not installed; install assay\\[nlp\\] or use model='blank'"):
        EXTRACT.bind(model=_nlp.TRAINED_MODEL)
    with pytest.raises(ValueError, match="model='en_core_web_lg' is not supported"):
        EXTRACT.bind(model="en_core_web_lg")
