"""Benchmark: documents per second of the papers pipeline against a hand-written script.

N abstracts (50,000; --quick 2,000) are sampled from the demo corpus (each made unique by a suffix, so
every one is a new document) and written as JSON-lines shards of at most 1,000. Then, in the same run:

* baseline: the obvious script -- read the shards, ``nlp.pipe(texts, n_process=2)`` with the same spaCy
  pipeline and rules, the same claim and relation code in the main process, rows appended to DuckDB in
  batches of 1,000 documents;
* assay: ``assay.runtime.run_pipeline(papers, shards, db=...)`` on embedded Ray;
* minimal: the least a script a user would write can do, and how such a script is written (issue 26's
  honest floor) -- blank spaCy with a sentencizer under ``nlp.pipe(texts, n_process=N)``, one claim regex,
  the rows gathered into columns and inserted at once as one Arrow table (DuckDB's bulk path, not
  ``executemany``); no attribution, no entities. Its time includes building the pipeline and starting its
  worker processes. It runs first, before Ray is started in this process (its workers are forked).

Both full extractions attribute claims the same way, with the trained pipeline's dependency parse for the
sentences that leave a subject in doubt when it is installed.

Printed: docs/s of each, the ratios (assay's with Ray's start-up -- ``ray.init`` -- excluded, and included),
claims written by the two full extractions (they must agree), and the peak memory of all processes of each
(this one and its children, proportional set size, sampled by peak_memory.py at a rate that keeps its cost small)
and the CPU-seconds of each side's process tree with the ratios they give (steadier than wall clock on a
shared machine; a lower bound, see peak_memory.py). Then full papers: a 200-page corpus of
two-column PDFs (20 papers of 10 pages, made from the development papers' text) through the pipeline,
in pages per second.

    python tests/benchmarks/bench_papers.py [--quick] [-n N] [--cpus N] [--pages N] [--runner ray|local|auto]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path

from peak_memory import PeakMemory

# These measure the Ray runner (issue 27: their ratios on Ray); bench_fixed_cost.py compares the runners.
os.environ.setdefault("ASSAY_RUNNER", "ray")

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "pipelines" / "samples" / "papers"
#: Abstracts per shard at most; smaller runs get smaller shards so there are enough to spread over workers.
SHARD = 1000


# -- the input --------------------------------------------------------------------------------------------
def demo_abstracts() -> list[dict]:
    from assay.dsl import get_operator

    files = [str(p) for p in sorted(SAMPLES.iterdir())]
    records, _ = get_operator("read_paper").run([{"source_uri": f} for f in files])
    return [{"title": r["title"], "abstract": r["text"]} for r in records]


def write_shards(n: int, folder: Path) -> list[Path]:
    rng = random.Random(0)
    pool = demo_abstracts()
    size = min(SHARD, max(100, n // 16))
    paths = []
    for shard in range(0, n, size):
        path = folder / f"abstracts-{shard // size:04d}.jsonl"
        with path.open("w", encoding="utf-8") as f:
            for i in range(shard, min(n, shard + size)):
                row = dict(rng.choice(pool))
                row["abstract"] += f" [#{i}]"
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        paths.append(path)
    return paths


# -- the baseline: a script a user would write ------------------------------------------------------------
def baseline(shards: list[Path], db: Path, n_process: int) -> tuple[float, int]:
    from assay.ids import content_id
    from assay.operators.papers import _gazetteer, _nlp
    from assay.operators.papers._knowledge import knowledge
    from assay.operators.papers._language import detect_language
    from assay.operators.papers._mentions import from_doc
    from assay.operators.papers._sentences import split_sentences
    from assay.store import write_rows

    # The script's whole time, models loaded included, as assay's time includes its workers loading theirs.
    started = time.perf_counter()
    nlp = _nlp.build_pipeline(_gazetteer.load())
    parser = _nlp.build_parser() if _nlp.trained_model_available() else None
    rows = [json.loads(line) for path in shards for line in path.open(encoding="utf-8")]
    texts = [r["abstract"] for r in rows]
    n_claims = 0
    batch: dict[str, list] = {"documents": [], "entities": [], "mentions": [], "claims": [], "relations": []}
    for row, text, doc in zip(rows, texts, nlp.pipe(texts, n_process=n_process, batch_size=256), strict=True):
        doc_id = content_id(text)
        lang = detect_language(text)
        out = knowledge(
            doc_id,
            text,
            lang,
            split_sentences(text),
            from_doc(doc, 0, False),
            "baseline@1",
            title=row["title"],
            parse=parser,
        )
        batch["documents"].append(
            {
                "doc_id": doc_id,
                "kind": "paper",
                "title": row["title"],
                "lang": lang,
                "n_bytes": len(text.encode()),
                "text": text,
            }
        )
        for table in ("entities", "mentions", "claims", "relations"):
            batch[table].extend(out[table])
        n_claims += len(out["claims"])
        if len(batch["documents"]) >= SHARD:
            write_rows(db, batch)
            batch = {k: [] for k in batch}
    write_rows(db, batch)
    return time.perf_counter() - started, n_claims


# -- the floor: a minimal script ---------------------------------------------------------------------------
_MINIMAL_CLAIM = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(x|×|%|倍)(?!\w)")


def minimal(shards: list[Path], db: Path, n_process: int) -> tuple[float, int]:
    """Blank spaCy + sentencizer over ``nlp.pipe(n_process=...)``, one claim regex, one bulk Arrow insert."""
    import duckdb
    import pyarrow as pa
    import spacy

    started = time.perf_counter()
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    texts = [json.loads(line)["abstract"] for path in shards for line in path.open(encoding="utf-8")]
    columns: dict[str, list] = {"doc": [], "value": [], "unit": [], "text": [], "sentence": []}
    for i, doc in enumerate(nlp.pipe(texts, batch_size=256, n_process=n_process)):
        for sent in doc.sents:
            sentence = sent.text
            for m in _MINIMAL_CLAIM.finditer(sentence):
                columns["doc"].append(i)
                columns["value"].append(float(m.group(1)))
                columns["unit"].append("%" if m.group(2) == "%" else "x")
                columns["text"].append(m.group())
                columns["sentence"].append(sentence)
    claims = pa.table(columns)
    con = duckdb.connect(str(db))
    con.register("claims_in", claims)
    con.execute("CREATE TABLE claims AS SELECT * FROM claims_in")
    con.close()
    return time.perf_counter() - started, claims.num_rows


# -- full papers --------------------------------------------------------------------------------------------
DEV = ROOT / "tests" / "data" / "papers_dev"
#: Lines of one column of a page, and characters per line, of the generated two-column papers.
_COLUMN_LINES, _LINE_CHARS = 60, 48


def write_papers(pages: int, folder: Path) -> list[Path]:
    """Two-column PDFs of 10 pages each (fewer for the last), their text cycled from the development papers."""
    sys.path.insert(0, str(DEV))
    from make_pdf import make_pdf

    from assay.dsl import get_operator

    sources = sorted(p for p in DEV.rglob("*") if p.suffix in (".tex", ".md", ".txt", ".pdf"))
    records, _ = get_operator("read_paper").run([{"source_uri": str(p)} for p in sources])
    words = " ".join(r["text"] for r in records if r.get("lang", "en") and r["text"].isascii()).split()
    lines, line = [], ""
    for word in words:
        if len(line) + len(word) + 1 > _LINE_CHARS:
            lines.append(line)
            line = ""
        line = f"{line} {word}".strip()
    paths, n = [], 0
    while n < pages:
        count = min(10, pages - n)
        page_list = []
        for p in range(count):
            at = ((n + p) * 2 * _COLUMN_LINES) % max(1, len(lines) - 2 * _COLUMN_LINES)
            chunk = lines[at : at + 2 * _COLUMN_LINES]
            page_list.append((chunk[:_COLUMN_LINES], chunk[_COLUMN_LINES:]))
        path = folder / f"paper-{len(paths):03d}.pdf"
        path.write_bytes(make_pdf(page_list, f"Paper {len(paths)}"))
        paths.append(path)
        n += count
    return paths


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="2,000 abstracts instead of 50,000")
    ap.add_argument("-n", type=int, default=None, help="number of abstracts")
    ap.add_argument("--cpus", type=int, default=2, help="CPUs for Ray and processes for the baseline")
    ap.add_argument("--pages", type=int, default=200, help="pages of the full-paper corpus (0: skip)")
    ap.add_argument("--runner", default=None, help="assay's runner (default: ASSAY_RUNNER, else ray)")
    args = ap.parse_args()
    if args.runner:
        os.environ["ASSAY_RUNNER"] = args.runner
    n = args.n or (2_000 if args.quick else 50_000)

    from assay.dsl import load_pipeline
    from assay.runtime import run_pipeline
    from assay.store.queries import sql

    with tempfile.TemporaryDirectory(prefix="bench-papers-") as tmp:
        folder = Path(tmp)
        shards = write_shards(n, folder)
        print(f"{n:,} abstracts from the demo corpus in {len(shards)} shards; {args.cpus} CPUs; "
              f"assay on the {os.environ['ASSAY_RUNNER']} runner")

        # First: its worker processes are forked, and a process that runs Ray (later) is not forked.
        with PeakMemory() as min_mem:
            min_s, min_claims = minimal(shards, folder / "minimal.duckdb", args.cpus)
        with PeakMemory() as base_mem:
            base_s, base_claims = baseline(shards, folder / "baseline.duckdb", args.cpus)
        with PeakMemory() as assay_mem:
            summary = run_pipeline(
                load_pipeline("papers"),
                shards,
                db=folder / "assay.duckdb",
                progress=False,
                num_cpus=args.cpus,
            )
        assay_claims = int(sql(folder / "assay.duckdb", "SELECT count(*) AS n FROM claims")["n"][0])
        paper_summary = None
        if args.pages:
            papers = write_papers(args.pages, folder)
            paper_summary = run_pipeline(
                load_pipeline("papers"),
                papers,
                db=folder / "papers.duckdb",
                progress=False,
                num_cpus=args.cpus,
            )
            paper_claims = int(sql(folder / "papers.duckdb", "SELECT count(*) AS n FROM claims")["n"][0])

    base_rate = n / base_s
    assay_rate = summary.n_ok / summary.seconds
    print(
        f"baseline  nlp.pipe(n_process={args.cpus}) + DuckDB: {base_rate:9,.0f} docs/s  ({base_s:6.1f} s, "
        f"{base_claims:,} claims, peak memory {base_mem.peak:,.0f} MB)"
    )
    print(
        f"assay     run_pipeline ({summary.runner:5s}):         {assay_rate:9,.0f} docs/s  ({summary.seconds:6.1f} s, "
        f"{assay_claims:,} claims, peak memory {assay_mem.peak:,.0f} MB; {summary.n_ok:,} ok, "
        f"{summary.n_quarantined} quarantined)"
    )
    print(f"Ray start-up (ray.init, not counted above): {summary.startup_s:.1f} s ({summary.where})")
    with_startup = summary.n_ok / (summary.seconds + summary.startup_s)
    min_rate = n / min_s
    print(
        f"minimal   blank spaCy + sentencizer, nlp.pipe(n_process={args.cpus}), 1 regex, 1 Arrow insert: "
        f"{min_rate:9,.0f} docs/s  ({min_s:6.1f} s, {min_claims:,} claims, no attribution)"
    )
    print(f"ratio assay / baseline: {assay_rate / base_rate:.2f}x")
    print(
        f"ratio assay / baseline, Ray's start-up included: {with_startup / base_rate:.2f}x "
        f"({with_startup:,.0f} docs/s)"
    )
    print(f"ratio assay / minimal script: {assay_rate / min_rate:.2f}x")
    # CPU-seconds of each side's whole process tree (Ray's processes included for assay, its start-up too): the
    # wall-clock ratios above swing with the machine's other load, these much less (peak_memory's note)
    print(
        f"CPU-seconds per 1,000 abstracts: minimal {1000 * min_mem.cpu_s / n:.2f}, baseline "
        f"{1000 * base_mem.cpu_s / n:.2f}, assay {1000 * assay_mem.cpu_s / summary.n_ok:.2f}"
    )
    print(
        f"ratio by CPU-seconds, assay / baseline: {base_mem.cpu_s / n / (assay_mem.cpu_s / summary.n_ok):.2f}x, "
        f"assay / minimal script: {min_mem.cpu_s / n / (assay_mem.cpu_s / summary.n_ok):.2f}x"
    )
    if paper_summary is not None:
        print(
            f"full papers: {args.pages} pages in {paper_summary.n_ok} two-column PDFs, "
            f"{args.pages / paper_summary.seconds:,.1f} pages/s ({paper_summary.seconds:.1f} s, "
            f"{paper_claims:,} claims; {paper_summary.n_quarantined} quarantined)"
        )
    if assay_claims != base_claims:
        print(f"warning: claims differ ({assay_claims:,} vs {base_claims:,})")


if __name__ == "__main__":
    main()
