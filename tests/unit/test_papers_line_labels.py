"""A line that a name labels ("- [SwiftGen](link): ... 38%", "**Orca-2**: ..."), as a README or a blog lists
its systems, states that name's result: the label is the subject of the numbers on its line, not a name on
the lines before it nor the document's own system. Own-worded files read as a user's are (``read_paper`` ->
``segment_text`` -> ``extract_knowledge``)."""

from __future__ import annotations

from papers_extract import file_claims

README = """# FooKit

FooKit is a toolkit for serving large models.

## News

- Grok-5: 300B model weights in PyTorch
- [SwiftGen](https://example.org/swiftgen): an open method that lifts the length limit, with decoding sped up by 38%
- **Orca-2**: serving cost cut by 2.5x
- Note: FooKit is 3x faster than PyTorch on one GPU
"""


def test_each_labelled_line_states_its_labels_result(tmp_path):
    found = {c["value"]: c for c in file_claims(tmp_path, README, "README.md")}
    assert found[38.0]["subject"] == "SwiftGen"
    assert found[2.5]["subject"] == "Orca-2"
    # an ordinary word is no label: the line's own clause decides
    assert (found[3.0]["subject"], found[3.0]["versus"]) == ("FooKit", "PyTorch")


def test_labels_in_a_chinese_list(tmp_path):
    text = "# FooKit\n\nFooKit 是一个推理工具包。\n\n- Grok-5: 3000亿参数 PyTorch 推理\n- SwiftGen: 打破长度限制，推理加速38%\n"
    found = {c["value"]: c for c in file_claims(tmp_path, text, "README.md")}
    assert found[38.0]["subject"] == "SwiftGen"
