"""How every ``attest`` command writes JSON: indented, keys sorted (deterministic), UTF-8 text
as is. One place, so ``--json`` output looks the same from every command."""

from __future__ import annotations

import json
import sys
from typing import Any


def json_text(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def print_json(data: Any) -> None:
    sys.stdout.write(json_text(data))
