"""How the general reader chose a template's step and loss, in words: the per-file table says why a file's
values sit at the steps they do."""

from __future__ import annotations


def template_decision(
    template: list[str], names: dict[int, str], step_pos: int | None, metrics: dict[int, str], fixed: bool, counted: bool
) -> str:
    """How a template's step and loss were chosen, in words, for the per-file table."""
    shape = " ".join(template[:12]) + (" ..." if len(template) > 12 else "")
    if step_pos is not None:
        before_total = template[step_pos + 1 : step_pos + 2] == ["/"]
        bracketed = template[step_pos - 1 : step_pos] in (["["], ["("])
        counter = names.get(step_pos) or (
            "an unnamed count" if before_total else "a number in brackets" if bracketed else "an unnamed field"
        )
        total = " with its total (made global across epochs where it starts again)" if before_total else ""
        step = f"the counter '{counter}'{total}"
    elif fixed:
        step = "the 'Epoch k/N' header above its bar"
    else:
        step = "the counter of the line before" if counted else "nowhere (no counter; a line's position is no step)"
    loss = next((names[p] for p, n in sorted(metrics.items()) if n == "loss"), None)
    said = f"; loss: '{loss}'" if loss else ""
    return f"'{shape}': step from {step}{said}"
