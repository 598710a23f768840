"""The cues that a number is what a setting is set to, not a result: a named setting's value, a share or multiple
a budget, a sparsity or a schedule is given, a setting swept between values, a model scaled or cut to a
fraction. Rows of the one table ``_cues.CUES`` (read in order there), each with its own-worded example."""

from __future__ import annotations

import re

from assay.operators.papers._cue import MULTIPLES, RATIOS, Cue

# What a setting's value is the value of: a service-level objective or its scale, a deadline, a budget, a
# threshold, a target, a tolerance, a quota ("an SLO scale of 1.2x", "a 1.5x deadline", "threshold = 5%").
_SETTING_NOUN = (
    r"(?:SLOs?(?:\s+scales?)?|deadlines?|budgets?|thresholds?|targets?(?:\s+[\w-]+)?|tolerances?|quotas?|"
    r"coefficients?|limits?|caps?)"
)

SETTING_CUES: tuple[Cue, ...] = (
    Cue(
        "setting verb",
        RATIOS,
        "sentence",
        re.compile(
            r"(?=[iwabcdsp])\b(?:(?:is|was|are|were|be)\s+(?:\w+ly\s+)?(?:set|fixed|configured|chosen|capped|limited)\s+"
            r"(?:to|at|as)\b|"
            r"(?:chosen|drawn|sampled|selected|picked)\s+(?:uniformly\s+)?(?:at\s+random\s+)?from\b|"
            r"\b(?:we\s+(?:restrict|limit|cap|bound|clip)|(?:is|are|was|were)\s+(?:restricted|limited|capped|bounded))"
            r"\b[^.;]*\bto\b|"
            r"we\s+(?:configure|set|fix|choose|pick|vary|sweep|provision|allocate|enumerate|explore|try|allow|offload"
            r"|reserve|assign|keep)\b|"
            r"(?:configure[ds]?|setting)\s+(?:\w+\s+){0,3}?(?:ratios?|factors?|levels?)\s+(?:of|to|at)\b)",
            re.I,
        ),
        False,
        "The batch was fixed at 96, which is 1.8x larger than the largest batch the old runtime fits.",
        (),
    ),
    Cue(
        "value of a named setting",
        RATIOS,
        "clause",
        # The number is what a setting is set to: "a tight SLO scale of 1.1x", "(SLO scale = 1.0x)", "under
        # two SLO scales (1.0x and 1.5x)", "a target accuracy (top-1 of 71%)".
        re.compile(
            rf"\b{_SETTING_NOUN}\s*(?:\(\s*[\w-]+\s+)?(?:of|=|:|from|at|to|is|was|\()\s*"
            r"(?:\(\s*)?(?:\d+(?:\.\d+)?\s*[x×%]\s*(?:,|\band\b|\bor\b)\s*)*$",
            re.I,
        ),
        True,
        "Under a tight SLO scale of 1.2x and a looser one (SLO scale = 1.5x), Foo meets 30% more deadlines "
        "than Bar.",
        ((30.0, "%"),),
    ),
    Cue(
        "setting named after the multiple",
        MULTIPLES,
        "after",
        # "with a 1.5x SLO scale", "a 2x deadline": the multiple sets the objective, not a result; an
        # objective's outcome ("SLO attainment") is a result.
        re.compile(
            r"\s*\)?\s*(?:SLOs?\b(?!\s+(?:attainment|violations?|satisf\w*|compliance|miss\w*|goodput))|"
            r"deadlines?\b|budgets?\b|thresholds?\b|targets?\b)",
            re.I,
        ),
        True,
        "At a 1.3x SLO scale Foo serves 1.6x more requests than Bar, and a 2x SLO attainment gap remains.",
        ((1.6, "x"), (2.0, "x")),
    ),
    Cue(
        "setting named after the share",
        frozenset({"pct"}),
        "after",
        # "a 20% KV cache budget", "under the 80% memory limit": the share sets a resource's allowance, not a
        # result; a few words may name the resource between them
        re.compile(
            r"\s+(?:of\s+(?:a|an|the|its|their)\s+)?(?:[A-Za-z][\w-]*\s+){0,3}(?:budgets?|limits?|caps?|quotas?|thresholds?)\b",
            re.I,
        ),
        True,
        "With a 20% cache budget, 10% of a fixed slot quota and under the 80% device memory limit, Foo keeps 12% "
        "more hits than Bar.",
        ((12.0, "%"),),
    ),
    Cue(
        "sparsity or dropout a model is set to",
        frozenset({"pct"}),
        "clause",
        # "an attention sparsity of 75%", "with sparsity up to 90%", "a sparsity level of 1 - 64/1024 = 93.75%",
        # "dropout of 10%": how sparse a model is made, or what share it drops, is its configuration, not a
        # result (a formula ending in "=" may stand between)
        re.compile(
            r"\b(?:sparsity|dropout|drop\s+rate|mask(?:ing)?\s+ratio|pruning\s+(?:ratio|rate))"
            r"(?:\s+(?:levels?|ratios?|rates?))?\s*(?:of\s+|=\s*|:\s*|at\s+|is\s+|was\s+|to\s+|up\s+to\s+)*"
            r"(?:about\s+|around\s+|approximately\s+|nearly\s+)?(?:[^.;,=]{0,40}=\s*)?$",
            re.I,
        ),
        True,
        "Foo prunes the heads to a sparsity level of up to 1 - 8/64 = 87.5% and keeps a dropout of 10%, yet it "
        "runs 1.4x faster than Bar.",
        ((1.4, "x"),),
    ),
    Cue(
        "sparsity named after the share",
        frozenset({"pct"}),
        "after",
        # "at 90% sparsity", "75% sparse attention", "a 30% dropout": the share a model is made sparse by
        re.compile(r"\s*(?:[\w-]+\s+)?(?:sparsity|sparse\b|dropout\b)", re.I),
        True,
        "At 90% sparsity and with 75% sparse attention, Foo decodes 2.1x faster than Bar.",
        ((2.1, "x"),),
    ),
    Cue(
        "setting a bracket was measured at",
        MULTIPLES,
        "parenthesis",
        # "(up to 12% more on the bursty trace at 1.5x)": a bracket's figure with the point of the swept
        # setting it was read at, closing the bracket, whatever the sentence states: the figure before it is
        # the result.
        re.compile(r".*\bat\s+\d+(?:\.\d+)?\s*[x×]\s*", re.I | re.S),
        True,
        "Foo meets more deadlines than Bar (up to 12% more on the bursty trace at 1.5x), and it cuts latency by 9%.",
        ((12.0, "%"), (9.0, "%")),
    ),
    Cue(
        "unit multiple in prose",
        MULTIPLES,
        "after",
        # "1.0x as the load grows": a multiple of one changes nothing, so in a sentence that compares nothing it
        # is a reference point of a setting (an SLO scale, a normalisation), not a result; a table's cell
        # ("| 1.00x |", the baseline's own) ends its cell, and a clause that compares keeps it.
        re.compile(
            r"(?:(?<=(?<![\d.])1[xX×])|(?<=(?<![\d.])1\.0[xX×])|(?<=(?<![\d.])1\.00[xX×]))"
            r"(?![ \t]*(?:\||\n|$))"
        ),
        False,
        "Foo holds its lead from 1.0x as the arrival rate grows, and it serves 1.4x more requests than Bar.",
        ((1.4, "x"),),
    ),
    Cue(
        "setting swept between values",
        frozenset({"half"}),
        "after",
        # "halving the window from 8 to 4": a parameter of a sensitivity study changed between two stated values.
        re.compile(r"\s+(?:[^\s,.;]+\s+){1,3}?from\s+\d+(?:\.\d+)?\s*%?\s+to\s+\d", re.I),
        True,
        "In the sensitivity study, halving the window from 8 to 4 steps costs little, and Foo is 1.3x faster "
        "than Bar.",
        ((1.3, "x"),),
    ),
    Cue(
        "reference cell",
        MULTIPLES,
        "after",
        # "| 1× |", "1x" ending a row: a whole one, written without decimals beside measured multiples, is
        # the reference a row or column is normalised to; a measured "1.00x" keeps its decimals.
        re.compile(r"(?:(?<=(?<![\d.])1[xX×])|(?<=(?<![\d.])1 [xX×]))(?=[ \t]*(?:\||\n|$))"),
        True,
        "Foo is also 1.2x faster than Base at small batch.\n\nSetting | Foo | Bar | Base\n"
        "Speedup | 2.40x | 1.35x | 1x\n",
        ((1.2, "x"), (2.4, "x"), (1.35, "x")),
    ),
    Cue(
        "scaled copy of a model",
        MULTIPLES,
        "after",
        # "the 0.5x model", "(1x) model", "0.7x models", a legend's "1X | Model": a model built at a fraction
        # or multiple of the full size, a configuration; "3x larger models" or "2x model throughput" say
        # something else.
        re.compile(
            r"\s*\)?\s*(?:\|\s*)?(?:models?|networks?|variants?|replicas?)\b"
            r"(?!\s+(?:size\s+)?(?:reduction|compression|speed|throughput|quality|accuracy|flops|utili))",
            re.I,
        ),
        True,
        "Against the full (1x) model, the 0.5x model loses little accuracy, and Foo trains it 1.9x faster "
        "than Bar.",
        ((1.9, "x"),),
    ),
    Cue(
        "fraction of the full size",
        MULTIPLES,
        "after",
        # "0.5x, 0.4x and 0.3x of the full model size": sizes a study builds, listed against the whole.
        re.compile(
            r"(?:\s*,?\s*(?:and\s+|or\s+)?\d+(?:\.\d+)?\s*[x×])*\s+of\s+(?:the\s+|its\s+)?"
            r"(?:full|original|whole|entire|default)\s+(?:[\w-]+\s+){0,2}?(?:size|capacity|model|table|width)\b",
            re.I,
        ),
        True,
        "We build 0.8x, 0.6x and 0.4x of the full table size; Foo trains the smallest 1.7x faster than Bar.",
        ((1.7, "x"),),
    ),
    Cue(
        "share a study selects",
        frozenset({"pct"}),
        "clause",
        # "when selecting the top 10% and 40% most important tokens", "keeping 20% of the heads": the fraction a
        # method or a study is set to keep, not a result (a list of them shares the verb).
        re.compile(
            r"\b(?:select(?:s|ed|ing)?|keep(?:s|ing)?|kept|retain(?:s|ed|ing)?|sampl(?:e|es|ed|ing)|prun(?:e|es|ed|ing)|"
            r"evict(?:s|ed|ing)?)\s+(?:only\s+)?(?:the\s+)?(?:top|bottom|first|last)?[\s-]*"
            r"(?:\d+(?:\.\d+)?\s*%\s*(?:,\s*|\s+and\s+|\s+or\s+))*$",
            re.I,
        ),
        False,
        "The overlap is 0.68 when selecting 40% of the tokens and 0.48 when selecting the top 10% and 20%; "
        "Foo is 1.3x faster than Bar.",
        ((1.3, "x"),),
    ),
    Cue(
        "range a study varies",
        RATIOS,
        "clause",
        # "and vary the retention ratio from 50% to 5%": the values a sensitivity study sweeps, whoever varies it.
        # (the setting named between: "the speedup varies from 2.2x to 9.6x" is a result's range)
        re.compile(r"\b(?:vary|varies|varied|varying|sweep|sweeps|swept|sweeping)\s+(?:[\w-]+\s+){1,5}?from\s+$", re.I),
        True,
        "We measure quality by accuracy and vary the retention ratio from 50% to 5%; Foo is 1.3x faster than Bar, "
        "and its speedup varies from 1.1x to 1.6x.",
        ((1.3, "x"), ((1.1, 1.6), "x")),
    ),
    Cue(
        "operand of a product",
        frozenset({"pct"}),
        "clause",
        # "scores of 0.75 (1.5 × 50%)": a share multiplied out in brackets or after "=", not a result (a table
        # row's "3.4×  3.3×" is two multiples).
        re.compile(r"[(=]\s*\d+(?:\.\d+)?\s*[×*]\s*$"),
        True,
        "The policy scores the first chunk 0.75 (1.5 × 50%) and the second 1.0 (1 × 100%); Foo is 1.3x faster "
        "than Bar.",
        ((1.3, "x"),),
    ),
    Cue(
        "processor count",
        MULTIPLES,
        "after",
        # "a server with 2 × AMD EPYC 7763 CPUs": how many of a processor a machine has, by its vendor and model.
        re.compile(r"\s*(?:(?:[A-Z][\w-]*|\d+[A-Za-z]*)\s+){1,4}(?:CPUs?|GPUs?|processors?|sockets?|accelerators?)\b"),
        True,
        "The server has 2 × Xeon Gold 6338 CPUs and 4 × A100 GPUs; Foo is 1.3x faster than Bar on it.",
        ((1.3, "x"),),
    ),
    Cue(
        "schedule",
        RATIOS,
        "after",
        # "decays the score by a factor of 0.8 every T iterations": a rule applied on a period, not a result.
        re.compile(
            r"\s+every\s+(?:\w+\s+)?(?:iterations?|steps?|epochs?|rounds?|batches|minutes?|seconds?|hours?)\b",
            re.I,
        ),
        True,
        "The average decays by a factor of 0.9 every K steps and the rate by 5% every epoch; Foo is 1.3x "
        "faster than Bar.",
        ((1.3, "x"),),
    ),
)
