package dev.ledgerlink.testcontainers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ledgerlink.client.Tokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * The ledgerlink image as a Testcontainers container: the real server in development mode (http
 * callback and redirect URIs on loopback hosts, fixed client ids and secrets in seed files, test
 * events), H2 inside the container, started fresh for each container.
 *
 * <pre>{@code
 * @Container
 * static LedgerlinkContainer ledgerlink = new LedgerlinkContainer("localhost/ledgerlink:latest")
 *         .withSeed(Path.of("src/test/resources/seed.yaml"))
 *         .withSetting("delivery.retry-schedule", "PT1S");
 * ...
 * Tokens t = ledgerlink.issueToken("dev@example.com", "sandboxapp01");
 * HttpRequest.newBuilder(URI.create(ledgerlink.baseUrl() + "/auth/api/v1/users/me")) ...
 * }</pre>
 *
 * <p>The container shares the host's network (the server listens on a free port of the host's
 * loopback), because the webhook receivers of a test run on the test's machine: development mode sends
 * to http URIs on loopback hosts only, and {@code http://127.0.0.1:PORT} is then the receiver itself.
 * This needs a Linux Docker or Podman host (Docker Desktop has no host network).
 */
public class LedgerlinkContainer extends GenericContainer<LedgerlinkContainer> {
    /** The image scripts/image builds. */
    public static final String DEFAULT_IMAGE = "localhost/ledgerlink:latest";
    private static final String SEED_PATH = "/etc/ledgerlink/seed.yaml";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final int port;
    private final int managementPort;
    private final String operatorKey;
    private boolean seeded;

    public LedgerlinkContainer() {
        this(DEFAULT_IMAGE);
    }

    public LedgerlinkContainer(String image) {
        this(DockerImageName.parse(image));
    }

    public LedgerlinkContainer(DockerImageName image) {
        super(image);
        this.port = freePort();
        this.managementPort = freePort();
        this.operatorKey = randomKey();
        withNetworkMode("host");
        withEnv("LEDGERLINK_HTTP_HOST", "127.0.0.1");
        withEnv("LEDGERLINK_HTTP_PORT", Integer.toString(port));
        withEnv("LEDGERLINK_MANAGEMENT_HOST", "127.0.0.1");
        withEnv("LEDGERLINK_MANAGEMENT_PORT", Integer.toString(managementPort));
        withEnv("LEDGERLINK_EVENTS_OPERATOR_KEY", operatorKey);
        // Each container starts on an empty database: data in the container's own layer, not the image's volume.
        withEnv("LEDGERLINK_HOME", "/tmp/ledgerlink");
        // The server says so once the seed file (if any) is applied and demo data exists.
        waitingFor(Wait.forLogMessage(".*ledgerlink ready on .*", 1).withStartupTimeout(Duration.ofMinutes(2)));
    }

    /** A seed file (YAML, or JSON when its name ends in .json), applied once the server is up (docs/sandbox.md, "Seed files"). */
    public LedgerlinkContainer withSeed(Path seedFile) {
        withCopyFileToContainer(MountableFile.forHostPath(seedFile, 0644), SEED_PATH);
        seeded = true;
        return self();
    }

    /** A seed file on the test's class path. */
    public LedgerlinkContainer withSeed(String classPathResource) {
        withCopyFileToContainer(MountableFile.forClasspathResource(classPathResource, 0644), SEED_PATH);
        seeded = true;
        return self();
    }

    /** Any setting of docs/configuration.md, e.g. {@code withSetting("delivery.retry-schedule", "PT1S")}, as its environment variable. */
    public LedgerlinkContainer withSetting(String key, String value) {
        return withEnv("LEDGERLINK_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'), value);
    }

    @Override
    protected void configure() {
        List<String> command = new ArrayList<>(List.of("serve", "--dev"));
        if (seeded) command.addAll(List.of("--seed", SEED_PATH));
        setCommand(command.toArray(String[]::new));
    }

    /** The API's address (the authorization page's too), e.g. {@code http://127.0.0.1:40123}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** Where /healthz, /readyz and /metrics answer. */
    public String managementUrl() {
        return "http://127.0.0.1:" + managementPort;
    }

    /** The bearer key of the internal API (POST /internal/v1/events, the admin API), made for this container. */
    public String operatorKey() {
        return operatorKey;
    }

    /**
     * The token response a code exchange would give, for a user (e-mail or id) of an application (client
     * id): {@code ledgerlink tokens issue} run in the container (docs/sandbox.md, "Tokens without a browser").
     */
    public Tokens issueToken(String user, String clientId) {
        JsonNode n;
        try {
            n = JSON.readTree(ledgerlink("tokens", "issue", "--user", user, "--app", clientId, "--json"));
        } catch (IOException e) {
            throw new UncheckedIOException("tokens issue printed no JSON", e);
        }
        return new Tokens(n.path("access_token").asText(), n.path("token_type").asText("Bearer"), n.path("expires_in").asLong(),
                n.path("refresh_token").asText(null), n.path("scope").asText(null), Instant.ofEpochSecond(n.path("created_at").asLong()));
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
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String randomKey() {
        byte[] b = new byte[24];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
