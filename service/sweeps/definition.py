"""Sweep definitions: YAML files validated with pydantic, with errors that name the line.

A definition (the format is documented in README.md, "Compliance sweeps")::

    version: 1
    name: sample-contracts            # [a-z0-9][a-z0-9_-]{0,63}
    principal: {name: sweeper, groups: [legal]}
    freshness: 365d                   # <n>s|m|h|d|w
    queries:
      - id: sponsorship-governing-law # unique within the sweep
        question: "What law governs ...?"
        subject: {...}                # optional structured subject (as for /v1/evidence/query)
        scope: {...}                  # optional scope
    rules: [...]                      # optional, see service/sweeps/rules.py
    live_values: {file: live.json}    # or {url: https://...}; needed by rules that convert money
    reports: {dir: ./sweep-reports, formats: [json, html]}

Everything a definition drives is bounded: the file size, the number of queries and of rules.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any, Literal, Union

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ingest.errors import InvalidInputError
from service.evidence.models import Scope, SubjectSpec

MAX_DEFINITION_BYTES = 1_000_000
MAX_QUERIES = 500
MAX_RULES = 100
NAME_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,63}$"
_WINDOW = re.compile(r"^(\d{1,6})([smhdw])$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


class SweepDefinitionError(InvalidInputError, ValueError):
    """A sweep definition that cannot be used; ``problems`` are ``(line or None, message)``.
    An input error (HTTP 422, exit 2); still a ``ValueError`` for callers that catch that."""

    def __init__(self, source: str, problems: list[tuple[int | None, str]]) -> None:
        self.source = source
        self.problems = problems
        lines = [f"{source}:{line}: {msg}" if line else f"{source}: {msg}" for line, msg in problems]
        super().__init__("invalid sweep definition\n" + "\n".join(lines))
        # What the file says it is, when it says so (read from the raw YAML): lets the API answer
        # a run of an invalid sweep with these problems (422) instead of "not found".
        self.sweep_name: str | None = None
        self.principal_name: str | None = None

    def claimed_by(self, data: Any) -> "SweepDefinitionError":
        if isinstance(data, dict):
            name, principal = data.get("name"), data.get("principal")
            self.sweep_name = name if isinstance(name, str) else None
            if isinstance(principal, dict) and isinstance(principal.get("name"), str):
                self.principal_name = principal["name"]
        return self


class SweepPrincipal(BaseModel):
    """Who the sweep runs as. Its ACL applies exactly as for any query; never admin."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(..., min_length=1, max_length=200)
    groups: list[str] = Field(default_factory=list, max_length=100)


class SweepQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(..., pattern=NAME_PATTERN)
    question: str = Field(..., min_length=1, max_length=2000)
    subject: SubjectSpec | None = None
    scope: Scope | None = None


class MoneyBelowRule(BaseModel):
    """Flags a claim whose money value, converted to ``currency`` at the live rate, is below
    ``threshold``."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(..., pattern=NAME_PATTERN)
    query: str
    check: Literal["money_below"]
    currency: str = Field("USD", pattern=r"^[A-Z]{3}$")
    threshold: float = Field(..., ge=0)


class DateWithinRule(BaseModel):
    """Flags a claim whose date value falls within the next ``days`` days from today (the live
    ``today``). A date already past is flagged only with ``include_past: true``."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(..., pattern=NAME_PATTERN)
    query: str
    check: Literal["date_within_days"]
    days: int = Field(..., ge=0, le=36500)
    include_past: bool = False


Rule = Annotated[Union[MoneyBelowRule, DateWithinRule], Field(discriminator="check")]
RULE_CHECKS = ("money_below", "date_within_days")


class LiveValuesSource(BaseModel):
    """Where live values come from: an HTTP JSON endpoint or a JSON file (relative paths are
    resolved against the definition's directory)."""

    model_config = ConfigDict(extra="forbid")

    url: str | None = Field(None, pattern=r"^https?://", max_length=2000)
    file: str | None = Field(None, max_length=1000)
    timeout_seconds: float = Field(10.0, gt=0, le=60)

    @model_validator(mode="after")
    def _exactly_one(self) -> "LiveValuesSource":
        if (self.url is None) == (self.file is None):
            raise ValueError("give exactly one of 'url' or 'file'")
        return self


class ReportTarget(BaseModel):
    model_config = ConfigDict(extra="forbid")

    dir: str | None = Field(None, max_length=1000, description="where report files are written")
    formats: list[Literal["json", "html"]] = Field(default_factory=lambda: ["json", "html"])


class SweepDefinition(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: Literal[1] = 1
    name: str = Field(..., pattern=NAME_PATTERN)
    description: str = Field("", max_length=2000)
    principal: SweepPrincipal
    freshness: str = Field(..., description="e.g. 30d, 12h, 2w")
    queries: list[SweepQuery] = Field(..., min_length=1, max_length=MAX_QUERIES)
    rules: list[Rule] = Field(default_factory=list, max_length=MAX_RULES)
    live_values: LiveValuesSource | None = None
    reports: ReportTarget = Field(default_factory=ReportTarget)

    @field_validator("freshness")
    @classmethod
    def _window(cls, value: str) -> str:
        if not _WINDOW.match(value):
            raise ValueError("freshness must be a number and a unit s, m, h, d or w, such as 30d")
        return value

    @field_validator("queries")
    @classmethod
    def _unique_ids(cls, queries: list[SweepQuery]) -> list[SweepQuery]:
        seen: set[str] = set()
        for q in queries:
            if q.id in seen:
                raise ValueError(f"duplicate query id {q.id!r}")
            seen.add(q.id)
        return queries

    @model_validator(mode="after")
    def _rules_name_queries(self) -> "SweepDefinition":
        ids = {q.id for q in self.queries}
        seen: set[str] = set()
        for rule in self.rules:
            if rule.query not in ids:
                raise ValueError(f"rule {rule.id!r} names unknown query {rule.query!r}")
            if rule.id in seen:
                raise ValueError(f"duplicate rule id {rule.id!r}")
            seen.add(rule.id)
        return self

    def freshness_window(self) -> timedelta:
        m = _WINDOW.match(self.freshness)
        assert m  # validated
        return timedelta(seconds=int(m.group(1)) * _UNIT_SECONDS[m.group(2)])


class LoadedDefinition(BaseModel):
    """A validated definition with where it came from (for relative paths and reports)."""

    definition: SweepDefinition
    path: str | None
    text: str

    @property
    def base_dir(self) -> Path:
        return Path(self.path).resolve().parent if self.path else Path.cwd()


# -- YAML with line numbers -------------------------------------------------------------------
def _node_line(root: yaml.Node | None, loc: tuple[Any, ...]) -> int | None:
    """The 1-based line of the YAML node at pydantic's error location (the deepest node that
    exists, so a missing key points at its parent mapping)."""
    node = root
    line = node.start_mark.line + 1 if node is not None else None
    for part in loc:
        if isinstance(node, yaml.MappingNode) and isinstance(part, str):
            match = next((v for k, v in node.value if getattr(k, "value", None) == part), None)
            if match is None:
                # a union branch ('money_below') or a missing key: the error is at this node
                continue
            node = match
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
            if part >= len(node.value):
                break
            node = node.value[part]
        else:
            continue
        line = node.start_mark.line + 1
    return line


def _first_alias(root: yaml.Node | None) -> int | None:
    """The line of the first node that appears twice in the tree (an alias), if any."""
    seen: set[int] = set()
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            return node.start_mark.line + 1
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for key, value in reversed(node.value):
                stack.extend((value, key))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
    return None


def _loc_text(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in RULE_CHECKS:  # the discriminated union's branch, not a key
            continue
        else:
            out += f".{part}" if out else str(part)
    return out or "(top level)"


def parse_definition(text: str, source: str = "<sweep>") -> SweepDefinition:
    """Parse and validate YAML text. Raises :class:`SweepDefinitionError` with line numbers."""
    if len(text.encode("utf-8")) > MAX_DEFINITION_BYTES:
        raise SweepDefinitionError(source, [(None, f"larger than {MAX_DEFINITION_BYTES} bytes")])
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        raise SweepDefinitionError(source, [(line, f"YAML syntax: {exc.problem or exc}")]) from exc
    except yaml.YAMLError as exc:
        raise SweepDefinitionError(source, [(None, f"YAML: {exc}")]) from exc
    if not isinstance(data, dict):
        raise SweepDefinitionError(source, [(1, "a sweep definition is a YAML mapping")])
    reused = _first_alias(root)
    if reused is not None:
        # An alias repeats a node without repeating its text: the size bound would not hold.
        raise SweepDefinitionError(source, [(reused, "YAML anchors and aliases are not supported")])
    try:
        return SweepDefinition.model_validate(data)
    except ValidationError as exc:
        problems: list[tuple[int | None, str]] = []
        seen: set[tuple[int | None, str]] = set()
        for err in exc.errors(include_url=False):
            loc = tuple(err["loc"])
            msg = err["msg"].removeprefix("Value error, ")
            problem = (_node_line(root, loc), f"{_loc_text(loc)}: {msg}")
            if problem not in seen:
                seen.add(problem)
                problems.append(problem)
        raise SweepDefinitionError(source, problems).claimed_by(data) from exc


def load_definition(path: str | Path) -> LoadedDefinition:
    path = Path(path)
    try:
        if path.stat().st_size > MAX_DEFINITION_BYTES:
            raise SweepDefinitionError(str(path), [(None, f"larger than {MAX_DEFINITION_BYTES} bytes")])
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SweepDefinitionError(str(path), [(None, f"cannot read: {exc}")]) from exc
    definition = parse_definition(text, str(path))
    return LoadedDefinition(definition=definition, path=str(path), text=text)


def find_sweep_definitions(directory: Path) -> tuple[dict[str, LoadedDefinition], list[SweepDefinitionError]]:
    """Every ``*.yaml``/``*.yml`` file of ``directory`` (not recursive), by sweep name. Invalid
    files and duplicate names are returned as errors, never silently skipped."""
    found: dict[str, LoadedDefinition] = {}
    errors: list[SweepDefinitionError] = []
    if not directory.is_dir():
        return found, errors
    paths = sorted(p for p in directory.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
    for path in paths[:1000]:
        try:
            loaded = load_definition(path)
        except SweepDefinitionError as exc:
            errors.append(exc)
            continue
        name = loaded.definition.name
        if name in found:
            duplicate = SweepDefinitionError(str(path), [(None, f"sweep name {name!r} is also defined in {found[name].path}")])
            errors.append(duplicate.claimed_by({"name": name, "principal": {"name": loaded.definition.principal.name}}))
            continue
        found[name] = loaded
    return found, errors
