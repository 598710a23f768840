"""A claim's baseline: the system its number is measured against.

First the comparison phrase of the claim's clause (``versus``: "1.4x over X", "compared with the runner-up,
X", "within 5% of X", "与X相比", a phrase running over a PDF's line breaks), shared in order by a list of
numbers and a list of baselines (``distribute``); then what the paragraph and the document say: a pronoun
stands for the system named before it (``_pronouns``), "We compare A against ours" names the
baseline of the results after it and a result restated without its baseline keeps the one it was stated with
(``_baseline_setups``, re-exported here). What a phrase's words say it is (a bound, a measure of a system, a
distance from X) is read in ``_baseline_phrases``. A module of its own because these rules decide one field
and share its names' spans and keys; the subject's rules (``_subjects``) read them.

Why one module: each way a sentence names its baseline (than/over/compared to, lists, appositives,
pronouns, restated results) is tried in one ranked order on one clause; the order is the logic.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from assay.operators.papers._baseline_lists import CITATION, ONE_NAME
from assay.operators.papers._baseline_lists import distribute as distribute
from assay.operators.papers._baseline_lists import share_backwards as share_backwards
from assay.operators.papers._baseline_phrases import (
    component_left_out,
    distance_from,
    elided_object,
    has_own_amount,
    is_bound,
    measured_system,
    over_a_path,
    stops_at_the_claim,
    zh_share_of_peak,
)
from assay.operators.papers._baseline_setups import comparison_setups as comparison_setups
from assay.operators.papers._baseline_setups import from_setup as from_setup
from assay.operators.papers._baseline_setups import restated as restated
from assay.operators.papers._claims import Claim
from assay.operators.papers._context import CLAUSE_END
from assay.operators.papers._mentions import Mention
from assay.operators.papers._nlp import HAS_CJK
from assay.operators.papers._passive import passive_comparison
from assay.operators.papers._phrase_names import DESCRIPTORS
from assay.operators.papers._phrase_shape import SPAN_OVER, closes_sentence, mask_citations, shape

# A number that is no part of the name before it: not its version ("than KiteServe 1.0", "vLLM 0.4.2", unless a
# unit makes it a figure), nor a name that opens with a digit (a schedule such as "1F1B" is compared with as any
# system is).
_NOT_A_NAMES_PART = (
    r"(?!(?<=[A-Za-z]\s)v?\d+(?:\.\d+)+\b(?!\s*(?:%|[x×]|times|-?fold|percent)))(?!\d+[A-Z]+\d+[A-Z]*\b)"
)
_STOP_EN = re.compile(
    # (not after "of": "the baseline of using X", "the cost of running X" say what the baseline is)
    r"(?<!\bof)\s+(?:on|in|for|with|when|while|across|at|under|using|by|and\s+(?:achiev|deliver|reduc|improv)\w*|"
    # a purpose clause: "40% fewer GPUs than X to reach the same accuracy"
    r"to\s+(?:reach|achieve|attain|match|obtain|get|complete|finish|converge|train|serve|process|handle|run|support|sustain|maintain)\b|"
    r"and\s+(?:also\s+)?(?:is|are|was|were|has|have|(?-i:[a-z]{3,}(?:es|ed)))\b|"
    # "... than X and speeds training up by 26%": a verb in -s with its object starts another clause.
    # (or with a figure for its object: "... than X and uses 3x fewer GPU hours")
    r"(?-i:and\s+(?:also\s+)?[a-z]{3,}s\s+(?:(?!and\b|or\b|of\b|in\b|on\b)[a-z]{2,}\b|(?:only\s+)?\d+(?:\.\d+)?[x×]?))|"
    # a modal after "and" opens a coordinated verb phrase: "than the maximum and can cut energy by 12%"
    r"and\s+(?:can|cannot|could|may|might|will|would|should|must)\b|"
    # a subordinating conjunction opens a clause: "than Quill until it converges", "than X unless ..."
    r"until|unless|although|though|whereas|whenever|"
    r"respectively|which|that|thanks|because|due\s+to|owing\s+to|without|through|but|yet|is|are|was|were|"
    # a verb saying where the measure stands: "the speedup of A over X reaches 4.2x"
    r"reach(?:es|ed)|grows|grew|drops|dropped|rises|rose|remains|stays|stands|averages|amounts\s+to|"
    # "compared to X as we grow the model": 'as' with a pronoun opens a clause of its own, no name's part.
    r"as\s+(?:we|they|it|one|you|our|their|its))\b|\s*(?:[,;:()\[\]]|\.(?!\d|(?-i:[a-z])))|"
    # a table's cell separator, and a header path's level ("Speedup over DP / Epoch time | ..."): the cell ends
    r"\s+[|/]\s|"
    # A number starts another statement, not a model's size after an article ("than the 2.5B model").
    # ("than X and up to **3x** higher ...": its bound and a Markdown emphasis before it)
    # (not a number that is part of the name before it, ``_NOT_A_NAMES_PART``)
    r"(?<!\bthe)\s+(?:(?:and|or)\s+)?(?:(?:up\s+to|as\s+much\s+as)\s+)?(?:\*\*|__)?"
    rf"{_NOT_A_NAMES_PART}[\d$~](?![\d.]*[x×][A-Z])|"
    rf"\s+{_NOT_A_NAMES_PART}[\d$~](?![\d.]*(?:[BMK]\b|[x×][A-Z]))",
    re.I,
)
# A phrase runs over a line break inside a paragraph (a PDF's or a LaTeX source's lines), not a blank line, and
# over a dot inside a name ("llama.cpp", "Node.js").
_PHRASE = r"(?:[^,.;:()\n]|(?<=\d)\.(?=\d)|(?<=[A-Za-z])\.(?=(?-i:[a-z]))|\n(?!\s*\n))"
_VERSUS_EN = re.compile(
    r"\b(?:compar(?:ed|ing)\s+(?:with|to|against)|relative\s+to|with\s+respect\s+to|w\.\s?r\.\s?t\.?|"
    r"in\s+comparison\s+(?:with|to)|over|than|versus|vs\.?|instead\s+of|"
    r"against|outperform(?:s|ed|ing)?|beat(?:s|ing)?|surpass(?:es|ed|ing)?|exceed(?:s|ed|ing)?|"
    # verbs whose object is the system compared with: "outpaces X by 1.9x", "trails X by 3%", "lags behind X"
    r"outpac(?:e|es|ed|ing)|trail(?:s|ed|ing)?|(?:lag(?:s|ged|ging)?|f[ae]ll(?:s|ing)?)\s+behind|"
    r"edg(?:e|es|ed|ing)\s+out|improv(?:e|es|ed|ing)\s+upon|"
    # "leads S-LoRA by 37%": ahead of a name (never "leads to", a cause)
    r"(?:lead(?:s|ing)?|led)(?=\s+(?:the\s+)?(?-i:[A-Z]))|"
    # right after a figure, a position against another's ("35% below X's", "2x above the baseline"); before
    # one it is a bound ("below 2%"), which the lookahead below leaves out anyway
    r"(?<=[%x×] )(?:below|above))\s+(?!\s*[\d$~](?!\d*[A-Z]+\d+[A-Z]*\b))"
    # "than with FooSched", "than under the default": the baseline, not the preposition.
    rf"(?:(?:with|using|under)\s+)?(?:the\s+|a\s+|an\s+)?(?P<v>{_PHRASE}{{2,90}})",
    re.I,
)
# "the best throughput achieved without X", "that obtained without X": the baseline is the run without X.
_REACHED_WITHOUT = re.compile(
    r"(?:(?:the|that|those)\s+)?(?:[\w-]+\s+){0,3}?(?:achieved|obtained|reached|attained|measured|seen)\s+"
    r"(?P<v>without\s+\S[^,.;:()\n]*)",
    re.I,
)
# "compared to the runner-up, BarPipe": a descriptive phrase, then the system's name after a comma.
# ... or several: "compared with recent schedulers, FooSched and BarPipe, ...".
_APPOSITIVE_NAME = re.compile(
    rf",?\s*(?:namely\s+|i\.e\.,?\s+)?(?P<n>{ONE_NAME}(?:,\s*{ONE_NAME})*(?:,?\s+(?:and|or)\s+{ONE_NAME})?)"
    r"(?=\s*(?:[,.;:)]|$|\s(?:and|by|on|in|with|for|which|while|across)\b))"
)
# A ratio "of" a named system's result: "68% of those achieved by ZeRO", "20% of GPipe's", "37% of Foo".
# ("of the total TTFT", "of the whole step": a share of a whole, no system's figure)
_SHARE_OF = re.compile(
    r"\s+of\s+(?:(?:those|that|the\s+(?!(?:total|whole|entire|overall|aggregate)\b)\w+)\s+(?:[a-z]+(?:ed|en)\s+by\s+|of\s+)?)?(?P<v>(?:[A-Z][\w+-]*|[a-z]{1,3}[A-Z][\w+-]*))(?:['’]s)?(?![\w-])"
)
# "only 1/2 of the benchmark's", "60% of the baseline's": the figure of what the possessive names.
_SHARE_OF_THE = re.compile(r"\s+of\s+the\s+(?P<v>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)['’]s(?![\w-])")
# "96% of the throughput that FooSched attains": the figure a named system reaches, in a relative clause.
_SHARE_THAT = re.compile(
    rf"\s+of\s+the\s+[\w-]+(?:\s+[\w-]+)?\s+(?:that|which)\s+(?P<v>{ONE_NAME})\s+"
    r"(?:attains|achieves|reaches|gets|delivers|sustains|does|has|obtains)\b"
)
# "1.4x the training speed of GPipe": a multiple of a named system's figure.
_TIMES_THE = re.compile(
    r"\s+the\s+(?:[\w-]+\s+){1,3}?of\s+(?P<v>(?:[A-Z][\w+-]*|[a-z]{1,3}[A-Z][\w+-]*))(?:['’]s)?(?![\w-])"
)
# "1.79x the monolithic single-user baseline", "1.79x the throughput of a single-user baseline": a multiple of
# a system the sentence describes, not names (its descriptor last).
_TIMES_THE_DESCRIBED = re.compile(
    rf"\s+the\s+(?:(?:[\w-]+\s+){{1,3}}?of\s+(?:the\s+|an?\s+)?)?(?P<v>(?:[a-z][\w-]*\s+){{0,3}}(?:{DESCRIPTORS}))\b"
)
# "than the strongest baseline (BarPipe)": a description with its name in brackets.
_BRACKETED_NAME = re.compile(rf"\s*\(\s*(?P<n>{ONE_NAME}(?:(?:\s*,\s*|,?\s+(?:and|or)\s+){ONE_NAME})*)\s*\)")
# "2.1x the throughput of the best baseline, FooSched", "85% of the strongest baseline (BarPipe)": a figure of
# a system described first and then named.
_OF_DESCRIBED = re.compile(
    r"\s+(?:the\s+[\w-]+(?:\s+[\w-]+)?\s+)?of\s+(?:the\s+)?(?:[a-z][\w-]*\s+){0,3}"
    rf"(?:{DESCRIPTORS})(?:\s*,\s*|\s*\(\s*)(?P<v>{ONE_NAME})"
)
_AGENT = re.compile(r"^by\s", re.I)
# Words that stand for a system named elsewhere ("within 3% of it"): resolved by the caller.
PRONOUN = re.compile(r"^(?:it|its|them|this|that|theirs|these|those)$", re.I)
_VERSUS_ZH = re.compile(
    r"(?:与|(?:^|(?<=[，。；,;\n]))\s*(?:和|同|跟))(?P<v1>[^，。；,;]{1,60}?)(?:相比|相较|比较|对比)"
    # "相比 TransformerEngine 取得 ...": a Latin name right after the word is the whole baseline.
    r"|(?:相比于?|相较于?|相对于?|对比于?|较之)\s*(?P<v6>[A-Za-z][A-Za-z0-9_.+-]*(?:[ ][A-Za-z][A-Za-z0-9_.+-]*)*)"
    r"(?=\s*(?:[，。；,;的]|\[|$)|\s(?!和|与|及|、|基线|基准|框架|系统|方法|实现|版本|库|方案|算法|策略)[^\sA-Za-z])"
    # "（1.36 rps 对比 0.67 rps）": a value set against a value names no baseline.
    r"|(?:相比于?|相较于?|相对于|对比于?|较之)(?!\s*\d)(?P<v2>[^，。；,;]{1,80}?)"
    # ... up to the clause's end, 的, or 分别 / a change verb after the baselines ("相比A和B分别提升了")
    r"(?=[，。；,;]|$|的|\s*分别|\s*(?:提升|提高|降低|减少|增加|缩短|加速|节省)了?\s*\d)"
    # a digit glued to a Latin word is part of a name ("比FP16 cuDNN基准快"), not the number
    r"|比(?P<v3>(?:[^，。；,;\d]|(?<=[A-Za-z])\d+|(?<=[A-Za-z]-)\d+){1,30}?)"
    r"(?:快|高|低|少|多|好|强|提升|提高|减少|降低|增加|缩短|节省|加速|加快|提速)"
    r"|优于(?P<v4>(?:[^，。；,;\d]|(?<=[A-Za-z])\d+|(?<=[A-Za-z]-)\d+){1,40}?)(?=(?<![A-Za-z\d])(?<![A-Za-z]-)\d|[，。；,;]|$)"
    r"|在(?P<v5>[^，。；,;在]{1,30}?(?:基线|框架|系统|方法|实现|库|baselines?|systems?))上"
    # "较X提升了1.3倍": 较 with the baseline before a change (not the adverb of "较高", "较大", "较之").
    r"|较(?![之为高低大小多少长短快慢好差早晚强弱])(?P<v7>(?:[^，。；,;\d]|(?<=[A-Za-z])\d+|(?<=[A-Za-z]-)\d+){1,30}?)"
    r"(?:提升|提高|降低|减少|增加|缩短|节省|加速|加快|快|高|低|少|多|好|强)"
    # "是X的1.6倍", "达到了X的93%": the number is a multiple or a share of X's figure.
    r"|(?:是|为|达到了?|可达|高达|相当于|仅为|只有)(?P<v8>(?:[^，。；,;\d的是为]|(?<=[A-Za-z])\d+|(?<=[A-Za-z]-)\d+){1,30}?)"
    r"(?:的[^，。；,;\d的是为]{1,10})?"
    # (not "只有X的36%增益": a gain of X's is X's own change, no share of X's figure)
    r"的\s*(?=\d[\d.]*(?:\s*[~～\-–]\s*\d[\d.]*)?\s*(?:倍|%|％)(?!\s*(?:的\s*)?(?:增益|增量|提升|收益|加速|改进|降低|减少|下降)))"
    # "超过了X（...9.8倍）": surpassing a named system (a Latin name; "超过90%" is a bound).
    r"|(?:超过|超越|胜过|领先于?)了?(?P<v9>[^，。；,;\d（(]{0,20}?[A-Za-z][^，。；,;\d（(]{0,30}?)"
    r"(?=\s*[（(，。；,;]|\s*\d|$)"
)
_REACH = 40
_ZH_CLAUSE_END = re.compile(r"[；;。]")
_ZH_RESPECTIVELY = re.compile(r"\s*分别$")
_ZH_COMMA = re.compile(r"[，,；;。]")
# A Latin name run straight into Chinese words that are not part of a name ("ZeRO将总通信量"), unlike a
# coordination or a head noun ("A 和 B", "X 基线", "X 的实现").
_ZH_LATIN_LEAD = re.compile(
    r"^(?P<n>[A-Za-z][A-Za-z0-9_.+-]*(?:[ ][A-Za-z][A-Za-z0-9_.+-]*)*)\s*(?=[\u4e00-\u9fff])"
    r"(?!和|与|及|、|的|基线|基准|框架|系统|方法|实现(?!了)|版本|库|模型|方案|算法|策略)"
)
_BARE_COMPARATIVE = re.compile(
    r"^(?:more|less|fewer|faster|higher|lower|better|an?|the|one|two|twice|thrice|double|triple|half)$", re.I
)
# "more than twice as fast as X": the phrase after "than" is the multiple itself, not the baseline.
_MULTIPLE_FIRST = re.compile(r"(?:twice|thrice|double|triple|half)\b", re.I)
_AS_AS = re.compile(rf"\s+as\s+[a-z]+\s+as\s+(?:the\s+)?(?P<v>{_PHRASE}{{2,90}})")
# "lower than that achieved by X": the pronoun stands for the measure, X is whose it is.
# ... or "than the model (that) can be trained with X": what X can train, run or serve.
_REACHED_BY = re.compile(
    r"(?:(?:that|those)\s+(?:achieved|obtained|reached|attained|measured|delivered)"
    r"|(?:the\s+)?(?:largest\s+)?(?:model|models|batch|batches|size|sequence|sequences)\s+(?:(?:that|which)\s+)?"
    r"(?:(?:can|could)\s+be\s+)?(?:trained|run|served|supported|fitted|fit|handled))"
    r"\s+(?:by|with|using)\s+(?:the\s+|an?\s+)?(?P<v>\S.*)",
    re.I | re.S,
)
# "twice that of X", "3x those of X": what follows a multiple names the system whose figure it multiplies.
_THAT_OF = re.compile(
    rf"\s+(?:that|those)\s+(?:of|achieved\s+by|reached\s+by)\s+(?:the\s+)?(?P<v>{_PHRASE}{{2,90}})"
)


# A lone adjective or participle is an ideal or a target ("the expected 2x", "than ideal", "of linear"), and a
# lone lower-case word before a number an item of a series ("layer 2"): no system either way.
_LONE_MODIFIER = re.compile(r"^(?:[a-z]+(?:ed|al|ar|ic)|perfect|maximum|minimum)$")
_LONE_WORD = re.compile(r"^[a-z]+$")
# "more for A than B but less than 10% overall": a comparison in the clause a "but" closes.
_BUT = re.compile(r"\b(?:but|yet)\b")


# "as accurate as X but ~10x lower cost", "similar patterns as X but has 10x lower overhead".
_ALIKE_BUT = re.compile(
    r"\b(?:as|similar|same|comparable)\s+(?:[\w’'-]+\s+){0,5}?(?:as|to)\s+(?:the\s+)?"
    rf"(?P<v>{_PHRASE}{{2,40}}?)\s+(?:but|with|while|yet)\s+(?:[a-z]+\s+)?"
    r"(?:(?:about|roughly|nearly|only|up\s+to)\s+)?[~∼≈]?\s*$"
)
# "X offers the same accuracy as Y, incurs 5x less traffic and ...": a predicate that likens the subject to Y,
# then coordinated predicates of the same subject (a verb right after the comma or "and") whose comparatives
# name no baseline of their own: they say how it differs from Y.
_ALIKE_CHAIN = re.compile(
    r"\b(?:the\s+same|similar|comparable|as\s+[a-z]+)\s+(?:[\w’'-]+\s+){0,3}?(?:as|to)\s+(?:the\s+)?"
    rf"(?P<v>{_PHRASE}{{2,40}}?)(?=\s*(?:,\s*(?:and\s+)?|\s+and\s+)(?-i:[a-z]{{3,}}(?:s|ed))\s)",
    re.I,
)
_COMPARATIVE = re.compile(
    r"\s*(?:less|more|fewer|lower|higher|faster|slower|smaller|larger|cheaper|better|worse)\b", re.I
)


def versus(
    text: str,
    claim: Claim,
    sentence: tuple[int, int],
    blockers: Sequence[int] = (),
    earlier: Sequence[int] = (),
) -> tuple[str, int, int] | None:
    """The baseline a claim is measured against, with its span: the comparison phrase of the claim's clause.

    English states the baseline after the number ("1.4x over X"), Chinese before it ("与X相比...1.8倍"): a
    phrase on that side within a clause's reach wins over a nearer one on the other side. An English phrase
    before the number counts only in the claim's own clause or when it opens the sentence ("Compared with
    X, ..."); one after the number only up to the next claim that is not listed with it (``blockers``: the
    starts of such claims), and not one that follows an earlier claim of the sentence (``earlier``: their
    ends), whose baseline it states ("15% over A, a 3x speedup on B", a list). Failing those, a comparison that introduces a list ("faster than X: 15% on A,
    3x on B") holds for every claim of the list."""
    s_start, s_end = sentence
    candidates: list[tuple[int, int, str, int, int]] = []
    introducing: tuple[str, int, int] | None = None
    for m in _comparisons(text, s_start, s_end):
        if m.group().lower().startswith("over") and (
            over_a_path(text, max(s_start, m.start() - 30), m.start()) or SPAN_OVER.match(text, m.start())
        ):
            continue
        start = m.start("v")
        phrase = text[start : m.end("v")]
        reached = _REACHED_WITHOUT.match(phrase)
        by_whom = None if reached else _REACHED_BY.match(phrase)
        if reached:
            # "2x higher than the best throughput achieved without recomputation": the run without it.
            start, phrase = start + reached.start("v"), reached.group("v")
            stop = _STOP_EN.search(phrase, len("without"))
        elif by_whom:  # "18% lower than that achieved by X": X's
            start, phrase = start + by_whom.start("v"), by_whom.group("v")
            stop = _STOP_EN.search(phrase)
        else:
            stop = _STOP_EN.search(mask_citations(phrase))  # "than A [12] and B [7]" runs on
        phrase = _cell_cut(text, m.start(), (phrase[: stop.start()] if stop else phrase).strip())
        if is_bound(phrase):
            continue  # "achieving over a 2.2x speedup": "over" bounds the number after it
        left_out = component_left_out(text, start + len(phrase)) if phrase[:1].isupper() and not reached else None
        if left_out:  # "compared to FooChat without Hybrid Engine": the named system with a component left out
            phrase = text[start:left_out]
        measured = measured_system(text, phrase, start + len(phrase), _STOP_EN) if stop else None
        if measured:  # "compared to the latency with X": the same measure of X
            phrase, start = measured[0], measured[1]
        if len(phrase) < 2 or _BARE_COMPARATIVE.match(phrase) or _MULTIPLE_FIRST.match(phrase):
            continue
        if _LONE_MODIFIER.match(phrase) or (
            stop
            and stop.group().strip()[:1].isdigit()
            and _LONE_WORD.match(phrase)
            and not stops_at_the_claim(text, start + stop.start(), claim.start)
        ):
            # "exceeding the expected 2x", "than the ideal": a target, no system; "larger than layer 2":
            # one of a numbered series, whose number the stop cut off (not the claim's own number:
            # "outperforms the baselines 2.26x").
            continue
        phrase = _POSSESSIVE_END.sub("", phrase)  # "35% below FooSched's": FooSched's figure, FooSched's result
        end = start + len(phrase)
        # what the phrase's grammar names: "both A and B", "that of A", "the best of A, B and C", "A does"
        phrase, start, end = shape(text, start, end, s_end)
        if "[" in phrase:
            phrase = " ".join(CITATION.sub("", phrase).split())
        if _DESCRIPTIVE.search(phrase):
            # "compared to the second-best method, vPipe", "than the strongest baseline (vPipe)": the name
            named = _APPOSITIVE_NAME.match(text, end, s_end) or _BRACKETED_NAME.match(text, end, s_end)
            if named:
                phrase, start, end = CITATION.sub("", named.group("n")), named.start("n"), named.end("n")
        if _AGENT.match(phrase):
            continue  # "X is outperformed by Y": the passive's agent is the one measured (``_passive``)
        if end <= claim.start:
            if _INTRODUCES.match(text, end, claim.start):
                introducing = (phrase, start, end)
            if (
                CLAUSE_END.search(text, end, claim.start) or _BUT.search(text, end, claim.start)
            ) and not _OPENS_SENTENCE.fullmatch(text, s_start, m.start()):
                continue
            if "," in text[end : claim.start] and any(
                e <= m.start() and not CLAUSE_END.search(text, e, m.start()) for e in earlier
            ):
                continue
        elif start >= claim.end and (
            any(claim.end <= b < start for b in blockers)
            or _LATER_CLAUSE.search(text, claim.end, m.start())
            or has_own_amount(text, end)
        ):
            continue
        if _RATHER.search(text, max(s_start, m.start() - 8), m.start() + 5):
            continue  # "page faults rather than compute time": a contrast, not what the number is against
        distance = _distance(claim, start, end)
        preferred = start >= claim.end and distance <= _REACH
        candidates.append((0 if preferred else 1, distance, phrase, start, end))
    # every Chinese comparison holds a Han character: an English sentence has none to look for
    for m in _VERSUS_ZH.finditer(text, s_start, s_end) if HAS_CJK.search(text, s_start, s_end) else ():
        group = next(
            g for g in ("v1", "v6", "v2", "v3", "v4", "v5", "v7", "v8", "v9") if m.group(g) is not None
        )
        phrase = _ZH_RESPECTIVELY.sub("", m.group(group).strip())  # "比A和B分别高出": the baselines, not 分别
        lead = _ZH_LATIN_LEAD.match(phrase)
        if lead:  # "比ZeRO将总通信量减少": the name, not the words the segmentation ran on into
            phrase = lead.group("n")
        if phrase:
            start = m.start(group) + m.group(group).index(phrase)
            end = start + len(phrase)
            distance = _distance(claim, start, end)
            if (
                start >= claim.end
                and (group != "v4" or _ZH_COMMA.search(text, claim.end, start))
                and not (group in ("v1", "v2") and closes_sentence(text, claim.end, m, s_end))
            ):
                # "相比 X" after the number introduces the next statement; only "优于X" closes this one, and
                # "与X相比" when it ends the sentence ("...提升了2倍，与X相比。": nothing follows for it to introduce).
                continue
            # Chinese states the baseline first; it holds up to the next clause (；) or the next baseline.
            preferred = end <= claim.start and not _ZH_CLAUSE_END.search(text, end, claim.start)
            candidates.append((0 if preferred else 1, distance, phrase, start, end))
    if elided := elided_object(text, s_start, claim.start):  # "outperforms A by 1.3x, B by 1.9x": B for 1.9x
        candidates.append((0, 0, *elided))
    if claim.unit == "%" and (share_zh := zh_share_of_peak(text, s_start, claim.start)):
        candidates.append((0, 0, *share_zh))  # "低于峰值的 5%": a share of the peak, measured against it
    passive = passive_comparison(text, s_start, claim.start)
    if passive:
        # "FooSched is outperformed by Quill by 30%": the passive's subject is what the number is against.
        candidates.append((0, 0, *passive[0]))
    alike = _ALIKE_BUT.search(text, max(s_start, claim.start - 160), claim.start)
    if alike and _COMPARATIVE.match(text, claim.end, s_end):
        # "as accurate as X but ~10x lower cost": alike in one respect, the number says how it differs from X.
        phrase = alike.group("v")
        stop = _STOP_EN.search(phrase)
        phrase = (phrase[: stop.start()] if stop else phrase).strip()
        if len(phrase) >= 2 and not _LONE_WORD.match(phrase):  # "the same as before but ...": no system
            candidates.append((0, 0, phrase, alike.start("v"), alike.start("v") + len(phrase)))
    if not candidates and _COMPARATIVE.match(text, claim.end, s_end):
        chain = _alike_chain(text, s_start, claim.start)
        if chain:
            candidates.append((2, 0, *chain))
    share = (
        _SHARE_OF.match(text, claim.end, s_end)
        or _SHARE_OF_THE.match(text, claim.end, s_end)
        or (_TIMES_THE.match(text, claim.end, s_end) if claim.unit == "x" else None)
        or _OF_DESCRIBED.match(text, claim.end, s_end)
        or _SHARE_THAT.match(text, claim.end, s_end)
        or (_TIMES_THE_DESCRIBED.match(text, claim.end, s_end) if claim.unit == "x" else None)
    )
    if share and share.re is _SHARE_OF and _modifies_a_whole(text, share.end("v"), s_end):
        share = None  # "9% of EU electricity demand", "61% of A100 peak throughput": the name modifies the whole
    if share and claim.unit in ("%", "x") and not _PERCENT_WORDS.match(share.group("v")):
        # "68% of those achieved by ZeRO": the system whose result is the whole.
        candidates.append((0, 0, share.group("v"), share.start("v"), share.end("v")))
    peak = _OF_PEAK.match(text, claim.end, s_end) if claim.unit == "%" else None
    pair = _VS_PERCENT.match(text, claim.end, s_end) if claim.unit == "%" and not peak else None
    if pair:
        # "(48% vs. 31% of peak)": two shares of one peak, each measured against it
        peak = _OF_PEAK.match(text, pair.end(), s_end)
    if peak:
        # "11.7% of the peak flop/s", "(37% of peak)": a share of the hardware's peak, measured against it.
        phrase = peak.group("v")
        stop = _STOP_EN.search(phrase)
        phrase = (phrase[: stop.start()] if stop else phrase).strip()
        candidates.append((0, 0, phrase, peak.start("v"), peak.start("v") + len(phrase)))
    that_of = (
        (_THAT_OF.match(text, claim.end, s_end) or _AS_AS.match(text, claim.end, s_end))
        if claim.unit == "x"
        else None
    )
    if that_of:
        # "more than twice that of X", "3x those of X": the system whose figure is multiplied.
        phrase = that_of.group("v")
        stop = _STOP_EN.search(phrase)
        phrase = (phrase[: stop.start()] if stop else phrase).strip()
        if len(phrase) >= 2:
            candidates.append((0, 0, phrase, that_of.start("v"), that_of.start("v") + len(phrase)))
    close = _CLOSE_AFTER.match(text, claim.end, s_end) or _GAP_AFTER.match(text, claim.end, s_end)
    if close and (_CLOSE_BEFORE if close.re is _CLOSE_AFTER else _GAP_BEFORE).search(
        text, max(s_start, claim.start - 24), claim.start
    ):
        # "not far (30%) from X", "close (within 3%) to X", "the gap (9%) between ours and X": the number
        # in brackets measures the distance to X.
        phrase = close.group("v")
        stop = _STOP_EN.search(phrase)
        phrase = (phrase[: stop.start()] if stop else phrase).strip()
        if len(phrase) >= 2:
            candidates.append((0, 0, phrase, close.start("v"), close.start("v") + len(phrase)))
    gap = distance_from(text, claim.end, s_end, _STOP_EN)
    if gap:  # "a 2x gap from ideal scaling", "10x away from peak device throughput": the distance to X
        candidates.append((0, 0, *gap))
    between = _GAP_BETWEEN.search(text, max(s_start, claim.start - 120), claim.start)
    if between and not CLAUSE_END.search(text, between.end(), claim.start):
        # "the gap between Quokka and S-LoRA widens to 2.4x": the second of the pair is the one measured against
        candidates.append((0, 0, between.group("v"), between.start("v"), between.end("v")))
    within = _WITHIN_OF.match(text, claim.end, s_end)
    if within and _WITHIN_BEFORE.search(text, max(s_start, claim.start - 12), claim.start):
        # "within 5% of Megatron-LM": the system it comes close to is the baseline.
        phrase = within.group("v")
        stop = _STOP_EN.search(phrase)
        phrase = (phrase[: stop.start()] if stop else phrase).strip()
        if len(phrase) >= 2:
            candidates.append((0, 0, phrase, within.start("v"), within.start("v") + len(phrase)))
    if not candidates:
        return introducing
    _, _, phrase, start, end = min(candidates)
    return " ".join(phrase.split()), start, end


def _alike_chain(text: str, lo: int, hi: int) -> tuple[str, int, int] | None:
    """The system a predicate before ``hi`` likens the subject to ("offers the same accuracy as Y, incurs ..."),
    when nothing closes the clause between it and ``hi`` (``_ALIKE_CHAIN``)."""
    for m in reversed(list(_ALIKE_CHAIN.finditer(text, lo, hi))):
        if CLAUSE_END.search(text, m.end(), hi) or _BUT.search(text, m.end(), hi):
            return None
        phrase = " ".join(CITATION.sub("", m.group("v")).split())
        if len(phrase) >= 2 and not _LONE_WORD.match(phrase):  # "the same as before, ...": no system
            return phrase, m.start("v"), m.start("v") + len(m.group("v").rstrip())
    return None


#: Two lines in a row shorter than this are a table's cells, a header or a legend, not prose broken by the
#: layout: a comparison phrase on the first ends at its line break ("Speedup over DP" / "Threshold" / "per").
_CELL_LINE = 25


def _cell_cut(text: str, at: int, phrase: str) -> str:
    """The phrase up to its first line break when the line the comparison stands on and the next one are
    short (a table's header flattened one cell a line); prose broken over lines runs on ("than the" /
    "FooSched ...", also after a paragraph's short first line in a source file)."""
    brk = phrase.find("\n")
    if brk < 0:
        return phrase
    line_start = text.rfind("\n", 0, at) + 1
    line_end = text.find("\n", at)
    next_end = text.find("\n", line_end + 1)
    next_end = len(text) if next_end < 0 else next_end
    if line_end - line_start < _CELL_LINE and next_end - line_end - 1 < _CELL_LINE:
        return phrase[:brk].strip()
    return phrase


# After the number, a clause of its own begins: a comparison there is not the number's ("(<1% gain),
# because the bottleneck is X rather than Y").
_LATER_CLAUSE = re.compile(r"[;；]|,\s*(?:because|since|whereas|while|which|where|although|but)\b", re.I)
_RATHER = re.compile(r"\b(?:rather|other)\s+than\b", re.I)
# A phrase ending in a common noun describes its systems ("the runner-up", "recent DL schedulers").
_DESCRIPTIVE = re.compile(r"(?:^|\s)[a-z][a-z-]*$")
# Capitalised words after "N% of" that are not systems ("30% of Peak", "50% of The ...").
_PERCENT_WORDS = re.compile(r"^(?:the|peak|all|each|its|their|our|this|these|those|GPU|GPUs|CPU|CPUs)$", re.I)


# "of the (theoretical) peak half-precision flop/s", "of A100 peak throughput": the peak and what it is the
# peak of (a device's name before it is part of the phrase); or linear scaling ("of linear scaling").
_OF_PEAK = re.compile(
    r"(?:\s+(?:throughput|performance|speed))?"
    r"\s+(?i:of)\s+(?:(?i:the|its|an?)\s+)?(?P<v>(?:[A-Z][\w-]*\s+)?(?i:(?:(?:theoretical|hardware)\s+)?peak)\b[^,.;:()\n]{0,60}"
    # the scaling a share is measured against: "79.6% of linear scaling"
    r"|(?i:(?:linear|perfect)\s+(?:scaling|speed-?ups?))\b"
    # an ideal or an optimum, as the text names it: "91% of the ideal", "72% of the performance-optimal
    # setting", "73% of optimal makespan", "64% of its theoretical potential" (gold conventions D1)
    r"|(?i:(?:[a-z]+-)?(?:ideal|optim(?:al|um))|(?:(?:theoretical|maximum)\s+)?potential)\b"
    r"(?:[ \t]+(?!(?:on|in|for|at|with|when|while|and|but|across)\b)[a-z][\w-]*){0,2})"
)
# After a share's name: lower-case words whose last is no measure of a system ("EU electricity demand", "A100
# peak throughput"), so the name modifies a whole that is no system's result. "80% of FooSys throughput" keeps
# FooSys.
_WHOLE_WORDS = re.compile(r"\s+([a-z][\w-]*)")
_NOT_THE_WHOLE = frozenset(
    "on in at for with by of from to and or but while when as than under over across during after before the a "
    "an is are was were be which that per using via".split()
)
_SYSTEM_MEASURES = frozenset(
    "throughput performance speed latency time runtime cost memory accuracy efficiency bandwidth utilization "
    "utilisation flops tflops result results score slope loss rate".split()
)


def _modifies_a_whole(text: str, at: int, end: int) -> bool:
    """Whether the name a share is "of" only modifies its whole: "peak" follows ("61% of A100 peak throughput",
    read as the peak), or two or more lower-case words follow and none is a measure of a system ("9% of EU
    electricity demand"). "96% of BF16 slope", "80% of FooSys training throughput" keep their name."""
    words: list[str] = []
    while len(words) < 4:
        m = _WHOLE_WORDS.match(text, at, end)
        if not m or m.group(1) in _NOT_THE_WHOLE:
            break  # the noun phrase after the name ends at a function word ("of ZeRO under the same setting")
        words.append(m.group(1))
        at = m.end()
    if words[:1] == ["peak"]:
        return True
    return len(words) >= 2 and not _SYSTEM_MEASURES.intersection(words)


# The second share of a pair set side by side, the peak written once after it: "48% vs. 31%".
_VS_PERCENT = re.compile(r"\s*(?:vs\.?|versus)\s+\d+(?:\.\d+)?\s*%")
_WITHIN_OF = re.compile(rf"\s+of\s+(?:the\s+)?(?P<v>{_PHRASE}{{2,90}})")
_WITHIN_BEFORE = re.compile(r"\bwithin\s*$", re.I)
# A distance given in brackets between a closeness word and what it is measured from.
_CLOSE_BEFORE = re.compile(
    r"\b(?:close|closer|near|far|away)\s*[(\[]\s*(?:within\s+|about\s+|around\s+|only\s+|~\s*)?$", re.I
)
_CLOSE_AFTER = re.compile(rf"\s*[)\]]\s*(?:to|from)\s+(?:the\s+|an?\s+)?(?P<v>{_PHRASE}{{2,90}})")
_GAP_BETWEEN = re.compile(
    r"\b(?:gap|difference|margin|lead)\s+between\s+(?:the\s+)?[A-Za-z][\w.+-]*\s+and\s+(?:the\s+)?"
    r"(?P<v>(?-i:[A-Z][\w.+-]*|[a-z]{1,3}[A-Z][\w.+-]*))(?![\w.+-])",
    re.I,
)
_GAP_BEFORE = re.compile(r"\b(?:gap|difference|distance)\s*[(\[]\s*(?:of\s+)?(?:only\s+|about\s+)?$", re.I)
_GAP_AFTER = re.compile(
    rf"\s*[)\]]\s*between\s+(?:the\s+)?[^,.;()\n]{{1,40}}?\s+and\s+(?:the\s+)?(?P<v>{_PHRASE}{{2,90}})"
)


def _overlapping(pattern: re.Pattern[str], text: str, lo: int, hi: int) -> Iterator[re.Match[str]]:
    """Matches that may overlap: a phrase runs on over the next comparison ("than A and 27% higher than
    B"), which must still be found."""
    m = pattern.search(text, lo, hi)
    while m:
        yield m
        m = pattern.search(text, m.start("v"), hi)


def _comparisons(text: str, lo: int, hi: int) -> tuple[re.Match[str], ...]:
    """The English comparison phrases of a sentence, read once for all of its claims (they come in order, so
    the last sentence's are kept, with its text: at most one document's)."""
    if _LAST_SENTENCE[0] is text and _LAST_SENTENCE[1] == (lo, hi):
        return _LAST_SENTENCE[2]
    found = tuple(_overlapping(_VERSUS_EN, text, lo, hi))
    _LAST_SENTENCE[:] = [text, (lo, hi), found]
    return found


_LAST_SENTENCE: list[Any] = [None, None, ()]
_POSSESSIVE_END = re.compile(r"(?<=\w)['’]s$")


# "Compared with X, ..." / "Relative to X, ..." opening the sentence: its baseline holds for the sentence.
_OPENS_SENTENCE = re.compile(r"\s*(?:[\w-]+\s+){0,2}")
# A comparison that introduces a list of results: "faster than existing baselines: a 15% ... , a 3x ...".
_INTRODUCES = re.compile(r"\s*[:：—]")


def _distance(claim: Claim, start: int, end: int) -> int:
    if end <= claim.start:
        return claim.start - end
    if start >= claim.end:
        return start - claim.end
    return 0


def name_key(name: str) -> str:
    return re.sub(r"[\s_-]+", "", name).lower()


def inside(m: Mention, span: tuple[int, int] | None) -> bool:
    return span is not None and span[0] <= m.start and m.end <= span[1]
