"""The training engine on one process (no torch.distributed, no Ray): learning, checkpoints that do not
depend on the layout, exact resumption."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from assay.jobs.spec import load_spec  # noqa: E402
from assay.scheduler.layout import Layout  # noqa: E402
from assay.training import checkpoint as ckpt  # noqa: E402
from assay.training._data import TokenStream  # noqa: E402
from assay.training._gpt import canonical_shapes, stage_bounds  # noqa: E402
from assay.training._rank import Engine, learning_rate  # noqa: E402


@pytest.fixture(autouse=True)
def _one_thread():
    torch.set_num_threads(1)


def _spec(*overrides: str):
    return load_spec("tiny", list(overrides))


def test_single_worker_learns_the_synthetic_stream():
    spec = _spec("steps=30", "lr=0.01")
    engine = Engine(spec, Layout(), spec.micro_batch)
    losses = [engine.train_step()["loss"] for _ in range(30)]
    assert losses[0] == pytest.approx(torch.log(torch.tensor(64.0)).item(), rel=0.05)  # uniform at start
    assert sum(losses[-5:]) / 5 < losses[0] - 0.5


def test_micro_batching_does_not_change_the_step():
    """Gradient accumulation over micro-batches is the same step as one big batch."""
    whole = Engine(_spec("dtype=float64", "micro_batch=8"), Layout(), 8)
    parts = Engine(_spec("dtype=float64", "micro_batch=2"), Layout(), 2)
    for _ in range(3):
        a, b = whole.train_step(), parts.train_step()
        assert a["loss"] == pytest.approx(b["loss"], rel=1e-10)
        assert a["grad_norm"] == pytest.approx(b["grad_norm"], rel=1e-10)


def test_data_is_deterministic_and_split_by_position():
    spec = _spec()
    one, two = TokenStream(spec), TokenStream(spec)
    x1, y1 = one.batch(step=3, start=0, size=8)
    x2, y2 = two.batch(step=3, start=4, size=4)
    assert torch.equal(x1[4:], x2) and torch.equal(y1[4:], y2)
    assert torch.equal(x1[:, 1:], y1[:, :-1])  # targets are inputs shifted by one
    other = TokenStream(_spec("seed=1"))
    assert not torch.equal(other.batch(3, 0, 8)[0], x1)


def test_checkpoint_state_reshards_to_any_layout_and_back():
    spec = _spec("steps=2")
    engine = Engine(spec, Layout(), spec.micro_batch)
    engine.train_step()
    full = ckpt.merge([engine.export()], Layout())
    ckpt.check_complete(full, spec)
    for lay in (Layout(1, 2, 2), Layout(2, 4, 1), Layout(1, 1, 2)):
        shards = [ckpt.slice_for(full, spec, lay, p, t) for p in range(lay.pp) for t in range(lay.tp)]
        again = ckpt.merge(shards, lay)
        assert again["step"] == full["step"] == 1
        for key in ("params", "exp_avg", "exp_avg_sq"):
            assert set(again[key]) == set(canonical_shapes(spec.model))
            for name, tensor in full[key].items():
                assert torch.equal(again[key][name], tensor), (lay, key, name)


def test_shards_hold_only_their_stage_and_slice():
    spec = _spec()
    full = ckpt.merge([Engine(spec, Layout(), spec.micro_batch).export()], Layout())
    first = ckpt.slice_for(full, spec, Layout(1, 2, 2), pp_rank=0, tp_rank=1)
    last = ckpt.slice_for(full, spec, Layout(1, 2, 2), pp_rank=1, tp_rank=0)
    assert "embed.tok" in first.params and "head.weight" not in first.params
    assert "head.weight" in last.params and "embed.tok" not in last.params
    assert first.params["layers.0.attn.q.weight"].shape == (16, 32)  # half the heads' rows
    assert first.params["layers.0.attn.o.weight"].shape == (32, 16)  # half the input columns
    assert first.params["layers.0.ln1.weight"].shape == (32,)  # replicated


def test_resuming_from_a_saved_checkpoint_continues_the_same_curve(tmp_path):
    spec = _spec("dtype=float64", "steps=6")
    straight = Engine(spec, Layout(), spec.micro_batch)
    reference = [straight.train_step()["loss"] for _ in range(6)]

    first = Engine(spec, Layout(), spec.micro_batch)
    head = [first.train_step()["loss"] for _ in range(3)]
    path = ckpt.save(tmp_path / "ckpt", ckpt.merge([first.export()], Layout()), {"note": "test"})
    assert ckpt.latest(tmp_path / "ckpt") == path and ckpt.latest_step(tmp_path / "ckpt") == 3
    state = ckpt.slice_for(ckpt.load(path), spec, Layout(), 0, 0)
    second = Engine(spec, Layout(), 4, state=state)  # another micro-batch: same global batch
    tail = [second.train_step()["loss"] for _ in range(3)]
    assert head + tail == pytest.approx(reference, rel=1e-10)


def test_only_the_newest_checkpoints_are_kept(tmp_path):
    spec = _spec()
    engine = Engine(spec, Layout(), spec.micro_batch)
    for _ in range(4):
        engine.train_step()
        ckpt.save(tmp_path, ckpt.merge([engine.export()], Layout()), {})
    assert sorted(p.name for p in tmp_path.glob("step-*")) == ["step-00000003", "step-00000004"]
    assert not list(tmp_path.glob(".tmp-*"))


def test_learning_rate_warms_up_then_decays():
    spec = _spec("lr=0.01", "warmup_steps=4", "steps=20")
    assert learning_rate(spec, 1) == pytest.approx(0.0025)
    assert learning_rate(spec, 4) == pytest.approx(0.01)
    assert learning_rate(spec, 20) == pytest.approx(0.001)
    assert learning_rate(spec, 10) > learning_rate(spec, 15)


def test_stage_bounds_cover_every_layer_once():
    assert stage_bounds(4, 2) == [(0, 2), (2, 4)]
    assert stage_bounds(5, 3) == [(0, 2), (2, 4), (4, 5)]
    assert stage_bounds(4, 2, [0, 3, 4]) == [(0, 3), (3, 4)]
    assert stage_bounds(4, 2, [0, 5, 4]) == [(0, 2), (2, 4)]  # invalid cut points: even split
