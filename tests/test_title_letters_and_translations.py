"""Titles of letters named by their reference line, and of translated contracts (issue 9, stop 33;
names invented).

- "Re: Offer Letter" above "Dear Mr. Okafor:", and a letter that then says "this letter": the
  reference line names the letter. Before, such a letter had no title at all. This reader takes
  only a reference that names a letter: "Re: Consulting Agreement" over a letter that amends the
  agreement names the parent (how other readers title such a letter is unchanged).
- "English Translation" above "Working Capital Loan Contract" is a filer's label, not a word of
  the title.
- "Jiangnan Runfeng Rural Commercial Bank Co., Ltd., Wujiang Sub-branch": a translation may write
  the branch word in lower case; the branch is part of the party's name.
"""

from __future__ import annotations

import pytest

from ingest.agreements import agreement_names
from tests.helpers import bound_party_aliases

LETTER = (
    "BRIGHTWATER SEMICONDUCTOR CORPORATION\n1800 Innovation Drive\nAustin, Texas 78758\n\nSeptember 12, 2022\n\n"
    "Mr. Daniel R. Okafor\n4417 Shoal Creek Boulevard\nAustin, Texas 78756\n\nRe: {reference}\n\nDear Mr. Okafor:\n\n"
    "On behalf of Brightwater Semiconductor Corporation (the \"Company\"), I am pleased to offer you the position "
    "of Senior Vice President on the terms set forth in {this}.\n\n1.  Base Salary. Your base salary will be "
    "$385,000 per year.\n\nVery truly yours,\n\n/s/ Lydia M. Farraday\n\nACCEPTED AND AGREED:\n\n/s/ Daniel R. Okafor\n"
)


@pytest.mark.parametrize("reference", ["Offer Letter", "EMPLOYMENT OFFER LETTER", "Letter Agreement"])
def test_a_letters_reference_line_naming_a_letter_is_its_title(reference: str) -> None:
    text = LETTER.format(reference=reference, this="this letter agreement")
    title, _ = agreement_names(text)
    start = text.index(reference)
    assert title is not None and (title.text, title.start, title.end) == (reference, start, start + len(reference))


def test_a_reference_line_over_a_letter_that_never_says_this_letter_is_no_title() -> None:
    text = LETTER.format(reference="Offer Letter", this="the attached term sheet")
    title, _ = agreement_names(text)
    assert title is None or title.text != "Offer Letter"


CHINA = (
    "Exhibit 10.31\n\nEnglish Translation\n\nWorking Capital Loan Contract\n\nContract No.: RF(SZ)LD-2021-0417\n\n"
    "Lender (Party A): Jiangnan Runfeng Rural Commercial Bank Co., Ltd., Wujiang Sub-branch\nAddress: No. 1688 "
    "Zhongshan South Road, Wujiang District, Suzhou\nPerson in charge: Gu Minghui\n\nBorrower (Party B): Suzhou "
    "Hengtai Precision Machinery Co., Ltd.\nAddress: No. 25 Tongjin Avenue, Suzhou\nLegal Representative: Shen "
    "Xiaodong\n\nThrough equal consultation, Party A and Party B hereby enter into this Contract.\n\nArticle 1 Loan Amount\n"
)


def test_a_translation_label_above_the_title_is_no_word_of_it() -> None:
    title, _ = agreement_names(CHINA)
    start = CHINA.index("Working Capital")
    assert title is not None and (title.text, title.start, title.end) == ("Working Capital Loan Contract", start, start + 29)


def test_a_sub_branch_written_in_lower_case_is_part_of_the_party_name() -> None:
    parties = bound_party_aliases(CHINA)
    assert "Jiangnan Runfeng Rural Commercial Bank Co., Ltd., Wujiang Sub-branch" in parties
    assert "Suzhou Hengtai Precision Machinery Co., Ltd." in parties
    assert "Jiangnan Runfeng Rural Commercial Bank Co., Ltd." not in parties
