#!/usr/bin/env bash
# Smoke test against a running es-test-node (or any ES 9 at $1).
#   ./smoke-test.sh [URL]      (default: ./run.sh url)
# Prints one line per check; exit code = number of failed "expected to work" checks.
# "absent" checks document features this bare node does NOT have (they must fail here).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
U="${1:-$("$SCRIPT_DIR/run.sh" url)}"
J='Content-Type: application/json'
IDX="smoke-$$"
FAILED=0

# check NAME EXPECT_REGEX curl-args...   (matches "HTTP<code> <body>")
check() {
    local name="$1" expect="$2" out
    shift 2
    out="$(curl -s -m 30 -w '\nHTTP%{http_code}' "$@" || true)"
    out="HTTP${out##*HTTP} ${out%$'\n'HTTP*}"
    if [[ "$out" =~ $expect ]]; then
        printf 'ok      %s\n' "$name"
    else
        printf 'FAIL    %s\n        %s\n' "$name" "${out:0:300}"
        FAILED=$((FAILED + 1))
    fi
}
# absent NAME curl-args...   (expects a 4xx/5xx: feature not available in the bare node)
absent() {
    local name="$1" code
    shift
    code="$(curl -s -m 30 -o /dev/null -w '%{http_code}' "$@" || true)"
    if [[ "$code" =~ ^[45] ]]; then
        printf 'absent  %s (HTTP %s)\n' "$name" "$code"
    else
        printf 'PRESENT %s (HTTP %s) - README is out of date\n' "$name" "$code"
    fi
}

check "GET / (info, via RootInfoPlugin)" '^HTTP200 .*"number"' "$U/"
check "X-Elastic-Product header" '[Xx]-[Ee]lastic-[Pp]roduct: Elasticsearch' -i -o /dev/null -D - "$U/_cluster/health"
check "create index (text/keyword/dense_vector hnsw cosine + _meta)" '^HTTP200 .*"acknowledged":true' \
    -XPUT "$U/$IDX-v1" -H "$J" -d '{
      "settings": {"number_of_shards": 1, "number_of_replicas": 0},
      "mappings": {
        "_meta": {"schema_version": 1},
        "properties": {
          "title": {"type": "text", "analyzer": "standard"},
          "tag":   {"type": "keyword"},
          "vec":   {"type": "dense_vector", "dims": 4, "index": true, "similarity": "cosine",
                    "index_options": {"type": "hnsw", "m": 16, "ef_construction": 100}}}}}'
check "bulk index 3 docs with _id" '^HTTP200 .*"errors":false' -XPOST "$U/_bulk" -H 'Content-Type: application/x-ndjson' --data-binary "$(printf '%s\n' \
    "{\"index\":{\"_index\":\"$IDX-v1\",\"_id\":\"a\"}}" '{"title":"The quick brown fox","tag":"animal","vec":[1,0,0,0]}' \
    "{\"index\":{\"_index\":\"$IDX-v1\",\"_id\":\"b\"}}" '{"title":"Quick search engines","tag":"tech","vec":[0,1,0,0]}' \
    "{\"index\":{\"_index\":\"$IDX-v1\",\"_id\":\"c\"}}" '{"title":"Lazy brown dogs","tag":"animal","vec":[0.9,0.1,0,0]}')"$'\n'
check "refresh" '^HTTP200 ' -XPOST "$U/$IDX-v1/_refresh"
check "match + bool.filter term" '^HTTP200 .*"total":\{"value":1,.*"_id":"a"' "$U/$IDX-v1/_search" -H "$J" \
    -d '{"query":{"bool":{"must":{"match":{"title":"quick"}},"filter":[{"term":{"tag":"animal"}}]}}}'
check "top-level knn + knn.filter" '^HTTP200 .*"_id":"a".*"_id":"c"' "$U/$IDX-v1/_search" -H "$J" \
    -d '{"knn":{"field":"vec","query_vector":[1,0,0,0],"k":2,"num_candidates":10,"filter":{"term":{"tag":"animal"}}}}'
check "knn query + match (hybrid, summed scores)" '^HTTP200 .*"hits":\[' "$U/$IDX-v1/_search" -H "$J" \
    -d '{"query":{"match":{"title":"quick"}},"knn":{"field":"vec","query_vector":[1,0,0,0],"k":2,"num_candidates":10}}'
check "_source has no vectors by default (ES 9 exclude_source_vectors)" '^HTTP200 .*"_source":\{"title":"The quick brown fox","tag":"animal"\}' "$U/$IDX-v1/_doc/a"
check "_source.exclude_vectors=false returns vectors" '^HTTP200 .*"vec":\[1\.0' "$U/$IDX-v1/_search" -H "$J" \
    -d '{"_source":{"exclude_vectors":false},"query":{"ids":{"values":["a"]}}}'
check "alias add" '^HTTP200 .*"acknowledged":true' -XPOST "$U/_aliases" -H "$J" -d "{\"actions\":[{\"add\":{\"index\":\"$IDX-v1\",\"alias\":\"$IDX\"}}]}"
check "create second index" '^HTTP200 ' -XPUT "$U/$IDX-v2" -H "$J" -d '{"settings":{"number_of_replicas":0}}'
check "alias atomic swap" '^HTTP200 .*"acknowledged":true' -XPOST "$U/_aliases" -H "$J" \
    -d "{\"actions\":[{\"remove\":{\"index\":\"$IDX-v1\",\"alias\":\"$IDX\"}},{\"add\":{\"index\":\"$IDX-v2\",\"alias\":\"$IDX\"}}]}"
check "alias now points to v2 only" "^HTTP200 \\{\"$IDX-v2\":\\{\"aliases\"" "$U/_alias/$IDX"
check "cluster health" '^HTTP200 .*"status":"(green|yellow)"' "$U/_cluster/health"
check "mapping _meta read" '^HTTP200 .*"_meta":\{"schema_version":1\}' "$U/$IDX-v1/_mapping"
check "mapping _meta update" '^HTTP200 ' -XPUT "$U/$IDX-v1/_mapping" -H "$J" -d '{"_meta":{"schema_version":2}}'
check "mapping _meta re-read" '^HTTP200 .*"_meta":\{"schema_version":2\}' "$U/$IDX-v1/_mapping"
check "index.codec=best_compression (needs libzstd)" '^HTTP20[01] ' -m 20 -XPUT "$U/$IDX-v2/_doc/1?refresh=true" -H "$J" -d '{"x":1}'
for a in standard simple whitespace stop keyword; do
    check "built-in analyzer $a" '^HTTP200 .*"tokens"' "$U/_analyze" -H "$J" -d "{\"analyzer\":\"$a\",\"text\":\"a b\"}"
done

absent "analysis-common: analyzer english" "$U/_analyze" -H "$J" -d '{"analyzer":"english","text":"foxes"}'
absent "analysis-common: filter stemmer" "$U/_analyze" -H "$J" -d '{"tokenizer":"standard","filter":["stemmer"],"text":"foxes"}'
absent "analysis-common: tokenizer whitespace" "$U/_analyze" -H "$J" -d '{"tokenizer":"whitespace","text":"a b"}'
absent "reindex: _delete_by_query" -XPOST "$U/$IDX-v1/_delete_by_query" -H "$J" -d '{"query":{"match_all":{}}}'
absent "reindex: _update_by_query" -XPOST "$U/$IDX-v1/_update_by_query" -H "$J" -d '{"query":{"match_all":{}}}'
absent "reindex: _reindex" -XPOST "$U/_reindex" -H "$J" -d "{\"source\":{\"index\":\"$IDX-v1\"},\"dest\":{\"index\":\"$IDX-v3\"}}"
absent "lang-painless: script_score" "$U/$IDX-v1/_search" -H "$J" -d '{"query":{"script_score":{"query":{"match_all":{}},"script":{"source":"1"}}}}'
absent "mapper-extras: scaled_float" -XPUT "$U/$IDX-sf" -H "$J" -d '{"mappings":{"properties":{"p":{"type":"scaled_float","scaling_factor":10}}}}'
absent "x-pack: rrf retriever" "$U/$IDX-v1/_search" -H "$J" -d '{"retriever":{"rrf":{"retrievers":[{"standard":{"query":{"match_all":{}}}}]}}}'
absent "x-pack: _security" "$U/_security/_authenticate"
absent "lang-mustache: search template" "$U/$IDX-v1/_search/template" -H "$J" -d '{"source":{"query":{"match_all":{}}}}'

curl -s -o /dev/null -XDELETE "$U/$IDX-v1,$IDX-v2" || true
echo "failed: $FAILED"
exit "$FAILED"
