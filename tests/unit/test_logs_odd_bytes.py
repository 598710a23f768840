"""Bytes a real log file may hold: a few NULs a crashed node left mid-write are no characters (the log is read
whole); a file in UTF-16 (a Windows shell's redirect) is skipped with a reason that names the conversion; a
file mostly of NULs is binary. Through ``parse_log``."""

from __future__ import annotations

from assay.operators.logs import parse_log

_LINES = [f"step {k} loss {1 - k / 10:.2f} lr 0.001" for k in range(1, 6)]


def test_a_few_nuls_in_a_line_are_no_characters(tmp_path):
    path = tmp_path / "node3.log"
    path.write_bytes(("\n".join(_LINES) + "\n").encode().replace(b"step 3", b"st\x00\x00ep 3"))
    log = parse_log(str(path))
    assert log.series("loss") == [(1, 0.9), (2, 0.8), (3, 0.7), (4, 0.6), (5, 0.5)]
    assert not log.issues


def test_a_utf16_log_is_skipped_with_the_conversion_to_run(tmp_path):
    path = tmp_path / "win.log"
    path.write_text("\n".join(_LINES) + "\n", encoding="utf-16")
    log = parse_log(str(path))
    assert log.series("loss") == []
    assert len(log.issues) == 1 and "UTF-16" in log.issues[0]["error"] and "iconv" in log.issues[0]["error"]


def test_a_file_mostly_of_nuls_is_binary(tmp_path):
    path = tmp_path / "blob.log"
    path.write_bytes(b"\x00" * 4000 + b"step 1 loss 2.0\n")
    log = parse_log(str(path))
    assert log.issues and "binary" in log.issues[0]["error"]
