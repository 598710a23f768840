"""How many actors a pool starts with: one batch's worth of files, or of bytes for collection files."""

from __future__ import annotations

from assay.runtime._run import INPUT_BYTES_PER_ACTOR, _input_batches


def test_a_few_small_papers_fill_one_batch(tmp_path):
    files = []
    for i in range(10):
        path = tmp_path / f"paper-{i}.txt"
        path.write_text("Our system is 2x faster than the baseline. " * 20)
        files.append(str(path))
    assert _input_batches(files, 256) == 1


def test_collection_files_count_by_their_bytes(tmp_path):
    files = []
    for i in range(2):
        path = tmp_path / f"abstracts-{i}.jsonl"
        path.write_bytes(b'{"abstract": "x"}\n' * (INPUT_BYTES_PER_ACTOR // 18 + 1))
        files.append(str(path))
    assert _input_batches(files, 256) == 3  # two files just over 1 MiB each


def test_missing_files_count_as_files(tmp_path):
    assert _input_batches([str(tmp_path / f"gone-{i}.txt") for i in range(300)], 256) == 2
