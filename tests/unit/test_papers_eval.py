"""assay.evaluation and `assay eval`: the scoring rule, predictions from a database or in-process, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from assay.cli._eval import evaluate
from assay.dsl import get_operator
from assay.evaluation import (
    Report,
    claims_match,
    evaluate_abstracts,
    exact_name,
    find_by_stem,
    format_report,
    load_gold,
    names_right,
    normalise_unit,
    score,
    split_abstracts,
)
from assay.ids import content_id
from assay.store import write_rows

# Abstracts written for this test (not in the demo corpus), with the claims a correct extractor finds.
HELD_OUT = [
    (
        "We present Dune, an embedding cache for recommendation training. On a 128-GPU cluster, "
        "Dune improves training throughput by 3.4x over TorchRec and by 1.9x over HugeCTR, while "
        "lowering network traffic by 72%. The cache hit rate exceeds 90% on all four production datasets.",
        [("x", 3.4), ("x", 1.9), ("%", 72), ("%", 90)],
    ),
    (
        "本文提出了一个名为Spindle的推理引擎。实验表明，与FasterTransformer相比，"
        "Spindle的吞吐量提高了4.6倍，延迟降低了52.3％。"
        "在8个A100 GPU上服务LLaMA 65B时，Spindle每秒可以生成超过3,000个令牌。",
        [("x", 4.6), ("%", 52.3)],
    ),
    (
        "We propose Frugal, which lowers the clock of non-critical GPUs. GPUs sit idle for 31% of the "
        "iteration on average. Frugal saves 18.7% of energy with less than 1% slowdown, and up to 26% "
        "for pipeline jobs.",
        [("%", 31), ("%", 18.7), ("%", 1), ("%", 26)],
    ),
    (
        "我们设计并实现了Lumen，一个增量检查点系统。评估显示，Lumen将检查点大小减少了5到17倍，"
        "检查点时间减少了83％，对训练吞吐量的影响小于2％。",
        [("x", (5, 17)), ("%", 83), ("%", 2)],
    ),
    (
        "Tango achieves speedups of 1.32×-2.05× on 64 to 256 GPUs over DeepSpeed-MoE, and a 17.4% "
        "improvement in time-to-accuracy over Tutel.",
        [("x", (1.32, 2.05)), ("%", 17.4)],
    ),
    (
        "为了解决异构集群中GPU利用率低的问题，我们提出了Prism调度器。"
        "模拟表明，Prism将平均作业完成时间减少了1.7倍，GPU利用率提高了23个百分点，最高可达94.5%。",
        [("x", 1.7), ("percentage points", 23), ("%", 94.5)],
    ),
    (
        "Compared to DGL and PyG, Quiver speeds up sampling by 2.8-7.5x and end-to-end training by "
        "1.4-3.2x on 8 GPUs. On ogbn-papers100M, an epoch takes 11.2 seconds.",
        [("x", (2.8, 7.5)), ("x", (1.4, 3.2))],
    ),
]


def gold_line(index: int, claims: list[tuple]) -> str:
    rows = []
    for unit, value in claims:
        row = {"unit": unit, "text": ""}
        if isinstance(value, tuple):
            row["value_low"], row["value_high"] = value
        else:
            row["value"] = value
        rows.append(row)
    return json.dumps({"index": index, "gold": {"claims": rows}})


@pytest.fixture
def held_out(tmp_path: Path) -> tuple[Path, Path]:
    abstracts = tmp_path / "abstracts.txt"
    abstracts.write_text("\n\n".join(text for text, _ in HELD_OUT) + "\n", "utf-8")
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join(gold_line(i, claims) for i, (_, claims) in enumerate(HELD_OUT)) + "\n", "utf-8")
    return gold, abstracts


# -- the scoring rule -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("unit", "norm"),
    [
        ("×", "x"),
        ("times", "x"),
        ("倍", "x"),
        ("X", "x"),
        ("％", "%"),
        ("\\%", "%"),
        ("Tbps", "tbps"),
        (" orders  of magnitude", "orders of magnitude"),
    ],
)
def test_units_normalise(unit, norm):
    assert normalise_unit(unit) == norm


def test_values_agree_within_half_a_percent_and_ranges_need_both_ends():
    gold = {"unit": "x", "value": 1.42}
    assert claims_match({"unit": "×", "value": 1.427}, gold)
    assert not claims_match({"unit": "x", "value": 1.43}, gold)
    assert not claims_match({"unit": "%", "value": 1.42}, gold)
    assert not claims_match({"unit": "x", "value_low": 1.42, "value_high": 2.0}, gold)
    span = {"unit": "x", "value_low": 7.6, "value_high": 171}
    assert claims_match({"unit": "x", "value": None, "value_low": 7.6, "value_high": 171.0}, span)
    assert not claims_match({"unit": "x", "value_low": 7.6, "value_high": 17.1}, span)
    assert not claims_match({"unit": "x", "value": 7.6}, span)


def test_a_change_matches_by_its_two_ends_whatever_value_it_reached():
    # "falls from 40% to 12%": the gold writes the ends in the text's order, the prediction keeps the value reached
    change = {"unit": "%", "value_low": 40.0, "value_high": 12.0}
    assert claims_match({"unit": "%", "value": 12.0, "value_low": 12.0, "value_high": 40.0}, change)
    assert claims_match({"unit": "%", "value": 40.0, "value_low": 12.0, "value_high": 40.0}, change)
    # a value that is neither end is no change, and the ends must both agree
    assert not claims_match({"unit": "%", "value": 25.0, "value_low": 12.0, "value_high": 40.0}, change)
    assert not claims_match({"unit": "%", "value": 12.0, "value_low": 12.0, "value_high": 30.0}, change)


def test_equal_values_pair_with_the_statement_the_gold_quotes():
    from assay.evaluation._matching import one_to_one

    golds = [
        {"unit": "x", "value": 2.0, "text": "FooTrain trains 2x faster on the small model", "versus": None},
        {"unit": "x", "value": 2.0, "text": "FooServe nearly doubles decoding speed, compared with BarServe",
         "versus": "BarServe"},
    ]
    preds = [  # in the order the extractor found them, the second statement's first
        {"unit": "x", "value": 2.0, "versus": "BarServe",
         "statement": "FooServe nearly doubles decoding\nspeed, compared with BarServe [link]"},
        {"unit": "x", "value": 2.0, "versus": None, "statement": "FooTrain trains 2x faster on the small model."},
    ]
    assert one_to_one(preds, golds) == {0: 1, 1: 0}
    # without the sentences, the baselines still pair them (the rule before it)
    bare = [{k: v for k, v in p.items() if k != "statement"} for p in preds]
    assert one_to_one(bare, golds) == {0: 1, 1: 0}
    # a statement decides over a same-named baseline
    preds[1]["versus"] = "BarServe"
    preds[0]["versus"] = None
    assert one_to_one(preds, golds) == {0: 1, 1: 0}


def test_matching_is_one_to_one_and_ratio_claims_are_scored_apart():
    gold = {0: [{"unit": "x", "value": 2.0}, {"unit": "x", "value": 2.0}, {"unit": "Tbps", "value": 12.8}]}
    pred = {
        0: [{"unit": "x", "value": 2.0, "text": "2x"}, {"unit": "%", "value": 5.0, "text": "5%"}],
        1: [{"unit": "x", "value": 3.0, "text": "3x"}],
    }
    headline = score(gold, pred)
    assert (headline.tp, headline.n_gold, headline.n_pred) == (1, 2, 3)
    assert [m.value for m in headline.misses] == [2.0]
    assert sorted(f.text for f in headline.false_positives) == ["3x", "5%"]
    assert headline.precision == pytest.approx(1 / 3) and headline.recall == 0.5
    other = score(gold, pred, ratio=False)
    assert (other.tp, other.n_gold, other.n_pred, other.recall) == (0, 1, 0, 0.0)


def test_load_gold_names_a_bad_line(tmp_path):
    bad = tmp_path / "g.jsonl"
    bad.write_text(
        '{"index": 0, "gold": {"claims": []}}\n{"index": 1, "gold": {"claims": [{"text": "2x"}]}}\n'
    )
    with pytest.raises(ValueError, match=r"g\.jsonl:2: not a gold line"):
        load_gold(bad)


def test_split_abstracts_on_blank_lines():
    assert split_abstracts("a b\nc\n\n  \n\nd\n\n") == ["a b\nc", "d"]


# -- predictions ------------------------------------------------------------------------------------------
def test_in_process_extraction_on_abstracts_not_seen_before(held_out):
    gold, abstracts = held_out
    report = evaluate_abstracts(gold, abstracts, db=None)
    assert report.extracted == len(HELD_OUT) and report.from_db == 0
    assert report.headline.precision >= 0.9 and report.headline.recall >= 0.9
    assert any("in-process" in n for n in report.notes)


def extract(texts: list[str], doc_ids: list[str]) -> list[dict]:
    records = [
        {"source_uri": "/a.txt", "doc_id": d, "text": t, "kind": "paper"}
        for t, d in zip(texts, doc_ids, strict=True)
    ]
    segmented, _ = get_operator("segment_text").run(records)
    out, failures = get_operator("extract_knowledge").run(segmented)
    assert not failures
    return out


def store(db: Path, records: list[dict], drop_claims_of: str | None = None) -> None:
    documents = [{k: r[k] for k in ("doc_id", "kind", "text")} for r in records]
    claims = [c for r in records for c in r["claims"] if c["doc_id"] != drop_claims_of]
    write_rows(db, {"documents": documents, "claims": claims})


def test_claims_are_read_from_the_database_by_doc_id(held_out, tmp_path):
    gold, abstracts = held_out
    texts = split_abstracts(abstracts.read_text("utf-8"))
    db = tmp_path / "a.duckdb"
    # Only the first five are in the database (one of them with its claims deleted: a visible miss).
    records = extract(texts[:5], [content_id(t) for t in texts[:5]])
    store(db, records, drop_claims_of=content_id(texts[0]))
    report = evaluate_abstracts(gold, abstracts, db=db)
    assert (report.from_db, report.extracted) == (5, len(HELD_OUT) - 5)
    assert report.db == str(db)
    assert {m.doc for m in report.headline.misses} == {0}
    assert report.headline.recall == pytest.approx(1 - 4 / report.headline.n_gold)


def test_a_file_of_abstracts_ingested_as_one_document_is_found_by_its_text(held_out, tmp_path):
    gold, abstracts = held_out
    whole = abstracts.read_text("utf-8").strip()
    db = tmp_path / "a.duckdb"
    store(db, extract([whole], [content_id(whole)]))
    report = evaluate_abstracts(gold, abstracts, db=db)
    assert report.from_db == len(HELD_OUT) and report.extracted == 0
    assert report.headline.precision >= 0.9 and report.headline.recall >= 0.9


# -- the command ------------------------------------------------------------------------------------------
@pytest.fixture
def cli():
    app = typer.Typer()
    app.command("eval")(evaluate)
    app.command("noop")(lambda: None)  # a second command keeps `eval` a subcommand, as when mounted
    runner = CliRunner()
    return lambda *args: runner.invoke(app, ["eval", *map(str, args)])


def test_eval_command_prints_scores_misses_and_json(cli, held_out, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no ./assay.duckdb here: extraction in-process
    gold, abstracts = held_out
    result = cli("--gold", gold, "--abstracts", abstracts)
    assert result.exit_code == 0, result.output
    assert "precision" in result.output and "recall" in result.output and "in-process" in result.output
    result = cli("--gold", gold, "--abstracts", abstracts, "--json")
    data = json.loads(result.output)
    assert data["n_documents"] == len(HELD_OUT) and 0.9 <= data["headline"]["f1"] <= 1.0
    assert set(data["headline"]) >= {"precision", "recall", "f1", "misses", "false_positives"}


def test_eval_command_scores_a_corpus_folder(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text(HELD_OUT[0][0], "utf-8")
    gold = tmp_path / "g.jsonl"
    gold.write_text(
        json.dumps(
            {"index": 0, "source": "a.txt", "row": None, "gold": {"claims": [{"unit": "x", "value": 3.4}]}}
        )
        + "\n"
    )
    result = cli("--gold", gold, "--corpus", tmp_path, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["headline"]["recall"] == 1.0 and data["headline"]["n_pred"] == 4


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["--gold", "GOLD"], "--abstracts"),
        (["--gold", "GOLD", "--abstracts", "ABS", "--corpus", "DIR"], "--abstracts"),
        (["--gold", "missing.jsonl", "--abstracts", "ABS"], "--gold"),
        (["--gold", "GOLD", "--abstracts", "missing.txt"], "--abstracts"),
        (["--gold", "GOLD", "--abstracts", "ABS", "--db", "missing.duckdb"], "--db"),
        (["--gold", "GOLD", "--abstracts", "ABS", "--model", "huge"], "--model"),
        (["--gold", "ABS", "--abstracts", "ABS"], "--gold"),  # not a gold file
    ],
)
def test_eval_command_errors_name_the_flag(cli, held_out, tmp_path, args, flag):
    gold, abstracts = held_out
    swap = {"GOLD": gold, "ABS": abstracts, "DIR": tmp_path}
    result = cli(*[swap.get(a, tmp_path / a if a.startswith("missing") else a) for a in args])
    assert result.exit_code == 2
    assert flag in result.output


# -- gold keyed by the paper's file stem (the real-papers shape) ------------------------------------------
# Own-written papers and gold in the shape of a measuring set: one line per paper, claims at the top level,
# other names of the system and baseline as aliases, background figures typed ``context``.
TINY_PAPER = (
    "Orrery: placing pipeline stages by bandwidth\n\n"
    "We present Orrery, a stage placer for pipeline training. Orrery speeds up training by 1.8x over "
    "PipeDream on 64 GPUs. Earlier placers reach 60% of peak bandwidth at best."
)
TINY_GOLD = {
    "doc": "orrery",
    "claims": [
        {
            "value": 1.8,
            "unit": "x",
            "subject": "Orrery placer",
            "versus": "PipeDream-2BW",
            "type": "result",
            "aliases": ["Orrery"],
            "versus_aliases": ["PipeDream"],
            "text": "speeds up training by 1.8x",
        },
        {
            "value": 60,
            "unit": "%",
            "subject": "earlier placers",
            "versus": None,
            "type": "context",
            "text": "reach 60% of peak bandwidth",
        },
        {
            "value_low": 20,
            "value_high": 35,
            "unit": "%",
            "subject": "Orrery",
            "versus": None,
            "type": "result",
            "text": "a claim the text does not hold",
        },
    ],
}


@pytest.fixture
def stem_set(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "orrery.md").write_text(TINY_PAPER, "utf-8")
    (tmp_path / "gold.jsonl").write_text(json.dumps(TINY_GOLD) + "\n", "utf-8")
    return tmp_path


def test_load_gold_reads_documents_keyed_by_their_stem(stem_set):
    (doc,) = load_gold(stem_set / "gold.jsonl")
    assert (doc.doc, doc.name, doc.source, len(doc.claims)) == ("orrery", "orrery", None, 3)


def test_a_stem_is_found_in_the_corpus_folder_or_its_docs_folder(stem_set):
    assert find_by_stem(stem_set, "orrery") == "docs/orrery.md"
    assert find_by_stem(stem_set / "docs", "orrery") == "orrery.md"
    assert find_by_stem(stem_set, "absent") is None


def test_aliases_count_for_subject_and_baseline_but_not_for_an_empty_baseline():
    gold = TINY_GOLD["claims"][0]
    assert names_right({"subject": "Orrery", "versus": "PipeDream"}, gold) == (True, True)
    assert names_right({"subject": "GPUs", "versus": "Megatron"}, gold) == (False, False)
    assert names_right({"subject": "Orrery", "versus": None}, gold) == (True, False)
    assert names_right({"subject": "Orrery", "versus": ""}, {"subject": "Orrery", "versus": None}) == (
        True,
        True,
    )


def test_exact_names_judge_a_variant_wrong_where_containment_judges_it_right():
    gold = {0: [{"unit": "x", "value": 2, "subject": "Orrery-2BW", "versus": "the Megatron-LM"}]}
    variant = {0: [{"unit": "x", "value": 2.0, "subject": "Orrery", "versus": "Megatron-LM"}]}
    spelled = {0: [{"unit": "x", "value": 2.0, "subject": "orrery 2bw", "versus": "Megatron LM"}]}
    lenient, strict = score(gold, variant), score(gold, spelled)
    assert (lenient.attributed, lenient.attributed_exact) == (1, 0)
    assert (strict.attributed, strict.attributed_exact) == (1, 1)
    assert names_right(variant[0][0], gold[0][0], exact_name) == (False, True)
    assert "both by exact name 0.000" in format_report(Report(lenient, score({}, {}), 1))


def test_a_prediction_matching_a_context_claim_is_neutral_and_context_is_not_recalled():
    gold = {0: TINY_GOLD["claims"]}
    pred = {
        0: [
            {"unit": "x", "value": 1.8, "subject": "Orrery", "versus": "PipeDream"},
            {"unit": "%", "value": 60.0, "subject": "Orrery", "versus": None},
            {"unit": "%", "value": 64.0, "subject": "Orrery", "versus": None},
        ]
    }
    s = score(gold, pred)
    assert (s.tp, s.n_gold, s.n_pred, s.neutral) == (1, 2, 2, 1)
    assert [f.value for f in s.false_positives] == [64.0]
    assert [(m.value_low, m.value_high) for m in s.misses] == [(20.0, 35.0)]
    assert (s.subject_right, s.versus_right, s.attributed) == (1, 1, 1)
    assert s.documents[0].tp == 1 and s.documents[0].neutral == 1


def test_a_result_claim_wins_its_prediction_over_a_context_claim_of_the_same_value():
    gold = {0: [{"unit": "%", "value": 5, "type": "context"}, {"unit": "%", "value": 5, "type": "result"}]}
    s = score(gold, {0: [{"unit": "%", "value": 5.0}]})
    assert (s.tp, s.n_gold, s.n_pred, s.neutral) == (1, 1, 1, 0)


def test_scores_are_kept_per_document_and_sum_to_the_total():
    gold = {0: [{"unit": "x", "value": 2, "subject": "A"}], 1: [{"unit": "x", "value": 3, "subject": "B"}]}
    pred = {
        0: [{"unit": "x", "value": 2.0, "subject": "A"}],
        1: [{"unit": "x", "value": 3.0, "subject": "C"}],
    }
    s = score(gold, pred)
    assert s.documents[0].attributed == 1 and s.documents[1].attributed == 0
    assert s.documents[1].subject_right == 0 and s.documents[1].versus_right == 1
    assert sum(d.tp for d in s.documents.values()) == s.tp == 2


def test_eval_command_scores_a_stem_keyed_set_per_document(cli, stem_set, monkeypatch):
    monkeypatch.chdir(stem_set)
    result = cli("--gold", stem_set / "gold.jsonl", "--corpus", stem_set)
    assert result.exit_code == 0, result.output
    assert "orrery" in result.output and "baseline" in result.output
    data = json.loads(cli("--gold", stem_set / "gold.jsonl", "--corpus", stem_set, "--json").output)
    (row,) = data["headline"]["documents"]
    assert row["doc"] == "orrery" and row["n_gold"] == 2 and row["tp"] >= 1
    assert data["headline"]["recall"] <= 0.5  # the range the text does not hold is a miss
