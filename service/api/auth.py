"""API keys: ``Authorization: Bearer <key>`` mapped to a :class:`Principal`.

Keys come from ``ATTEST_API_KEYS`` (JSON ``{"<key>": {"principal": ..., "groups": [...],
"admin": false}}``), from ``ATTEST_API_KEYS_FILE`` (the same JSON in a file) and from the
bootstrap file ``<data_dir>/api_keys.json`` that the first ``attest serve`` writes when nothing
else is configured. With no key at all, every request is refused: the API never runs open.

Keys are held only as SHA-256 digests, so a lookup does not compare secrets byte by byte.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ingest.errors import InvalidInputError
from ingest.settings import Settings
from ingest.store.port import Principal

BOOTSTRAP_FILE = "api_keys.json"
BOOTSTRAP_PRINCIPAL = "admin"


class KeyConfigError(InvalidInputError):
    """Raised when the configured API keys cannot be read; the message says which source and why."""


class KeySpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    principal: str = Field(..., min_length=1, max_length=200)
    groups: list[str] = Field(default_factory=list)
    admin: bool = False


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class KeyRing:
    by_digest: dict[str, Principal]

    def principal_for(self, key: str) -> Principal | None:
        return self.by_digest.get(_digest(key))

    def __len__(self) -> int:
        return len(self.by_digest)


def _parse(raw: str, source: str) -> dict[str, Principal]:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise KeyConfigError(f"{source} is not valid JSON: {exc.msg} (line {exc.lineno})") from exc
    if not isinstance(data, dict):
        raise KeyConfigError(f"{source} must be a JSON object of key -> {{principal, groups, admin}}")
    out: dict[str, Principal] = {}
    for key, spec in data.items():
        if not isinstance(key, str) or len(key) < 16:
            raise KeyConfigError(f"{source}: every API key must be a string of at least 16 characters")
        try:
            parsed = KeySpec.model_validate(spec)
        except ValidationError as exc:
            raise KeyConfigError(f"{source}: bad entry for a key: {exc.errors()[0]['msg']}") from exc
        out[_digest(key)] = Principal(
            name=parsed.principal, groups=tuple(sorted(set(parsed.groups))), admin=parsed.admin
        )
    return out


def bootstrap_path(settings: Settings) -> Path:
    return Path(settings.data_dir) / BOOTSTRAP_FILE


def keys_configured(settings: Settings) -> bool:
    return bool(settings.api_keys or settings.api_keys_file or bootstrap_path(settings).exists())


def load_keyring(settings: Settings) -> KeyRing:
    keys: dict[str, Principal] = {}
    if settings.api_keys:
        keys.update(_parse(settings.api_keys, "ATTEST_API_KEYS"))
    if settings.api_keys_file:
        path = Path(settings.api_keys_file)
        try:
            raw = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise KeyConfigError(f"cannot read ATTEST_API_KEYS_FILE {path}: {exc.strerror}") from exc
        keys.update(_parse(raw, str(path)))
    boot = bootstrap_path(settings)
    if boot.exists() and not (settings.api_keys or settings.api_keys_file):
        keys.update(_parse(boot.read_text(encoding="utf-8"), str(boot)))
    _check_token_kinds(keys.values())
    return KeyRing(keys)


def _check_token_kinds(principals: Any) -> None:
    """Principal names and group names share the ACL token space, so they must never overlap:
    otherwise a principal named like a group would read that group's documents."""
    names = {p.name for p in principals}
    groups = {g for p in principals for g in p.groups}
    clash = sorted(names & groups)
    if clash:
        raise KeyConfigError(
            f"API keys: {', '.join(clash)} is both a principal and a group name; rename one "
            "(ACL entries could not tell them apart)"
        )
    if "*" in names | groups:
        raise KeyConfigError("API keys: '*' is reserved for 'everyone' in ACLs")


def create_bootstrap_key(settings: Settings) -> str:
    """Write one admin key to ``<data_dir>/api_keys.json`` (mode 0600) and return it.

    Only for a first start with nothing configured; it refuses to overwrite an existing file."""
    path = bootstrap_path(settings)
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(32)
    body: dict[str, Any] = {key: {"principal": BOOTSTRAP_PRINCIPAL, "groups": [], "admin": True}}
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(body, handle, indent=2)
        handle.write("\n")
    return key
