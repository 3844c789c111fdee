"""Attest ingestion: parsing, chunking with exact source positions, NLP tagging, embeddings and the
revision-aware indexing pipeline. Also home of the shared chunk schema and the store port, which the
query side (`service/`) imports. Nothing here imports the FastAPI app."""
