"""Options several ``attest`` commands share, defined once so their flag and help read the same."""

from __future__ import annotations

from typing import Annotated

import typer

DocIdFilter = Annotated[
    list[str] | None, typer.Option("--doc-id", help="Restrict to this document (repeatable).")
]
CollectionFilter = Annotated[
    list[str] | None, typer.Option("--collection", help="Restrict to this collection (repeatable).")
]
