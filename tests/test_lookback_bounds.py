"""The fixed look-back and look-ahead windows of the party and title rules, at their edges. Each
window bounds the work a rule does per candidate; these tests pin where each one ends, so a change
to a bound is a visible change (issue 9, stop 47)."""

from __future__ import annotations

from ingest.agreements import find_title
from ingest.names import street_at
from tests.helpers import bound_party_names


def test_a_street_is_read_within_eighty_characters_of_its_first_word() -> None:
    # ``street_at`` reads 80 characters: the street's name, its word and its number must fit.
    inside = "Elm Street" + " " * 60 + "77, Westport"
    assert street_at(inside, 0)
    # The number starts at the 81st character: outside the window.
    outside = "Elm Street" + " " * 70 + "77, Westport"
    assert not street_at(outside, 0)
    # The window starts at ``begin``, not at the start of the text.
    assert street_at("Acme GmbH, " + inside, len("Acme GmbH, "))


def _indented_definition(indent: int) -> str:
    return (
        "1.01     In this Agreement the following words shall have the following meanings:\n\n"
        "         (a)      \"ACCOUNTING PROCEDURE\" means the procedure attached to this\n" + " " * indent
        + "Agreement as Appendix I.\n\n         (b)      \"AFFILIATE\" has the meaning given to it in this Agreement.\n"
    )


def test_a_line_going_on_with_the_sentence_above_is_seen_within_two_hundred_characters() -> None:
    # ``_CONTINUED_SENTENCE`` looks 200 characters back from the line: the line above's last word,
    # its line break and the indentation before the line must fit.
    opening = "EXHIBIT 4.119\n\n\nTHIS AGREEMENT dated for reference\n\n"
    within = find_title(opening + _indented_definition(190))
    assert within is None or within.text != "Agreement as Appendix I."
    beyond = find_title(opening + _indented_definition(205))
    assert beyond is not None and beyond.text == "Agreement as Appendix I."


def _korean_party(gap: str) -> str:
    return (
        "Joint Venture Agreement\nThis Joint Venture Agreement (this \u201cAgreement\u201d) is made by and among:\n"
        "Kansai Sheet Glass Co., Ltd., a corporation duly organized and existing under the laws of Japan "
        "(\u201cKSG\u201d); and\nHanbit Display Co., Ltd., a corporation duly organized and existing under the laws of"
        + gap + "the Republic of Korea (\u201cKorea\u201d), having its principal office at 20, Yeoido-dong, Seoul, "
        "Korea (\u201cHBD\u201d).\nWITNESSETH:\n"
    )


def test_the_place_a_party_is_formed_under_is_seen_within_120_characters_before_it() -> None:
    # ``_FORMED_UNDER_LAWS`` looks 120 characters back from the place's name: "under the laws of",
    # "the" and the white space between must fit. A line wrapped with a deep fixed-width indent
    # still fits (it did not with the 40 characters of stop 46).
    parties = {"Kansai Sheet Glass Co., Ltd.", "Hanbit Display Co., Ltd."}
    assert bound_party_names(_korean_party(" ")) == parties
    assert bound_party_names(_korean_party("\n" + " " * 40 + "\n" + " " * 40)) == parties
    from tests.helpers import defined_terms

    assert defined_terms(_korean_party(" "))["HBD"] == "Hanbit Display Co., Ltd."
    # Past the window the place's definition closes the party's clause again, and the party's own
    # term is read from what follows it. (Since stop 48 a term naming a jurisdiction is never a
    # party's alias, so the place itself is no party on either side.)
    far = _korean_party("\n" + " " * 60 + "\n" + " " * 60)
    assert defined_terms(far)["HBD"] == "Korea"
    assert "Republic of Korea" not in bound_party_names(far)


def test_an_engagement_letter_names_its_retained_firm_within_400_characters_of_the_salutation() -> None:
    from ingest.letter_parties import letter_names

    def letter(padding: int) -> str:
        return (
            "March 17, 2009\nJane Q. Roe, CEO\nQuill Energy, Inc.\nDear Ms. Roe:\n" + "We write. " * padding
            + "We are pleased your firm is retaining Harbour Keys, LLC (\u201cHK\u201d). This letter states our agreement.\n"
        )

    # From "Dear": 14 characters of salutation, 10 per "We write. ", then about 70 to the firm's
    # definition: 30 fillers end it near character 384, 40 put the verb itself past 400.
    assert "Harbour Keys, LLC" in {n.text for n in letter_names(letter(30))}
    assert "Harbour Keys, LLC" not in {n.text for n in letter_names(letter(40))}


def test_a_cover_stack_skips_at_most_three_address_lines_above_its_and_line() -> None:
    from ingest.party_layout import layout_names

    def stack(lines: int) -> str:
        address = "".join(f"Building {n}\n" for n in range(1, lines + 1))
        return f"Harbour Research GmbH\n{address}and\nWestport Logistics GmbH\nshall carry the goods.\n"

    assert [n.name.text for n in layout_names(stack(3)) if n.shape == "cover"] == ["Harbour Research GmbH", "Westport Logistics GmbH"]
    assert [n.name.text for n in layout_names(stack(4)) if n.shape == "cover"] == []


def test_a_role_row_takes_at_most_twelve_unlabelled_entries() -> None:
    from ingest.party_layout import label_slots

    entries = "".join(f"{first} Zhou\nAddress: ***\n" for first in (
        "Bing", "Chen", "Dong", "Fang", "Gang", "Hong", "Jian", "Kang", "Lian", "Ming", "Ning", "Ping", "Qing",
    ))
    text = "Equity Pledge Agreement\nParty A: Harbour Robotics Co., Ltd.\nAddress: Shenzhen\nParty B: Haitao Qiang\nAddress: ***\n" + entries
    pledgors = [slot.name.text for slot in label_slots(text) if slot.term == "Party B"]
    assert pledgors[0] == "Haitao Qiang"
    assert len(pledgors) == 1 + 12
    assert pledgors[-1] == "Ping Zhou"


def test_a_wrapped_title_fragment_holds_at_most_three_caps_words() -> None:
    # ``agreements._WRAPPED_FRAGMENT_WORDS``: three words over the run-in rest open the title; a
    # fourth makes the line a heading of its own, not a fragment.
    rest = "ESCROW AGREEMENT, dated as of May 1, 2011 by and among Quill Corp. and Roe LLC.\n"
    three = find_title("FIRST PRIORITY SECURITIES\n" + rest)
    assert three is not None and three.text == "FIRST PRIORITY SECURITIES ESCROW AGREEMENT"
    four = find_title("FIRST PRIORITY BOND SECURITIES\n" + rest)
    assert four is not None and four.text == "ESCROW AGREEMENT"


def test_a_the_appositive_is_read_within_eighty_characters_before_its_last_name() -> None:
    # ``definitions._APPOSITIVE_CHARS``: the ", the ... of the" run must start within 80 characters
    # before the name it ends in (its lower-case words at most 50 characters).
    def clause(words: str) -> str:
        return (
            "SALES AGREEMENT\nThis Sales Agreement (the \"Agreement\") is made between QUILL LIFT, INC., a "
            "Delaware corporation (\"Manufacturer\"), and HARROW MARKETING, INC., a Florida corporation "
            f"(\"Representative\"), and joined in by MICHAEL ROEFILL, the {words} of the Representative (the "
            "\"Principal\").\nRecitals\n"
        )
    from tests.helpers import defined_terms

    assert defined_terms(clause("principal and controlling shareholder"))["Principal"] == "MICHAEL ROEFILL"
    long_words = "principal and controlling shareholder and sole director and officer"
    assert defined_terms(clause(long_words))["Principal"] != "MICHAEL ROEFILL"


def test_an_address_tail_paragraph_goes_on_from_the_one_above_over_at_most_three_lines() -> None:
    # ``definitions._ADDRESS_TAIL_LINES``: the paragraph between the blank line and the definition
    # may hold three line breaks; with four it is no address's tail and its first name stands.
    from tests.helpers import defined_terms

    def block(tail_lines: list[str]) -> str:
        return (
            "CONSULTING AGREEMENT\n\nTHIS AGREEMENT made the 1st day of April 2005.\n\nBETWEEN:  QUILL SHOW "
            "MARKETING COMPANY LTD \n  11359 - 162nd Street \n \n" + "\n".join(tail_lines) + "\n  (the \"Company\") \n\n"
            "OF THE FIRST PART\n\nWHEREAS the Company sells.\n"
        )
    three = ["Surrey, B.C. ", "  Canada V4N 4P5 "]
    assert defined_terms(block(three))["Company"] == "QUILL SHOW MARKETING COMPANY LTD"
    four = ["Surrey, B.C. ", "  Unit 5", "  Harbour Park", "  Canada V4N 4P5 "]
    assert defined_terms(block(four))["Company"] != "QUILL SHOW MARKETING COMPANY LTD"


def test_an_address_tail_line_holds_at_most_forty_characters() -> None:
    # ``definitions._ADDRESS_TAIL_LINE_CHARS``: a party's own line ("(2) JANE ROE of 17 Mill Lane,
    # ... CB22 5LD (Employee)") is longer than an address line.
    from tests.helpers import defined_terms

    def block(first_line: str) -> str:
        return (
            "CONSULTING AGREEMENT\n\nTHIS AGREEMENT made the 1st day of April 2005.\n\nBETWEEN:  QUILL SHOW "
            "MARKETING COMPANY LTD \n  11359 - 162nd Street \n \n" + first_line + "\n  Canada V4N 4P5 \n"
            "  (the \"Company\") \n\nOF THE FIRST PART\n\nWHEREAS the Company sells.\n"
        )
    forty = "Surrey, B.C., Harbour Park East, Unit 55"
    assert len(forty) == 40
    assert defined_terms(block(forty))["Company"] == "QUILL SHOW MARKETING COMPANY LTD"
    assert defined_terms(block(forty + "5"))["Company"] == "Surrey"


def test_a_headings_subject_joins_the_title_over_at_most_ten_words() -> None:
    # ``_SUBJECT_TAIL_WORDS``: the words after "for" that ``_with_repeated_subject`` reads (and
    # tries as repeated runs) stop at ten; a longer subject keeps its first ten.
    def opening(subject: str) -> str:
        return (
            f"SUPPLY AGREEMENT\nFOR {subject.upper()}\n\nThis Supply Agreement for {subject} is made "
            "between Quill Corp. and Roe LLC.\n"
        )

    ten = "Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa"
    title = find_title(opening(ten))
    assert title is not None and title.text == f"SUPPLY AGREEMENT FOR {ten.upper()}"
    title = find_title(opening(ten + " Lambda"))
    assert title is not None and title.text == f"SUPPLY AGREEMENT FOR {ten.upper()}"


def test_the_words_before_a_companys_own_and_are_at_most_four() -> None:
    # ``annotate._HALF_BEFORE_AND`` reads two to four capitalised words before the "and"; a fifth
    # capitalised word before them makes them the tail of prose, and nothing is joined.
    def text(words: str) -> str:
        return (
            "Agreement\n\nEntered in Lianhe on November 5, 2002\n\nIn order to develop relations, "
            f"{words} and Assembly Services Corporation (hereinafter referred to as \"Business Agent\") "
            "cooperates with Quill Line Industrial Limited (hereinafter referred to as \"Party B\").\n"
        )

    four = "Lianhe Northern Foreign Processing"
    assert f"{four} and Assembly Services Corporation" in bound_party_names(text(four))
    five = "Lianhe Northern Coastal Foreign Processing"
    assert not any(" and Assembly" in name for name in bound_party_names(text(five)))


def test_a_named_subsidiary_is_read_within_160_characters_of_its_lead() -> None:
    # ``annotate._SUBSIDIARY_NAME_CHARS``: the subsidiary's name must end within 160 characters.
    def text(name: str) -> str:
        return (
            "RESEARCH AGREEMENT\nThis Agreement is made by and between Larkspur University (\"UNIVERSITY\"), and "
            f"Kestrel Therapeutics, Inc. and its wholly-owned subsidiary {name}, having offices at 12 Main "
            "Street (collectively \"KESTREL\").\n"
        )

    short = "Kestrel Research, Inc."
    assert short in bound_party_names(text(short))
    long = "Kestrel " + " ".join(["Research"] * 20) + ", Inc."
    assert len(long) > 160
    assert long not in bound_party_names(text(long))


def test_a_heading_names_what_it_is_of_within_forty_characters_before_the_name() -> None:
    # ``_TITLE_OF_CHARS`` looks 40 characters back from a name for "CONTRACT ... OF".
    def cover(gap: str) -> str:
        return (
            "JOINT VENTURE CONTRACT\nOF" + gap + "LIANHE TIANYUAN BIOTECH CO., LTD.\n\n"
            "This contract has executed by the following parties on April 4, 2006:\n\n"
            "Party A: KESTREL BIOPHARMA LIMITED (hereafter as \"KBL\")\n"
            "Party B: QUILL BIOPHARMACEUTICAL CO., LTD. (hereafter as \"Quill\")\n"
        )

    parties = {"KESTREL BIOPHARMA LIMITED", "QUILL BIOPHARMACEUTICAL CO., LTD."}
    # "CONTRACT\nOF" and 13 blank-line characters fit the window: the venture is no party.
    assert bound_party_names(cover("\n" + " \n" * 6)) == parties
    # With 40 characters between "OF" and the name, "CONTRACT" falls outside: the name is read.
    assert bound_party_names(cover("\n" + " \n" * 20)) == parties | {"LIANHE TIANYUAN BIOTECH CO., LTD."}


def test_a_trade_name_joiner_is_read_within_forty_characters_before_the_name() -> None:
    # ``names._TRADE_JOINER_CHARS``: the joiner before a trade name must start within 40 characters.
    from ingest.names import trade_joiner_before

    near = "Kestrel Consulting, LLC dba Clear Harbour Solutions"
    assert trade_joiner_before(near, near.index("Clear")) == near.index(" dba")
    # "dba" 36 characters before the name is read; 41 characters before, it is outside the window.
    inside = "Kestrel Consulting, LLC dba" + " " * 33 + "Clear Harbour Solutions"
    assert trade_joiner_before(inside, inside.index("Clear")) == inside.index(" dba")
    outside = "Kestrel Consulting, LLC dba" + " " * 38 + "Clear Harbour Solutions"
    assert trade_joiner_before(outside, outside.index("Clear")) is None


def test_a_name_before_a_trailing_number_is_read_back_over_at_most_eight_words() -> None:
    from ingest.party_layout import _BACKWARD_WORDS, layout_names

    assert _BACKWARD_WORDS == 8

    def items(first: str) -> list[str]:
        text = f"DATED 2002\n\n{first} (1)\n\n- AND -\n\nKESTREL GAMES LIMITED (2)\n\nLICENCE AGREEMENT\n"
        return [n.name.text for n in layout_names(text) if n.shape == "item"]

    eight = "ALPHA BETA GAMMA DELTA EPSILON ZETA ANIMATIONS LIMITED"
    assert items(eight) == [eight, "KESTREL GAMES LIMITED"]
    # Nine words: where the name starts cannot be told, so the cover is read as no list.
    assert items("OMEGA " + eight) == []
