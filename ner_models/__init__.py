"""Data only: lexicons and patterns for entity and relation tagging (read by ``ingest/lexicons.py``).

``entity_patterns.jsonl`` is generated from the lexicons by ``scripts/build_entity_patterns.py``;
edit the lexicons, then rebuild it (a test checks the two agree).
"""
