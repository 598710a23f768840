"""The part a share of a whole belongs to (D1): the noun phrase of the clause that takes it ("collective waits
remain as high as 40% of step time"), what the whole was spent on ("29% of the step time is spent on
scheduling"), the population a share opening its clause is of ("75% of servers host only one VM"), and the
item or subject a share in parentheses follows ("weight loading (61%)")."""

from __future__ import annotations

import re

from assay.operators.papers._clause_subjects import _CLAUSE_OPEN, _DETERMINER, _LIST_MARK, _NO_COMPONENT

# What a share's clause says before its number: the part's noun phrase and its verb of being ("X remains as
# high as", "X is up to", "X accounts for").
_PART_VERB = re.compile(
    r"\s+(?:is|are|was|were|remains?|stays?|accounts?\s+for|makes?\s+up|takes?(?:\s+up)?|took|consumes?|occupies|occupy|"
    r"contributes?(?:\s+to)?|"
    # the part that loses the share: "existing stores waste 30% of disk space"
    r"wastes?|wasted|spends?|spent)\b"
)


# After a share of a whole: what the whole was spent on ("of the total time is spent on scheduling, ...", "of
# the time was spent in the actual GPU execution").
_SPENT_ON = re.compile(
    r"\s*of\s+(?:the\s+|its\s+|their\s+)?(?:[\w-]+\s+){0,3}?(?:time|memory|cycles|budget|energy|cost)\s+"
    r"(?:is|was|are|were)\s+(?:\w+ly\s+)?(?:spent|used|devoted)\s+(?:on|in|for)\s+(?:the\s+)?(?:actual\s+)?"
    r"(?P<p>[a-zA-Z][\w-]*(?:[ \t]+(?!(?:for|in|on|with|while|and|or|which|to|of|by)\b)[a-zA-Z][\w-]*){0,3})"
    r"(?=\s*[,.;:)]|\s+(?:for|in|on|with|while|and|or|which|to|of|by)\b|\s*$)"
)


# Before a share that moves: "the share of the time spent in the layer normalization grows from 2.9% to 12%".
_SHARE_SPENT_MOVES = re.compile(
    r"\b(?:(?:share|fraction|portion|percentage)\s+of\s+(?:the\s+)?(?:[\w-]+\s+)?(?:time|runtime|memory|cycles)\s+"
    r"(?:spent|used)|(?:time|runtime)\s+(?:taken|consumed))\s+(?:in|on|by)\s+(?:the\s+)?"
    r"(?P<p>[a-zA-Z][\w-]*(?:[ \t]+(?!(?:grows|rises|drops|falls|is|was|goes|increases|decreases|for)\b)[a-zA-Z][\w-]*){0,3})"
    r"\s+(?:grows|rises|drops|falls|goes\s+up|goes\s+down|increases|decreases|is|was)\b(?:[^.;]|\.(?=\d)){0,40}$"
)


def share_part(text: str, lo: int, claim_start: int, claim_end: int) -> str | None:
    """The part a share is of a whole ("..., collective waits remain as high as 40% of step time" ->
    "collective waits"): the noun phrase of one to four words opening the number's clause (or the clause it goes
    on from), when "of" follows the number; a pronoun or a number is no part; a population a share opening its
    clause is of ("75% of servers host ..."). A share in parentheses is the part's the words before it name:
    a list's item ("2) weight loading (61%), which ..."), a clause's subject before its verb ("the warm-up stage
    is costly (18%)", "the load stage takes a large part (70%) of the start")."""
    moving = _SHARE_SPENT_MOVES.search(text, lo, claim_start)
    if moving and not _NO_COMPONENT.search(moving.group("p")):
        return moving.group("p")  # "the share of the time spent in the layer norm grows from 2.9%"
    bracketed = _bracketed(text, claim_start, claim_end)
    if bracketed is None and not re.match(r"\s*(?:\*\*)?\s*of\s+\w", text[claim_end : claim_end + 12]):
        return None
    spent = _SPENT_ON.match(text, claim_end) if bracketed is None else None
    if spent and not _NO_COMPONENT.search(spent.group("p")):
        return spent.group("p")  # "29% of the step time is spent on scheduling": the part is named after it
    span = text[lo : claim_start if bracketed is None else bracketed]
    opens = list(_CLAUSE_OPEN.finditer(span))
    clause = span[opens[-1].end() :] if opens else span
    population = _POPULATION.match(text, claim_end) if bracketed is None else None
    if population and _OPENS_WITH_SHARE.fullmatch(clause) and not _NO_COMPONENT.search(population.group("p")):
        return population.group("p")  # "75% of servers host only one VM": a share of a population is the population's
    # the clause before, where this one has no subject of its own: a relative clause ("cache update is the main
    # reason that causes transmissions (71%)"), a verb coordinated with the clause before ("X is high ..., and
    # consumes up to 63% of the time")
    before = span[opens[-2].end() if len(opens) >= 2 else 0 : opens[-1].start()] if opens else None
    if bracketed is not None:
        found = _bracketed_part(clause)
        if found is None and before is not None and opens[-1].group().strip().lower() in ("that", "which"):
            found = _bracketed_part(before)
        return found
    clause = _LIST_MARK.sub("", clause)  # a bullet before the part ("• The HTTP server takes 33% of ...")
    verb = share_verb = _PART_VERB.search(clause)
    if verb and before is not None and re.fullmatch(r"\s*and\s*", clause[: verb.start()]):
        clause = before
        verb = _PART_VERB.search(clause)
    if not verb:  # (none in the clause, or none in the clause before a coordinated one)
        return None
    phrase = " ".join(clause[: verb.start()].split())
    phrase = _DETERMINER.sub("", re.sub(r"^(?:where|when|since|because|as|and)\s+", "", phrase, flags=re.I))
    # (its head noun phrase, where a verb says it takes a part of the whole: "embedding communication overhead for
    # many of these workloads ... consumes up to 63% of training time" is the overhead's; "the total overhead of
    # sampling jobs is 3% of the real jobs" says how large the measure is, whose the sentence says elsewhere)
    if len(phrase.split()) > 4 and not re.match(r"\s+(?:is|are|was|were|remains?|stays?)\b", share_verb.group()):
        phrase = re.sub(r"\s+(?:for|of|in|on|across|with|under)\s.*$", "", phrase)
    words = phrase.split()
    # (one word too: "All-to-all takes 74.9% of the running time"; not a pronoun nor a determiner alone)
    if not 1 <= len(words) <= 4 or re.search(r"^(?:we|it|its|they|their|this|that|these|those|our|which|there)\b|\d|[()]", phrase, re.I):
        return None
    return phrase


# After a share that opens its clause: "of" a population, a plural noun phrase, and the verb it is the subject of
# ("75% of servers host only one VM", "50% of the VMs belong to large endpoints").
# A verb of an outcome ("35% of jobs violate their SLO", "miss their deadline") says how a system served the
# population: the system's result, not the population's.
_POPULATION = re.compile(
    r"\s*of\s+(?:the\s+|all\s+)?(?P<p>(?:[A-Za-z][\w-]*\s+){0,2}[A-Za-z][\w-]*s)(?<!\bis)(?<!\bwas)(?<!\bhas)"
    r"(?<!\bdoes)(?<!\bthis)\s+"
    r"(?!(?:of|in|on|at|for|with|by|from|to|and|or|that|which|than|is|was|are|were|"
    r"violate|miss|meet|finish|complete|fail|achieve|experience|suffer|see|get|wait|starve|exceed)\w*\b)[a-z]+\b"
)
# Before it, nothing but a bound or a hedge ("over", "about", "only", "up to").
_OPENS_WITH_SHARE = re.compile(
    r"\s*(?:(?:and|but|while|whereas)\s+)?(?:(?:over|about|around|nearly|almost|only|roughly|approximately|more\s+than|less\s+than|up\s+to)\s+)?",
    re.I,
)


def _bracketed_part(clause: str) -> str | None:
    """The part a share in parentheses belongs to, in the clause before the parenthesis: a list's item (after its
    mark), or the subject before the clause's verb; one to five words that name no measure."""
    item = list(_ITEM_MARK.finditer(clause))
    clause = clause[item[-1].end() :] if item else clause
    verb = _PART_VERB.search(clause)
    if not verb and not item:
        return None
    phrase = " ".join((clause[: verb.start()] if verb else clause).split())
    # (a figure's tag before it is none of it: "[Mixtral in production] EP's all-to-all communications occupy")
    phrase = _DETERMINER.sub("", re.sub(r"^\[[^\]]*\]\s*", "", phrase))
    return phrase if 1 <= len(phrase.split()) <= 5 and not _NO_COMPONENT.search(phrase) else None


# A list's item mark inside a sentence: "1) ", "(ii) ", "a) ".
_ITEM_MARK = re.compile(r"(?:^|\s)\(?(?:\d{1,2}|[ivx]{1,4}|[a-h])\)\s+")


def _bracketed(text: str, claim_start: int, claim_end: int) -> int | None:
    """Where the parenthesis opens when the number alone fills it ("(18%)"), else None."""
    before = text.rfind("(", max(0, claim_start - 3), claim_start)
    if before < 0 or text[before + 1 : claim_start].strip() or not re.match(r"\s*\)", text[claim_end : claim_end + 3]):
        return None
    return before
