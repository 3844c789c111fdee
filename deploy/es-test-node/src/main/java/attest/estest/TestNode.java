package attest.estest;

import org.elasticsearch.common.logging.LogConfigurator;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.common.transport.BoundTransportAddress;
import org.elasticsearch.core.IOUtils;
import org.elasticsearch.http.HttpServerTransport;
import org.elasticsearch.node.ClasspathNode;
import org.elasticsearch.node.Node;
import org.elasticsearch.transport.netty4.Netty4Plugin;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Starts ONE bare in-JVM Elasticsearch node (server jar + transport-netty4 only) for tests: a
 * single-node cluster by default, or one member of a loopback cluster (ES_TEST_NODE_SEED_HOSTS).
 *
 * Usage: java -cp ... attest.estest.TestNode [STATE_DIR]
 *   STATE_DIR  (arg 1, else env ES_TEST_NODE_STATE, else /tmp/attest-es-test-node)
 *   env ES_TEST_NODE_HTTP_PORT  HTTP port (default 0 = pick a free ephemeral port)
 *   env ES_TEST_NODE_NAME       node.name (default attest-test-node)
 *   env ES_TEST_NODE_CLUSTER_NAME        cluster.name (default attest-test)
 *   env ES_TEST_NODE_TRANSPORT_PORT      transport port (default 0 = any free port)
 *   env ES_TEST_NODE_SEED_HOSTS          comma-separated host:port transport addresses of the other
 *                                        nodes; when set the node joins a multi-node cluster
 *                                        instead of running with discovery.type=single-node
 *   env ES_TEST_NODE_INITIAL_MASTERS     comma-separated node.names that bootstrap the cluster
 *                                        (cluster.initial_master_nodes; first formation only)
 *
 * Writes STATE_DIR/url (e.g. http://127.0.0.1:41234) once the node has started and HTTP
 * is bound, then runs until killed (SIGTERM closes the node cleanly).
 */
public final class TestNode {
    private TestNode() {
    }

    public static void main(String[] args) throws Exception {
        Path stateDir = Path.of(args.length > 0 ? args[0] : env("ES_TEST_NODE_STATE", "/tmp/attest-es-test-node")).toAbsolutePath();
        String httpPort = env("ES_TEST_NODE_HTTP_PORT", "0");
        String nodeName = env("ES_TEST_NODE_NAME", "attest-test-node");
        String clusterName = env("ES_TEST_NODE_CLUSTER_NAME", "attest-test");
        String transportPort = env("ES_TEST_NODE_TRANSPORT_PORT", "0");
        List<String> seedHosts = csv(env("ES_TEST_NODE_SEED_HOSTS", ""));
        List<String> initialMasters = csv(env("ES_TEST_NODE_INITIAL_MASTERS", ""));

        Path home = stateDir.resolve("home");
        Path data = stateDir.resolve("data");
        Path logs = stateDir.resolve("logs");
        Path urlFile = stateDir.resolve("url");
        Files.createDirectories(home.resolve("config"));
        Files.createDirectories(data);
        Files.createDirectories(logs);
        Files.deleteIfExists(urlFile);

        setUpNativeLibs(stateDir.resolve("nativelibs"));

        Settings.Builder builder = Settings.builder()
            .put("cluster.name", clusterName)
            .put("node.name", nodeName)
            .put("path.home", home.toString())
            .put("path.data", data.toString())
            .put("path.logs", logs.toString())
            .put("network.host", "127.0.0.1")
            .put("http.port", httpPort)
            .put("transport.port", transportPort)
            // tmp dirs are often on nearly-full disks: never flip indices read-only in tests
            .put("cluster.routing.allocation.disk.threshold_enabled", false)
            // keep it small: 2-core CI boxes
            .put("node.processors", Math.min(2, Runtime.getRuntime().availableProcessors()));
        if (seedHosts.isEmpty()) {
            builder.put("discovery.type", "single-node");
        } else {
            // Several master-eligible nodes on loopback: any one of three may stop and the other
            // two keep a quorum. initial_master_nodes only matters for the very first formation.
            builder.putList("discovery.seed_hosts", seedHosts);
            if (!initialMasters.isEmpty()) builder.putList("cluster.initial_master_nodes", initialMasters);
        }
        Settings settings = builder.build();

        // Bridge ES's internal logging facade to log4j. log4j itself is configured from the
        // log4j2.properties on the classpath (console -> node.log). LogConfigurator.configureWithoutConfig
        // is deliberately NOT used: it installs an appender-less config, i.e. silences everything.
        LogConfigurator.setNodeName(nodeName);
        LogConfigurator.setClusterName(clusterName);
        LogConfigurator.configureESLogging();

        long t0 = System.nanoTime();
        Node node = new ClasspathNode(settings, List.of(Netty4Plugin.class, RootInfoPlugin.class));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                IOUtils.close(node);
                node.awaitClose(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                stopped.countDown();
            }
        }, "attest-es-test-node-shutdown"));

        node.start();

        BoundTransportAddress bound = node.injector().getInstance(HttpServerTransport.class).boundAddress();
        InetSocketAddress address = bound.publishAddress().address();
        String url = "http://" + address.getHostString() + ":" + address.getPort();
        writeAtomically(urlFile, url + "\n");
        System.out.printf("attest-es-test-node started in %d ms, url=%s, state=%s%n",
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), url, stateDir);
        System.out.flush();

        stopped.await();
    }

    /**
     * ES loads native libraries (zstd, simdvec) from es.nativelibs.path, which a stock distribution
     * points at $ES_HOME/lib/platform/linux-x64. The Maven jars do not contain them. Without libzstd,
     * NativeAccess is disabled and any index using zstd stored fields (index.codec=best_compression,
     * logsdb/TSDB) fails to allocate its shard. We point es.nativelibs.path at a private dir holding a
     * symlink to the system libzstd (same C API). libvec is absent: vector ops fall back to Lucene's
     * Panama implementation.
     */
    private static void setUpNativeLibs(Path dir) throws IOException {
        if (System.getProperty("es.nativelibs.path") != null) return;
        Files.createDirectories(dir);
        Path link = dir.resolve(System.mapLibraryName("zstd"));
        List<String> candidates = new java.util.ArrayList<>();
        String fromEnv = System.getenv("ES_TEST_NODE_LIBZSTD");
        if (fromEnv != null && !fromEnv.isBlank()) candidates.add(fromEnv);
        candidates.addAll(List.of(
            "/usr/lib/x86_64-linux-gnu/libzstd.so.1", "/lib/x86_64-linux-gnu/libzstd.so.1",
            "/usr/lib/aarch64-linux-gnu/libzstd.so.1", "/lib/aarch64-linux-gnu/libzstd.so.1",
            "/usr/lib64/libzstd.so.1", "/usr/lib/libzstd.so.1", "/usr/local/lib/libzstd.so.1"));
        for (String candidate : candidates) {
            Path lib = Path.of(candidate);
            if (Files.isReadable(lib)) {
                Files.deleteIfExists(link);
                Files.createSymbolicLink(link, lib.toRealPath());
                break;
            }
        }
        if (!Files.exists(link)) {
            System.err.println("attest-es-test-node: WARNING no system libzstd found; "
                + "indices with index.codec=best_compression / logsdb will fail to allocate");
        }
        System.setProperty("es.nativelibs.path", dir.toString());
        // libvec (SIMD vector scoring) is not available outside the distribution; without this flag
        // its UnsatisfiedLinkError disables ALL native access (including zstd).
        if (System.getProperty("org.elasticsearch.nativeaccess.enableVectorLibrary") == null) {
            System.setProperty("org.elasticsearch.nativeaccess.enableVectorLibrary", "false");
        }
    }

    private static List<String> csv(String value) {
        return java.util.Arrays.stream(value.split(",")).map(String::trim).filter(v -> !v.isEmpty()).toList();
    }

    private static String env(String key, String defaultValue) {
        String value = System.getenv(key);
        return value == null || value.isBlank() ? defaultValue : value;
    }

    private static void writeAtomically(Path target, String content) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        Files.writeString(tmp, content, StandardCharsets.UTF_8);
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
