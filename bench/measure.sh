#!/usr/bin/env bash
# measure.sh <checkout-dir> <split> <outdir>
#
# Measures one checkout of Attest on one CUAD dev split (tune|report) with the commands of the
# closing notes, using that checkout's own .venv and code, and ends with one markdown table:
#   issue 9:  bench/gate_eval.py --split S --phrasings --registry
#             bench/ner_eval.py --split S --speed-docs 0
#             bench/pdf_agreement.py --split S
#   issue 10: bench/cuad_eval.py, tune: 60 contracts as two runs (--docs 30, --offset 30 --docs 30,
#             one store each), report: --docs 24; fresh stores under <outdir> built with
#             --ingest-only (ingest code may differ between checkouts), then --no-ingest --out;
#             the runs are pooled by bench/cuad_combine.py (rates over all questions, not means).
# Everything goes under <outdir> (logs/, stores, the gate bench cache, table.md); nothing is read
# from earlier runs. Only aggregate figures are printed (safe for the report split); per-contract
# lines stay in <outdir>/logs and must not be read for the report split.
#
# Settings (environment):
#   MEASURE_DOCS=N      quick check: first N contracts for gate/ner, the split's first PDF, and
#                       --docs N for each cuad_eval run (figures NOT comparable; the table says so)
#   MEASURE_PARALLEL=1  (default) the cuad_eval chain runs beside the gate/ner/pdf chain;
#                    0: one step at a time; 2: also the two tune stores side by side (3 processes)
#   ATTEST_CUAD_DIR     CUAD dev directory (default /work/shared/eval/cuad-dev)
#
# Run time: measured on dafc41c while 7 engineers shared the 2-core box (load 6-16): tune ~45 min
# (cuad ingests ~35 of it, pdf 8, ner 10, gate 3), report ~15 min; MEASURE_DOCS=1 took 7 min at
# load 14 but 14 s on the idle box, so an idle full run is far shorter (not timed whole).
# Exit status: 0 when every step succeeded, 1 when one failed (its row says FAILED and names
# its log), 2 on bad arguments.
set -uo pipefail

usage() { echo "usage: measure.sh <checkout-dir> <tune|report> <outdir>" >&2; exit 2; }
[ $# -eq 3 ] || usage
checkout=$(cd "$1" 2>/dev/null && pwd) || { echo "measure.sh: no checkout at $1" >&2; exit 2; }
split=$2
case "$split" in tune|report) ;; *) usage ;; esac
mkdir -p "$3" || exit 2
out=$(cd "$3" && pwd)
py="$checkout/.venv/bin/python"
[ -x "$py" ] || { echo "measure.sh: $py is missing: run 'bash scripts/install.sh' in $checkout" >&2; exit 2; }
cuad="${ATTEST_CUAD_DIR:-/work/shared/eval/cuad-dev}"
[ -f "$cuad/splits.json" ] || { echo "measure.sh: no CUAD dev split at $cuad" >&2; exit 2; }
docs="${MEASURE_DOCS:-}"
parallel="${MEASURE_PARALLEL:-1}"
case "$parallel" in 0|1|2) ;; *) echo "measure.sh: MEASURE_PARALLEL must be 0, 1 or 2" >&2; exit 2 ;; esac
case "$docs" in ''|[1-9]|[1-9][0-9]|[1-9][0-9][0-9]) ;; *) echo "measure.sh: MEASURE_DOCS must be 1-999" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
# The pooling helper: the checkout's own when it has one, else the evalmain branch's copy.
combine="$checkout/bench/cuad_combine.py"
[ -f "$combine" ] || combine="$here/evalmain/bench/cuad_combine.py"
[ -f "$combine" ] || { echo "measure.sh: bench/cuad_combine.py not found (checkout or $here/evalmain)" >&2; exit 2; }

# bench/pdf_agreement.py reads CUAD from <checkout>/../shared/eval/cuad-dev only.
[ -d "$checkout/../shared/eval/cuad-dev" ] \
    || echo "measure.sh: warning: $checkout/../shared/eval/cuad-dev is absent: the PDF step will fail" >&2

logs="$out/logs"
mkdir -p "$logs"
export ATTEST_CUAD_DIR="$cuad" ATTEST_BENCH_CACHE="$out/gate-cache" DO_NOT_TRACK=1
commit=$(git -C "$checkout" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$checkout" status --porcelain --untracked-files=no 2>/dev/null | head -1)
started=$(date +%s)
echo "measure.sh: $checkout ($commit${dirty:+, uncommitted changes}) on $split -> $out; logs in $logs" >&2

# run NAME ARGS...: one bench step in the checkout, stdout/stderr to logs/NAME.{out,err}, the exit
# status and seconds to logs/NAME.time.
run() {
    local name=$1 s rc
    shift
    s=$(date +%s)
    echo "  $(date -u +%H:%M:%S) start $name" >&2
    (cd "$checkout" && nice -n 10 env PYTHONPATH=. "$py" "$@") >"$logs/$name.out" 2>"$logs/$name.err"
    rc=$?
    echo "rc=$rc secs=$(( $(date +%s) - s ))" >"$logs/$name.time"
    echo "  $(date -u +%H:%M:%S) end   $name rc=$rc ($(( $(date +%s) - s )) s)" >&2
    return $rc
}

limit=()
pdf_only=()
if [ -n "$docs" ]; then
    limit=(--limit "$docs")
    # pdf_agreement.py has no limit: a quick check measures the split's first PDF only.
    first_pdf=$(python3 - "$cuad" "$split" <<'PY'
import json, sys
from pathlib import Path
cuad, split = Path(sys.argv[1]), sys.argv[2]
wanted = set(json.loads((cuad / "splits.json").read_text())[split])
names = {json.loads(l)["pdf_filename"].casefold(): json.loads(l)["doc_id"] for l in (cuad / "contracts_index.jsonl").open()}
print(next((p.name for p in sorted((cuad / "contracts_pdf").iterdir()) if names.get(p.name.casefold()) in wanted), ""))
PY
)
    [ -n "$first_pdf" ] && pdf_only=(--only "$first_pdf")
fi
cheap_chain() {
    run pdf bench/pdf_agreement.py --split "$split" "${pdf_only[@]}"
    run ner bench/ner_eval.py --split "$split" --speed-docs 0 "${limit[@]}"
    run gate bench/gate_eval.py --split "$split" --phrasings --registry "${limit[@]}"
}

# cuad_run NAME CUAD_EVAL_ARGS...: fresh store, ingest, then the questions (the store is built by
# this checkout even when the directory exists: it is removed first).
cuad_run() {
    local name=$1
    shift
    rm -rf "${out:?}/store-$name"
    run "ingest_$name" bench/cuad_eval.py --cuad "$cuad" --split "$split" "$@" --data-dir "$out/store-$name" --ingest-only \
        && run "cuad_$name" bench/cuad_eval.py --cuad "$cuad" --split "$split" "$@" --data-dir "$out/store-$name" \
            --no-ingest --out "$out/cuad_$name.json"
}
cuad_chain() {
    if [ "$split" = tune ] && [ "$parallel" = 2 ]; then
        cuad_run T2 --offset 30 --docs "${docs:-30}" &
        cuad_run T --docs "${docs:-30}"
        wait $!
    elif [ "$split" = tune ]; then
        cuad_run T --docs "${docs:-30}"
        cuad_run T2 --offset 30 --docs "${docs:-30}"
    else
        cuad_run R --docs "${docs:-24}"
    fi
}

if [ "$parallel" = 0 ]; then
    cheap_chain
    cuad_chain
else
    cuad_chain &
    cuad_pid=$!
    cheap_chain
    wait "$cuad_pid"
fi

reports=()
for f in "$out"/cuad_T.json "$out"/cuad_T2.json "$out"/cuad_R.json; do [ -f "$f" ] && reports+=("$f"); done
if [ ${#reports[@]} -gt 0 ]; then
    (cd "$checkout" && "$py" "$combine" --checkout "$checkout" "${reports[@]}") >"$logs/combine.out" 2>"$logs/combine.err"
fi
elapsed=$(( $(date +%s) - started ))

# The table: every figure with its counts, parsed from the logs (a row whose line is missing
# says so and names its log rather than guessing).
python3 - "$logs" "$split" "$commit${dirty:+ (dirty)}" "$elapsed" "${docs:-all}" <<'PY' | tee "$out/table.md"
import json, re, sys
from pathlib import Path

logs, split, commit, elapsed, docs = Path(sys.argv[1]), *sys.argv[2:]


def text(name):
    p = logs / f"{name}.out"
    return p.read_text(errors="replace") if p.exists() else ""


def status(name):
    p = logs / f"{name}.time"
    if not p.exists():
        return "not run"
    m = re.search(r"rc=(\d+) secs=(\d+)", p.read_text())
    return f"FAILED rc={m.group(1)}, see logs/{name}.err" if m and m.group(1) != "0" else ""


def secs(*names):
    total = 0
    for n in names:
        p = logs / f"{n}.time"
        m = re.search(r"secs=(\d+)", p.read_text()) if p.exists() else None
        total += int(m.group(1)) if m else 0
    return total


def grab(name, pattern, group=1):
    bad = status(name)
    if bad:
        return bad
    m = re.search(pattern, text(name))
    return m.group(group).strip() if m else f"n/a (line not found, see logs/{name}.out)"


RATE = r"([0-9.]+ \(\d+/\d+\))"
rows = []
g = "gate"
rows += [
    ("9", "in-KB gate pass, standard question (>= 0.97)", grab(g, r"in-KB pass \(names verbatim in the text\) " + RATE), g),
    ("9", "the same without by-design refusals", grab(g, r"in-KB pass without questions refused by design .*?\) " + RATE), g),
    ("9", "by-design refusals (asked, refused)", grab(g, r"; (\d+ such question\(s\), \d+ refused)"), g),
    ("9", "not-in-KB refused, stray punctuation incl. (1.00)", grab(g, r"not-in-KB refused \(incl\. stray punctuation\) " + RATE), g),
    ("9", "issue 9's three fail-open questions", grab(g, r"fail-open questions: never another contract (\d+/\d+)"), g),
    ("9", "in-KB misses by cause", grab(g, r"in-KB misses by cause: (.*)"), g),
    ("9", "in-KB pass, analyst phrasings", grab(g, r"all shapes: in-KB pass " + RATE), g),
    ("9", "not-in-KB refused, phrasings", grab(g, r"all shapes: .*not-in-KB refused " + RATE), g),
    ("9", "registry question: in-KB pass", grab(g, r"registry questions: in-KB pass " + RATE), g),
    ("9", "registry question: not-in-KB refused", grab(g, r"registry questions: .*?not-in-KB refused " + RATE), g),
    ("9", "registry question: stray quote refused", grab(g, r"stray quote refused " + RATE), g),
]
n = "ner"
rows += [
    ("9", "party recall (>= 0.95)", grab(n, r"party recall +" + RATE), n),
    ("9", "party recall, names written in the contract", grab(n, r"party recall, CUAD names written in the contract " + RATE), n),
    ("9", "party precision", grab(n, r"party precision " + RATE), n),
    ("9", "title accuracy (>= 0.95)", grab(n, r"title accuracy " + RATE), n),
]
rows.append(("9", "PDF vs TXT agreement (>= 0.98)", grab("pdf", r"overall ([0-9.]+ \(\d+/\d+ tokens\))"), "pdf"))

names = ["T", "T2"] if split == "tune" else ["R"]
cuad_steps = [f"{k}_{x}" for x in names for k in ("ingest", "cuad")]
bad = next((status(s) for s in cuad_steps if status(s)), "")
try:
    combined = json.loads(text("combine"))
except ValueError:
    combined = None
    bad = bad or "n/a (combine failed, see logs/combine.err)"
label = "cuad_eval " + "+".join(names)


def c(qset, key):
    if bad:
        return bad
    s = combined["sets"].get(qset)
    return str(s[key]) if s else f"n/a (no {qset} set)"


if combined and not bad:
    rows.append(("10", "contracts; questions past the gate, template / phrasings",
                 f"{combined['contracts']}; {c('template', 'gate_passed')}/{c('template', 'questions')} / "
                 f"{c('phrasings', 'gate_passed')}/{c('phrasings', 'questions')}", label))
rows += [
    ("10", "hit, 15 phrasebook categories (>= 0.85)", c("template", "hit"), label),
    ("10", "hit, 41 categories, own phrasings (>= 0.75)", c("phrasings", "hit"), label),
    ("10", "abstention, template (>= 0.85)", c("template", "abstention"), label),
    ("10", "abstention, phrasings (>= 0.85)", c("phrasings", "abstention"), label),
    ("10", "worst category >= 3 answerable, template (>= 0.5)", c("template", "worst"), label),
    ("10", "worst category >= 3 answerable, phrasings (>= 0.5)", c("phrasings", "worst"), label),
    ("10", "purity: cited units of another document (0)",
     bad or str(sum(s["impure"] for s in combined["sets"].values())), label),
    ("10", "sufficient on answerable, template", c("template", "sufficient"), label),
    ("10", "sufficient on answerable, phrasings", c("phrasings", "sufficient"), label),
]
if combined and not bad:
    rows.append(("10", "query latency p50 / p95 ms per run (load-dependent)",
                 ", ".join(f"{a} / {b}" for a, b in zip(combined["query_ms_p50"], combined["query_ms_p95"])), label))

print(f"\n### {split} split, checkout {commit}, contracts limit: {docs}, wall {int(elapsed) // 60} min {int(elapsed) % 60} s\n")
print("| issue | measure (goal) | figure | from |")
print("|---|---|---|---|")
for issue, measure, fig, src in rows:
    print(f"| {issue} | {measure} | {fig} | {src} |")
print(f"\nstep seconds: pdf {secs('pdf')}, ner {secs('ner')}, gate {secs('gate')}, "
      f"cuad ingest {secs(*[f'ingest_{x}' for x in names])}, cuad questions {secs(*[f'cuad_{x}' for x in names])}")
failed = any(status(s).startswith("FAILED") or status(s) == "not run" for s in ["pdf", "ner", "gate", *cuad_steps])
sys.exit(1 if failed or bad else 0)
PY
