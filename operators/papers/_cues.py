"""The declared table of cues that a number with a ratio unit states no result (a setting, a workload's
statistic, a definition, a label): one row a cue, each with an own-worded example and the claims the example
still holds. ``_clause`` reads the table; the tests run every example through the whole extraction path.

Why a module of its own: the table is data that grows a row at a time, with its examples; the code that
applies it (``_clause``) changes for other reasons.

Why one module: the rows are one table read in order (the first cue that holds names the reason), each row
a pattern and its example; split across files, the order and the examples' coverage would be harder to see.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Where a cue is looked for, relative to the number: ``after`` (the text right after the unit), ``clause``
#: (the clause before the number, from the last comma, semicolon or sentence end), ``sentence`` (the
#: sentence before the number, up to a semicolon), ``parenthesis`` (the whole of the brackets the number
#: stands in).
WHERE = ("after", "clause", "sentence", "parenthesis")

# Nouns that count members of a workload (a share of them is a statistic of the workload, not a result).
_POPULATION = (
    r"(?:tasks|jobs|blocks|requests|users|workers|threads|kernels|queries|samples|iterations|steps|files|"
    r"experts|tokens|warps|pages|accesses|flows|calls|functions|invocations|operators|layers|models|tenants)"
)


@dataclass(frozen=True)
class Cue:
    """A sign that a number is not a result: its name, the claim shapes it applies to, where it is looked for,
    its pattern(s), whether it holds even when the clause states a result, an own-worded example and the
    claims (value, unit) the example still holds (its results)."""

    name: str
    shapes: frozenset[str]
    where: str
    pattern: re.Pattern[str]
    overrides_result: bool
    example: str
    kept: tuple[tuple[float, str], ...] = ()
    #: Where a result verb keeps the number: its ``clause``, or its ``sentence`` up to it and the rest of its
    #: brackets (a parenthesis cut off from its sentence's verb by "e.g.,").
    result_in: str = "clause"


_RATIOS = frozenset({"x", "pct", "times", "fold", "words"})
# What a setting's value is the value of: a service-level objective or its scale, a deadline, a budget, a
# threshold, a target, a tolerance, a quota ("an SLO scale of 1.2x", "a 1.5x deadline", "threshold = 5%").
_SETTING_NOUN = (
    r"(?:SLOs?(?:\s+scales?)?|deadlines?|budgets?|thresholds?|targets?(?:\s+[\w-]+)?|tolerances?|quotas?|"
    r"coefficients?|limits?|caps?)"
)
_X = frozenset({"x", "times", "fold"})

CUES: tuple[Cue, ...] = (
    Cue(
        # a statistic's level, not a result: "the 95% confidence interval", "95% certain", "the rank at which 90%
        # of the variance is explained"
        "statistical level",
        frozenset({"pct"}),
        "after",
        re.compile(
            r"\s*(?:(?:binomial|bootstrap(?:ped)?|two-sided|one-sided|[\w-]+\s+proportion)\s+)*"
            r"(?:confidence(?:\s+(?:intervals?|levels?|bounds?|bands?))?|CIs?\b|credible\s+intervals?|certain\b|"
            r"(?:of\s+(?:the\s+)?)?(?:explained\s+)?variance(?:\s+(?:is\s+|are\s+)?explained)?|significance\s+level)",
            re.I,
        ),
        True,
        "We report the 95% confidence interval over five runs; Foo is 1.3x faster than Bar, and the rank at "
        "which 90% of the variance is explained stays below 32.",
        ((1.3, "x"),),
    ),
    Cue(
        "link count",
        _X,
        "after",
        re.compile(
            r"\s*(?:(?:HDR|EDR|NDR|FDR|QDR)\s+)?(?:InfiniBand|IB\b|NVLinks?|NVSwitch|RoCE|Ethernet|NICs?|"
            r"HCAs?|PCIe|links?\b|ports?\b|lanes?\b|SSDs?\b|NVMe|disks?\b|HBM)",
            re.I,
        ),
        True,
        "The servers are joined by 4x HDR InfiniBand (each GPU on 16x PCIe v4), and Foo trains 1.6x faster than "
        "Bar on them.",
        ((1.6, "x"),),
    ),
    Cue(
        "resource multiple",
        _X,
        "after",
        re.compile(
            r"\s*(?:\)|\s)?(?:of\s+(?:the\s+|its\s+|their\s+)?)?(?:GPU[ \t-]+|device[ \t-]+)?"
            r"(?:over-?subscri\w+|working[ \t-]+sets?|memory\s+(?:capacity|budget|limit)|capacity\b|"
            r"headroom|replication\b|redundancy\b)(?![^.;,]{0,40}\b(?:than|compared|relative|over|versus|vs)\b)",
            re.I,
        ),
        True,
        "Each node runs at 1.5x oversubscription of its device memory, where Foo cuts stalls by 35%.",
        ((35.0, "%"),),
    ),
    Cue(
        "label",
        _X,
        "parenthesis",
        # "(Local 1x)", "(2x Local 1x)": a name with its unit multiple, the whole of a parenthesis (a result in
        # brackets, "(BERT 2.1x)", is not 1x).
        re.compile(
            r"\s*(?:\d+(?:\.\d+)?\s*[x×]\s*)?[A-Z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2}\s+1(?:\.0+)?\s*[x×]\s*"
        ),
        True,
        "We compare tuned sharing, the plain runtime (Local 1x) and two copies (2x Local 1x); sharing is 1.7x faster. "
        "Local 1x: one tenant alone.",
        ((1.7, "x"),),
    ),
    Cue(
        "name after the multiple",
        _X,
        "after",
        # "2×Local": a multiplication sign glued to a capitalised word names a configuration; a comparative
        # glued to it ("3×Faster", text from a PDF that lost its spaces) is not one.
        re.compile(
            r"(?=[A-Z][a-z])(?!(?i:faster|slower|higher|lower|more|less|fewer|larger|smaller|better|greater|"
            r"speed|improv|reduc|cheaper|shorter|longer|over|than|the|as)\b)[A-Z][a-z]+"
        ),
        True,
        "The bound for two tenants is 2×Local, and Foo reaches 1.8× over one tenant.",
        ((1.8, "x"),),
    ),
    Cue(
        "shape",
        _X,
        "after",
        # "2×H", "4×N": a multiplication sign glued to a one-letter variable is a shape (a tensor's, a grid's),
        # often in a code span, not a ratio; so is a capital one apart from it ("a dimension of 1 × D")
        re.compile(r"[A-Za-z](?![A-Za-z])|[ \t][A-Z](?![\w])"),
        True,
        "With two requests the buffer becomes 2×H, a row of 1 × D, and Foo runs 1.6× faster than Bar.",
        ((1.6, "x"),),
    ),
    Cue(
        "setting verb",
        _RATIOS,
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
        _RATIOS,
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
        _X,
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
        "setting a bracket was measured at",
        _X,
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
        _X,
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
        _X,
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
        _X,
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
        _X,
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
        "schedule",
        _RATIOS,
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
    Cue(
        "value given to a symbol",
        _RATIOS,
        "clause",
        # "when more than c = 5% of the rows change", "p = 10%": a parameter of a method, named by a letter.
        re.compile(r"(?<![\w.])[A-Za-zα-ωΑ-Ω](?:_\w+)?\s*=\s*$"),
        True,
        "Foo re-plans once more than c = 5% of the blocks move, and it is 1.4x faster than Bar.",
        ((1.4, "x"),),
    ),
    Cue(
        "condition opening the sentence",
        _RATIOS,
        "clause",
        # "With 10x overhead, the gain shrinks": a sentence opening on "With"/"Under" sets the condition of
        # what follows it (capitalised: the clause starts the sentence; "..., at 61% accuracy" is a result).
        # "Even at 90% load, ...": the level the result was measured at
        re.compile(r"^\s*(?:Even\s+(?:with|under|at)|With|Under|At)\s+(?:an?\s+|the\s+)?$"),
        False,
        "With 8x overhead, packing stops paying off. With 20% less memory, Foo still runs 1.3x faster than Bar. "
        "Even at 90% cluster load, Foo keeps the queuing delay 35% below Bar's.",
        ((1.3, "x"), (35.0, "%")),
    ),
    Cue(
        "assumption or illustration",
        _RATIOS,
        "sentence",
        # "For simplicity, we assume the backward pass takes twice as long as the forward pass", "In this
        # example, ...": a premise of a model or a drawing, not a measurement.
        re.compile(
            r"(?=[wasif])\b(?:we\s+assume|assum(?:e|es|ing)\s+that|suppose|in\s+this\s+(?:example|illustration|toy)|"
            r"for\s+(?:simplicity|illustration))\b[^.;]*$",
            re.I,
        ),
        False,
        "For simplicity, we assume that a backward pass takes twice as long as a forward pass. Foo is 1.3x "
        "faster than Bar.",
        ((1.3, "x"),),
    ),
    Cue(
        "list of targets",
        _RATIOS,
        "sentence",
        # "trained to a target accuracy: top-1 of 68% for one model, 76% for another": where the runs stop.
        re.compile(r"\btargets?(?:\s+[\w-]+){0,2}\s*:[^.;]*$", re.I),
        True,
        "Each run trains to a target validation accuracy: top-1 of 70% for the small net, 74% for the large "
        "one. Foo gets there 1.5x sooner than Bar.",
        ((1.5, "x"),),
    ),
    Cue(
        "workload statistic",
        _RATIOS,
        "clause",
        re.compile(
            r"\b(?:workloads?|traces?|distributions?|scenarios?|regimes?|datasets?|benchmarks?|experiments?|"
            r"setups?|clusters?)\b[^.;,]{0,60}?"
            r"\b(?:where|in\s+which|whose|such\s+that)\b[^.;,]*$",
            re.I,
        ),
        False,
        "On skewed traces where 15% of jobs run 30x longer than the median, Foo cuts waiting time by 12%.",
        ((12.0, "%"),),
    ),
    Cue(
        "after a share of a population",
        _RATIOS,
        "clause",
        re.compile(
            rf"(?<![\w.])\d+(?:\.\d+)?\s*%\s+of\s+(?:the\s+|all\s+)?(?:\w+\s+)?{_POPULATION}\b"
            r"[^.;,]*$",
            re.I,
        ),
        False,
        "In the sampled trace, 10% of requests carry 40x more tokens than the rest.",
        (),
    ),
    Cue(
        "share of a population",
        frozenset({"pct"}),
        "after",
        re.compile(
            # "20% of jobs request", "20% requests generate" (the "of" left out)
            rf"\s+(?:of\s+(?:the\s+|all\s+)?(?:\w+\s+)?)?{_POPULATION}\s+"
            rf"(?:do|does|perform|performs|run|runs|take|takes|request|requests|have|has|use|uses|are|is|"
            rf"need|needs|carry|carries|hold|holds|touch|touches|arrive|arrives|generate|generates|produce|"
            rf"produces)\b",
            re.I,
        ),
        False,
        "In the production log, 20% of jobs request eight GPUs and 30% requests produce images, and Foo lowers "
        "their wait by 2.5x.",
        ((2.5, "x"),),
    ),
    Cue(
        "definition",
        _RATIOS,
        "sentence",
        re.compile(
            r"(?=[vcdrltqswiab完理])(?:\b(?:valid|considered|deemed|regarded|defined|classified|counted|counts|labell?ed|treated|"
            r"qualif\w+|called|said)\b[^.;]*\b(?:if|when|once|whenever|as\s+long\s+as|provided)\b[^.;,]*$"
            r"|\b(?:we\s+define|is\s+defined\s+as|are\s+defined\s+as|by\s+definition|"
            r"we\s+say)\b[^.;]*$|\b(?:denot(?:e|es|ed|ing)|stands?\s+for|"
            # "a technique we call Foo, to train ...": the name's apposition ends at its comma
            r"we\s+call)\b[^.;,]*$"
            # (not "the optimal value of the batch size is ... and raises throughput by 15%": a tuned setting's
            # measured effect)
            r"|\b(?:a|an|the)\s+(?:perfect|ideal|optimal|theoretical(?:ly)?\s+optimal)\s+"
            r"(?!(?:value|choice|setting|configuration)s?\s+of\b)[^.;,]{0,60}?"
            r"\b(?:has|have|is|would|achieves?|reaches|gets|yields|attains)\b[^.;,]*$"
            r"|(?:完美|理想)的?[^，。；,;]{0,40}(?:具有|为|是|达到|可达|实现)[^，。；,;]*$)",
            re.I,
        ),
        True,
        "A layout is deemed scalable if it reaches 70%-95% of linear throughput.",
        (),
    ),
    Cue(
        "prescription",
        _RATIOS,
        "clause",
        # "job 0 should spend 60% of its time on ...": what a policy asks for, not what was measured.
        re.compile(r"\b(?:should|must|ought\s+to|is\s+to|are\s+to)\s+(?:\w+\s+){0,2}$", re.I),
        False,
        "Under this plan, the first job should spend 65% of its time on the fast devices.",
        (),
    ),
    Cue(
        "condition",
        _RATIOS,
        "clause",
        # "..., 1.4x longer when the interference is 50%": the number sets the condition of another result.
        re.compile(
            r"\b(?:when|whenever|if|once|until|unless)\b[^,.;]{0,60}\b(?:is|are|was|were|becomes?|reaches|exceeds|"
            r"hits|equals)\s+(?:about\s+|around\s+|only\s+|at\s+least\s+|over\s+|(?:less|more|lower|higher|"
            r"larger|smaller|greater)\s+than\s+)?$"
            # "For sizes larger than 10%, ...": a range of a setting opening the clause
            r"|^\s*(?:(?:and|but)\s+)?(?:[Ff]or|[Aa]t)\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+){0,4}\s+(?:larger|smaller|greater|less|more|"
            r"lower|higher)\s+than\s+$",
            re.I,
        ),
        True,
        "Without isolation the median step is 1.3x longer when the noise level is 40%. Foo keeps its accuracy "
        "when the cache share is less than 10%, and for cache shares larger than 20%, Foo is 1.2x faster than Bar.",
        ((1.3, "x"), (1.2, "x")),
    ),
    Cue(
        "change in a condition",
        _RATIOS,
        "clause",
        # "restart if the rate has dropped by a factor of 10", "if LR decreased by 90% then": the change a rule
        # waits for, not a measured one.
        re.compile(
            r"\b(?:if|unless|until)\b[^,.;]{0,60}\b(?:(?:has|have|had)\s+)?(?:dropped|decreased|increased|"
            r"fallen|fell|grown|grew|risen|rose|declined|changed|shrunk|shrank)\s+(?:by|over|more\s+than|beyond)"
            r"\s+(?:an?\s+)?$",
            re.I,
        ),
        True,
        "Foo re-plans if the load has grown by a factor of 3 or if the queue increased by 40%, and it is 1.2x "
        "faster than Bar.",
        ((1.2, "x"),),
    ),
    Cue(
        "value being defined",
        _RATIOS,
        "after",
        # "0.25x and 0.5x denote a quarter and a half of the rows": the numbers are names being explained.
        re.compile(
            r"(?:\s*(?:,|and|or)\s*\d+(?:\.\d+)?\s*[x×%])*\s+(?:denotes?|denoted|stands?\s+for|refers?\s+to)\b",
            re.I,
        ),
        True,
        "Here 0.6x and 0.3x denote tables cut to 60% and 30% of their rows, and Foo is 1.2x faster than Bar.",
        ((1.2, "x"),),
    ),
    Cue(
        "example",
        _RATIOS,
        "parenthesis",
        # "(e.g., 60% of the time on one GPU type and 40% on another)": an illustration, not a measurement.
        re.compile(r"\s*(?:e\.\s?g\.|(?:for\s+example|for\s+instance|such\s+as|say)\b).*", re.I | re.S),
        False,
        "Each job gets a share of each device type (e.g., 70% on the fast type and 30% on the slow one), and "
        "Foo lowers completion time by 18%.",
        ((18.0, "%"),),
        result_in="sentence",
    ),
    Cue(
        "formula",
        _X,
        "after",
        # "needs 4 × b bytes", "2 × Nexp + 1": a product in a formula, not a ratio between systems.
        re.compile(
            r"\s*(?:(?!(?:on|in|at|of|to|by|as|or|an|vs|is|if|it|we|up|so|no)\b)[a-z]{1,2}\b(?![./])"
            r"|\(?[A-Za-z]+\s*[=+*/^−]"
            # a variable written as code ("2 × cp_size"), or a product of two factors ("4 x AllReduce x n")
            r"|[A-Za-z]\w*_\w+|[A-Za-z][\w-]*[ \t]+[x×][ \t]+\w"
            # a number and an operator after it, a displayed equation's next line too ("4 ×" / "1 + s/6h")
            r"|\d+(?:\.\d+)?[ \t]*[+=*/^−](?!\d*[ \t]*[x×%]))"
        ),
        True,
        "The buffer takes 4 × b bytes for a block of b values, the index 2 × n_ranks − 1, the traffic "
        "3 x Broadcast x layers, and Foo is 2.2× faster than Bar.",
        ((2.2, "x"),),
    ),
    Cue(
        "probability",
        frozenset({"pct"}),
        "after",
        re.compile(r"\s*(?:probability|chance|likelihood|of\s+the\s+time\s+at\s+random)\b", re.I),
        True,
        "Each step draws a short sequence with 70% probability, and Foo is 9% faster than Bar.",
        ((9.0, "%"),),
    ),
    Cue(
        "portion picked by rank",
        frozenset({"pct"}),
        "clause",
        # "places the first 40% of the layers on the host", "the longest 1% of jobs": which part of a whole a
        # setting or a figure is about, not a measured change.
        re.compile(
            r"\b(?:first|last|top|bottom|rest|remaining|longest|shortest|largest|smallest|slowest|fastest|"
            r"heaviest|lightest)\s+$",
            re.I,
        ),
        False,
        "The runtime places the first 40% of the layers on the host, and Foo trains 1.4x faster than Bar.",
        ((1.4, "x"),),
    ),
    Cue(
        "portion ranked after",
        frozenset({"pct"}),
        "after",
        # "(b) 1% longest jobs": the share named before its rank and its population.
        re.compile(
            rf"\s+(?:longest|shortest|largest|smallest|slowest|fastest|heaviest|lightest)\s+(?:\w+\s+)?"
            rf"{_POPULATION}\b",
            re.I,
        ),
        False,
        "Panel (b) plots the 5% longest jobs alone; on them Foo lowers the wait by 2.2x.",
        ((2.2, "x"),),
    ),
    Cue(
        "span of a whole",
        frozenset({"pct"}),
        "parenthesis",
        # "the last 30% (i.e., 70-100%) of the weights": a range from 0 or to 100 spelling out a portion.
        re.compile(r"\s*i\.\s?e\.,?\s*(?:0\s*[-–]\s*\d+(?:\.\d+)?|\d+(?:\.\d+)?\s*[-–]\s*100)\s*%\s*", re.I),
        True,
        "Foo stores the last 30% (i.e., 70-100%) of the weights on the host and is 1.3x faster than Bar.",
        ((1.3, "x"),),
    ),
    Cue(
        "target of a time to accuracy",
        frozenset({"pct"}),
        "clause",
        # "takes 7.4x longer than Foo to reach a 48% accuracy": the accuracy is where the clock stops.
        re.compile(
            r"\b(?:longer|faster|sooner|slower|quicker|time|hours?|minutes?|epochs?|iterations?|steps?|days?)\b"
            r"[^.;,]{0,60}\bto\s+(?:reach|achieve|attain|hit|get\s+to)\s+(?:an?\s+|the\s+)?"
            r"(?:(?:target|top-1|top-5|validation|test)\s+(?:accuracy\s+)?(?:of\s+)?)?$",
            re.I,
        ),
        True,
        "The plain data-parallel run needs 3.2x more epochs than Foo to reach a 71% accuracy.",
        ((3.2, "x"),),
    ),
    Cue(
        "target of a time to accuracy, as a gerund",
        frozenset({"pct"}),
        "clause",
        # the same clock stopped by a gerund: "2.4x slower than Foo in reaching 65% accuracy"
        re.compile(
            r"\b(?:longer|faster|sooner|slower|quicker|time|hours?|minutes?|epochs?|iterations?|steps?|days?)\b"
            r"[^.;,]{0,60}\b(?:in|until|before|when|for)\s+(?:reaching|achieving|attaining|hitting|getting\s+to)\s+"
            r"(?:an?\s+|the\s+)?(?:(?:target|top-1|top-5|validation|test)\s+(?:accuracy\s+)?(?:of\s+)?)?$",
            re.I,
        ),
        True,
        "The asynchronous baseline is 2.4x slower than Foo in reaching 65% accuracy.",
        ((2.4, "x"),),
    ),
    Cue(
        "variable in an equation",
        _X,
        "after",
        # "2x + 1 ≥ 3": x is an unknown of an equation, not a multiple.
        re.compile(r"\s+[+=≥≤]\s*[\d(A-Za-z]"),
        True,
        "For the first tenant 2x + 1 ≥ 3 must hold, and Foo is 1.6x faster than Bar under it.",
        ((1.6, "x"),),
    ),
)
