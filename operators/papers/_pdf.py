"""PDF to text, reading the layout: pdfplumber (pdfminer's layout analysis) places each word on the page, so a
two-column page is read column by column and not line across line, as a stream-order reader (pypdf) does
when the typesetter wrote the columns' lines interleaved. pypdf remains the fallback when pdfplumber is not
installed. Anything that is not a readable PDF raises a ValueError that says why."""

from __future__ import annotations

import io
import logging
from typing import Any

from pypdf import PdfReader

_HEADER_WINDOW = 1024  # the PDF spec allows junk before the header; readers look this far


def pdf_to_text(data: bytes) -> tuple[str, str | None]:
    """``(text, title)``: pages' text joined by blank lines; the title from the document information."""
    if b"%PDF-" not in data[:_HEADER_WINDOW]:
        raise ValueError("not a PDF: no %PDF header")
    logs = [logging.getLogger(name) for name in ("pypdf", "pdfminer")]
    levels = [log.level for log in logs]
    for log in logs:
        log.setLevel(logging.ERROR)  # a damaged file is reported once, as the record's error
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise ValueError("encrypted PDF: cannot read without its password")
        title = _title(reader)
        pages = _layout_pages(data)
        if pages is None:
            pages = [(page.extract_text() or "").strip() for page in reader.pages]
    except ValueError:
        raise
    except Exception as exc:  # noqa: BLE001 -- PDF libraries raise many types for damaged files
        raise ValueError(
            f"unreadable PDF ({type(exc).__name__}: {exc}); the file may be truncated or damaged"
        ) from exc
    finally:
        for log, level in zip(logs, levels, strict=True):
            log.setLevel(level)
    text = "\n\n".join(p for p in pages if p)
    if not text.strip():
        raise ValueError(
            f"PDF has no extractable text ({len(pages)} page(s)): scanned images or a truncated file"
        )
    return text, title


def _title(reader: PdfReader) -> str | None:
    try:
        meta = reader.metadata
        title = meta.title if meta else None
    except Exception:  # noqa: BLE001 -- a broken information dictionary only costs the title
        return None
    if not title:
        return None
    return " ".join(str(title).split()) or None


def _layout_pages(data: bytes) -> list[str] | None:
    """Each page's text, columns read one after the other; None when pdfplumber is not installed."""
    try:
        import pdfplumber
    except ImportError:
        return None
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [_page_text(page).strip() for page in pdf.pages]


#: A gutter may be crossed by a few words (a title, a full-width figure caption), not by many.
_GUTTER_CROSSINGS = 0.03


def _page_text(page: Any) -> str:
    words = page.extract_words(keep_blank_chars=False, use_text_flow=False)
    split = _gutter(words, float(page.width))
    if split is None:
        return page.extract_text() or ""
    left = page.crop((0, 0, split, page.height), strict=False).extract_text() or ""
    right = page.crop((split, 0, page.width, page.height), strict=False).extract_text() or ""
    return f"{left.strip()}\n{right.strip()}"


def _gutter(words: list[dict[str, Any]], width: float) -> float | None:
    """The x of a vertical gap between two columns of words, or None for a one-column page."""
    if len(words) < 20:
        return None
    best: tuple[int, float] | None = None
    for step in range(35, 66):
        x = width * step / 100
        crossing = sum(1 for w in words if w["x0"] < x < w["x1"])
        if best is None or crossing < best[0]:
            best = (crossing, x)
    assert best is not None
    crossing, x = best
    left = sum(1 for w in words if w["x1"] <= x)
    right = sum(1 for w in words if w["x0"] >= x)
    if crossing > _GUTTER_CROSSINGS * len(words) or min(left, right) < 0.2 * len(words):
        return None
    return x
