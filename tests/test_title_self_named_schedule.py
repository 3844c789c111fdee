"""A numbered schedule whose heading a modifier opens is titled as itself (issue 9, stop 33).

"EQUIPMENT SCHEDULE NO. 4\\nto\\nMASTER EQUIPMENT LEASE AGREEMENT NO. 7731" followed by "This
Equipment Schedule No. 4 (this "Schedule") is entered into ...": before, the document was titled
"MASTER EQUIPMENT LEASE AGREEMENT NO. 7731", its parent's title, so a question about the master
lease would have bound the schedule too. Names are invented.
"""

from __future__ import annotations

from ingest.agreements import agreement_names

HEAD = "EQUIPMENT SCHEDULE NO. 4\nto\nMASTER EQUIPMENT LEASE AGREEMENT NO. 7731\n\n"
BODY = (
    "{opening} (this \"Schedule\") is entered into as of November 20, 2017 pursuant to the Master Equipment "
    "Lease Agreement No. 7731 between Tamlin Leasing Corp. (\"Lessor\") and Sunny Side Hospitality Group LLC "
    "(\"Lessee\").\n\n1. Equipment.\n"
)


def test_a_schedule_the_prose_calls_by_its_heading_is_titled_as_itself() -> None:
    text = HEAD + BODY.format(opening="This Equipment Schedule No. 4")
    title, _ = agreement_names(text)
    assert title is not None
    assert (title.text, title.start, title.end) == (
        "EQUIPMENT SCHEDULE NO. 4 to MASTER EQUIPMENT LEASE AGREEMENT NO. 7731", 0, len(HEAD.rstrip("\n")),
    )


def test_a_schedule_heading_the_prose_does_not_call_by_name_is_page_furniture() -> None:
    # Guard: without "This Equipment Schedule No. 4" the heading may be an exhibit's label.
    text = HEAD + BODY.format(opening="This document")
    title, _ = agreement_names(text)
    assert title is not None and title.text == "MASTER EQUIPMENT LEASE AGREEMENT NO. 7731"
