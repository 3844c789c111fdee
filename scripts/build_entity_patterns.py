"""Generate ``ner_models/entity_patterns.jsonl`` (EntityRuler patterns) from the lexicons.

The lexicons (legal_suffixes.json, roles.json, jurisdictions.json, agreement_kinds.json) are the
source of truth. Roles, jurisdictions and known names become phrase patterns (the ruler matches
them on LOWER with one PhraseMatcher; spelling rules are applied in ingest/entities.py). Legal
suffixes become a few token patterns with IN-sets, tokenised by the model's own tokenizer so
multi-token forms ("S.A. de C.V.", "Co., Ltd.") match however spaCy splits them.

    PYTHONPATH=. python scripts/build_entity_patterns.py          # rewrite the file
    PYTHONPATH=. python scripts/build_entity_patterns.py --check  # exit 1 when it is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any

from ingest.lexicons import NER_MODELS_DIR, load_json
from ingest.nlp_model import load_english

PATTERNS_FILE = NER_MODELS_DIR / "entity_patterns.jsonl"

# A capitalised name token: "Acme", "ACME", "T", "2THEMART.COM", "&", "-" (T-Mobile splits in three).
NAME_TOKEN_REGEX = r"^(?:[A-Z0-9][\w.&'’-]*|&|-)$"
NAME_OR_CONNECTOR_REGEX = r"^(?:[A-Z0-9][\w.&'’-]*|&|-|and)$"
# Words that start a sentence or a preamble and must not be swallowed into a name.
NAME_STOPWORDS = [
    "this", "that", "these", "those", "the", "between", "by", "and", "among", "agreement", "whereas",
    "dated", "made", "entered", "section", "article", "exhibit", "schedule", "if", "in", "each",
    "any", "all", "no", "for", "to", "of", "with", "as", "on", "at", "from", "under", "upon",
    "such", "said", "company", "party", "parties", "name", "title", "by:", "its", "it", "we",
    # Role words: "Chief Executive Officer of Acme Inc." is a role and a name, not one name.
    "chief", "officer", "executive", "president", "vice", "director", "secretary", "treasurer",
    "founder", "ceo", "cfo", "coo", "cto", "chairman", "counsel",
]


def _lower_tokens(phrase: str) -> list[str]:
    return [token.lower_ for token in load_english().tokenizer(phrase)]


def _name_token(op: str) -> dict[str, Any]:
    return {"TEXT": {"REGEX": NAME_TOKEN_REGEX}, "LOWER": {"NOT_IN": NAME_STOPWORDS}, "OP": op}


def org_patterns() -> Iterator[dict[str, Any]]:
    """Few token patterns with IN-sets rather than one per suffix: the Matcher's cost grows with
    the number of patterns that can start at every capitalised token."""
    suffixes = load_json("legal_suffixes.json")["org_suffixes"]
    token_lists = list(dict.fromkeys(tuple(_lower_tokens(s)) for s in suffixes))
    single = sorted({t[0] for t in token_lists if len(t) == 1})
    multi = [t for t in token_lists if len(t) > 1]
    # Written lower-case, "corporation" or "limited" is a word ("a Delaware corporation"); only
    # "plc" is lower-case by convention.
    alpha_suffixes = [t for t in single if t.isalpha() and t != "plc"]
    other_suffixes = [t for t in single if not t.isalpha() or t == "plc"]
    # "INC" tokenises apart from its period at a sentence end; keep the period.
    dottable = sorted(t for t in alpha_suffixes if (t + ".",) in token_lists)
    suffix_alternatives: list[list[dict[str, Any]]] = [
        [{"LOWER": {"IN": alpha_suffixes}, "IS_LOWER": False}],
        [{"LOWER": {"IN": other_suffixes}}],
        [{"LOWER": {"IN": dottable}, "IS_LOWER": False}, {"ORTH": "."}],
        *[[{"LOWER": token} for token in tokens] for tokens in multi],
    ]
    # Inside a name "and"/"&" may join words ("ExxonMobil Research and Engineering Company"), but
    # then no legal suffix may occur before the last one, or "Acme Corp. and Beta Inc." would fuse.
    joined_head = {
        "TEXT": {"REGEX": NAME_TOKEN_REGEX},
        "LOWER": {"NOT_IN": sorted(set(NAME_STOPWORDS) | set(single))},
        "OP": "+",
    }
    joined_middle = {
        "TEXT": {"REGEX": NAME_OR_CONNECTOR_REGEX},
        "LOWER": {"NOT_IN": sorted((set(NAME_STOPWORDS) - {"and"}) | set(single))},
        "OP": "*",
    }
    for suffix_tokens in suffix_alternatives:
        yield {
            "label": "ORG",
            "pattern": [_name_token("+"), {"ORTH": ",", "OP": "?"}, *suffix_tokens],
            "id": "legal_suffix",
        }
        yield {
            "label": "ORG",
            "pattern": [
                joined_head,
                {"LOWER": {"IN": ["and", "&"]}},
                joined_middle,
                {"ORTH": ",", "OP": "?"},
                *suffix_tokens,
            ],
            "id": "legal_suffix",
        }


def known_org_patterns() -> Iterator[dict[str, Any]]:
    for name in load_json("legal_suffixes.json")["known_orgs"]:
        yield {"label": "ORG", "pattern": name, "id": "known_org"}


def role_patterns() -> Iterator[dict[str, Any]]:
    """Phrase patterns, matched on LOWER (the ruler's phrase_matcher_attr); case-sensitive forms
    ("President", party roles) are enforced after matching, in ingest/entities.py."""
    roles = load_json("roles.json")
    title_variants: set[str] = set()
    for canonical, entry in sorted(roles["titles"].items()):
        for variant in entry["variants"]:
            title_variants.add(variant.casefold())
            yield {"label": "ROLE", "pattern": variant, "id": canonical}
    not_tagged = set(roles["party_roles_not_tagged"])
    for role in sorted(set(roles["party_roles"])):
        if role in not_tagged or role.casefold() in title_variants:
            continue
        yield {"label": "ROLE", "pattern": role, "id": role.casefold()}


def jurisdiction_patterns() -> Iterator[dict[str, Any]]:
    data = load_json("jurisdictions.json")
    not_alone = set(data["not_tagged_alone"])
    commonwealths = set(data["commonwealths"])
    for canonical, variants in sorted(data["us_states"].items()):
        prefixes = ["State of"] + (["Commonwealth of"] if canonical in commonwealths else [])
        for variant in variants:
            for prefix in prefixes:
                yield {"label": "JURISDICTION", "pattern": f"{prefix} {variant}", "id": canonical}
            if variant not in not_alone:
                yield {"label": "JURISDICTION", "pattern": variant, "id": canonical}
    for canonical, variants in sorted(data["other"].items()):
        for variant in variants:
            if variant not in not_alone:
                yield {"label": "JURISDICTION", "pattern": variant, "id": canonical}


def agreement_patterns() -> Iterator[dict[str, Any]]:
    data = load_json("agreement_kinds.json")
    keywords = sorted(
        {word for kind in data["kinds"] for keyword in kind["keywords"] for word in keyword.split()}
        | {"master", "services", "affiliate", "co", "-", "branding"}
    )
    title_words = data["title_words"]
    capitalised = {
        "TEXT": {"REGEX": r"^(?:[A-Z][\w'’-]*|&|-)$"},
        "LOWER": {"NOT_IN": ["this", "the", "that", "such", "any", "each", "said", "an", "a", "our"]},
        "OP": "*",
    }
    yield {
        "label": "AGREEMENT",
        "pattern": [
            capitalised,
            {"LOWER": {"IN": ["and", "&"]}, "OP": "?"},
            capitalised,
            {"LOWER": {"IN": keywords}, "IS_LOWER": False},
            {"LOWER": {"IN": title_words}, "IS_LOWER": False},
        ],
        "id": "agreement",
    }
    for abbreviation in sorted(data["abbreviations"]):
        yield {"label": "AGREEMENT", "pattern": abbreviation, "id": "agreement"}


def all_patterns() -> list[dict[str, Any]]:
    return [*org_patterns(), *known_org_patterns(), *role_patterns(), *jurisdiction_patterns(), *agreement_patterns()]


def render() -> str:
    return "".join(json.dumps(p, ensure_ascii=False, sort_keys=True) + "\n" for p in all_patterns())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report whether the file is stale")
    args = parser.parse_args()
    rendered = render()
    current = PATTERNS_FILE.read_text(encoding="utf-8") if PATTERNS_FILE.exists() else ""
    if args.check:
        if current != rendered:
            print(f"{PATTERNS_FILE} is stale; run scripts/build_entity_patterns.py", file=sys.stderr)
            return 1
        return 0
    PATTERNS_FILE.write_text(rendered, encoding="utf-8")
    print(f"wrote {rendered.count(chr(10))} patterns to {PATTERNS_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
