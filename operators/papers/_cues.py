"""The declared table of cues that a number with a ratio unit states no result (a setting, a workload's
statistic, a definition, a label): one row a cue, each with an own-worded example and the claims the example
still holds. ``_clause`` reads the table; the tests run every example through the whole extraction path.

Why a module of its own: the table is data that grows a row at a time, with its examples; the code that
applies it (``_clause``) changes for other reasons.

Why one module: the rows are one table read in order (the first cue that holds names the reason), each row a
pattern and its example; the settings' rows live in ``_setting_cues`` and take their place in the order here.
"""

from __future__ import annotations

import re

from assay.operators.papers._cue import MULTIPLES, POPULATION, RATIOS, WHERE, Cue
from assay.operators.papers._setting_cues import SETTING_CUES

__all__ = ["CUES", "WHERE", "Cue"]

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
        MULTIPLES,
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
        MULTIPLES,
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
        MULTIPLES,
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
        MULTIPLES,
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
        MULTIPLES,
        "after",
        # "2×H", "4×N": a multiplication sign glued to a one-letter variable is a shape (a tensor's, a grid's),
        # often in a code span, not a ratio; so is a capital one apart from it ("a dimension of 1 × D")
        re.compile(r"[A-Za-z](?![A-Za-z])|[ \t][A-Z](?![\w])"),
        True,
        "With two requests the buffer becomes 2×H, a row of 1 × D, and Foo runs 1.6× faster than Bar.",
        ((1.6, "x"),),
    ),
    *SETTING_CUES,
    Cue(
        "value given to a symbol",
        RATIOS,
        "clause",
        # "when more than c = 5% of the rows change", "p = 10%": a parameter of a method, named by a letter.
        re.compile(r"(?<![\w.])[A-Za-zα-ωΑ-Ω](?:_\w+)?\s*=\s*$"),
        True,
        "Foo re-plans once more than c = 5% of the blocks move, and it is 1.4x faster than Bar.",
        ((1.4, "x"),),
    ),
    Cue(
        "condition opening the sentence",
        RATIOS,
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
        RATIOS,
        "sentence",
        # "For simplicity, we assume the backward pass takes twice as long as the forward pass", "In this
        # example, ...": a premise of a model or a drawing, not a measurement.
        re.compile(
            r"(?=[wasif])\b(?:we\s+assume|assum(?:e|es|ing)\s+that|(?:is|are|was|were)\s+assumed\s+to|suppose|"
            r"without\s+loss\s+of\s+generality|in\s+this\s+(?:example|illustration|toy)|"
            r"for\s+(?:simplicity|illustration))\b[^.;]*$",
            re.I,
        ),
        False,
        "For simplicity, we assume that a backward pass takes twice as long as a forward pass. Here backward "
        "passes are assumed to take 2x as long as forward ones. Foo is 1.3x faster than Bar.",
        ((1.3, "x"),),
    ),
    Cue(
        "list of targets",
        RATIOS,
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
        RATIOS,
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
        RATIOS,
        "clause",
        re.compile(
            rf"(?<![\w.])\d+(?:\.\d+)?\s*%\s+of\s+(?:the\s+|all\s+)?(?:\w+\s+)?{POPULATION}\b"
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
            rf"\s+(?:of\s+(?:the\s+|all\s+)?(?:\w+\s+)?)?{POPULATION}\s+"
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
        RATIOS,
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
        RATIOS,
        "clause",
        # "job 0 should spend 60% of its time on ...": what a policy asks for, not what was measured.
        re.compile(r"\b(?:should|must|ought\s+to|is\s+to|are\s+to)\s+(?:\w+\s+){0,2}$", re.I),
        False,
        "Under this plan, the first job should spend 65% of its time on the fast devices.",
        (),
    ),
    Cue(
        "condition",
        RATIOS,
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
        RATIOS,
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
        RATIOS,
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
        RATIOS,
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
        MULTIPLES,
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
            rf"{POPULATION}\b",
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
        MULTIPLES,
        "after",
        # "2x + 1 ≥ 3": x is an unknown of an equation, not a multiple.
        re.compile(r"\s+[+=≥≤]\s*[\d(A-Za-z]"),
        True,
        "For the first tenant 2x + 1 ≥ 3 must hold, and Foo is 1.6x faster than Bar under it.",
        ((1.6, "x"),),
    ),
)
