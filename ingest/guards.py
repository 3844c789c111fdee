"""Checks on container formats before a parser touches them: encryption, zip bombs, damage.

Everything here reads headers only; nothing is decompressed, so a hostile file costs no memory.
"""

from __future__ import annotations

import io
import re
import zipfile

from ingest.errors import InvalidInputError

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGIC = b"PK\x03\x04"
# A single member this large that also compresses this well is a bomb even below the total limit.
BOMB_MEMBER_BYTES = 10 * 1024 * 1024
BOMB_RATIO = 200


class ExtractionError(InvalidInputError):
    """Raised when a file cannot be turned into text; the message is the user's failure reason."""


def check_zip_container(data: bytes, max_unpacked_bytes: int) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise ExtractionError("corrupt file: not a valid zip archive") from exc
    total = sum(member.file_size for member in members)
    if total > max_unpacked_bytes or any(
        member.file_size > BOMB_MEMBER_BYTES
        and member.file_size > BOMB_RATIO * max(member.compress_size, 1)
        for member in members
    ):
        raise ExtractionError("too large: unpacked size exceeds limit")


def check_ole_container(data: bytes) -> None:
    """An OLE compound file where OOXML was expected: Office's encrypted-document wrapper, or not
    a document we read at all. Raises in both cases."""
    import olefile  # ships with unstructured (python-oxmsg)

    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except (OSError, ValueError) as exc:
        raise ExtractionError(f"corrupt file: damaged OLE container ({exc})") from exc
    with ole:
        streams = {"/".join(entry) for entry in ole.listdir(streams=True, storages=False)}
    if "EncryptedPackage" in streams:
        raise ExtractionError("encrypted")
    # A legacy binary .doc renamed to .docx.
    raise ExtractionError("unsupported type: application/msword")


def _short_reason(exc: Exception) -> str:
    # qpdf prefixes messages with the stream's repr, which means nothing to a user.
    return re.sub(r"^stream <[^>]*>:\s*", "", str(exc)).strip() or type(exc).__name__


def open_pdf_bytes(data: bytes) -> bytes:
    """The PDF's bytes, decrypted if it only has an owner password (empty user password).

    Decrypting with pikepdf first means the parser never has to handle encryption itself.
    """
    import pikepdf

    try:
        with pikepdf.open(io.BytesIO(data)) as pdf:
            if len(pdf.pages) == 0:
                raise ExtractionError("corrupt file: no pages")
            if not pdf.is_encrypted:
                return data
            buffer = io.BytesIO()
            pdf.save(buffer)  # saving without an encryption argument writes it unencrypted
            return buffer.getvalue()
    except pikepdf.PasswordError as exc:
        raise ExtractionError("encrypted") from exc
    except pikepdf.PdfError as exc:
        raise ExtractionError(f"corrupt file: {_short_reason(exc)}") from exc
