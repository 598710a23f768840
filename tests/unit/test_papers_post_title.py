"""A blog post's front-matter title is its heading and part of its text (a paper's title is its first line),
so a result stated in the title is a claim; a title that announces a release ("Foo v2.1: ...") names the
post's system without the version. Through the public path: read_paper on a Markdown file, segment_text,
extract_knowledge. Every line is written for the test."""

from __future__ import annotations

from assay.dsl import get_operator

POST = """---
layout: post
title: "Quux v2.1: 3x Faster Decoding and 40% Less Memory"
author: "The Quux team"
---

TL;DR: Quux now decodes 3x faster and uses 40% less memory than v2.0 on the same GPUs.

TPOT drops for every model we serve, and PagedLayer keeps working as before.
"""


def extracted(tmp_path) -> dict:
    path = tmp_path / "post.md"
    path.write_text(POST, encoding="utf-8")
    read, failures = get_operator("read_paper").run([{"source_uri": str(path)}])
    assert not failures
    segmented, _ = get_operator("segment_text").run(read)
    out, failures = get_operator("extract_knowledge").run(segmented, model="blank", parse="none")
    assert not failures
    return out[0]


def test_the_title_of_the_front_matter_is_read_for_claims(tmp_path):
    claims = [(c["value"], c["unit"]) for c in extracted(tmp_path)["claims"]]
    assert claims == [(3.0, "x"), (40.0, "%"), (3.0, "x"), (40.0, "%")]


def test_a_release_in_the_title_names_the_posts_system(tmp_path):
    assert {c["subject"] for c in extracted(tmp_path)["claims"]} == {"Quux"}
