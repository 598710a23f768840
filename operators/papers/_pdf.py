"""PDF to text with pypdf. Anything that is not a readable PDF raises a ValueError that says why."""

from __future__ import annotations

import io
import logging

from pypdf import PdfReader

_HEADER_WINDOW = 1024  # the PDF spec allows junk before the header; readers look this far


def pdf_to_text(data: bytes) -> tuple[str, str | None]:
    """``(text, title)``: pages' text joined by blank lines; the title from the document information."""
    if b"%PDF-" not in data[:_HEADER_WINDOW]:
        raise ValueError("not a PDF: no %PDF header")
    pypdf_log = logging.getLogger("pypdf")
    level = pypdf_log.level
    pypdf_log.setLevel(logging.ERROR)  # a damaged file is reported once, as the record's error
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise ValueError("encrypted PDF: cannot read without its password")
        pages = [(page.extract_text() or "").strip() for page in reader.pages]
        title = _title(reader)
    except ValueError:
        raise
    except Exception as exc:  # noqa: BLE001 -- pypdf raises many types for damaged files; report the cause
        raise ValueError(
            f"unreadable PDF ({type(exc).__name__}: {exc}); the file may be truncated or damaged"
        ) from exc
    finally:
        pypdf_log.setLevel(level)
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
