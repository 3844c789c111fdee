"""Party and title shapes of stop 71 (issue 9), each found on set new24 (US airport leases and
interlocal agreements, an Australian lease cover, SEC notes and consulting agreements, a Sri Lankan
MoU; collected at stop 70 by helpers who read no Attest code, its texts rebuilt this stop from the
same stored pages) and, for the office holder, on the one not-in-KB question of the fresh set new25
that passed the gate. The names here are invented. Each test but the guards fails on the code
before its rule.

- A cover line that only states a trustee's capacity ("As Security Trustee For", "As Trustee
  For") names on the next line the one the party above holds for: no party of its own.
- A note's maker described as an entity ("..., a California limited partnership (“Maker”)") is a
  party without a legal form in its name, and "receipt of which is hereby acknowledged" opens the
  maker's clause like "FOR VALUE RECEIVED".
- A plus closes or joins a word of a name ("B+ Bookkeeping Services, Inc."), in the text and in
  the question; a plus standing apart is still stray punctuation.
- "This Memorandum of Understanding (MoU) between ..." titles a text with no heading, and "The
  University of Harrowgate, Sri Lanka" is an institution, not a person living in a town.
- A topic word in capitals run into a heading's line ends the name before it ("... AND THE KESTREL
  PARK DISTRICT REGARDING DOG PARK").
- "the cities of Ashby, Harrowgate, and Kestrel Hill, municipal corporations in ..." names each
  listed local government a party.
- A title-case heading goes on after its agreement word with "For" and capitalised words to the
  line's end ("Amendment No. 1 to\nKestrel License Agreement For Real-Time In Vivo Imaging
  Technology").
- A contents page run into one line ("PREAMBLE 1 DEFINITIONS AND INTERPRETATIONS 1 2 TERM OF
  AGREEMENT 15 ...") is no title: three bare numbers make a contents line, and the heading over the
  cover's parties ("Power Purchase Agreement between\n\nX Limited ...") titles the contract.
- A person named with an office of a body ("Jane Westby, Chief Executive of London Borough of
  Harrowgate at ... (“the Local Authority”)"), under a term for an organisation, acts for that
  body: the body is the party. A person's own term keeps the person.

The gate tests run on a real SQLite store filled by the real ingest pipeline (spaCy, MiniLM)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingest.annotate import _unit_list_names
from ingest.names import name_at
from ingest.party_layout import held_for
from service.evidence.subject_class import parse_question
from tests.helpers import agreement_title, bound_party_names
from tests.kb import KB, ingested_kb

TRUSTEE_COVER = (
    "COMMERCIAL LEASE AGREEMENT\n12/100 Harbour Road, Kestrel\n\nBETWEEN\n\nWESTLAND PTY LTD\n(ACN 011 222 333)\n"
    "As Security Trustee For\nHARROW MANAGEMENT PTY LTD\n(ACN 044 555 666)\nAs Trustee For\nTHE KESTREL FUND\n"
    "(“Lessor”)\n\nAND\n\nBETA MINERALS LTD\n(ACN 077 888 999)\n(“Lessee”)\n\nReference: L100 (rl)\n\n\n\n"
    "TABLE OF CONTENTS\n\n1.\n\nDEFINITIONS AND INTERPRETATION\n"
)

NOTE = (
    "SECURED PROMISSORY NOTE\n\n$850,000.00\n\nSeptember 30, 2020\n\nFOR VALUE RECEIVED, receipt of which is hereby "
    "acknowledged, Kestrel Mortgage Investors VIII, a California limited partnership (“Maker”), promises to pay to "
    "Harrow Lending Fund IX, LLC, a Delaware limited liability company (“Payee”), the principal sum of Eight "
    "Hundred and Fifty Thousand Dollars ($850,000.00) (“Principal”) together with interest as provided in this "
    "Secured Promissory Note (“Note”) and on the following terms and conditions:\n\n1. Secured Note. This Note is "
    "secured by that certain Pledge and Security Agreement of even date herewith, entered into by and between Maker "
    "and Payee (the “Pledge Agreement”).\n"
)

PLUS = (
    "Exhibit 10.6\nConsultant's Agreement\nAgreement (\"Agreement\"), is made and entered into on August 25, 2014, "
    "between Kestrel Solutions, Inc., located at 190 Harbour Blvd., Kestrel, FL 33431 (\"Company\") and B+ "
    "Bookkeeping Services, Inc., acting herein by its President, Jane Roe, duly authorized, with current legal "
    "address 209 Via Westland, Kestrel, FL 33428 (\"Consultant\").\nIn consideration of the mutual covenants set "
    "forth herein, Company agrees to engage Consultant.\n"
)

MOU = (
    "MoU between 'KF' and the University of Harrowgate\n\nBack\nUniversity of Harrowgate, Sri Lanka - 14th "
    "October 2010\n\nMemorandum of Understanding (MoU) between University of Harrowgate, and the Kestrel "
    "Foundation, for the establishment of a Centre at the University of Harrowgate, Sri Lanka.\n\n \nThis "
    "Memorandum of Understanding (MoU) between the Kestrel Foundation (KF), a secular, non-profit and "
    "non-political organization, hereinafter referred to as the \"KF\", on the one part,\n\nAND\n\nThe University "
    "of Harrowgate, Sri Lanka, a University created by Universities Act No. 16 of 1978, located at Katubedda, "
    "Sri Lanka, hereinafter referred to as the \"University\", on the second part (hereinafter the KF and "
    "Universities are together referred to as \"Parties\")\n\nsets forth the agreements reached between the "
    "Parties.\n"
)

OFFICE_HOLDER = (
    "Consultancy Agreement\nBetween\nLondon Borough of Harrowgate\n-and-\nJohn Kestrel\nKestrel Associates "
    "Limited\n12 April 2010\nStrictly Private and Confidential\nThis AGREEMENT is made on the 12th day of April "
    "2010 BETWEEN:\nKestrel Associates Limited; John Kestrel (“the Consultant”)\nand\nJane Westby, Chief "
    "Executive of London Borough of Harrowgate at Building 4, North Business Park, Oakleigh Road South, London "
    "N11 1NP (“the Local Authority”)\nWHEREAS\nThe London Borough of Harrowgate requires an interim Deputy "
    "Chief Executive.\nIt is agreed as follows:\n1. Nature and Term of the Contract\n"
)

OWN_TERM = (
    "EMPLOYMENT AGREEMENT\n\nThis Employment Agreement is made between Kestrel Widgets Limited (the \"Company\") and "
    "Jane Westby, Chief Executive of Harrow Holdings Limited at 1 High Street, London N1 1AA (the \"Executive\").\n\n"
    "1. Employment. The Company employs the Executive.\n"
)


UNIT_LIST = (
    "INTERLOCAL COOPERATION AGREEMENT\nFOR LAW ENFORCEMENT MUTUAL AID\nThis AGREEMENT is entered into by WESTMARK "
    "COUNTY, a subdivision of the State of Washington and its Sheriff, the cities of Ashby, Harrowgate, Kestrel Hill, "
    "and Yorkton, municipal corporations in the State of Washington, for the purpose of setting forth their plan "
    "for mutual aid.\nWHEREAS, law enforcement agencies keep the peace; and\n"
)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(
        tmp_path_factory, embedder, "shapes-s71", {"lease": TRUSTEE_COVER, "plus": PLUS, "office": OFFICE_HOLDER}
    )


def test_the_one_a_trustee_holds_for_on_the_next_cover_line_is_no_party() -> None:
    # Before: HARROW MANAGEMENT PTY LTD and THE KESTREL FUND were bound too.
    assert bound_party_names(TRUSTEE_COVER) == {"WESTLAND PTY LTD", "BETA MINERALS LTD"}
    start = TRUSTEE_COVER.index("THE KESTREL FUND")
    assert held_for(TRUSTEE_COVER, start)
    # (Guards: the trustee itself, and a name not under a capacity line, are not held for.)
    assert not held_for(TRUSTEE_COVER, TRUSTEE_COVER.index("WESTLAND PTY LTD"))
    assert not held_for(TRUSTEE_COVER, TRUSTEE_COVER.index("BETA MINERALS LTD"))


def test_a_trust_a_trustee_holds_for_fails_the_gate(kb: KB) -> None:
    docs, _ = kb.docs("What law governs the COMMERCIAL LEASE AGREEMENT between WESTLAND PTY LTD and BETA MINERALS LTD?")
    assert docs == {"lease"}
    docs, result = kb.docs("What law governs the COMMERCIAL LEASE AGREEMENT between THE KESTREL FUND and BETA MINERALS LTD?")
    assert docs == set()
    assert any("THE KESTREL FUND" in r["reason"] for r in result.rejected) or "THE KESTREL FUND" in result.unresolved


def test_a_makers_entity_description_makes_it_a_party_of_the_note() -> None:
    # Before: only the payee was bound (the maker has no legal form in its name).
    assert bound_party_names(NOTE) == {"Kestrel Mortgage Investors VIII", "Harrow Lending Fund IX, LLC"}
    # (Guard: the lead is no name.)
    assert "FOR VALUE RECEIVED" not in bound_party_names(NOTE)


def test_a_plus_closes_a_word_of_a_name_in_the_text_and_the_question() -> None:
    # Before: "Bookkeeping Services, Inc." (the "B+" was dropped) and the question was refused as stray.
    assert bound_party_names(PLUS) == {"Kestrel Solutions, Inc.", "B+ Bookkeeping Services, Inc."}
    asked = parse_question("What law governs the Consultant's Agreement between Kestrel Solutions, Inc. and B+ Bookkeeping Services, Inc.?")
    assert asked.parties == ["Kestrel Solutions, Inc.", "B+ Bookkeeping Services, Inc"]
    assert asked.failures == []
    # (Guard: a plus standing apart from any word is still stray punctuation.)
    stray = parse_question("What law governs the Consultant's Agreement between Kestrel Solutions, Inc. and + Bookkeeping Services, Inc.?")
    assert any("stray '+'" in failure for failure in stray.failures)


def test_a_name_with_a_plus_passes_the_gate_and_without_it_fails(kb: KB) -> None:
    asked = "What law governs the Consultant's Agreement between Kestrel Solutions, Inc. and {}?"
    docs, _ = kb.docs(asked.format("B+ Bookkeeping Services, Inc."))
    assert docs == {"plus"}
    docs, _ = kb.docs(asked.format("C+ Bookkeeping Services, Inc."))
    assert docs == set()


def test_a_memorandum_of_understanding_names_itself_and_a_university_is_no_resident() -> None:
    # Before: no title (a line above the preamble hid "This Memorandum of Understanding") and
    # "The University" cut before "of Harrowgate, Sri Lanka" as if a person's town.
    assert agreement_title(MOU) == "Memorandum of Understanding"
    assert bound_party_names(MOU) == {"Kestrel Foundation", "The University of Harrowgate"}
    # (Guard: an instrument word alone is no name: "This Lease" under no heading gives no title of
    # its own, so the registry's fallback.)
    assert agreement_title("Home\n\nThis Lease is made between Kestrel Widgets, Inc. and Harrow Holdings LLC.\n") == "Agreement"


def test_an_officer_under_an_organisations_term_acts_for_the_body() -> None:
    # Before: Jane Westby was bound as "the Local Authority".
    # (The consultant's company before "; John Kestrel" is no party here: a company and its
    # person under one term is a shape left open.)
    assert bound_party_names(OFFICE_HOLDER) == {"London Borough of Harrowgate", "John Kestrel"}
    # A person and her office in a company is never one comma name (before: "Jane Westby, Chief
    # Executive of Harrow Holdings Limited" was bound), and under an organisation's term the
    # company is the party.
    assert bound_party_names(OWN_TERM.replace('"Executive"', '"Authority"')) == {"Kestrel Widgets Limited", "Harrow Holdings Limited"}
    # (Guard: a person's own term keeps the person, not the company she is an officer of.)
    assert bound_party_names(OWN_TERM) == {"Kestrel Widgets Limited", "Jane Westby"}


def test_the_officer_acting_for_the_body_fails_the_gate(kb: KB) -> None:
    # The not-in-KB question new25 let through, on invented names.
    docs, _ = kb.docs(
        "What law governs the Consultancy Agreement among Jane Westby, John Kestrel and London Borough of Harrowgate?"
    )
    assert docs == set()
    docs, _ = kb.docs(
        "What law governs the Consultancy Agreement between John Kestrel and London Borough of Harrowgate?"
    )
    assert docs == {"office"}


def test_a_shouted_topic_word_run_into_the_line_ends_the_name() -> None:
    # Before: "THE KESTREL PARK DISTRICT REGARDING DOG PARK WHEREAS" was one name.
    line = "THE KESTREL PARK DISTRICT REGARDING DOG PARK WHEREAS"
    assert name_at(line, 0, len(line)).text == "THE KESTREL PARK DISTRICT"
    # (Guard: a name that opens with the word keeps it.)
    assert name_at("REGARDING MEDIA INC. and", 0, 24).text == "REGARDING MEDIA INC."


def test_a_list_of_local_governments_after_their_plural_unit_names_each() -> None:
    # Before: only the names the learned review happened to add (two of four) were parties.
    assert bound_party_names(UNIT_LIST) == {"WESTMARK COUNTY", "Ashby", "Harrowgate", "Kestrel Hill", "Yorkton"}
    # (Guards: a list its "and" does not close, or of one member, names none.)
    unclosed = "the cities of Ashby, Harrowgate, municipal corporations"
    assert _unit_list_names(unclosed, [(0, len(unclosed))]) == []
    single = "the cities of Ashby and the Sheriff"
    assert _unit_list_names(single, [(0, len(single))]) == []


def test_a_unit_list_reads_at_most_twelve_members() -> None:
    members = [f"Town{chr(65 + i)}" for i in range(14)]
    at_bound = "the towns of " + ", ".join(members[:11]) + ", and " + members[11] + ", municipal corporations"
    assert [n.text for n in _unit_list_names(at_bound, [(0, len(at_bound))])] == members[:12]
    past = "the towns of " + ", ".join(members[:12]) + ", and " + members[12] + ", municipal corporations"
    assert _unit_list_names(past, [(0, len(past))]) == []


def test_the_capacity_line_is_looked_for_within_200_characters_above_the_name() -> None:
    from ingest.party_layout import _HELD_FOR_LOOKBACK

    def cover(blank: int) -> str:
        return "WESTLAND PTY LTD\nAs Trustee For\n" + " " * blank + "\nTHE KESTREL FUND\n"

    # The capacity line and the blanks under it fill the look-back: read at the edge ...
    edge = cover(_HELD_FOR_LOOKBACK - len("As Trustee For\n") - 1)
    assert held_for(edge, edge.index("THE KESTREL FUND"))
    # ... and not one character past it.
    past = cover(_HELD_FOR_LOOKBACK - len("As Trustee For\n"))
    assert not held_for(past, past.index("THE KESTREL FUND"))


def test_a_title_case_heading_goes_on_after_its_agreement_word_to_the_lines_end() -> None:
    # Before: "Amendment No. 1 to Kestrel License Agreement" (the tail after the agreement word lost).
    opening = (
        "Exhibit 10.91a\nAmendment\nNo. 1 to\nKestrel\nLicense Agreement For Real-Time In Vivo Imaging Technology\n"
        "This\nFirst Amendment to the Kestrel License Agreement For Real-Time In Vivo\nImaging\nTechnology, effective "
        "November 20, 2004 (the \"Agreement\"),\nby\nand between Kestrel\nCorporation (\"Kestrel\") and Harrow "
        "Logic, Inc. (\"HL\") is effective as of the\n19th day of November, 2005.\n"
    )
    assert agreement_title(opening) == "Amendment No. 1 to Kestrel License Agreement For Real-Time In Vivo Imaging Technology"
    # (Guards: a tail naming the parties, or one whose sentence runs on in lower case, is no title.)
    assert agreement_title("Services Agreement For Kestrel Inc. and Harrow LLC\n\nThis Agreement is made by Kestrel Inc.\n") == "Services Agreement"
    assert agreement_title("Supply Agreement For Goods\nmade between Kestrel Inc. and Harrow LLC.\n") == "Supply Agreement"


CONTENTS_RUN_IN = (
    "102\nPower Purchase Agreement between\n\nKestrel Power Corporation Limited\n\n(The Seller)\n\nand\n\n"
    "Harrow Urja Nigam Limited\n\n(The Procurer)\n\nIN RESPECT OF\n\nUNIT NO. IV - 75 MW\n\nLIGNITE BASED POWER STATION"
    "\n\nARTICLE NO.\n\nC O N T E N T S Page No.\n\nPREAMBLE 1 DEFINITIONS AND INTERPRETATIONS 1 2 TERM OF AGREEMENT 15 3 "
    "CONDITIONS SUBSEQUENT 17\n\n"
)


def test_a_contents_line_run_into_one_line_is_no_title() -> None:
    # Before: "PREAMBLE 1 DEFINITIONS AND INTERPRETATIONS 1 2 TERM OF AGREEMENT".
    assert agreement_title(CONTENTS_RUN_IN) == "Power Purchase Agreement"
    assert bound_party_names(CONTENTS_RUN_IN) == {"Kestrel Power Corporation Limited", "Harrow Urja Nigam Limited"}
    # (Guards: two numbers, or an instrument's own number, leave a heading a title.)
    assert agreement_title("AMENDMENT 3 TO SCHEDULE 2 AGREEMENT\n\nThis Amendment is made between Kestrel Inc. and Harrow LLC.\n") == (
        "AMENDMENT 3 TO SCHEDULE 2 AGREEMENT"
    )
    assert agreement_title("AMENDMENT NO. 2 TO LEASE AGREEMENT NO. 14\n\nThis Amendment is made between Kestrel Inc. and Harrow LLC.\n") == (
        "AMENDMENT NO. 2 TO LEASE AGREEMENT NO. 14"
    )


def test_a_title_case_tail_reads_at_most_ten_words_after_for() -> None:
    words = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta", "Iota", "Kappa", "Lambda"]

    def opening(count: int) -> str:
        return f"Supply Agreement For {' '.join(words[:count])}\n\nThis Agreement is made between Kestrel Inc. and Harrow LLC.\n"

    # Ten words after "For" are the title's, at the edge ...
    assert agreement_title(opening(10)) == "Supply Agreement For " + " ".join(words[:10])
    # ... and eleven are a line the tail does not read.
    assert agreement_title(opening(11)) == "Supply Agreement"
