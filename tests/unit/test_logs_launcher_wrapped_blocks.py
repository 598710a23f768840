"""A training script's records read the same under torchrun's agent as without it: the agent only launches, so
its lines are read first and the script's are the general reader's (a record printed over several lines, its
values indented under a header that carries the step). A logger whose fields are parted by tabs (date, host and
rank, source line, level) is a prefix, and the date it holds is the time of the events on its lines."""

from __future__ import annotations

import datetime as dt

from assay.operators.logs import parse_log

_AGENT_TAIL = """\
W0301 10:20:30.000000 4242 torch/distributed/elastic/agent/server/api.py:704] Received 15 death signal, shutting down workers
W0301 10:20:30.000000 4242 torch/distributed/elastic/multiprocessing/api.py:858] Sending process 4243 closing signal SIGTERM
Traceback (most recent call last):
  File "/opt/conda/bin/torchrun", line 8, in <module>
    sys.exit(main())
torch.distributed.elastic.multiprocessing.api.SignalException: Process 4242 got signal: 15
"""


def _block(step: int, loss: float, when: str) -> str:
    return (
        f"2026-03-01 {when}\tworker-a7:0\tlm.trainer:512\tINFO\t[step={step}/9000,epoch=1]\n"
        f"    optim/grad_norm={0.3 + step / 10000:.4f}\n"
        f"    train/CrossEntropyLoss={loss:.3f}\n"
        f"    throughput/device/tokens_per_second=41,{step % 1000:03d}\n"
    )


def _log(tmp_path, with_agent: bool):
    body = "".join(_block(400 + i, 3.5 - i * 0.01, f"10:{10 + i}:00.125") for i in range(6))
    body += "2026-03-01 10:17:05.500\tworker-a7:0\tlm.trainer:890\tINFO\tSaving checkpoint to ckpts/step405...\n"
    path = tmp_path / ("agent.log" if with_agent else "plain.log")
    path.write_text(body + (_AGENT_TAIL if with_agent else ""))
    return parse_log(path)


def test_indented_records_take_their_header_step_under_the_agent(tmp_path):
    plain, launched = _log(tmp_path, False), _log(tmp_path, True)
    for parsed in (plain, launched):
        assert [s for s, _ in parsed.series("loss")] == [400, 401, 402, 403, 404, 405]
        assert parsed.series("loss")[-1][1] == 3.45
    # the agent's SIGTERM ends the launched run; the host, its rank and the source line are no metric
    assert launched.run["status"] == "failed"
    names = set(launched.metrics.column("name").to_pylist())
    assert not any("worker" in n or "trainer" in n for n in names), names


def test_the_tab_parted_header_date_is_the_event_time(tmp_path):
    parsed = _log(tmp_path, False)
    saves = [e for e in parsed.events if e["kind"] == "checkpoint"]
    assert len(saves) == 1 and saves[0]["step"] == 405
    assert saves[0]["ts"] == dt.datetime(2026, 3, 1, 10, 17, 5, 500000)
