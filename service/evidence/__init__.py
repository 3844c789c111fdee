"""The evidence state machine: question -> subject class -> hard gate -> retrieval -> evidence
units -> verification -> conclusion. Entry point: :func:`service.evidence.machine.run_evidence_query`."""
