package dev.ledgerlink.testcontainers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.ledgerlink.client.sandbox.Sandbox;
import dev.ledgerlink.client.sandbox.SandboxControls;
import com.github.dockerjava.api.command.InspectContainerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * The ledgerlink image as a Testcontainers container: the real server in development mode, H2 inside
 * the container, on any Docker or Podman host (Docker Desktop on macOS and Windows, a remote Docker,
 * Linux). Its API and management ports are published on the engine's host like any container's; every
 * address comes from {@link #getHost()} and the mapped port. What a test does with it (tokens, publish,
 * deliveries, clock, faults, journal, reset) is the {@link Sandbox} API, the same as the in-process
 * {@code LedgerlinkSandbox}'s.
 *
 * <pre>{@code
 * @Container
 * static LedgerlinkContainer ledgerlink = new LedgerlinkContainer()          // this module's version of the image
 *         .withSeed(Path.of("src/test/resources/seed.yaml"))
 *         .withSetting("delivery.retry-schedule", "PT1S");
 * ...
 * Tokens t = ledgerlink.tokens("dev@example.com", "sandboxapp01");
 * String uri = "http://" + ledgerlink.callbackHost() + ":" + receiverPort + "/webhooks";   // a receiver in the test's process
 * }</pre>
 *
 * <p>Webhooks reach a receiver in the test's process through the engine's name for its host
 * ({@link #callbackHost()}: {@code host.containers.internal} on Podman, {@code host.docker.internal} on
 * Docker, added with {@code host-gateway} where Linux Docker lacks it), which development mode accepts
 * for http callbacks as it accepts loopback; the receiver listens on an address the container reaches
 * (all interfaces), not only 127.0.0.1. A receiver in another container of a shared network is reached
 * by its alias, listed in {@code withSetting("dev.callback-hosts", "receiver")}.
 *
 * <p>Nothing random is chosen at construction (the ports inside the container are fixed, the operator
 * key is read from the container once it runs unless {@link #withOperatorKey} gives one), so
 * {@code withReuse(true)} finds the container of an earlier run with the same configuration.
 * {@link #withHostNetwork()} shares the host's network instead, for Linux hosts where a test's receiver
 * must be reached on 127.0.0.1.
 */
public class LedgerlinkContainer extends GenericContainer<LedgerlinkContainer> implements Sandbox {
    /** The image of the version this module was built from, as scripts/image tags it. */
    public static final String DEFAULT_IMAGE = "localhost/ledgerlink:" + BuildVersion.imageTag();
    /** The API's port inside the container (the image's). */
    public static final int HTTP_PORT = 8080;
    /** /healthz, /readyz and /metrics, inside the container (the image's). */
    public static final int MANAGEMENT_PORT = 9090;
    /**
     * How long start waits for /readyz: a first start applies every migration, on a laptop that may be
     * busy building (change it with {@code waitingFor}).
     */
    public static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(5);
    /** The data directory: the container's own layer, so each container starts on an empty database. */
    private static final String HOME = "/tmp/ledgerlink";
    private static final String SEED_DIR = "/etc/ledgerlink/";
    private static final YAMLMapper YAML = new YAMLMapper();

    private final Map<String, String> passwords = new LinkedHashMap<>();
    private String seedPath;
    private String operatorKey;
    private int hostPort;
    private int hostManagementPort;
    private volatile SandboxControls controls;

    /** The image of this module's version ({@link #DEFAULT_IMAGE}). */
    public LedgerlinkContainer() {
        this(DEFAULT_IMAGE);
    }

    public LedgerlinkContainer(String image) {
        this(DockerImageName.parse(image));
    }

    public LedgerlinkContainer(DockerImageName image) {
        super(image);
        withExposedPorts(HTTP_PORT, MANAGEMENT_PORT);
        withEnv("LEDGERLINK_HOME", HOME);
        // Ready: the seed file (if any) applied, the database answering.
        waitingFor(Wait.forHttp("/readyz").forPort(MANAGEMENT_PORT).forStatusCode(200).withStartupTimeout(STARTUP_TIMEOUT));
    }

    /** A seed file (YAML, or JSON when its name ends in .json), applied once the server is up (docs/sandbox.md, "Seed files"). */
    public LedgerlinkContainer withSeed(Path seedFile) {
        try {
            return seed(seedFile.getFileName().toString(), Files.readAllBytes(seedFile), MountableFile.forHostPath(seedFile, 0644));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the seed file " + seedFile, e);
        }
    }

    /** A seed file on the test's class path. */
    public LedgerlinkContainer withSeed(String classPathResource) {
        String name = classPathResource.startsWith("/") ? classPathResource.substring(1) : classPathResource;
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(name)) {
            if (in == null) throw new IllegalArgumentException("no seed file " + name + " on the class path");
            return seed(name, in.readAllBytes(), MountableFile.forClasspathResource(name, 0644));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private LedgerlinkContainer seed(String name, byte[] content, MountableFile file) {
        seedPath = SEED_DIR + (name.toLowerCase(Locale.ROOT).endsWith(".json") ? "seed.json" : "seed.yaml");
        passwords.clear();
        try {
            for (JsonNode u : YAML.readTree(content).path("users")) passwords.put(u.path("email").asText(), u.path("password").asText());
        } catch (IOException e) {
            throw new IllegalArgumentException("the seed file " + name + " is neither YAML nor JSON: " + e.getMessage(), e);
        }
        return withCopyFileToContainer(file, seedPath);
    }

    /** Any setting of docs/configuration.md, e.g. {@code withSetting("delivery.retry-schedule", "PT1S")}, as its environment variable. */
    public LedgerlinkContainer withSetting(String key, String value) {
        return withEnv("LEDGERLINK_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'), value);
    }

    /** The operator key to use; without one, the server makes its own and this class reads it from the container. */
    public LedgerlinkContainer withOperatorKey(String key) {
        operatorKey = key;
        return withSetting("events.operator-key", key);
    }

    /**
     * Shares the host's network instead of publishing ports: the server listens on two free ports of
     * the host's loopback, chosen now, and reaches receivers on 127.0.0.1. Linux hosts only (Docker
     * Desktop has no host network); the default, bridge networking, works everywhere.
     */
    public LedgerlinkContainer withHostNetwork() {
        hostPort = freePort();
        hostManagementPort = freePort();
        setExposedPorts(List.of());
        withNetworkMode("host");
        withEnv("LEDGERLINK_HTTP_HOST", "127.0.0.1");
        withEnv("LEDGERLINK_HTTP_PORT", Integer.toString(hostPort));
        withEnv("LEDGERLINK_MANAGEMENT_HOST", "127.0.0.1");
        withEnv("LEDGERLINK_MANAGEMENT_PORT", Integer.toString(hostManagementPort));
        return waitingFor(Wait.forHttp("/readyz").forPort(hostManagementPort).forStatusCode(200).withStartupTimeout(STARTUP_TIMEOUT));
    }

    private boolean hostNetwork() {
        return hostPort != 0;
    }

    /** On the host's network a port is its own: nothing is mapped. */
    @Override
    public Integer getMappedPort(int originalPort) {
        return hostNetwork() ? originalPort : super.getMappedPort(originalPort);
    }

    /** On the host's network the server listens on the host's loopback (the test runs on the engine's host). */
    @Override
    public String getHost() {
        return hostNetwork() ? "127.0.0.1" : super.getHost();
    }

    @Override
    protected void configure() {
        List<String> command = new ArrayList<>(List.of("serve", "--dev"));
        if (seedPath != null) command.addAll(List.of("--seed", seedPath));
        setCommand(command.toArray(String[]::new));
        // Docker Desktop names the host host.docker.internal by itself; Linux Docker does when asked. Podman 4
        // refuses host-gateway and names the host host.containers.internal instead.
        if (!hostNetwork() && !Engine.isPodman()) withExtraHost("host.docker.internal", "host-gateway");
    }

    @Override
    protected void containerIsStarted(InspectContainerResponse containerInfo, boolean reused) {
        String key = operatorKey != null ? operatorKey : copyFileFromContainer(HOME + "/operator-key",
                in -> new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip());
        controls = SandboxControls.connect(baseUrl(), key).withPasswords(passwords)
                .withCallbackHost(hostNetwork() ? "127.0.0.1" : Engine.isPodman() ? "host.containers.internal" : "host.docker.internal");
    }

    @Override
    protected void containerIsStopped(InspectContainerResponse containerInfo) {
        controls = null;
    }

    /** The sandbox's HTTP controls, which every method of {@link Sandbox} uses; the container must be running. */
    @Override
    public SandboxControls controls() {
        SandboxControls c = controls;
        if (c == null) throw new IllegalStateException("the ledgerlink container is not running: start() it first");
        return c;
    }

    /** The API's address (the authorization page's too), e.g. {@code http://localhost:32771}. */
    @Override
    public String baseUrl() {
        return "http://" + getHost() + ":" + getMappedPort(hostNetwork() ? hostPort : HTTP_PORT);
    }

    /** Where /healthz, /readyz and /metrics answer. */
    public String managementUrl() {
        return "http://" + getHost() + ":" + getMappedPort(hostNetwork() ? hostManagementPort : MANAGEMENT_PORT);
    }

    /** Runs a ledgerlink command in the container (on its database) and returns what it printed on stdout; fails on a non-zero exit. */
    public String ledgerlink(String... args) {
        List<String> command = new ArrayList<>(List.of("ledgerlink"));
        command.addAll(List.of(args));
        try {
            ExecResult r = execInContainer(command.toArray(String[]::new));
            if (r.getExitCode() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + r.getExitCode() + ": " + r.getStderr());
            }
            return r.getStdout();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Which engine Testcontainers talks to: Podman names itself in the components of its version. */
    static final class Engine {
        private static volatile Boolean podman;

        private Engine() {}

        static boolean isPodman() {
            Boolean p = podman;
            if (p == null) {
                var components = DockerClientFactory.instance().client().versionCmd().exec().getComponents();
                podman = p = components != null && components.stream().anyMatch(c -> c.getName() != null && c.getName().startsWith("Podman"));
            }
            return p;
        }
    }
}
