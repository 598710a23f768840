"""How a PDF's fonts say what a character is, read through ``pdf_to_text`` on PDFs made in the test: a font
scaled by the text matrix (its size reported too small or too large), a ligature glyph an encoding names with
no Unicode for PDFium (``/f_i`` at code 27, as ACM's Libertine fonts have it), and a character beyond the BMP
(a math letter) that PDFium returns as two halves."""

from __future__ import annotations

from pdf_files import pdf_file
from pdf_files import stream as pdf_stream

from assay.operators.papers._pdf import pdf_to_text

_CMAP = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /T def
1 begincodespacerange <00> <FF> endcodespacerange
1 beginbfchar <57> <D835DC4A> endbfchar
endcmap CMapName currentdict /CMap defineresource pop end end"""


def _pdf(stream: bytes, differences: bytes = b"", to_unicode: bool = False) -> bytes:
    """One page showing ``stream`` in Helvetica, its encoding's ``/Differences`` and ToUnicode map as given."""
    encoding = b"/Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [" + differences + b"] >>"
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica " + encoding
    font += b" /ToUnicode 5 0 R >>" if to_unicode else b" >>"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 6 0 R >> >> >>",
        pdf_stream(stream),
        pdf_stream(_CMAP),
        font,
    ]
    return pdf_file(objects)


def _lines(stream: bytes, **font) -> list[str]:
    text, _ = pdf_to_text(_pdf(stream, **font))
    return [line for line in text.split("\n") if line.strip()]


def test_a_font_set_large_and_scaled_down_keeps_its_lines_apart():
    # "/F1 200 Tf" shown at a twentieth: read at size 200, the two lines (12 pt apart) ran into one
    stream = (
        b"BT /F1 200 Tf 0.05 0 0 0.05 72 700 Tm (Quill writes every shard in parallel.) Tj ET\n"
        b"BT /F1 200 Tf 0.05 0 0 0.05 72 688 Tm (Its stall is short on every model.) Tj ET"
    )
    assert _lines(stream) == ["Quill writes every shard in parallel.", "Its stall is short on every model."]


def test_a_ligature_glyph_named_by_its_components_is_spelled_out():
    # codes 27-31 drawn by glyphs named /f_i /f_f_i /f_f /f_l /f_f_l, no ToUnicode: PDFium returns U+001B-001F
    stream = b"BT /F1 10 Tf 72 700 Td (The \x1brst e\x1ccient o\x1dset \x1eows \x1fe) Tj ET"
    differences = b"27 /f_i /f_f_i /f_f /f_l /f_f_l"
    assert _lines(stream, differences=differences) == ["The first efficient offset flows ffle"]


def test_a_character_beyond_the_bmp_stays_whole():
    # a math italic W (U+1D44A) that the ToUnicode map gives for "W": PDFium returns its two UTF-16 halves
    stream = b"BT /F1 10 Tf 150 Tz 72 700 Td (weights W = 3) Tj ET"  # wider than its size, as math letters are
    assert _lines(stream, to_unicode=True) == ["weights \U0001d44a = 3"]


def test_pdfiums_own_mark_of_a_line_end_hyphen_is_no_ligature():
    # PDFium marks a hyphen that ends a line with U+0002: not the glyph a font's encoding names at code 2
    stream = (
        b"BT /F1 10 Tf 72 700 Td (Results have been ob-) Tj ET\nBT /F1 10 Tf 72 688 Td (tained by scaling up.) Tj ET"
    )
    text = " ".join(_lines(stream, differences=b"2 /f_i 27 /f_f"))
    assert "obtained" in text and "fi" not in text


def test_text_drawn_outside_the_page_is_not_read():
    # a figure cropped from a larger page keeps its hidden labels, some of them above the page's top edge
    stream = (
        b"BT /F1 10 Tf 72 700 Td (Quill writes every shard in parallel.) Tj ET\n"
        b"BT /F1 10 Tf 72 830 Td (HIDDEN LABEL) Tj ET"
    )
    assert _lines(stream) == ["Quill writes every shard in parallel."]

