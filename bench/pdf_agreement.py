"""How much of each CUAD contract's text version the PDF revision text reproduces, in order.

    .venv/bin/python bench/pdf_agreement.py [--split tune|report|all] [--baseline] [--show N]
                                             [--only NAME]

CUAD ships every dev contract as a PDF (``contracts_pdf/``, 25 files) and as text
(``contracts_txt/``). Both are tokenised the same way (NFKC, casefolded, runs of letters and
digits), and the figure per contract is the share of the text version's tokens that appear in the
PDF revision text in the same order: the matched tokens of ``difflib.SequenceMatcher`` (no
autojunk) over the two token lists, divided by the text version's token count. Matching blocks
are a lower bound of the longest common subsequence. Tokens only the PDF has (page footers, page
numbers) cost nothing; text glued across a line break ("andconstrued") loses both words.

``--baseline`` measures the revision text that Attest built before pdf_layout.py: unstructured's
``partition_pdf(strategy="fast")`` elements, stripped and joined with a blank line, exactly as
``ingest/extract.py`` did then. Without it the current ``ingest.extract.extract`` is measured.
The overall figure is pooled over tokens (sum matched / sum tokens), with the per-file mean too.
"""

from __future__ import annotations

import argparse
import difflib
import io
import json
import re
import time
import unicodedata
from pathlib import Path

from common import CREDIT, CUAD, cuad_index

import ingest.nlp_model  # noqa: F401 - offline environment first
from ingest.extract import MIME_PDF, _join, _pieces, extract
from ingest.guards import open_pdf_bytes

_TOKEN = re.compile(r"[^\W_]+")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(unicodedata.normalize("NFKC", text).casefold())


def in_order_matches(reference: list[str], candidate: list[str]) -> int:
    matcher = difflib.SequenceMatcher(None, reference, candidate, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks())


def baseline_text(data: bytes) -> str:
    """The revision text of the old PDF path: unstructured's fast strategy, elements joined."""
    from ingest.nlp_model import route_unstructured_to_packaged_model

    route_unstructured_to_packaged_model()
    from unstructured.partition.pdf import partition_pdf

    elements = partition_pdf(
        file=io.BytesIO(open_pdf_bytes(data)), strategy="fast", languages=["eng"]
    )
    return _join(_pieces(elements, titles_are_headings=True), "").text


def current_text(path: Path, data: bytes) -> str:
    return extract(path, data, MIME_PDF, max_unpacked_bytes=1 << 30).text


def pairs(split: str) -> list[tuple[Path, Path]]:
    """(PDF, TXT) pairs of the dev PDFs in the split, sorted by PDF name."""
    if not CUAD.is_dir():
        raise SystemExit(f"{CUAD} is absent: the benchmark needs ../shared/eval/cuad-dev")
    splits = json.loads((CUAD / "splits.json").read_text())
    wanted = set(splits["tune"]) | set(splits["report"]) if split == "all" else set(splits[split])
    by_pdf_name = {row["pdf_filename"].casefold(): row for row in cuad_index().values()}
    found = []
    for pdf in sorted((CUAD / "contracts_pdf").iterdir()):
        row = by_pdf_name[pdf.name.casefold()]
        if row["doc_id"] in wanted:
            found.append((pdf, CUAD / row["doc_file"]))
    return found


def show_misses(reference: list[str], candidate: list[str], limit: int) -> None:
    matcher = difflib.SequenceMatcher(None, reference, candidate, autojunk=False)
    shown = 0
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op in ("delete", "replace") and shown < limit:
            missing, instead = " ".join(reference[a0:a1]), " ".join(candidate[b0:b1])
            print(f"    txt {missing[:100]!r} | pdf {instead[:60]!r}")
            shown += 1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--split", choices=("tune", "report", "all"), default="tune")
    parser.add_argument("--baseline", action="store_true", help="the old unstructured fast text")
    parser.add_argument("--show", type=int, default=0, help="print N unmatched runs per file")
    parser.add_argument("--only", default="", help="only PDFs whose name contains this")
    args = parser.parse_args()

    files = [pair for pair in pairs(args.split) if args.only.casefold() in pair[0].name.casefold()]
    label = "baseline (unstructured fast)" if args.baseline else "current (ingest.extract)"
    print(f"PDF vs TXT in-order token agreement, {label}, split={args.split}: {len(files)} PDFs")
    matched_total = tokens_total = 0
    shares: list[float] = []
    started = time.perf_counter()
    for pdf, txt in files:
        data = pdf.read_bytes()
        text = baseline_text(data) if args.baseline else current_text(pdf, data)
        reference = tokens(txt.read_text(encoding="utf-8"))
        candidate = tokens(text)
        matched = in_order_matches(reference, candidate)
        matched_total += matched
        tokens_total += len(reference)
        shares.append(matched / len(reference))
        print(f"{matched / len(reference):.4f}  {matched:>6}/{len(reference):<6} {pdf.name[:70]}")
        if args.show:
            show_misses(reference, candidate, args.show)
    print(
        f"overall {matched_total / tokens_total:.4f} ({matched_total}/{tokens_total} tokens), "
        f"mean per PDF {sum(shares) / len(shares):.4f}, min {min(shares):.4f}; "
        f"{time.perf_counter() - started:.0f} s. Data: {CREDIT}"
    )


if __name__ == "__main__":
    main()
