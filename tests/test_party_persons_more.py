"""Natural persons who are parties (issue 9, individuals as parties): honorifics and academic
titles that open a person's name ("Prof. Dr."), two persons one reader took as one name
("<person> and <person>"), and a person's item in a numbered cover run into one line beside a
company ("(1) X LIMITED (2) JANE ROE Service Agreement"). Prose, headings and addresses next to
them stay no parties. Invented names throughout; the real spaCy pipeline binds the parties.
"""

from __future__ import annotations

from ingest.annotate import _person_pair
from ingest.names import NameSpan, lowercase_words, party_name_forms, party_name_problem
from ingest.party_layout import _MAX_PERSON_WORDS, layout_names
from tests.test_party_shapes_general import _bound_spans


def _laid_out(text: str) -> list[tuple[str, str, int]]:
    return [(n.name.text, n.shape, n.name.start) for n in layout_names(text, lowercase_words(text))]


def _span(text: str, source: str) -> tuple[int, int]:
    assert text.count(source) == 1, source
    start = text.index(source)
    return start, start + len(source)


CAPS_COVER = (
    "EX-10.2 service agreement\nDated: 4 March 2021 (1) HOLLOWAY FENN LIMITED (2) MARGIT OSTERHAUS Service "
    "Agreement\n\n2 CONTENTS Clause Page 1 DEFINITIONS\n"
)
INITIAL_COVER = (
    "AGREEMENT FOR SALE OF BUSINESS (1) Quarrow Mills Limited (in administration) (2) Brenfield Limited (3) "
    "T Ashcombe AGREEMENT FOR SALE OF BUSINESS THIS AGREEMENT is made on the date specified in the First "
    "Schedule\n"
)
TITLED = (
    "LICENSE AGREEMENT between Prof. Dr. Hedda Vormann, Lindenweg 4, Westerholt — hereinafter referred to "
    "as the Licensor — and the company Tarnwick Medical, LLC, 12 Quarry Road, Leesburg — hereinafter "
    "referred to as the Licensee —\n\nPreamble\n"
)
TWO_PERSONS = (
    "CONSULTING AGREEMENT\n\nThis Agreement is made between Quellmoor Holdings Limited (the \"Company\") and "
    "Anwen Clarke and Tobias Rendell (together the \"Consultants\").\n\n1. Services\n"
)


def test_a_person_in_capitals_closes_a_numbered_cover_run_before_the_title() -> None:
    assert _laid_out(CAPS_COVER) == [
        ("HOLLOWAY FENN LIMITED", "item", CAPS_COVER.index("HOLLOWAY")),
        ("MARGIT OSTERHAUS", "item", CAPS_COVER.index("MARGIT")),
    ]
    assert _bound_spans(CAPS_COVER) == {
        "HOLLOWAY FENN LIMITED": _span(CAPS_COVER, "HOLLOWAY FENN LIMITED"),
        "MARGIT OSTERHAUS": _span(CAPS_COVER, "MARGIT OSTERHAUS"),
    }


def test_an_initial_without_its_dot_and_a_surname_are_a_person_item() -> None:
    assert _bound_spans(INITIAL_COVER) == {
        "Quarrow Mills Limited": _span(INITIAL_COVER, "Quarrow Mills Limited"),
        "Brenfield Limited": _span(INITIAL_COVER, "Brenfield Limited"),
        "T Ashcombe": _span(INITIAL_COVER, "T Ashcombe"),
    }


def test_person_items_alone_are_a_heading_run_not_parties() -> None:
    # No company beside them: "(1) GENERAL TERMS (2) SPECIAL TERMS" numbers a heading's parts.
    text = "MASTER TERMS (1) GENERAL TERMS (2) SPECIAL TERMS (3) PRICE SCHEDULES\nThe general terms apply.\n"
    assert _laid_out(text) == []


def test_a_person_item_must_be_closed() -> None:
    # "Jane Roe of 12 Mill Lane": prose runs on after the words; the company alone makes no run.
    text = "SERVICE AGREEMENT (1) HOLLOWAY FENN LIMITED (2) Edwina Marsh of 12 Mill Lane\n"
    assert _laid_out(text) == []
    closed = "SERVICE AGREEMENT (1) HOLLOWAY FENN LIMITED (2) Edwina Marsh, of 12 Mill Lane\n"
    assert _laid_out(closed) == [
        ("HOLLOWAY FENN LIMITED", "item", closed.index("HOLLOWAY")),
        ("Edwina Marsh", "item", closed.index("Edwina")),
    ]


def test_a_person_item_holds_no_word_the_document_writes_in_lower_case() -> None:
    text = (
        "FACILITY (1) HOLLOWAY FENN LIMITED (2) SECURITY TRUSTEE Facility Agreement\n"
        "The security trustee holds the security.\n"
    )
    assert _laid_out(text) == []


def test_a_person_item_has_at_most_the_person_word_bound() -> None:
    words = ["ADA", "BRYN", "CORAL", "DUNMORE", "ELSTREE"]
    at_bound = f"(1) HOLLOWAY FENN LIMITED (2) {' '.join(words[:_MAX_PERSON_WORDS])} Service Agreement\n"
    over = f"(1) HOLLOWAY FENN LIMITED (2) {' '.join(words[: _MAX_PERSON_WORDS + 1])} Service Agreement\n"
    assert [n for n, _, _ in _laid_out(at_bound)] == ["HOLLOWAY FENN LIMITED", " ".join(words[:_MAX_PERSON_WORDS])]
    assert _laid_out(over) == []


def test_honorifics_that_open_a_name_stay_in_it() -> None:
    bound = _bound_spans(TITLED)
    assert bound == {
        "Prof. Dr. Hedda Vormann": _span(TITLED, "Prof. Dr. Hedda Vormann"),
        "Tarnwick Medical, LLC": _span(TITLED, "Tarnwick Medical, LLC"),
    }
    assert party_name_problem("Prof. Dr. Hedda Vormann") is None
    # A job title before an honorific is still a signatory's line.
    assert party_name_problem("Financial Director Mr R Moore") == "signatory"
    assert party_name_problem("Prof. Financial Director Mr R Moore") == "signatory"
    # Asked for with and without each honorific; the id is made from the bare name.
    assert party_name_forms("Prof. Dr. Hedda Vormann") == [
        "Prof. Dr. Hedda Vormann", "Dr. Hedda Vormann", "Hedda Vormann"
    ]


def test_a_street_and_its_number_alone_are_an_address() -> None:
    assert party_name_problem("Lindenweg 4") == "address"
    assert party_name_problem("Harbour Strasse 77") == "address"
    assert party_name_problem("Quillweg Partners") is None


def test_two_persons_joined_by_and_are_two_parties() -> None:
    assert _bound_spans(TWO_PERSONS) == {
        "Quellmoor Holdings Limited": _span(TWO_PERSONS, 'Quellmoor Holdings Limited (the "Company")'),
        "Anwen Clarke": _span(TWO_PERSONS, "Anwen Clarke"),
        "Tobias Rendell": _span(TWO_PERSONS, "Tobias Rendell"),
    }


def test_a_pair_splits_only_when_the_model_tags_each_half_a_person() -> None:
    name = NameSpan("Anwen Clarke and Tobias Rendell", 10, 41)
    both = [(10, 22), (27, 41)]
    assert _person_pair(name, both) == (NameSpan("Anwen Clarke", 10, 22), NameSpan("Tobias Rendell", 27, 41))
    assert _person_pair(name, both[:1]) is None
    # One span over the whole name crosses the "and": no half holds it.
    assert _person_pair(name, [(10, 41)]) is None
    # A firm's style and a department are no two persons' shapes.
    assert _person_pair(NameSpan("Smith and Jones", 0, 15), [(0, 5), (10, 15)]) is None
    assert _person_pair(NameSpan("Harlow Vane Limited and Tobias Rendell", 0, 38), [(0, 11), (24, 38)]) is None


PLEDGE_LIST = (
    "(1)\nHan Lirong, Chinese citizen, ID No.: [***];\n(2)\nQiao Wenfeng, Chinese citizen, ID No.: [***];\n(3)\n"
    "Suzhou Tianlan Data Technology Co., Ltd. (the \"Company\");\n(4)\nHangzhou Beiming Network Co., Ltd. (the "
    "\"Pledgee\").\n(1)\nAs of the execution date of this Agreement, the Pledgors hold all of the Company's equity "
    "interests.\n(2)\nPursuant to the Exclusive Option Agreement, the Pledgors shall transfer the equity.\n"
)


def test_a_numbered_party_list_without_a_lead_names_persons_and_companies() -> None:
    assert _laid_out(PLEDGE_LIST) == [
        ("Han Lirong", "item", PLEDGE_LIST.index("Han Lirong")),
        ("Qiao Wenfeng", "item", PLEDGE_LIST.index("Qiao Wenfeng")),
        ("Suzhou Tianlan Data Technology Co., Ltd.", "item", PLEDGE_LIST.index("Suzhou Tianlan")),
        ("Hangzhou Beiming Network Co., Ltd.", "item", PLEDGE_LIST.index("Hangzhou Beiming")),
    ]


def test_a_list_without_a_lead_is_read_only_when_every_item_is_a_name() -> None:
    # The second item is prose: the run names no parties, not even its first item.
    text = (
        "(1)\nHan Lirong, Chinese citizen, ID No.: [***];\n(2)\nAs of the execution date the Pledgor holds the "
        "equity;\n(3)\nSuzhou Tianlan Data Technology Co., Ltd. (the \"Company\").\n"
    )
    assert _laid_out(text) == []
    # The same list with a name in the second item is read whole.
    named = text.replace("As of the execution date the Pledgor holds the equity", "Qiao Wenfeng, Chinese citizen")
    assert _laid_out(named) == [
        ("Han Lirong", "item", named.index("Han Lirong")),
        ("Qiao Wenfeng", "item", named.index("Qiao Wenfeng")),
        ("Suzhou Tianlan Data Technology Co., Ltd.", "item", named.index("Suzhou Tianlan")),
    ]
    # Persons alone, without a company among them, are no party list either.
    persons = "(1)\nHan Lirong, Chinese citizen;\n(2)\nQiao Wenfeng, Chinese citizen;\nThe Pledgors agree.\n"
    assert _laid_out(persons) == []


def test_the_makers_clause_may_close_its_date_with_a_comma() -> None:
    text = (
        "GUARANTY AGREEMENT\n\nTHIS GUARANTY AGREEMENT (this \"Guaranty\") is executed as of July 31, 2019, by "
        "ORLA BRENNAN-VOSS, an individual (\"Guarantor\"), for the benefit of Kestrel Ridge Capital, LLC, a Texas "
        "limited liability company (\"Lender\").\n\nRECITALS\n"
    )
    assert _bound_spans(text) == {
        "ORLA BRENNAN-VOSS": _span(text, 'ORLA BRENNAN-VOSS, an individual ("Guarantor")'),
        "Kestrel Ridge Capital, LLC": _span(
            text, 'Kestrel Ridge Capital, LLC, a Texas limited liability company ("Lender")'
        ),
    }
