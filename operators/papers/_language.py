"""Language identification by script and function words: no model to download, fast on any length.

Chinese, Japanese and Korean are told apart by their scripts; Latin-script text by counting a few very
frequent function words of English, German, French and Spanish. Enough to route a document to the right
sentence rules and to record ``documents.lang``.
"""

from __future__ import annotations

import re

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_WORD = re.compile(r"[a-zäöüßàâçéèêëîïôûùÿñáíóú]+")
_FUNCTION_WORDS = {
    "en": {"the", "of", "and", "to", "in", "is", "we", "that", "for", "with", "on", "by", "this", "are"},
    "de": {"der", "die", "das", "und", "ist", "wir", "nicht", "mit", "ein", "eine", "für", "von", "auf"},
    "fr": {"le", "la", "les", "et", "est", "nous", "des", "une", "pour", "dans", "sur", "du", "que"},
    "es": {"el", "los", "las", "y", "es", "una", "para", "con", "por", "del", "que", "se", "en"},
}
#: Characters looked at: the start and the middle of the text, so a 50 MB file costs the same as an abstract.
_SAMPLE = 20_000


def detect_language(text: str) -> str:
    """An ISO 639-1 code (``en``, ``zh``, ``ja``, ``ko``, ``ru``, ``de``, ``fr``, ``es``) or ``und``."""
    if len(text) > 2 * _SAMPLE:
        middle = len(text) // 2
        text = text[:_SAMPLE] + " " + text[middle : middle + _SAMPLE]
    han = len(_HAN.findall(text))
    kana = len(_KANA.findall(text))
    hangul = len(_HANGUL.findall(text))
    latin = len(_LATIN.findall(text))
    cyrillic = len(_CYRILLIC.findall(text))
    # One CJK character carries about as much as a short Latin word (~4 letters).
    scores = {"cjk": (han + kana + hangul) * 4, "latin": latin, "ru": cyrillic}
    best = max(scores, key=lambda k: scores[k])
    if scores[best] == 0:
        return "und"
    if best == "cjk":
        if hangul > han / 2:
            return "ko"
        return "ja" if kana > 0.1 * (han + kana) else "zh"
    if best == "ru":
        return "ru"
    return _latin_language(text)


def _latin_language(text: str) -> str:
    votes = dict.fromkeys(_FUNCTION_WORDS, 0)
    for word in _WORD.findall(text.lower()[:_SAMPLE]):
        for lang, words in _FUNCTION_WORDS.items():
            if word in words:
                votes[lang] += 1
    best = max(votes, key=lambda k: votes[k])
    # English is the default for technical text with too few function words to tell (a title, a list).
    return best if votes[best] > max(2, votes["en"]) else "en"
