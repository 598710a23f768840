"""PDF to text, read as a person reads a conference paper: words spaced right on tightly kerned justified
lines, two columns one after the other, captions and figure/table text set apart from the body (and still
read), hyphenated words and ranges broken over a line joined, ligatures spelled out.

The characters and their spacing come from PDFium (``pypdfium2``), chosen by measurement on real
conference PDFs (docs/papers.md): pdfplumber's default tolerance glued the words of 80 % of body lines,
and PDFium placed word breaks as well as pdfminer's layout analysis with a font-relative margin, some 50
times faster. ``_pdf_layout`` puts the text segments in reading order. pypdf reads the document information
(the title) and is the fallback reader where pypdfium2 is not installed. Anything that is not a readable
PDF raises a ValueError that says why."""

from __future__ import annotations

import ctypes
import io
import logging
import math
from typing import Any

from pypdf import PdfReader

from assay.operators.papers import _pdf_columns as columns
from assay.operators.papers import _pdf_layout as layout
from assay.operators.papers._pdf_asides import document_text
from assay.operators.papers._pdf_ligatures import Ligatures
from assay.operators.papers._pdf_title import choose_title

_HEADER_WINDOW = 1024  # the PDF spec allows junk before the header; readers look this far


def pdf_to_text(data: bytes) -> tuple[str, str | None]:
    """``(text, title)``: the body text in reading order with captions, figure and table text as their own
    paragraphs; the title from the document information where the first page prints it, else the one the
    first page sets in its largest type."""
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
        read = _pdfium_text(data, Ligatures(reader), title)
        n_pages = len(reader.pages)
        if read is None:
            text = "\n\n".join(layout.clean(page.extract_text() or "").strip() for page in reader.pages)
        else:
            text, title = read
    except ValueError:
        raise
    except Exception as exc:  # noqa: BLE001 -- PDF libraries raise many types for damaged files
        raise ValueError(
            f"unreadable PDF ({type(exc).__name__}: {exc}); the file may be truncated or damaged"
        ) from exc
    finally:
        for log, level in zip(logs, levels, strict=True):
            log.setLevel(level)
    if not text.strip():
        raise ValueError(
            f"PDF has no extractable text ({n_pages} page(s)): scanned images or a truncated file"
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


def _pdfium_text(
    data: bytes, ligatures: Ligatures, info_title: str | None
) -> tuple[str, str | None] | None:
    """The document's text through PDFium and the layout rules, and its title (``_pdf_title``); None when
    pypdfium2 is not installed. ``ligatures``: the letters of ligature glyphs PDFium returns as control codes
    (``_pdf_ligatures``); ``info_title``: the information dictionary's title."""
    try:
        import pypdfium2 as pdfium
        import pypdfium2.raw as pdfium_c
    except ImportError:
        return None
    document = pdfium.PdfDocument(data)
    try:
        pages: list[list[layout.Line]] = []
        heights: list[float] = []
        widths: list[float] = []
        for page in document:
            width, height = page.get_size()
            textpage = page.get_textpage()
            try:
                pages.append(layout.lines_of(_segments(textpage, pdfium_c, ligatures, page.get_cropbox())))
            finally:
                textpage.close()
                page.close()
            widths.append(float(width))
            heights.append(float(height))
    finally:
        document.close()
    body = layout.body_size(pages)
    heads = layout.running_heads(pages, heights)
    parts = []
    for lines, width, height in zip(pages, widths, heights, strict=True):
        x = columns.gutter(lines, width)
        ordered = columns.reading_order(columns.split_at(lines, x), x)
        parts.append(layout.page_parts(ordered, body, heads, height))
    title = choose_title(info_title, pages[0], heights[0], body) if pages else info_title
    return document_text(parts), title


#: A gap between two characters' advance boxes wider than this share of the font size is a word break
#: PDFium did not mark (measured on conference PDFs: kerning inside a word stays under 0.05 em, the
#: tightest justified word spaces are 0.1-0.2 em).
_WORD_GAP = 0.1
_LINE_BREAKS = "\r\n"
#: Codes PDFium writes itself, never a font's: its line breaks and its mark of a hyphen at a line's end.
_PDFIUM_MARKS = frozenset({0x02, 0x0A, 0x0D})
#: A loose character box's height as a share of its font size (0.93-0.94 measured on conference PDFs).
_LOOSE_BOX_HEIGHT = 0.93
#: A reported font size this many times its glyphs' loose box is a font scaled down by the text matrix.
_SCALED = 4.0
#: How far outside the page's crop box (points) a character's origin may lie and still be seen.
_OFF_PAGE = 2.0
#: A character turned by more than this (radians) is not on a horizontal line.
_UPRIGHT = 0.05


def _segments(
    textpage: Any,
    pdfium_c: Any,
    ligatures: Ligatures,
    page_box: tuple[float, float, float, float] = (-1e9, -1e9, 1e9, 1e9),
    upright_only: bool = True,
) -> list[layout.Segment]:
    """The page's characters in PDFium's order, cut into runs on one line: at PDFium's line breaks, where
    the next character is on another line, or a gutter's width away. A space goes where PDFium put one or
    where the gap between two characters is a word's.

    Turned characters (a figure's vertical axis title, an arXiv stamp in the margin) are left out, unless
    most of the page is turned (a table set landscape); so are characters drawn outside the page's crop box
    (``page_box``: a figure cropped from a larger page keeps its hidden text)."""
    raw = textpage.raw
    turned = upright = 0
    out: list[layout.Segment] = []
    chars: list[str] = []
    edges: list[tuple[float, float]] = []
    box: list[float] = []
    sizes: list[float] = []
    last_right = baseline = 0.0
    x, y = ctypes.c_double(), ctypes.c_double()
    font, flags = ctypes.create_string_buffer(128), ctypes.c_int()

    def close() -> None:
        # PDFium gives UTF-16 code units: a character beyond the BMP (math letters) comes as a pair
        text = layout.clean(
            "".join(chars).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
        )
        if text.strip():
            size = max(set(sizes), key=sizes.count) if sizes else box[3] - box[1]
            marks = tuple(edges) if len(edges) == len(text) else ()  # a ligature spelled out: none
            out.append(
                layout.Segment(box[0], box[1], box[2], box[3], text, size, max(sizes, default=size), marks)
            )
        chars.clear()
        edges.clear()
        sizes.clear()

    for i in range(textpage.count_chars()):
        code = pdfium_c.FPDFText_GetUnicode(raw, i)
        ch = chr(code)
        spelled = None
        if code < 32 and code not in _PDFIUM_MARKS:
            # a ligature glyph the font names but PDFium cannot spell ("/f_i" at code 27): its letters
            pdfium_c.FPDFText_GetFontInfo(raw, i, font, len(font), ctypes.byref(flags))
            spelled = ligatures.get((font.value.decode("latin-1"), code))
        if ch in _LINE_BREAKS:
            if chars:
                close()
            continue
        if spelled is None and ch.isspace():
            if chars and chars[-1] != " ":
                chars.append(" ")
                edges.append((last_right, last_right))
            continue
        if upright_only:
            angle = pdfium_c.FPDFText_GetCharAngle(raw, i)
            if min(abs(angle), abs(angle - 2 * math.pi)) > _UPRIGHT:
                turned += 1
                continue
            upright += 1
        left, low, right, high = textpage.get_charbox(i, loose=True)
        pdfium_c.FPDFText_GetCharOrigin(raw, i, x, y)
        if not (page_box[0] - _OFF_PAGE <= x.value <= page_box[2] + _OFF_PAGE) or not (
            page_box[1] - _OFF_PAGE <= y.value <= page_box[3] + _OFF_PAGE
        ):
            continue  # drawn outside the page (a cropped figure's hidden labels): no one sees it
        size = float(pdfium_c.FPDFText_GetFontSize(raw, i)) or 10.0
        if high - low > 2 * size or 0 < _SCALED * (high - low) < size:
            # a font scaled by the text matrix (``/F1 1 Tf 9 0 0 9 x y Tm``, ``/F1 200 Tf 0.05 0 0 0.05 x y Tm``):
            # PDFium reports the unscaled size; the glyph's loose box, which spans the font's height, is the
            # size the page shows. (A box half the size is a figure's text in a scaled form: left as it is,
            # the layout rules were measured with it.)
            size = (high - low) / _LOOSE_BOX_HEIGHT
        # the box a line of this size takes around its baseline (loose boxes of adjacent lines overlap)
        bottom, top = y.value - 0.25 * size, y.value + 0.75 * size
        # the second half of a character beyond the BMP (a math letter, 𝑊) goes with the first, whatever its
        # box says: split apart, each half decodes to U+FFFD
        if chars and not "\udc00" <= ch <= "\udfff":
            gap = left - last_right
            other_line = abs(y.value - baseline) > 0.5 * min(size, sizes[-1])
            if other_line or gap > layout.SAME_LINE_GAP * size or gap < -size:
                close()
            elif gap > _WORD_GAP * size and chars[-1] != " ":
                chars.append(" ")
                edges.append((last_right, left))
        if not chars:
            box[:] = [left, bottom, right, top]
            baseline = y.value
        else:
            box[:] = [min(box[0], left), min(box[1], bottom), max(box[2], right), max(box[3], top)]
        for letter in spelled or ch:
            chars.append(letter)
            edges.append((left, right))
        sizes.append(round(size, 1))
        last_right = right
    if chars:
        close()
    if turned > upright:
        return _segments(textpage, pdfium_c, ligatures, page_box, upright_only=False)
    return out
