"""Synthetic agreement openings (written for issue 9 from common contract forms, not copied from
any CUAD contract): which come out with exactly the expected title. A generalisation probe, not
a tuned figure; each FAIL line is a shape to fix with a unit test in
``tests/test_title_shapes.py``.

    PYTHONPATH=. python bench/title_shapes.py
    PYTHONPATH=. python bench/title_shapes.py --tune-half A   # or B: CUAD tune, see below
    PYTHONPATH=. python bench/title_shapes.py --fresh         # the second probe, see below

``--fresh`` scores ``bench/data/title_shapes_fresh.json`` instead: 52 more openings written (for
issue 9, stop 14) from general knowledge of SEC exhibit contracts before any CUAD text was read
and before the title code changed, so its first score was an honest estimate of unseen shapes
(see the closing note for the score before and after; once fixed against, it is a probe again).

``--tune-half A|B`` checks a title change against over-fitting, without the NLP pipeline: the
sorted ``tune`` ids of ``$ATTEST_CUAD_DIR/splits.json`` are split even/odd into halves A and B;
it prints title accuracy on that half (``agreement_names`` against CUAD's document name, compared
as ``bench/ner_eval.py`` does) and the per-contract misses of half A only. Look at A, keep a
change only if B does not drop. The ``report`` split is never read here.

A case passes when ``agreement_names`` gives exactly the expected title (white space collapsed),
the title's span holds that text, and, for amendments, addenda and schedules, the ``amends`` /
``schedule_of`` relation and the parent's title (or no parent) come out as expected. An
expected title of None means the opening names no title of its own (the registry then uses the
fallback "Agreement").

Out of scope: titles in other languages ("Contrato de Prestación de Servicios", "Vertrag über
..."): the title grammar reads English agreement words only.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":
    # Run as a script, bench/ would come first on sys.path and its ingest.py shadow the package.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from ingest.agreements import agreement_names, parent_amendment  # noqa: E402

_PREAMBLE = (
    ' (the "Agreement") is entered into as of March 1, 2021 (the "Effective Date") by and between Halcyon'
    ' Systems, Inc., a Delaware corporation ("Halcyon"), and Brookfield Analytics LLC, a New York limited'
    ' liability company ("Brookfield").\n\nRECITALS\n\nWHEREAS, Halcyon develops software; and\n'
)
_BODY = "\nNOW, THEREFORE, the parties agree as follows:\n\n1. DEFINITIONS\n\n1.1 \"Affiliate\" means any entity.\n"

# name: (opening text, expected title, expected (relation, parent) or None)
CASES: dict[str, tuple[str, str | None, tuple[str, str | None] | None]] = {
    "caps_heading": (
        "MASTER SERVICES AGREEMENT\n\nThis Master Services Agreement" + _PREAMBLE + _BODY,
        "MASTER SERVICES AGREEMENT", None),
    "exhibit_label_caps": (
        "EXHIBIT 10.1\n\nLICENSE AGREEMENT\n\nThis License Agreement" + _PREAMBLE + _BODY,
        "LICENSE AGREEMENT", None),
    "exhibit_label_title_case": (
        "Exhibit 10.23\n\nDistribution Agreement\n\nThis Distribution Agreement" + _PREAMBLE + _BODY,
        "Distribution Agreement", None),
    "exhibit_label_same_line": (
        "Exhibit 10.7 CONSULTING AGREEMENT\n\nThis Consulting Agreement" + _PREAMBLE + _BODY,
        "CONSULTING AGREEMENT", None),
    "sec_source_and_execution_version": (
        "Source: ACME CORP, 10-K, 3/1/2019\n\n\n\n\n\nExecution Version\n\nSUPPLY AGREEMENT\n\nThis Supply Agreement"
        + _PREAMBLE + _BODY,
        "SUPPLY AGREEMENT", None),
    "page_number_and_execution_copy": (
        "1\n\nEXECUTION COPY\n\nMARKETING AGREEMENT\n\nThis Marketing Agreement" + _PREAMBLE + _BODY,
        "MARKETING AGREEMENT", None),
    "confidential_above": (
        "CONFIDENTIAL\n\nMANUFACTURING AGREEMENT\n\nThis Manufacturing Agreement" + _PREAMBLE + _BODY,
        "MANUFACTURING AGREEMENT", None),
    "confidential_treatment_legend": (
        "[***] Confidential treatment has been requested for portions of this exhibit. The copy filed herewith"
        " omits the information subject to the confidentiality request. Omissions are designated as [***]. A"
        " complete version of this exhibit has been filed separately with the Securities and Exchange"
        " Commission.\n\nCOLLABORATION AGREEMENT\n\nThis Collaboration Agreement" + _PREAMBLE + _BODY,
        "COLLABORATION AGREEMENT", None),
    "information_excluded_legend": (
        "EXHIBIT 10.2\n\nCERTAIN IDENTIFIED INFORMATION HAS BEEN EXCLUDED FROM THIS EXHIBIT BECAUSE IT IS BOTH"
        " (I) NOT MATERIAL AND (II) WOULD LIKELY CAUSE COMPETITIVE HARM TO THE REGISTRANT IF PUBLICLY DISCLOSED."
        " SUCH INFORMATION IS MARKED [***].\n\nEXCLUSIVE LICENSE AGREEMENT\n\nThis Exclusive License Agreement"
        + _PREAMBLE + _BODY,
        "EXCLUSIVE LICENSE AGREEMENT", None),
    "table_of_contents_first": (
        "TABLE OF CONTENTS\n\nARTICLE 1 DEFINITIONS..........................1\nARTICLE 2 LICENSE GRANT"
        "........................4\nARTICLE 14 ENTIRE AGREEMENT....................22\n\n\nTECHNOLOGY LICENSE"
        " AGREEMENT\n\nThis Technology License Agreement" + _PREAMBLE + _BODY,
        "TECHNOLOGY LICENSE AGREEMENT", None),
    "title_then_table_of_contents": (
        "SUPPLY AND DISTRIBUTION AGREEMENT\n\nTABLE OF CONTENTS\n\n1. Definitions   1\n2. Appointment   3\n"
        "3. Entire Agreement   9\n\nSUPPLY AND DISTRIBUTION AGREEMENT\n\nThis Supply and Distribution Agreement"
        + _PREAMBLE + _BODY,
        "SUPPLY AND DISTRIBUTION AGREEMENT", None),
    "form_of": (
        "Exhibit 10.3\n\nFORM OF INDEMNIFICATION AGREEMENT\n\nThis Indemnification Agreement" + _PREAMBLE + _BODY,
        "FORM OF INDEMNIFICATION AGREEMENT", None),
    "amended_and_restated": (
        "AMENDED AND RESTATED LICENSE AGREEMENT\n\nThis Amended and Restated License Agreement" + _PREAMBLE + _BODY,
        "AMENDED AND RESTATED LICENSE AGREEMENT", None),
    "amended_and_restated_split": (
        "AMENDED AND RESTATED\nSTRATEGIC ALLIANCE AGREEMENT\n\nThis Amended and Restated Strategic Alliance Agreement"
        + _PREAMBLE + _BODY,
        "AMENDED AND RESTATED STRATEGIC ALLIANCE AGREEMENT", None),
    "amendment_names_parent": (
        "AMENDMENT NO. 2 TO SUPPLY AGREEMENT\n\nThis Amendment No. 2 (this \"Amendment\") is entered into as of"
        " May 5, 2020 by and between Halcyon Systems, Inc. and Brookfield Analytics LLC.\n\n1. Section 3 of the"
        " Agreement is deleted.\n",
        "AMENDMENT NO. 2 TO SUPPLY AGREEMENT", ("amends", "SUPPLY AGREEMENT")),
    "first_amendment_title_case": (
        "First Amendment to License Agreement\n\nThis First Amendment to License Agreement (this \"Amendment\")"
        " is made as of July 1, 2019 between Halcyon Systems, Inc. and Brookfield Analytics LLC.\n",
        "First Amendment to License Agreement", ("amends", "License Agreement")),
    "amendment_parent_in_prose": (
        "AMENDMENT NO. 3\n\nThis Amendment No. 3 is made as of June 1, 2020 and amends the Master Purchase"
        " Agreement dated January 2, 2017 between Halcyon Systems, Inc. and Brookfield Analytics LLC.\n",
        "AMENDMENT NO. 3", ("amends", "Master Purchase Agreement")),
    "addendum_split": (
        "ADDENDUM NO. 1\nTO THE\nRESELLER AGREEMENT\n\nThis Addendum is made on April 2, 2018 between Halcyon"
        " Systems, Inc. and Brookfield Analytics LLC.\n",
        "ADDENDUM NO. 1 TO THE RESELLER AGREEMENT", ("amends", "RESELLER AGREEMENT")),
    "schedule_to_parent": (
        "SCHEDULE A TO MASTER SERVICES AGREEMENT\n\nPRICING\n\n1. Fees. Customer shall pay the fees below.\n",
        "SCHEDULE A TO MASTER SERVICES AGREEMENT", ("schedule_of", "MASTER SERVICES AGREEMENT")),
    "statement_of_work": (
        "STATEMENT OF WORK NO. 4\n\nThis Statement of Work No. 4 is entered into under the Master Services"
        " Agreement dated January 1, 2020 between Halcyon Systems, Inc. and Brookfield Analytics LLC.\n\n"
        "1. Services.\n",
        "STATEMENT OF WORK NO. 4", ("schedule_of", "Master Services Agreement")),
    "split_heading": (
        "JOINT DEVELOPMENT\nAGREEMENT\n\nThis Joint Development Agreement" + _PREAMBLE + _BODY,
        "JOINT DEVELOPMENT AGREEMENT", None),
    "split_heading_on_and": (
        "LICENSE, SUPPLY AND\nDISTRIBUTION AGREEMENT\n\nThis Agreement" + _PREAMBLE + _BODY,
        "LICENSE, SUPPLY AND DISTRIBUTION AGREEMENT", None),
    "preamble_only": (
        "This Supply Agreement" + _PREAMBLE + _BODY,
        "Supply Agreement", None),
    "preamble_only_caps": (
        "THIS SOFTWARE LICENSE AGREEMENT" + _PREAMBLE + _BODY,
        "SOFTWARE LICENSE AGREEMENT", None),
    "title_case_heading": (
        "Software Development Agreement\n\nThis Software Development Agreement" + _PREAMBLE + _BODY,
        "Software Development Agreement", None),
    "agreement_number": (
        "MASTER PURCHASE AGREEMENT NO. 2020-117\n\nThis Master Purchase Agreement" + _PREAMBLE + _BODY,
        "MASTER PURCHASE AGREEMENT NO. 2020-117", None),
    "letter_agreement_re": (
        "HALCYON SYSTEMS, INC.\n400 Market Street\nSan Francisco, CA 94105\n\nMarch 3, 2020\n\nBrookfield"
        " Analytics LLC\n12 Park Avenue\nNew York, NY 10016\n\nRe: Consulting Agreement\n\nDear Ms. Ortiz:\n\n"
        "This letter agreement sets out the terms on which you will provide consulting services.\n",
        "Consulting Agreement", None),
    "letter_agreement_title": (
        "LETTER AGREEMENT\n\nMarch 3, 2020\n\nDear Mr. Patel:\n\nThis letter agreement (the \"Agreement\") confirms"
        " the terms agreed between Halcyon Systems, Inc. and you.\n",
        "LETTER AGREEMENT", None),
    "agreement_for_the_supply_of": (
        "AGREEMENT FOR THE SUPPLY OF GOODS\n\nThis Agreement" + _PREAMBLE + _BODY,
        "AGREEMENT FOR THE SUPPLY OF GOODS", None),
    "agreement_for_title_case": (
        "Agreement for the Provision of Cleaning Services\n\nThis Agreement" + _PREAMBLE + _BODY,
        "Agreement for the Provision of Cleaning Services", None),
    "agreement_and_plan_of_merger": (
        "AGREEMENT AND PLAN OF MERGER\n\nThis Agreement and Plan of Merger" + _PREAMBLE + _BODY,
        "AGREEMENT AND PLAN OF MERGER", None),
    "terms_and_conditions_of_sale": (
        "Terms and Conditions of Sale\n\n1. Acceptance. These terms govern every sale by Halcyon Systems, Inc.\n",
        "Terms and Conditions of Sale", None),
    "title_between_same_line": (
        "DISTRIBUTION AGREEMENT BETWEEN HALCYON SYSTEMS, INC. AND BROOKFIELD ANALYTICS LLC\n\nThis Agreement"
        + _PREAMBLE + _BODY,
        "DISTRIBUTION AGREEMENT", None),
    "date_line_first": (
        "March 15, 2018\n\nSTRATEGIC ALLIANCE AGREEMENT\n\nThis Strategic Alliance Agreement" + _PREAMBLE + _BODY,
        "STRATEGIC ALLIANCE AGREEMENT", None),
    "running_header": (
        "SERVICES AGREEMENT                                              Page 1 of 12\n\nSERVICES AGREEMENT\n\n"
        "This Services Agreement" + _PREAMBLE + _BODY + "\nSERVICES AGREEMENT          Page 2 of 12\n",
        "SERVICES AGREEMENT", None),
    "bare_agreement_heading": (
        "AGREEMENT\n\nTHIS AGREEMENT is made this 4th day of June, 2015 by and between Halcyon Systems, Inc."
        " and Brookfield Analytics LLC.\n\nWITNESSETH:\n",
        "AGREEMENT", None),
    "exhibit_cruft_omitted_text": (
        "EX-10.12 3 dex1012.htm SPONSORSHIP AGREEMENT\n\nExhibit 10.12\n\n*** Text Omitted and Filed Separately\n"
        "Confidential Treatment Requested\nUnder 17 C.F.R. §§ 200.80(b)(4) and 240.24b-2\n\nSPONSORSHIP AGREEMENT\n\n"
        "This Sponsorship Agreement" + _PREAMBLE + _BODY,
        "SPONSORSHIP AGREEMENT", None),
    "title_beside_exhibit_label": (
        "Trademark License Agreement                                   Exhibit 10.5\n\nThis Trademark License"
        " Agreement" + _PREAMBLE + _BODY,
        "Trademark License Agreement", None),
    "title_beside_execution_version": (
        "RESEARCH AGREEMENT                                        Execution Version\n\nThis Research Agreement"
        + _PREAMBLE + _BODY,
        "RESEARCH AGREEMENT", None),
    "title_case_split_heading": (
        "Master Software License\nand Services Agreement\n\nThis Master Software License and Services"
        " Agreement" + _PREAMBLE + _BODY,
        "Master Software License and Services Agreement", None),
    "title_then_by_and_between_lines": (
        "LICENSE AGREEMENT\n\nBY AND BETWEEN\n\nHALCYON SYSTEMS, INC.\n\nAND\n\nBROOKFIELD ANALYTICS LLC\n\n"
        "Dated as of March 1, 2021\n\nThis License Agreement" + _PREAMBLE + _BODY,
        "LICENSE AGREEMENT", None),
    "exhibit_form_of_attached": (
        "EXHIBIT B\n\nFORM OF ESCROW AGREEMENT\n\nThis Escrow Agreement" + _PREAMBLE + _BODY,
        "FORM OF ESCROW AGREEMENT", None),
    "page_header_company_confidential": (
        "Halcyon Systems, Inc. - Confidential                              Page 1\n\nHOSTING SERVICES AGREEMENT\n\n"
        "This Hosting Services Agreement" + _PREAMBLE + _BODY,
        "HOSTING SERVICES AGREEMENT", None),
    "mutual_nda_hyphen": (
        "MUTUAL NON-DISCLOSURE AGREEMENT\n\nThis Mutual Non-Disclosure Agreement" + _PREAMBLE + _BODY,
        "MUTUAL NON-DISCLOSURE AGREEMENT", None),
    "heading_with_trademark": (
        "PARTNERCONNECT® RESELLER AGREEMENT\n\nThis Reseller Agreement" + _PREAMBLE + _BODY,
        "PARTNERCONNECT® RESELLER AGREEMENT", None),
    "preamble_title_with_for": (
        "This Agreement for the Supply of Goods" + _PREAMBLE + _BODY,
        "Agreement for the Supply of Goods", None),
    "second_amendment_split_parent": (
        "SECOND AMENDMENT\nTO\nEMPLOYMENT AGREEMENT\n\nThis Second Amendment is made as of June 1, 2020 between"
        " Halcyon Systems, Inc. and Jane Ortiz.\n",
        "SECOND AMENDMENT TO EMPLOYMENT AGREEMENT", ("amends", "EMPLOYMENT AGREEMENT")),
    "unnumbered_section_heading_no_title": (
        "THIS AGREEMENT is made as of January 1, 2016 between Halcyon Systems, Inc. (\"Halcyon\") and Brookfield"
        " Analytics LLC (\"Brookfield\").\n\nTERM\n\nThe term is one year.\n\nENTIRE AGREEMENT\n\nThis is the"
        " whole agreement.\n",
        None, None),
    "memorandum_of_understanding": (
        "Exhibit 10.9\n\nMEMORANDUM OF UNDERSTANDING\n\nThis Memorandum of Understanding (the \"MOU\") is entered into"
        " as of May 2, 2019 by and between Halcyon Systems, Inc. and Brookfield Analytics LLC.\n",
        "MEMORANDUM OF UNDERSTANDING", None),
    "letter_of_intent": (
        "LETTER OF INTENT\n\nMarch 3, 2020\n\nDear Mr. Patel:\n\nThis letter sets out the terms on which Halcyon"
        " Systems, Inc. proposes to acquire Brookfield Analytics LLC.\n",
        "LETTER OF INTENT", None),
    "office_lease": (
        "OFFICE LEASE\n\nThis Office Lease (this \"Lease\") is made as of April 1, 2017 between Harbor Point"
        " Properties LLC (\"Landlord\") and Halcyon Systems, Inc. (\"Tenant\").\n\n1. PREMISES.\n",
        "OFFICE LEASE", None),
    "guaranty": (
        "GUARANTY\n\nThis Guaranty is made as of June 1, 2018 by Halcyon Holdings, Inc. in favor of Brookfield"
        " Analytics LLC.\n",
        "GUARANTY", None),
    "license_section_after_preamble_no_title": (
        "This instrument is made on June 1, 2018 between Halcyon Systems, Inc. and Brookfield Analytics LLC.\n"
        "GRANT OF LICENSE\n\nHalcyon grants Brookfield a licence.\n",
        None, None),
    "title_case_split_no_self_name": (
        "Master Software License and\nServices Agreement\n\nThis Agreement" + _PREAMBLE + _BODY,
        "Master Software License and Services Agreement", None),
    "exhibit_dash_title": (
        "EXHIBIT 10.4 - SUPPLY AGREEMENT\n\nThis Agreement" + _PREAMBLE + _BODY,
        "SUPPLY AGREEMENT", None),
    "cover_letter_then_agreement": (
        "March 1, 2020\n\nDear Ms. Ortiz:\n\nEnclosed is your copy of the executed Supply Agreement. Please keep it"
        " with your records.\n\nSincerely,\n\nJohn Reed\n\n\nVENDOR SUPPLY AGREEMENT\n\nThis Vendor Supply Agreement"
        + _PREAMBLE + _BODY,
        "VENDOR SUPPLY AGREEMENT", None),
    "caps_preamble_agreement_for": (
        "THIS AGREEMENT FOR MANAGEMENT SERVICES (this \"Agreement\") is made as of July 1, 2015 between Halcyon"
        " Systems, Inc. and Brookfield Analytics LLC.\n",
        "AGREEMENT FOR MANAGEMENT SERVICES", None),
    "heading_dated_same_line": (
        "LICENSE AGREEMENT dated as of March 1, 2021\n\nThis Agreement" + _PREAMBLE + _BODY,
        "LICENSE AGREEMENT", None),
    "year_in_heading": (
        "2019 SALES AGENCY AGREEMENT\n\nThis Agreement" + _PREAMBLE + _BODY,
        "2019 SALES AGENCY AGREEMENT", None),
    "contract_for_services": (
        "CONTRACT FOR SERVICES\n\nThis Contract" + _PREAMBLE.replace("Agreement", "Contract") + _BODY,
        "CONTRACT FOR SERVICES", None),
    "heading_then_between_lowercase_lines": (
        "CONSULTING AGREEMENT\n\nbetween\n\nHalcyon Systems, Inc.\n\nand\n\nJane Ortiz\n\nThis Consulting Agreement"
        + _PREAMBLE + _BODY,
        "CONSULTING AGREEMENT", None),
    "amendment_with_date_line_and_parent_in_prose": (
        "FIRST AMENDMENT\n\nDated as of June 1, 2020\n\nReference is made to that certain Distribution Agreement"
        " dated January 1, 2018 between Halcyon Systems, Inc. and Brookfield Analytics LLC.\n",
        "FIRST AMENDMENT", ("amends", "Distribution Agreement")),
    "amendment_title_case_preamble_only": (
        "This First Amendment to Services Agreement (this \"Amendment\") is made as of June 1, 2020 between"
        " Halcyon Systems, Inc. and Brookfield Analytics LLC.\n",
        "First Amendment to Services Agreement", ("amends", "Services Agreement")),
    "bare_agreement_then_for_line": (
        "AGREEMENT\nFOR THE PROVISION OF CONSULTING SERVICES\n\nThis Agreement" + _PREAMBLE + _BODY,
        "AGREEMENT FOR THE PROVISION OF CONSULTING SERVICES", None),
    "possessive_in_heading": (
        "MANUFACTURER’S REPRESENTATIVE AGREEMENT\n\nThis Agreement" + _PREAMBLE + _BODY,
        "MANUFACTURER’S REPRESENTATIVE AGREEMENT", None),
    "english_cover_page_and_contents": (
        "DATED 1 MAY 2015\n\n(1) HALCYON SYSTEMS LIMITED\n\n(2) BROOKFIELD ANALYTICS LIMITED\n\n\nDISTRIBUTION"
        " AGREEMENT\n\n\nCONTENTS\n\nClause\n1. Definitions and interpretation  1\n2. Appointment  4\n3. Entire"
        " agreement  12\n4. Governing law  13\n\nTHIS AGREEMENT is dated 1 May 2015\n\nPARTIES\n\n(1) HALCYON"
        " SYSTEMS LIMITED incorporated in England (\"Supplier\")\n(2) BROOKFIELD ANALYTICS LIMITED (\"Distributor\")\n",
        "DISTRIBUTION AGREEMENT", None),
    "contents_unnumbered_caps_entries": (
        "CONTENTS\n\nTERM OF AGREEMENT    3\nENTIRE AGREEMENT    9\n\n\nDISTRIBUTION AGREEMENT\n\nThis Distribution"
        " Agreement" + _PREAMBLE + _BODY,
        "DISTRIBUTION AGREEMENT", None),
    "edgar_header_block": (
        "<DOCUMENT>\n<TYPE>EX-10.1\n<SEQUENCE>2\n<FILENAME>ex10-1.txt\n<DESCRIPTION>LICENSE AGREEMENT\n<TEXT>\n\n"
        "EXCLUSIVE LICENSE AGREEMENT\n\nThis Exclusive License Agreement" + _PREAMBLE + _BODY,
        "EXCLUSIVE LICENSE AGREEMENT", None),
    "letter_amendment_re": (
        "HALCYON SYSTEMS, INC.\n\nJune 2, 2020\n\nMr. Raj Patel\n18 Elm Road\nBoston, MA 02110\n\nRe: First"
        " Amendment to Consulting Agreement\n\nDear Mr. Patel:\n\nThis letter amends the Consulting Agreement"
        " dated January 4, 2019 between Halcyon Systems, Inc. and you.\n",
        "First Amendment to Consulting Agreement", ("amends", "Consulting Agreement")),
    # Negative shapes: the first caps line is not the title.
    "terms_and_conditions_subheading": (
        "MASTER SERVICES AGREEMENT\n\nTERMS AND CONDITIONS\n\nThis Master Services Agreement" + _PREAMBLE + _BODY,
        "MASTER SERVICES AGREEMENT", None),
    "general_terms_subheading": (
        "EQUIPMENT LEASE AGREEMENT\n\nGeneral Terms and Conditions\n\nThis Equipment Lease Agreement" + _PREAMBLE + _BODY,
        "EQUIPMENT LEASE AGREEMENT", None),
    "letterhead_first": (
        "BROOKFIELD ANALYTICS LLC\n12 Park Avenue, New York, NY 10016\n\nDATA LICENSE AGREEMENT\n\n"
        "This Data License Agreement" + _PREAMBLE + _BODY,
        "DATA LICENSE AGREEMENT", None),
    "parties_cover_page": (
        "DATED 1 JUNE 2015\n\nHALCYON SYSTEMS LIMITED\n\nand\n\nBROOKFIELD ANALYTICS LIMITED\n\n\n\nSHARE"
        " PURCHASE AGREEMENT\n\nTHIS AGREEMENT is dated 1 June 2015 and made between Halcyon Systems Limited and"
        " Brookfield Analytics Limited.\n",
        "SHARE PURCHASE AGREEMENT", None),
    "recitals_no_heading": (
        "THIS AGREEMENT is made as of January 1, 2016 between Halcyon Systems, Inc. (\"Halcyon\") and"
        " Brookfield Analytics LLC (\"Brookfield\").\n\nWITNESSETH\n\nRECITALS\n\nA. Halcyon wishes to engage"
        " Brookfield under the Services Agreement.\n",
        None, None),
    "background_then_mentions": (
        "BACKGROUND\n\nThe parties entered into a Loan Agreement dated May 1, 2014 (the \"Loan Agreement\").\n\n"
        "PLEDGE AGREEMENT\n\nThis Pledge Agreement" + _PREAMBLE + _BODY,
        "PLEDGE AGREEMENT", None),
}


def check(text: str, title: str | None, relation: tuple[str, str | None] | None) -> str | None:
    """None when the case comes out exactly, else what came out."""
    found, aliases = agreement_names(text)
    got = " ".join(found.text.split()) if found else None
    if got != title:
        return f"title {got!r}"
    if found is not None and " ".join(text[found.start : found.end].split()) != got:
        return f"span {found.start}-{found.end} holds {text[found.start:found.end]!r}"
    read = parent_amendment(found, aliases, text) if found else None
    got_relation = (read[0].relation, " ".join(read[0].parent.split()) if read[0].parent else None) if read else None
    if got_relation != relation:
        return f"amendment {got_relation!r}"
    return None


def tune_half(half: str) -> int:
    """Title accuracy on half ``half`` of the CUAD tune list (see the module docstring)."""
    import json
    import os

    from ingest.text import name_words

    cuad = Path(os.environ.get("ATTEST_CUAD_DIR", Path(__file__).resolve().parents[2] / "shared" / "eval" / "cuad-dev"))
    tune = sorted(json.loads((cuad / "splits.json").read_text(encoding="utf-8"))["tune"])
    members = set(tune[0::2] if half == "A" else tune[1::2])
    rows = [json.loads(line) for line in (cuad / "contracts_index.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = sorted((r for r in rows if r["doc_id"] in members), key=lambda r: r["doc_id"])
    correct = 0
    for row in rows:
        title, _ = agreement_names((cuad / row["doc_file"]).read_text(encoding="utf-8"))
        got = title.text if title else "Agreement"  # the registry's fallback name, as ner_eval scores it
        if name_words(got) == name_words(row["document_name"]):
            correct += 1
        elif half == "A":
            print(f"MISS {row['doc_id']}: want {row['document_name']!r} got {got!r}")
    print(f"tune half {half}: title accuracy {correct / max(1, len(rows)):.3f} ({correct}/{len(rows)})")
    return 0


def fresh_cases() -> dict[str, tuple[str, str | None, tuple[str, str | None] | None]]:
    """The held-out openings of ``bench/data/title_shapes_fresh.json``, in the shape of ``CASES``."""
    import json

    data = json.loads((Path(__file__).resolve().parent / "data" / "title_shapes_fresh.json").read_text(encoding="utf-8"))
    return {
        case["name"]: (case["text"], case["title"], tuple(case["relation"]) if case["relation"] else None)  # type: ignore[misc]
        for case in data["cases"]
    }


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--tune-half" and sys.argv[2] in ("A", "B"):
        return tune_half(sys.argv[2])
    cases = fresh_cases() if sys.argv[1:] == ["--fresh"] else CASES
    failures = 0
    for name, (text, title, relation) in sorted(cases.items()):
        problem = check(text, title, relation)
        failures += problem is not None
        print(f"{'OK  ' if problem is None else 'FAIL'} {name}" + (f" want {title!r} {relation!r}, got {problem}" if problem else ""))
    print(f"{len(cases) - failures}/{len(cases)} openings titled exactly")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
