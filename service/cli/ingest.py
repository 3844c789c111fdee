"""``attest ingest PATH...``: index files and folders into the configured store.

One line per document on stdout (``doc_id: status``), or one JSON document with ``--json``;
progress on stderr while it runs, and a summary line (indexed / unchanged / failed / skipped) on
stderr at the end. Exit 2 if a document failed, 4 if a folder held a doc-id collision.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from ingest.settings import get_settings
from service.cli.output import print_json
from service.cli.progress import progress_on_stderr, short, write_summary

SUPPORTED_SUFFIXES = {".pdf", ".docx", ".html", ".htm", ".md", ".markdown", ".txt", ".eml"}


@dataclass(frozen=True, slots=True)
class IngestTarget:
    path: Path
    doc_id: str | None  # None: the pipeline's default (the file's stem) for a file named alone
    skip: str | None = None  # why the file is not ingested (reported, not a failed document)


def folder_doc_id(path: Path, root: Path) -> str:
    """The doc id of a file found under a folder: its path relative to that folder without the
    suffix, directories joined by ':' (2021/lease.txt -> 2021:lease). A file at the top keeps
    its stem."""
    relative = path.relative_to(root).with_suffix("")
    return ":".join(relative.parts)


def walk(paths: Sequence[str]) -> list[IngestTarget]:
    """Files to ingest. In a folder, unsupported suffixes are skipped with a note, and two
    files that would get the same doc id are a collision: the later ones are skipped."""
    targets: list[IngestTarget] = []
    claimed: dict[str, Path] = {}
    for raw in paths:
        path = Path(raw)
        if not path.is_dir():
            targets.append(IngestTarget(path, None))
            continue
        for file in sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith(".")):
            if file.suffix.lower() not in SUPPORTED_SUFFIXES:
                targets.append(IngestTarget(file, None, skip=f"unsupported suffix {file.suffix or '(none)'}"))
                continue
            doc_id = folder_doc_id(file, path)
            if doc_id in claimed:
                targets.append(
                    IngestTarget(file, doc_id, skip=f"doc id {doc_id} collides with {claimed[doc_id]}")
                )
                continue
            claimed[doc_id] = file
            targets.append(IngestTarget(file, doc_id))
    return targets


def ingest(
    paths: Annotated[
        list[str],
        typer.Argument(metavar="PATH", help="Files and folders to ingest; folders are walked recursively.", show_default=False),
    ],
    doc_id: Annotated[
        str | None,
        typer.Option("--doc-id", help="Doc id for a single file (default: the file's stem)."),
    ] = None,
    title: Annotated[
        str | None, typer.Option("--title", help="Title to store (default: the file's stem).")
    ] = None,
    acl: Annotated[
        str | None,
        typer.Option(
            "--acl",
            help="Comma-separated principals and groups that may read the documents ('*': every "
            "API principal); required for new documents.",
        ),
    ] = None,
    collection: Annotated[
        str | None, typer.Option("--collection", help="Collection to file the documents under.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON document (documents and skipped files).")
    ] = False,
) -> int:
    """Ingest files and folders; print each document's final status."""
    from threadpoolctl import threadpool_limits

    from ingest.embedder import ingest_embedder
    from ingest.errors import EXIT_CODES, ConflictError, InvalidInputError
    from ingest.pipeline import Ingestor, default_doc_id
    from ingest.store import open_store

    targets = walk(paths)
    files = [t for t in targets if t.skip is None]
    if doc_id and len(files) != 1:
        sys.stderr.write("error: --doc-id needs exactly one file\n")
        return EXIT_CODES[InvalidInputError]
    settings = get_settings()
    store = open_store(settings)
    readers = [a.strip() for a in acl.split(",") if a.strip()] if acl else None
    if readers is None:
        # No public default: a new document needs its readers named (or '*' said out loud).
        new = [t for t in files
               if store.get_document(doc_id or t.doc_id or default_doc_id(t.path)) is None]
        if new:
            raise InvalidInputError(
                f"--acl is required for new documents ({len(new)} here, e.g. {new[0].path}): "
                "name the principals and groups that may read them, or --acl '*' for every "
                "API principal"
            )
    results = []
    for target in targets:
        if target.skip is not None and not as_json:
            sys.stdout.write(f"{target.path}: skipped ({target.skip})\n")
    # One ingest worker's budget (ATTEST_INGEST_WORKER_CORES), as in `attest worker`: the
    # ingest model's session and BLAS, not the all-core, spin-waiting query session.
    with progress_on_stderr("ingesting", total=len(files)) as tracker, \
            threadpool_limits(limits=settings.ingest_worker_cores, user_api="blas"):
        current = ""
        ingestor = Ingestor(
            store, ingest_embedder(), settings,
            on_stage=lambda stage: tracker.step(len(results), len(files), f"{current} ({stage})"),
        )
        for target in files:
            current = f"ingesting {short(target.path.name)}"
            tracker.step(len(results), len(files), current)
            result = ingestor.ingest_path(
                target.path,
                doc_id=doc_id or target.doc_id,
                title=title,
                acl=readers,
                collection=collection or "",
            )
            results.append(result)
            tracker.step(len(results), len(files))
            if not as_json:
                detail = f" ({result.error})" if result.error else ""
                tracker.emit(f"{result.doc_id}: {result.status}{detail}")
    if as_json:
        print_json({
            "documents": [r.to_dict() for r in results],
            "skipped": [{"path": str(t.path), "reason": t.skip} for t in targets if t.skip],
        })
    statuses = Counter(r.status for r in results)
    write_summary({
        "indexed": statuses["indexed"],
        "unchanged": statuses["unchanged"],
        "failed": statuses["failed"],
        **({"cancelled": statuses["cancelled"]} if statuses["cancelled"] else {}),
        "skipped": sum(1 for t in targets if t.skip),
    })
    if statuses["failed"]:
        return EXIT_CODES[InvalidInputError]
    if any(t.skip and "collides" in t.skip for t in targets):
        return EXIT_CODES[ConflictError]
    return 0
