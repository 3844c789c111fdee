"""Audit appends per second on the Elasticsearch store, and whether the chain stays one chain:
P writer processes x T threads x N entries each, all appending to one fresh audit index at once,
then the whole log is checked as `attest audit verify` does. The writers run the code of the
checkout given as the first argument (compare two checkouts); the node is $ATTEST_ELASTICSEARCH_URL.

    .venv/bin/python bench/es_audit_append.py CHECKOUT PROCESSES THREADS ENTRIES
"""
import subprocess, sys, time, uuid
code, P, T, N = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
import os
URL = os.environ.get("ATTEST_ELASTICSEARCH_URL", "http://127.0.0.1:34287")
W = """
import sys, threading
sys.path.insert(0, sys.argv[1])
from ingest.store.elastic import ElasticStore
s = ElasticStore(sys.argv[2], prefix=sys.argv[3]); T, N = int(sys.argv[4]), int(sys.argv[5])
s.append_audit({"request_id": "warm", "principal": "p", "action": "x"})
print("ready", flush=True); sys.stdin.readline()
def f(t):
    for i in range(N): s.append_audit({"request_id": f"t{t}-{i}", "principal": "p", "action": "x"})
ws = [threading.Thread(target=f, args=(t,)) for t in range(T)]
[w.start() for w in ws]; [w.join() for w in ws]; print("done", flush=True)
"""
sys.path.insert(0, code)
from ingest.store.elastic import ElasticStore
from ingest.store.common import verify_audit_chain
from ingest.store.port import AuditQuery
prefix = f"attest-test-{uuid.uuid4().hex[:10]}"
st = ElasticStore(URL, prefix=prefix); st.list_audit(AuditQuery())
ps = [subprocess.Popen([sys.executable, "-c", W, code, URL, prefix, str(T), str(N)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd="/tmp") for _ in range(P)]
[p.stdout.readline() for p in ps]
t0 = time.monotonic()
for p in ps: p.stdin.write("go\n"); p.stdin.flush()
[p.stdout.readline() for p in ps]
dt = time.monotonic() - t0
entries = []
off = 0
while True:
    page = st.list_audit(AuditQuery(limit=1000, offset=off)); entries += page
    if len(page) < 1000: break
    off += 1000
r = verify_audit_chain(entries)
print(f"code={code} appends={P*T*N} seconds={dt:.2f} per_s={P*T*N/dt:.1f} entries={len(entries)} chain_ok={r['ok']} checked={r['checked']}")
st.drop_all(); st.close()
