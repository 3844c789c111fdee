"""Attest's query side and HTTP service: hybrid retrieval, RRF, the evidence state machine,
auth, audit and the CLI."""
