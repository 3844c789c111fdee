"""Synthetic party-clause shapes (written for issue 9 from common contract forms, not copied from
any CUAD contract): which the party extraction binds exactly. A generalisation probe, not a tuned
figure; each FAIL line is a shape to fix with a unit test in ``tests/test_party_names.py``.

    PYTHONPATH=. python bench/party_shapes.py

A case fails when a listed name is not bound by ``party_to`` (name or alias, after the
registry's normalisation) or a bound party's normalised name/aliases match no listed name.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":
    # Run as a script, bench/ would come first on sys.path and its ingest.py shadow the package.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from ingest.annotate import annotate_document  # noqa: E402
from ingest.normalize import normalise_org  # noqa: E402

CASES = {
"univ_regents": ("LICENSE AGREEMENT\n\nThis License Agreement is entered into by and between The Regents of the University of California, a California public corporation (\"The Regents\"), and Nova Biotherapeutics, Inc., a Delaware corporation (\"Licensee\").\n\nRECITALS\n", {"The Regents of the University of California","Nova Biotherapeutics, Inc."}),
"univ_board": ("SPONSORED RESEARCH AGREEMENT\n\nThis Agreement is made between The Board of Trustees of the Leland Stanford Junior University (\"Stanford\") and Kestrel Labs, Inc. (\"Sponsor\").\n\nWHEREAS\n", {"The Board of Trustees of the Leland Stanford Junior University","Kestrel Labs, Inc."}),
"univ_iowa": ("LICENSE AGREEMENT\n\nThis Agreement is made by and between Artara Therapeutics, Inc. (\"Licensee\") and The University of Iowa (\"University\").\n\nWHEREAS\n", {"Artara Therapeutics, Inc.","The University of Iowa"}),
"person_employment": ("EMPLOYMENT AGREEMENT\n\nThis Employment Agreement (the \"Agreement\") is entered into as of March 1, 2019, by and between Quill Systems, Inc., a Delaware corporation (the \"Company\"), and John R. Smithers (\"Executive\").\n\n1. Employment.\n", {"Quill Systems, Inc.","John R. Smithers"}),
"person_caps": ("ENDORSEMENT AGREEMENT\n\nThis Agreement is made between PELICAN BRANDS LTD. (\"Company\") and NIGEL CROCKETT (\"Athlete\").\n\n1. Term.\n", {"PELICAN BRANDS LTD.","NIGEL CROCKETT"}),
"person_individual": ("CONSULTING AGREEMENT\n\nThis Consulting Agreement is made effective as of June 1, 2018 between Orbit Media Corp. (the \"Company\") and Maria Elena Gonzalez, an individual residing at 12 Oak Street, Austin, Texas (\"Consultant\").\n\nWHEREAS\n", {"Orbit Media Corp.","Maria Elena Gonzalez"}),
"numbered": ("SHARE PURCHASE AGREEMENT\n\nTHIS AGREEMENT is dated 1 May 2015\n\nBETWEEN:\n\n(1) HARBOUR HOLDINGS LIMITED, a company incorporated in England (the \"Seller\"); and\n\n(2) ZENITH CAPITAL PARTNERS LLP, a limited liability partnership (the \"Buyer\").\n\nBACKGROUND\n", {"HARBOUR HOLDINGS LIMITED","ZENITH CAPITAL PARTNERS LLP"}),
"numbered_parties_heading": ("SUPPLY AGREEMENT\n\nPARTIES\n\n1. Fenwick Pharma AG, Basel, Switzerland (\"Fenwick\")\n\n2. Oriole Health B.V., Amsterdam (\"Oriole\")\n\nBACKGROUND\n", {"Fenwick Pharma AG","Oriole Health B.V."}),
"forms_sa_gmbh": ("DISTRIBUTION AGREEMENT\n\nThis Agreement is made between Establishment Labs, S.A, a Costa Rica company (\"Supplier\"), and Medtron GmbH, a German company (\"Distributor\").\n\nWHEREAS\n", {"Establishment Labs, S.A","Medtron GmbH"}),
"roche": ("COLLABORATION AGREEMENT\n\nThis Agreement is entered into between F. Hoffmann-La Roche Ltd, with an office at Grenzacherstrasse 124, 4070 Basel, Switzerland (\"Roche Basel\") and Zeta Bio, Inc. (\"Zeta\").\n\nWHEREAS\n", {"F. Hoffmann-La Roche Ltd","Zeta Bio, Inc."}),
"fund_trust": ("INVESTMENT ADVISORY AGREEMENT\n\nAGREEMENT made this 1st day of July, 2010, by and between Granite Street Trust, a Massachusetts business trust (the \"Trust\"), and Alder Capital Management LLC, a Delaware limited liability company (the \"Adviser\").\n\nWITNESSETH\n", {"Granite Street Trust","Alder Capital Management LLC"}),
"institute": ("RESEARCH AGREEMENT\n\nThis Research Agreement is made by and between Massachusetts Institute of Technology (\"M.I.T.\") and Lumen Devices Corporation (\"Sponsor\").\n\n1. Research.\n", {"Massachusetts Institute of Technology","Lumen Devices Corporation"}),
"hospital": ("CLINICAL TRIAL AGREEMENT\n\nThis Agreement is between Mayo Foundation for Medical Education and Research, a Minnesota charitable corporation (\"Mayo\"), and Vireo Therapeutics, Inc. (\"Sponsor\").\n\nRECITALS\n", {"Mayo Foundation for Medical Education and Research","Vireo Therapeutics, Inc."}),
"sig_only_caps_no_form": ("MARKETING AGREEMENT\n\nThis Agreement is made between the parties signing below.\n\n1. Marketing.\n\nIN WITNESS WHEREOF, the parties have executed this Agreement.\n\nUNITED AIRLINES, INC.\n\nBy: ______\nName: Ann Lee\nTitle: VP\n\nSNAP TECHNOLOGIES, INC.\n\nBy: ______\nName: Bo Chen\nTitle: CEO\n", {"UNITED AIRLINES, INC.","SNAP TECHNOLOGIES, INC."}),
"sig_university": ("LICENSE AGREEMENT\n\nThis License Agreement is made by and between the University of Kent (\"University\") and Pylon Inc. (\"Licensee\").\n\n1. Grant.\n\nIN WITNESS WHEREOF, the parties have executed this Agreement.\n\nUNIVERSITY OF KENT\n\nBy: ______\nName: Ann Lee\n\nPYLON INC.\n\nBy: ______\nName: Bo Chen\n", {"University of Kent","Pylon Inc."}),
"co_ltd": ("COOPERATION AGREEMENT\n\nParty A: Beike Internet Security Technology Co., Ltd.\nAddress: Beijing\n\nParty B: Shenzhen Lianhua Trading Co., Ltd.\nAddress: Shenzhen\n\nWHEREAS\n", {"Beike Internet Security Technology Co., Ltd.","Shenzhen Lianhua Trading Co., Ltd."}),
"with_form": ("SERVICES AGREEMENT\n\nThis Services Agreement is entered into as of January 1, 2020 by Apex Logistics, L.P. (\"Apex\") with Brightline Holdings Pty Ltd (\"Brightline\").\n\n1. Services.\n", {"Apex Logistics, L.P.","Brightline Holdings Pty Ltd"}),
"kk_nv_plc": ("LICENSE AGREEMENT\n\nThis Agreement is made between Tanaka Seiki K.K. (\"Tanaka\"), Vanderbilt Media N.V. (\"VM\") and Harrow Group plc (\"Harrow\").\n\nWHEREAS\n", {"Tanaka Seiki K.K.","Vanderbilt Media N.V.","Harrow Group plc"}),
"bank_na_mhc": ("AGENCY AGREEMENT\n\nThis Agreement is made by and among Riverbend Bancorp, MHC, a federal mutual holding company (the \"MHC\"), and First Republic Bank, N.A. (the \"Agent\").\n\nWHEREAS\n", {"Riverbend Bancorp, MHC","First Republic Bank, N.A."}),
"dba_subsidiary": ("RESELLER AGREEMENT\n\nThis Agreement is between 695014 B.C. Ltd. dba Galaxy Telecom (\"Reseller\") and Orca Networks Inc., a subsidiary of Orca Holdings Corp. (\"Orca\").\n\nWHEREAS\n", {"695014 B.C. Ltd. dba Galaxy Telecom","Orca Networks Inc."}),
"each_party_def": ("SUPPLY AGREEMENT\n\nThis Supply Agreement is entered into by Crestview Foods LLC and Delmar Packaging Company (each a \"Party\" and together the \"Parties\").\n\n1. Supply.\n", {"Crestview Foods LLC","Delmar Packaging Company"}),
"hereinafter": ("AGREEMENT\n\nThis AGREEMENT is made between SOLARIS ENERGY CORP., hereinafter referred to as \"Solaris\", and Jacob T. Miller, hereinafter referred to as \"Contractor\".\n\n1. Work.\n", {"SOLARIS ENERGY CORP.","Jacob T. Miller"}),
"on_one_hand": ("SETTLEMENT AGREEMENT\n\nThis Agreement is entered into by and between Verity Software, Inc. (\"Verity\"), on the one hand, and Robert Klein and Susan Klein (together, the \"Kleins\"), on the other hand.\n\nRECITALS\n", {"Verity Software, Inc.","Robert Klein","Susan Klein"}),
"sig_person": ("CONSULTING AGREEMENT\n\nThis Consulting Agreement is made between Harbor Light Inc. (\"Company\") and Peter Voss (\"Consultant\").\n\n1. Services.\n\nIN WITNESS WHEREOF, the parties have signed.\n\nHARBOR LIGHT INC.\n\nBy: /s/ Jane Doe\nName: Jane Doe\nTitle: CEO\n\nCONSULTANT\n\n/s/ Peter Voss\nPeter Voss\n", {"Harbor Light Inc.","Peter Voss"}),
"llp_lp": ("ENGAGEMENT LETTER\n\nThis Agreement is made by and between Meridian Partners LLP (\"Meridian\") and Tallgrass Energy Partners, LP (\"Tallgrass\").\n\n1. Scope.\n", {"Meridian Partners LLP","Tallgrass Energy Partners, LP"}),
"spa_srl": ("SUPPLY AGREEMENT\n\nThis Agreement is made between Ferro Italia S.p.A. (\"Ferro\") and Lumina SRL (\"Lumina\").\n\n1. Supply.\n", {"Ferro Italia S.p.A.","Lumina SRL"}),
"this_agreement_between_lowercase_desc": ("JOINT VENTURE AGREEMENT\n\nTHIS JOINT VENTURE AGREEMENT is made this 3rd day of May 2012 between ARGO MINING CORPORATION, a company incorporated under the laws of British Columbia, having its office at 100 Main St, Vancouver (hereinafter \"Argo\") AND TERRA METALS INC., a Nevada corporation (hereinafter \"Terra\").\n\nWHEREAS\n", {"ARGO MINING CORPORATION","TERRA METALS INC."}),
}


def main() -> int:
    failures = 0
    for name, (text, gold) in sorted(CASES.items()):
        annotations = annotate_document(text, [(0, len(text))], doc_id="probe", revision="probe")
        agreement = next((s for s in annotations.subjects if s.type == "agreement"), None)
        bound = [s for s in annotations.subjects if agreement and s.subject_id in agreement.attributes["parties"]]
        gold_keys = {normalise_org(g) for g in gold}
        forms = {normalise_org(f) for s in bound for f in (s.name, *s.aliases)}
        missed = sorted(g for g in gold if normalise_org(g) not in forms)
        extra = sorted(s.name for s in bound if not {normalise_org(f) for f in (s.name, *s.aliases)} & gold_keys)
        ok = not missed and not extra
        failures += not ok
        print(f"{'OK  ' if ok else 'FAIL'} {name} missed={missed} extra={extra}")
    print(f"{len(CASES) - failures}/{len(CASES)} shapes bound exactly")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
