"""A user's in-house format: a LogParser subclass handed to the pipeline, with no change to assay."""

from __future__ import annotations

import re

from assay.operators.logs import LogParser, parse_log
from assay.pipelines.logs import build

STEP = re.compile(r"^ACME step=(?P<step>\d+) objective=(?P<loss>\S+) gpus=(?P<gpus>\d+)")


class AcmeParser(LogParser):
    name = "acme"
    framework = "AcmeTrain"
    interesting = r"^ACME step="

    @classmethod
    def sniff(cls, head, path):
        return 1.0 if "ACME step=" in head else 0.0

    def parse_line(self, text, line_no, rank):
        m = STEP.match(text)
        if m:
            self.out.metric("loss", int(m["step"]), float(m["loss"]), line_no, rank)
            self.out.setting("world_size", int(m["gpus"]), line_no)


def write_log(path):
    path.write_text(
        "ACME trainer 2.1\n"
        + "".join(f"ACME step={i} objective={3 - i / 10} gpus=4\n" for i in range(10))
        + "torch.OutOfMemoryError: CUDA out of memory.\n"
    )


def test_user_parser_is_detected_and_used(tmp_path):
    path = tmp_path / "acme.log"
    write_log(path)
    parsed = parse_log(path, parsers=(AcmeParser,))
    assert parsed.records[0]["log_format"] == "acme"
    assert parsed.series("loss")[-1] == (9, 2.1)
    assert parsed.run["framework"] == "AcmeTrain" and parsed.run["world_size"] == 4
    assert parsed.run["status"] == "failed" and "oom" in parsed.event_kinds()  # the common event rules apply
    assert ("system", "AcmeTrain") in {(e["type"], e["name"]) for e in parsed.entities}


def test_without_the_parser_the_fallback_reads_it(tmp_path):
    path = tmp_path / "acme.log"
    write_log(path)
    assert parse_log(path).records[0]["log_format"] == "generic"


def test_build_puts_the_parser_in_the_pipeline_configuration():
    pipeline = build(parsers=[AcmeParser], name="acme-logs")
    pipeline.check()
    assert pipeline.name == "acme-logs" and pipeline.combiner.name == "log_combine"
    assert all(step.config["parsers"] == (AcmeParser,) for step in pipeline.steps)
