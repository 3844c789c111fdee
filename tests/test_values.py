"""Value parsers (``ingest/quantities.py``, through ``service/evidence/values.py``): every case of
issue 10 item 5, plus the shapes contracts use. Pure functions on literal text."""

from __future__ import annotations

import pytest

from ingest.agreements import agreement_date
from ingest.quantities import dates_in, durations_in, money_in, number_from_words
from service.evidence.values import date_in, duration_in, jurisdiction_in
from service.evidence.values import money_value


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("seventy-five days", "P75D"),  # issue 10: was P5D
        ("twenty-one (21) days", "P21D"),  # issue 10: was P1D
        ("within forty (40) days", "P40D"),  # issue 10: was None
        ("forty-five (45) days", "P45D"),
        ("thirty (30) days written notice", "P30D"),
        ("one hundred and twenty (120) days", "P120D"),
        ("one hundred twenty days", "P120D"),
        ("ninety days", "P90D"),
        ("for successive one (1) year terms", "P1Y"),
        ("a period of three (3) years", "P3Y"),
        ("60 calendar days", "P60D"),
        ("10 business days", "P10D"),
        ("two weeks", "P2W"),
        ("an additional year", "P1Y"),
        ("eighteen months", "P18M"),
        ("five (5) years", "P5Y"),
        ("twenty (20) business days", "P20D"),
        ("sixty (60)-day period", "P60D"),
        # The parenthesised digits win over the words: they are what the parties wrote.
        ("thirty (60) days", "P60D"),
    ],
)
def test_duration(text: str, expected: str) -> None:
    value = duration_in(text)
    assert value is not None and value["value"] == expected


@pytest.mark.parametrize("text", ["", "the Term", "Section 12.3 applies", "many days", "2020 year-end"])
def test_no_duration(text: str) -> None:
    assert duration_in(text) is None


def test_duration_offsets_and_anchor() -> None:
    text = "renews for one (1) year unless either party gives ninety (90) days notice before renewal"
    spans = durations_in(text)
    assert [(s.iso, text[s.start : s.end]) for s in spans] == [
        ("P1Y", "one (1) year"), ("P90D", "ninety (90) days"),
    ]
    import re

    assert duration_in(text, re.compile("notice"))["value"] == "P90D"


@pytest.mark.parametrize(
    ("words", "expected"),
    [("seventy-five", 75), ("twenty one", 21), ("one hundred and twenty", 120), ("forty", 40),
     ("a", 1), ("12", 12), ("many", None), ("", None)],
)
def test_number_words(words: str, expected: int | None) -> None:
    assert number_from_words(words) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("EUR 3.000.000", "EUR 3000000"),  # issue 10: was EUR 3.00
        ("shall not exceed $2.5 million", "USD 2500000"),
        ("not to exceed US$1,000,000.00", "USD 1000000.00"),
        ("a fee of $500", "USD 500"),
        ("€ 1.250.000,50", "EUR 1250000.50"),
        ("£10,000", "GBP 10000"),
        ("USD 250,000", "USD 250000"),
        ("10,000 dollars", "USD 10000"),
        ("$1.5 billion", "USD 1500000000"),
        ("CHF 2'000'000", "CHF 2000000"),
    ],
)
def test_money(text: str, expected: str) -> None:
    value = money_value(text)
    assert value is not None and value["value"] == expected


@pytest.mark.parametrize("text", ["no amount here", "Section 3.000", "3,000 units"])
def test_no_money(text: str) -> None:
    assert money_in(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2020-03-01", ["2020-03-01"]),  # issue 10: was []
        ("made as of the 22nd day of May, 2000", ["2000-05-22"]),
        ("dated 5/22/00", ["2000-05-22"]),
        ("March 1, 2020 and 29/3/18", ["2020-03-01", "2018-03-29"]),
        ("Sept. 4, 1999", ["1999-09-04"]),
        ("2020-02-30 is no date", []),
        ("version 1.2.3", []),
    ],
)
def test_dates(text: str, expected: list[str]) -> None:
    assert [d.iso for d in dates_in(text)] == expected


def test_date_value_and_offsets() -> None:
    assert date_in("effective 2020-03-01.") == {"type": "date", "value": "2020-03-01", "text": "2020-03-01"}
    text = "The agreement dated 2020-03-01 between"
    (span,) = dates_in(text)
    assert text[span.start : span.end] == "2020-03-01"


def test_ingest_uses_the_same_parser() -> None:
    """agreements.py reads dates through the shared module: ISO dates reach the registry too."""
    text = "This Agreement is dated 2021-07-15 by and between A and B."
    span = agreement_date(text, 0, len(text))
    assert span is not None and span.iso == "2021-07-15"


@pytest.mark.parametrize("text", ["one " * 20_000 + "days", "one and " * 10_000 + "x", "twenty-" * 20_000, "1," * 50_000])
def test_long_adversarial_text_is_scanned_in_linear_time(text: str) -> None:
    """Number phrases are bounded to eight words: a page of number words must not take seconds
    per sentence (it took 15 s for 5,000 words before the bound)."""
    import time

    start = time.perf_counter()
    durations_in(text)
    money_in(text)
    dates_in(text)
    assert time.perf_counter() - start < 3.0


def test_number_phrase_bound() -> None:
    assert number_from_words("one hundred and twenty five thousand") == 125_000  # 6 words: read
    assert number_from_words("one " * 100) is None  # beyond the bound: not a number
    assert durations_in("one hundred and twenty-five thousand days")[0].iso == "P125000D"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("This Agreement shall be governed by the laws of the State of Texas.", "texas"),
        ("This Agreement is governed by English law.", "england"),
        ("This Agreement shall be subject to Swiss substantive law.", "switzerland"),
        ("governed by and construed under New York law, without regard to", "new york"),
        ("This Agreement Shall Be Governed By Delaware Law.", "delaware"),
        # "laws of" is read first: the place named there wins over a demonym elsewhere.
        ("English law notwithstanding, the laws of Ontario govern.", "ontario"),
    ],
)
def test_jurisdiction_after_laws_of_or_before_law(text: str, expected: str) -> None:
    assert jurisdiction_in(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "13. Governing Law. This Agreement",
        "in accordance with applicable law",
        "All notices shall be in the English language.",
        "subject to Federal Law",
    ],
)
def test_no_jurisdiction_without_a_known_place_before_law(text: str) -> None:
    assert jurisdiction_in(text) is None


def test_a_page_of_capitalised_words_before_law_is_read_in_linear_time() -> None:
    """The "<place> law" reader looks back at most four capitalised words before "law": a long
    run of them (a shouted clause) costs one pass, not a pass per word."""
    import time

    text = "Governed By The Laws Of " + "Xyz " * 50_000 + "Law"
    start = time.perf_counter()
    assert jurisdiction_in(text) is None
    assert time.perf_counter() - start < 3.0
