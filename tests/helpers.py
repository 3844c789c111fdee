"""Shared test helpers: where the evaluation data lives, and small files built in code."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import struct
import subprocess
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Coroutine

import pytest

if TYPE_CHECKING:
    import pikepdf


def run_coroutine(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run ``coro`` to completion on a fresh event loop in its own thread.

    Why a thread: a browser test earlier in the same session (Playwright's sync API) leaves an
    event loop running in the main thread, and ``asyncio.run`` refuses to start beside it. So the
    suite's result must not depend on whether browser tests ran first.
    """
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = asyncio.run(coro)
        except BaseException as error:  # re-raised in the caller's thread below
            outcome["error"] = error

    worker = threading.Thread(target=target, name="test-coroutine")
    worker.start()
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def shared_eval_dir() -> Path:
    """``../shared/eval`` next to the repository, or skip the calling test."""
    path = Path(__file__).resolve().parents[2] / "shared" / "eval"
    if not path.is_dir():
        pytest.skip(f"evaluation data not present at {path}")
    return path


def cuad_dev_dir() -> Path:
    path = shared_eval_dir() / "cuad-dev"
    if not path.is_dir():
        pytest.skip(f"CUAD dev set not present at {path}")
    return path


def stop_processes(procs: list[subprocess.Popen], timeout: float = 40) -> None:
    """SIGTERM every process still running (a worker drains its job), SIGKILL it after
    ``timeout`` seconds; always reaps, so a test leaves no worker behind."""
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def tiny_pdf(pages: list[str]) -> "pikepdf.Pdf":
    """A pikepdf.Pdf with one line of Helvetica text per page; the caller saves it."""
    import pikepdf
    from pikepdf import Array, Dictionary, Name

    pdf = pikepdf.new()
    font = pdf.make_indirect(
        Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica)
    )
    for line in pages:
        escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        content = f"BT /F1 12 Tf 72 720 Td ({escaped}) Tj ET".encode("latin-1")
        page = Dictionary(
            Type=Name.Page,
            MediaBox=Array([0, 0, 612, 792]),
            Resources=Dictionary(Font=Dictionary(F1=font)),
            Contents=pdf.make_stream(content),
        )
        pdf.pages.append(pikepdf.Page(page))
    return pdf


def pdf_bytes(pages: list[str], *, user: str | None = None, owner: str | None = None) -> bytes:
    import pikepdf

    pdf = tiny_pdf(pages)
    buffer = io.BytesIO()
    if owner is None:
        pdf.save(buffer)
    else:
        pdf.save(buffer, encryption=pikepdf.Encryption(owner=owner, user=user or "", R=6))
    return buffer.getvalue()


# --- a minimal OLE compound file (MS-CFB, version 3, 512-byte sectors) -----------------------

_FREE, _END, _FAT, _NOSTREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF
_SECTOR = 512


def _directory_entry(name: str, kind: int, child: int, start: int, size: int) -> bytes:
    encoded = (name + "\x00").encode("utf-16-le") if name else b""
    return (
        encoded.ljust(64, b"\x00")
        + struct.pack("<HBB", len(encoded), kind, 1)  # name length, type, colour black
        + struct.pack("<III", _NOSTREAM, _NOSTREAM, child)  # left, right sibling, child
        + b"\x00" * 36  # CLSID, state bits, creation and modification times
        + struct.pack("<IQ", start, size)
    )


def ole_file(stream_name: str, stream_size: int = 4096) -> bytes:
    """An OLE container holding one stream of zeros, as Office wraps an encrypted .docx in
    (with ``stream_name="EncryptedPackage"``). The stream is at least 4096 bytes so it lives in
    ordinary sectors and no mini stream is needed."""
    assert stream_size >= 4096 and stream_size % _SECTOR == 0
    data_sectors = stream_size // _SECTOR
    # Sector 0 is the FAT, sector 1 the directory, then the stream's sectors in one chain.
    fat = [_FAT, _END] + [2 + i + 1 for i in range(data_sectors - 1)] + [_END]
    assert len(fat) <= _SECTOR // 4
    fat += [_FREE] * (_SECTOR // 4 - len(fat))
    header = (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
        + b"\x00" * 16
        + struct.pack("<HHHHH", 0x003E, 0x0003, 0xFFFE, 9, 6)
        + b"\x00" * 6
        + struct.pack("<IIIIIIII", 0, 1, 1, 0, 4096, _END, 0, _END)
        + struct.pack("<I", 0)  # no DIFAT sectors
        + struct.pack("<I", 0)  # DIFAT[0]: the FAT is sector 0
        + struct.pack("<I", _FREE) * 108
    )
    assert len(header) == _SECTOR
    directory = (
        _directory_entry("Root Entry", 5, 1, _END, 0)
        + _directory_entry(stream_name, 2, _NOSTREAM, 2, stream_size)
        + _directory_entry("", 0, _NOSTREAM, 0, 0) * 2
    )
    return (
        header
        + struct.pack(f"<{_SECTOR // 4}I", *fat)
        + directory
        + b"\x00" * stream_size
    )


# Debian's Chromium, driven by Playwright in the browser tests (its own browser download is never
# used). The flags keep it off the network: this machine reaches no Google host.
CHROMIUM = os.environ.get("ATTEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def annotated_agreement(text: str) -> tuple[Any, Any]:
    """(the annotations ingest reads in ``text`` as one chunk, their agreement subject or None)."""
    from ingest.annotate import annotate_document

    annotations = annotate_document(text, [(0, len(text))], doc_id="doc", revision="rev")
    return annotations, next((s for s in annotations.subjects if s.type == "agreement"), None)


def bound_party_aliases(text: str) -> dict[str, list[str]]:
    """Per party ingest binds to the agreement it reads in ``text`` (one chunk), its sorted aliases."""
    annotations, agreement = annotated_agreement(text)
    assert agreement is not None
    return {
        s.name: sorted(s.aliases) for s in annotations.subjects if s.subject_id in agreement.attributes["parties"]
    }


def bound_party_names(text: str) -> set[str]:
    """The names ingest binds ``party_to`` the agreement it reads in ``text`` (one chunk)."""
    annotations, agreement = annotated_agreement(text)
    assert agreement is not None
    return {
        subject.name
        for subject in annotations.subjects
        if any(b.relation == "party_to" and b.object_id == agreement.subject_id for b in subject.bindings)
    }


def agreement_title(text: str) -> str | None:
    """The title ingest gives the agreement it reads in ``text`` (one chunk), or None."""
    _, agreement = annotated_agreement(text)
    return agreement.name if agreement is not None else None


def defined_terms(text: str) -> dict[str, str | None]:
    """Each term the definition reader finds in ``text``, with the name it defines (or None)."""
    from ingest.definitions import find_definitions

    return {d.term: d.name.text if d.name else None for d in find_definitions(text)}
