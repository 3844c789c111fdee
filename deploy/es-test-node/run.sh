#!/usr/bin/env bash
# Bare in-JVM Elasticsearch test node (server jar + transport-netty4). See README.md.
#
#   run.sh start   build if needed, start in background, wait for health, print URL (last stdout line)
#   run.sh wait    poll GET /_cluster/health until yellow/green (timeout), print URL
#   run.sh stop    stop the node (SIGTERM, then SIGKILL after a grace period)
#   run.sh url     print the URL of the running node
#   run.sh status  print pid/url/health; exit 0 if running, 1 if not
#   run.sh build   (re)build the Maven project only
#   run.sh clean   stop and delete the whole state dir
#
#   run.sh cluster start [N]      start N (default 3) nodes that form ONE cluster on loopback, in
#                                 $ES_TEST_CLUSTER_STATE/node-1..N; wait for green with N nodes;
#                                 print the comma-separated URLs (last stdout line)
#   run.sh cluster urls           print the comma-separated URLs of the running nodes
#   run.sh cluster kill I         SIGKILL node I (a crash: no clean shutdown)
#   run.sh cluster stop-node I    SIGTERM node I (a clean shutdown)
#   run.sh cluster start-node I   restart node I with its data and settings; wait until the
#                                 cluster has all its nodes again; print its URL
#   run.sh cluster stop           stop every node of the cluster
#   run.sh cluster clean          stop and delete the cluster's state dir
#
# Environment:
#   ES_TEST_NODE_STATE      state dir (default /tmp/attest-es-test-node): pid, url, node.log, data
#   ES_TEST_NODE_HTTP_PORT  HTTP port (default 0 = a free ephemeral port chosen at bind time)
#   ES_TEST_NODE_TIMEOUT    seconds for `wait` (default 180)
#   ES_TEST_NODE_JAVA_OPTS  JVM options (default "-Xms512m -Xmx1g -XX:TieredStopAtLevel=1")
#   ES_TEST_NODE_CDS        1 = use an AppCDS archive in target/ for faster startup (default 1)
#   ES_TEST_NODE_KEEP_DATA  1 = keep indices across `start` (default: every start begins empty)
#   ES_TEST_NODE_WAIT       health (default: `start` waits for yellow/green) | none (return at once)
#   ES_TEST_CLUSTER_STATE   cluster mode: parent of the node state dirs (default /tmp/attest-es-test-cluster)
#   ES_TEST_CLUSTER_JAVA_OPTS  cluster mode: JVM options per node (default "-Xms256m -Xmx512m -XX:TieredStopAtLevel=1")
#   JAVA_HOME               used if it is a JDK >= 21, else /usr/lib/jvm/temurin-25-jdk-amd64
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
STATE_DIR="${ES_TEST_NODE_STATE:-/tmp/attest-es-test-node}"
PID_FILE="$STATE_DIR/pid"
URL_FILE="$STATE_DIR/url"
LOG_FILE="$STATE_DIR/node.log"
BUILD_LOG="$STATE_DIR/build.log"
TIMEOUT="${ES_TEST_NODE_TIMEOUT:-180}"
DEFAULT_JDK=/usr/lib/jvm/temurin-25-jdk-amd64
MAIN_CLASS=attest.estest.TestNode
APP_JAR="$SCRIPT_DIR/target/es-test-node-1.0.0.jar"
LIB_DIR="$SCRIPT_DIR/target/lib"

log() { echo "es-test-node: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

java_major() { # $1 = java binary; prints the feature version (e.g. 25) or nothing
    "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n1
}

select_jdk() {
    local v
    if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" && -x "$JAVA_HOME/bin/javac" ]]; then
        v="$(java_major "$JAVA_HOME/bin/java")"
        if [[ -n "$v" && "$v" -ge 21 ]]; then
            return 0
        fi
    fi
    [[ -x "$DEFAULT_JDK/bin/java" ]] || die "no JDK >= 21: set JAVA_HOME (looked for $DEFAULT_JDK)"
    export JAVA_HOME="$DEFAULT_JDK"
}

needs_build() {
    [[ -f "$APP_JAR" && -d "$LIB_DIR" ]] || return 0
    [[ -n "$(ls -A "$LIB_DIR" 2>/dev/null)" ]] || return 0
    [[ -n "$(find "$SCRIPT_DIR/pom.xml" "$SCRIPT_DIR/src" -newer "$APP_JAR" -print -quit)" ]] && return 0
    return 1
}

do_build() {
    select_jdk
    command -v mvn >/dev/null || die "mvn not found on PATH"
    mkdir -p "$(dirname "$BUILD_LOG")"
    log "building with JAVA_HOME=$JAVA_HOME (log: $BUILD_LOG)"
    # offline first (warm ~/.m2), then online
    if (cd "$SCRIPT_DIR" && mvn -B -q -o package) >"$BUILD_LOG" 2>&1; then
        return 0
    fi
    log "offline build failed, retrying online"
    if (cd "$SCRIPT_DIR" && mvn -B -q package) >>"$BUILD_LOG" 2>&1; then
        return 0
    fi
    tail -n 40 "$BUILD_LOG" >&2 || true
    die "maven build failed (see $BUILD_LOG)"
}

# command line of a live process, space-joined, or empty if it is gone or a zombie.
# Right after `start` forks, /proc/PID/cmdline reads empty while the child is inside execve
# (measured: about one read in three); that window is transient, so an empty read of a live,
# non-zombie process is retried briefly instead of being taken for "not running".
pid_cmdline() {
    local pid="$1" i cmd state
    for ((i = 0; i < 40; i++)); do
        kill -0 "$pid" 2>/dev/null || return 0
        cmd="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)"
        if [[ -n "$cmd" ]]; then
            echo "$cmd"
            return 0
        fi
        state="$(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1 || true)"
        [[ -z "$state" || "$state" == Z ]] && return 0
        sleep 0.05
    done
}

# pid of our running node, or empty
node_pid() {
    [[ -f "$PID_FILE" ]] || return 0
    local pid
    pid="$(cat "$PID_FILE" 2>/dev/null || true)"
    [[ "$pid" =~ ^[0-9]+$ ]] || return 0
    # guard against a stale pid file whose pid was reused; right after `start` the child may
    # briefly still be the forked shell / nohup before it execs java
    if pid_cmdline "$pid" | grep -qE "$MAIN_CLASS|nohup|run\.sh"; then
        echo "$pid"
    fi
}

health_status() { # prints green/yellow/red or nothing
    local url="$1"
    curl -s -m 5 "$url/_cluster/health" 2>/dev/null | sed -n 's/.*"status":"\([a-z]*\)".*/\1/p' || true
}

do_wait() {
    local deadline=$((SECONDS + TIMEOUT)) pid url status
    while :; do
        pid="$(node_pid)"
        if [[ -z "$pid" ]]; then
            log "node is not running"
            [[ -f "$LOG_FILE" ]] && { log "last lines of $LOG_FILE:"; tail -n 40 "$LOG_FILE" >&2; }
            return 1
        fi
        if [[ -s "$URL_FILE" ]]; then
            url="$(cat "$URL_FILE")"
            status="$(health_status "$url")"
            if [[ "$status" == green || "$status" == yellow ]]; then
                echo "$url"
                return 0
            fi
        fi
        if ((SECONDS >= deadline)); then
            log "timed out after ${TIMEOUT}s waiting for cluster health yellow/green (pid $pid)"
            [[ -f "$LOG_FILE" ]] && { log "last lines of $LOG_FILE:"; tail -n 40 "$LOG_FILE" >&2; }
            return 1
        fi
        sleep 0.5
    done
}

do_start() {
    local pid
    pid="$(node_pid)"
    if [[ -n "$pid" ]]; then
        log "already running (pid $pid)"
        do_wait
        return
    fi
    if needs_build; then do_build; fi
    select_jdk

    mkdir -p "$STATE_DIR"
    rm -f "$URL_FILE" "$PID_FILE"
    if [[ "${ES_TEST_NODE_KEEP_DATA:-0}" != 1 ]]; then
        rm -rf "$STATE_DIR/data" "$STATE_DIR/home"
    fi

    local major opts=()
    major="$(java_major "$JAVA_HOME/bin/java")"
    # shellcheck disable=SC2206
    opts=(${ES_TEST_NODE_JAVA_OPTS:--Xms512m -Xmx1g -XX:TieredStopAtLevel=1})
    # AppCDS archive of the ES classes (created on the first clean exit, reused afterwards;
    # the JVM regenerates it if the JDK or classpath changes). Cuts startup noticeably on 2 cores.
    if [[ "${ES_TEST_NODE_CDS:-1}" == 1 ]]; then
        opts+=(-XX:+AutoCreateSharedArchive -XX:SharedArchiveFile="$SCRIPT_DIR/target/es-test-node.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off)
    elif [[ "${ES_TEST_NODE_CDS:-1}" == readonly && -f "$SCRIPT_DIR/target/es-test-node.jsa" ]]; then
        # cluster nodes start concurrently: use the archive if it exists, never (re)write it
        opts+=(-XX:SharedArchiveFile="$SCRIPT_DIR/target/es-test-node.jsa" -Xshare:auto -Xlog:cds=off -Xlog:cds+dynamic=off)
    fi
    opts+=(
        -XX:+UseG1GC
        -Dfile.encoding=UTF-8
        -Djava.awt.headless=true
        -Djava.io.tmpdir="$STATE_DIR/tmp"
        --enable-native-access=ALL-UNNAMED
        --add-modules=jdk.incubator.vector
    )
    # netty 4.1 uses sun.misc.Unsafe; JDK >= 24 warns loudly about it
    if [[ -n "$major" && "$major" -ge 24 ]]; then
        opts+=(--sun-misc-unsafe-memory-access=allow)
    fi
    mkdir -p "$STATE_DIR/tmp"

    log "starting (JAVA_HOME=$JAVA_HOME, state=$STATE_DIR, log=$LOG_FILE)"
    nohup "$JAVA_HOME/bin/java" "${opts[@]}" -cp "$APP_JAR:$LIB_DIR/*" "$MAIN_CLASS" "$STATE_DIR" \
        >"$LOG_FILE" 2>&1 </dev/null &
    echo $! >"$PID_FILE"
    if [[ "${ES_TEST_NODE_WAIT:-health}" == none ]]; then
        return 0
    fi
    if ! do_wait; then
        log "start failed, stopping the node (state dir kept for inspection: $STATE_DIR)"
        do_stop || true
        return 1
    fi
}

do_stop() {
    local pid i
    pid="$(node_pid)"
    if [[ -z "$pid" ]]; then
        log "not running"
        rm -f "$PID_FILE" "$URL_FILE"
        return 0
    fi
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 60; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.5
    done
    if kill -0 "$pid" 2>/dev/null; then
        log "pid $pid did not exit after SIGTERM, sending SIGKILL"
        kill -KILL "$pid" 2>/dev/null || true
        for ((i = 0; i < 20; i++)); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.5
        done
    fi
    if kill -0 "$pid" 2>/dev/null; then
        die "could not stop pid $pid"
    fi
    rm -f "$PID_FILE" "$URL_FILE"
    log "stopped (pid $pid)"
}

do_url() {
    local pid
    pid="$(node_pid)"
    [[ -n "$pid" ]] || die "not running"
    [[ -s "$URL_FILE" ]] || die "running (pid $pid) but no URL yet"
    cat "$URL_FILE"
}

do_status() {
    local pid url="" status=""
    pid="$(node_pid)"
    if [[ -z "$pid" ]]; then
        echo "stopped"
        return 1
    fi
    if [[ -s "$URL_FILE" ]]; then
        url="$(cat "$URL_FILE")"
        status="$(health_status "$url")"
    fi
    echo "running pid=$pid url=${url:-?} health=${status:-unknown}"
}

# -- cluster mode: N nodes of one cluster on loopback, each a `run.sh` node with its own state dir
CLUSTER_DIR="${ES_TEST_CLUSTER_STATE:-/tmp/attest-es-test-cluster}"

free_ports() { # $1 = how many free TCP ports on 127.0.0.1
    python3 - "$1" <<'PY'
import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))
PY
}

cluster_nodes() { # node numbers that have a state dir, in order
    local dir
    for dir in "$CLUSTER_DIR"/node-*; do
        [[ -f "$dir/cluster.env" ]] && echo "${dir##*-}"
    done | sort -n
}

node_run() { # $1 = node number, $2... = run.sh arguments; runs with that node's settings
    local n="$1"
    shift
    local env_file="$CLUSTER_DIR/node-$n/cluster.env"
    [[ -f "$env_file" ]] || die "no cluster node $n in $CLUSTER_DIR"
    (
        set -a
        # shellcheck disable=SC1090
        source "$env_file"
        set +a
        bash "$SCRIPT_DIR/run.sh" "$@"
    )
}

cluster_size() {
    local n
    n="$(cluster_nodes | wc -l)"
    echo "${n// /}"
}

cluster_urls() { # comma-separated URLs of the running nodes
    local n urls=()
    for n in $(cluster_nodes); do
        if [[ -s "$CLUSTER_DIR/node-$n/url" ]] && ES_TEST_NODE_STATE="$CLUSTER_DIR/node-$n" node_pid_of >/dev/null; then
            urls+=("$(cat "$CLUSTER_DIR/node-$n/url")")
        fi
    done
    local IFS=,
    echo "${urls[*]}"
}

node_pid_of() { # like node_pid, for the node whose state dir is $ES_TEST_NODE_STATE
    local pid
    pid="$(cat "$ES_TEST_NODE_STATE/pid" 2>/dev/null || true)"
    [[ "$pid" =~ ^[0-9]+$ ]] && pid_cmdline "$pid" | grep -q "$MAIN_CLASS" && echo "$pid"
}

cluster_wait() { # $1 = wanted node count: wait for green with that many nodes
    local want="$1" deadline=$((SECONDS + TIMEOUT)) url health
    while :; do
        for url in $(cluster_urls | tr , ' '); do
            health="$(curl -s -m 5 "$url/_cluster/health" 2>/dev/null || true)"
            if [[ "$health" == *'"status":"green"'* && "$health" == *"\"number_of_nodes\":$want,"* ]]; then
                return 0
            fi
        done
        if ((SECONDS >= deadline)); then
            log "timed out after ${TIMEOUT}s waiting for a green cluster of $want nodes"
            for url in $(cluster_nodes); do tail -n 15 "$CLUSTER_DIR/node-$url/node.log" >&2 || true; done
            return 1
        fi
        sleep 0.5
    done
}

cluster_start() {
    local count="${1:-3}" n ports names seeds
    [[ "$count" =~ ^[0-9]+$ && "$count" -ge 1 && "$count" -le 9 ]] || die "cluster size must be 1..9"
    [[ -z "$(cluster_urls)" ]] || die "a cluster already runs in $CLUSTER_DIR (run.sh cluster stop)"
    if needs_build; then do_build; fi
    rm -rf "$CLUSTER_DIR"
    # transport ports for the seed list, and fixed HTTP ports so that a restarted node answers
    # at the URL the clients already know
    read -r -a ports <<<"$(free_ports $((2 * count)))"
    names=() seeds=()
    for ((n = 1; n <= count; n++)); do
        names+=("node-$n")
        seeds+=("127.0.0.1:${ports[n - 1]}")
    done
    local cluster_name="attest-test-cluster-$$"
    for ((n = 1; n <= count; n++)); do
        mkdir -p "$CLUSTER_DIR/node-$n"
        {
            echo "ES_TEST_NODE_STATE='$CLUSTER_DIR/node-$n'"
            echo "ES_TEST_NODE_NAME='node-$n'"
            echo "ES_TEST_NODE_CLUSTER_NAME='$cluster_name'"
            echo "ES_TEST_NODE_TRANSPORT_PORT='${ports[n - 1]}'"
            echo "ES_TEST_NODE_HTTP_PORT='${ports[count + n - 1]}'"
            echo "ES_TEST_NODE_SEED_HOSTS='$(IFS=,; echo "${seeds[*]}")'"
            echo "ES_TEST_NODE_JAVA_OPTS='${ES_TEST_CLUSTER_JAVA_OPTS:--Xms256m -Xmx512m -XX:TieredStopAtLevel=1}'"
            echo "ES_TEST_NODE_CDS=readonly"
        } >"$CLUSTER_DIR/node-$n/cluster.env"
    done
    for ((n = 1; n <= count; n++)); do
        ES_TEST_NODE_INITIAL_MASTERS="$(IFS=,; echo "${names[*]}")" ES_TEST_NODE_WAIT=none \
            node_run "$n" start
    done
    if ! cluster_wait "$count"; then
        cluster_stop
        return 1
    fi
    cluster_urls
}

cluster_stop() {
    local n
    for n in $(cluster_nodes); do
        node_run "$n" stop || true
    done
}

cluster_kill() { # $1 = node number
    local pid
    pid="$(ES_TEST_NODE_STATE="$CLUSTER_DIR/node-$1" node_pid_of || true)"
    [[ -n "$pid" ]] || die "cluster node $1 is not running"
    kill -KILL "$pid"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    rm -f "$CLUSTER_DIR/node-$1/url" "$CLUSTER_DIR/node-$1/pid"
    log "killed cluster node $1 (pid $pid)"
}

cluster_start_node() { # $1 = node number: restart it with its data, wait for the full cluster
    [[ -n "$(ES_TEST_NODE_STATE="$CLUSTER_DIR/node-$1" node_pid_of || true)" ]] && die "cluster node $1 already runs"
    ES_TEST_NODE_KEEP_DATA=1 ES_TEST_NODE_WAIT=none node_run "$1" start
    cluster_wait "$(cluster_size)" || return 1
    cat "$CLUSTER_DIR/node-$1/url"
}

do_cluster() {
    BUILD_LOG="$CLUSTER_DIR.build.log" # never the single node's state dir
    local sub="${1:-}"
    shift || true
    case "$sub" in
        start) cluster_start "$@" ;;
        urls) cluster_urls ;;
        kill) [[ -n "${1:-}" ]] || die "usage: cluster kill I"; cluster_kill "$1" ;;
        stop-node) [[ -n "${1:-}" ]] || die "usage: cluster stop-node I"; node_run "$1" stop ;;
        start-node) [[ -n "${1:-}" ]] || die "usage: cluster start-node I"; cluster_start_node "$1" ;;
        stop) cluster_stop ;;
        clean) cluster_stop; rm -rf "$CLUSTER_DIR" ;;
        *) echo "usage: $0 cluster start [N]|urls|kill I|stop-node I|start-node I|stop|clean" >&2; exit 2 ;;
    esac
}

case "${1:-}" in
    start) do_start ;;
    wait) do_wait ;;
    stop) do_stop ;;
    url) do_url ;;
    status) do_status ;;
    build) do_build ;;
    clean)
        do_stop
        rm -rf "$STATE_DIR"
        ;;
    cluster)
        shift
        do_cluster "$@"
        ;;
    *)
        echo "usage: $0 start|stop|wait|url|status|build|clean|cluster ..." >&2
        exit 2
        ;;
esac
