"""The ``attest`` command line."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ingest.settings import get_settings
from service.cli_output import print_json

SUPPORTED_SUFFIXES = {".pdf", ".docx", ".html", ".htm", ".md", ".markdown", ".txt", ".eml"}


def _open_store():
    from ingest.store import open_store

    return open_store(get_settings())


@dataclass(frozen=True, slots=True)
class IngestTarget:
    path: Path
    doc_id: str | None  # None: the pipeline's default (the file's stem) for a file named alone
    skip: str | None = None  # why the file is not ingested (reported, not a failed document)


def folder_doc_id(path: Path, root: Path) -> str:
    """The doc id of a file found under ``root``: its path relative to ``root`` without the
    suffix, directories joined by ``:`` (``2021/lease.txt`` -> ``2021:lease``). A file at the
    top keeps its stem, as before."""
    relative = path.relative_to(root).with_suffix("")
    return ":".join(relative.parts)


def _walk(paths: Sequence[str]) -> list[IngestTarget]:
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


def cmd_ingest(args: argparse.Namespace) -> int:
    from rich.progress import Progress

    from ingest.embedder import default_embedder
    from ingest.errors import EXIT_CODES, ConflictError, InvalidInputError
    from ingest.pipeline import Ingestor, default_doc_id

    targets = _walk(args.paths)
    files = [t for t in targets if t.skip is None]
    if args.doc_id and len(files) != 1:
        sys.stderr.write("error: --doc-id needs exactly one file\n")
        return 2
    settings = get_settings()
    store = _open_store()
    acl = [a.strip() for a in args.acl.split(",") if a.strip()] if args.acl else None
    if acl is None:
        # No public default: a new document needs its readers named (or '*' said out loud).
        new = [t for t in files
               if store.get_document(args.doc_id or t.doc_id or default_doc_id(t.path)) is None]
        if new:
            raise InvalidInputError(
                f"--acl is required for new documents ({len(new)} here, e.g. {new[0].path}): "
                "name the principals and groups that may read them, or --acl '*' for every "
                "API principal"
            )
    ingestor = Ingestor(store, default_embedder(), settings)
    results = []
    for target in targets:
        if target.skip is not None and not args.json:
            sys.stdout.write(f"{target.path}: skipped ({target.skip})\n")
    with Progress(transient=True, disable=args.json or not sys.stderr.isatty()) as progress:
        task = progress.add_task("ingesting", total=len(files))
        for target in files:
            progress.update(task, description=f"ingesting {target.path.name}")
            result = ingestor.ingest_path(
                target.path,
                doc_id=args.doc_id or target.doc_id,
                title=args.title,
                acl=acl,
                collection=args.collection or "",
            )
            results.append(result)
            progress.advance(task)
            if not args.json:
                detail = f" ({result.error})" if result.error else ""
                sys.stdout.write(f"{result.doc_id}: {result.status}{detail}\n")
    if args.json:
        print_json({
            "documents": [r.to_dict() for r in results],
            "skipped": [{"path": str(t.path), "reason": t.skip} for t in targets if t.skip],
        })
    if any(r.status == "failed" for r in results):
        return EXIT_CODES[InvalidInputError]
    if any(t.skip and "collides" in t.skip for t in targets):
        return EXIT_CODES[ConflictError]
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from ingest.embedder import default_embedder
    from ingest.store.port import Principal, SearchFilters
    from service.retrieval import hybrid_search

    settings = get_settings()
    store = _open_store()
    filters = SearchFilters(
        principal=Principal.local_operator(),
        doc_ids=tuple(args.doc_id or ()),
        collections=tuple(args.collection or ()),
    )
    hits = hybrid_search(
        store,
        default_embedder(),
        args.query,
        filters,
        k=args.k,
        depth=settings.retrieval_depth,
        rrf_k=settings.rrf_k,
    )
    if args.json:
        print_json({"hits": [h.to_dict() for h in hits]})
        return 0
    if not hits:
        sys.stdout.write("no hits\n")
    for n, hit in enumerate(hits, start=1):
        c = hit.chunk
        where = f"{c.doc_id}@{c.revision[:12]} lines {c.line_start}-{c.line_end}"
        if c.page is not None:
            where += f" page {c.page}"
        sys.stdout.write(f"{n}. [{hit.score:.4f}] {c.title} — {where}\n")
        snippet = " ".join(c.text.split())
        sys.stdout.write(f"   {snippet[:240]}{'…' if len(snippet) > 240 else ''}\n")
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from ingest.store.port import Principal

    store = _open_store()
    if args.doc_id:
        record = store.get_document(args.doc_id)
        if record is None:
            from ingest.errors import NotFoundError

            raise NotFoundError(f"document not found: {args.doc_id}")
        records = [record]
    else:
        records, _ = store.list_documents(Principal.local_operator(), limit=100000)
    rows = [
        {
            "doc_id": r.doc_id,
            "status": r.status,
            "stage": r.stage,
            "error": r.error,
            "current_revision": r.current_revision,
            "revisions": [rev.revision for rev in r.revisions],
        }
        for r in records
    ]
    if args.json:
        print_json(rows[0] if args.doc_id else {"documents": rows})
        return 0
    for row in rows:
        error = f" — {row['error']}" if row["error"] else ""
        current = (row["current_revision"] or "-")[:12]
        sys.stdout.write(
            f"{row['doc_id']}: {row['status']} (stage {row['stage']}, current {current}, "
            f"{len(row['revisions'])} revision(s)){error}\n"
        )
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    store = _open_store()
    if not store.delete_document(args.doc_id):
        from ingest.errors import NotFoundError

        raise NotFoundError(f"document not found: {args.doc_id}")
    sys.stdout.write(f"{args.doc_id}: deleted\n")
    return 0


def cmd_entities(args: argparse.Namespace) -> int:
    from ingest.store.port import Principal

    store = _open_store()
    subjects = store.find_subjects(
        Principal.local_operator(), name=args.name, type=args.type, limit=args.limit
    )
    from service.api.schemas import SubjectView

    payload = [SubjectView.of(s).model_dump(mode="json") for s in subjects]
    if args.json:
        print_json({"subjects": payload})
        return 0
    if not payload:
        sys.stdout.write("no subjects\n")
    for s in payload:
        aliases = f" (aka {', '.join(s['aliases'])})" if s["aliases"] else ""
        sys.stdout.write(f"{s['subject_id']} [{s['type']}] {s['name']}{aliases}\n")
        for b in s["bindings"]:
            role = f" as {b['role']}" if b["role"] else ""
            sys.stdout.write(
                f"   {b['relation']} {b['object_name']}{role} — {b['doc_id']}"
                f" chars {b['char_start']}-{b['char_end']}\n"
            )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="attest", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("ingest", help="ingest files or directories")
    p.add_argument("paths", nargs="+")
    p.add_argument("--doc-id")
    p.add_argument("--title")
    p.add_argument(
        "--acl",
        help="comma-separated principals and groups that may read the documents ('*': every "
        "API principal); required for new documents",
    )
    p.add_argument("--collection")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_ingest)

    p = sub.add_parser("search", help="hybrid BM25 + kNN search fused by RRF")
    p.add_argument("query")
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--doc-id", action="append")
    p.add_argument("--collection", action="append")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("status", help="document status")
    p.add_argument("doc_id", nargs="?")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_status)

    p = sub.add_parser("delete", help="remove a document from every search path")
    p.add_argument("doc_id")
    p.set_defaults(func=cmd_delete)

    p = sub.add_parser("entities", help="subject registry look-up")
    p.add_argument("name", nargs="?")
    p.add_argument("--type")
    p.add_argument("--limit", type=int, default=100)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_entities)

    _add_later_commands(sub)
    return parser


def _add_later_commands(sub: argparse._SubParsersAction) -> None:
    """Commands whose modules import heavier dependencies register here."""
    from service.cli_extra import register

    register(sub)


def main(argv: Sequence[str] | None = None) -> int:
    from service.logs import configure_logging

    settings = get_settings()
    # Commands print their own results; log lines are for operators who ask for them.
    level = settings.log_level if "ATTEST_LOG_LEVEL" in os.environ else "WARNING"
    configure_logging(level, stream=sys.stderr)
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except Exception as exc:  # noqa: BLE001 - a CLI user gets one line, not a traceback
        return report_error(exc)


def report_error(exc: BaseException) -> int:
    """The ONE place where errors become CLI exit codes (README, "Exit codes"): one line on
    stderr, the exit code of the error's family, the traceback in the log at debug level."""
    import structlog

    from ingest.errors import AttestError, exit_code_for

    if isinstance(exc, AttestError):
        sys.stderr.write(f"error: {exc.message or type(exc).__name__}\n")
        structlog.get_logger(__name__).debug("cli_error", error_type=type(exc).__name__, exc_info=exc)
    else:
        sys.stderr.write(
            f"error: internal error ({type(exc).__name__}: {exc}); "
            "set ATTEST_LOG_LEVEL=DEBUG for the traceback\n"
        )
        structlog.get_logger(__name__).debug("cli_crash", error_type=type(exc).__name__, exc_info=exc)
    return exit_code_for(exc)


if __name__ == "__main__":
    raise SystemExit(main())
