package dev.ledgerlink.junit;

import dev.ledgerlink.LedgerlinkServer;
import dev.ledgerlink.Services;
import dev.ledgerlink.client.sandbox.Sandbox;
import dev.ledgerlink.client.sandbox.SandboxControls;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.sandbox.SeedFile;
import dev.ledgerlink.sandbox.Seeder;
import dev.ledgerlink.secrets.RandomTokens;
import dev.ledgerlink.secrets.SecretBox;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real ledgerlink server inside the test's JVM, for integration developers' tests (docs/sandbox.md):
 * development mode, a random free port on 127.0.0.1, a fresh H2 database in a temporary directory
 * (deleted afterwards), the delivery engine running. Same server, same rules as production; only
 * what development mode allows is allowed (http loopback URIs, fixed client ids in seed files).
 *
 * <pre>{@code
 * @RegisterExtension
 * static LedgerlinkSandbox sandbox = LedgerlinkSandbox.create().seed("ledgerlink-seed.yaml");
 * }</pre>
 *
 * A static field gives one server per test class; an instance field one per test. What a test does
 * with it (tokens, publish, deliveries, clock, faults, journal, reset) is the {@link Sandbox} API,
 * over the server's HTTP controls, the same as a {@code LedgerlinkContainer}'s.
 */
public final class LedgerlinkSandbox implements Sandbox, BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, AutoCloseable {
    private final List<Seed> seeds = new ArrayList<>();
    private final Map<String, String> settings = new LinkedHashMap<>();
    /** E-mail (lower case) → password, from the seeds: what {@link #authorizationCode} types into the login form. */
    private final Map<String, String> passwords = new LinkedHashMap<>();
    private Path dir;
    private LedgerlinkServer server;
    private SandboxControls controls;
    private boolean startedPerTest;

    private record Seed(String source, String text, boolean json) {}

    private LedgerlinkSandbox() {}

    public static LedgerlinkSandbox create() {
        return new LedgerlinkSandbox();
    }

    /** A seed file on the test class path (YAML, or JSON when the name ends in .json), applied at start. */
    public LedgerlinkSandbox seed(String classpathResource) {
        String name = classpathResource.startsWith("/") ? classpathResource.substring(1) : classpathResource;
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(name)) {
            if (in == null) throw new IllegalArgumentException("no seed file " + name + " on the class path");
            return add(new Seed(name, new String(in.readAllBytes(), StandardCharsets.UTF_8), isJson(name)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A seed file on disk, applied at start. */
    public LedgerlinkSandbox seed(Path file) {
        try {
            return add(new Seed(file.toString(), Files.readString(file), isJson(file.toString())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Seed entries written inline, in YAML. */
    public LedgerlinkSandbox seedYaml(String yaml) {
        return add(new Seed("inline YAML " + (seeds.size() + 1), yaml, false));
    }

    /** Any setting of docs/configuration.md, e.g. {@code setting("delivery.retry-schedule", "PT1S")}. */
    public LedgerlinkSandbox setting(String key, String value) {
        settings.put(key, value);
        return this;
    }

    private LedgerlinkSandbox add(Seed seed) {
        SeedFile parsed = SeedFile.parse(seed.text(), seed.json(), seed.source());   // a broken file fails at once, naming itself
        parsed.users().forEach(u -> passwords.put(u.email().toLowerCase(Locale.ROOT), u.password()));
        seeds.add(seed);
        return this;
    }

    private static boolean isJson(String name) {
        return name.toLowerCase(Locale.ROOT).endsWith(".json");
    }

    /** Starts the server and applies the seeds; the extension calls it, tests outside JUnit may too. */
    public synchronized LedgerlinkSandbox start() {
        if (server != null) return this;
        try {
            dir = Files.createTempDirectory("ledgerlink-sandbox");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // The operator key of the sandbox's controls: made for this sandbox unless the test gives one.
        String operatorKey = settings.getOrDefault(Setting.OPERATOR_KEY.key(), RandomTokens.alphanumeric(40));
        Settings.Builder b = Settings.builder()
                .set(Setting.DB_URL, "jdbc:h2:file:" + dir.resolve("ledgerlink").toAbsolutePath())
                .set(Setting.HTTP_HOST, "127.0.0.1")
                .set(Setting.HTTP_PORT, "0")
                .set(Setting.DEV, "true")
                .set(Setting.SECRETS_KEY, SecretBox.newKeyBase64())
                .set(Setting.OPERATOR_KEY, operatorKey);
        settings.forEach((k, v) -> b.set(k + "=" + v));
        server = LedgerlinkServer.start(b.build(), Clock.systemUTC());
        Services s = server.services();
        Seeder seeder = new Seeder(s.users(), s.accounts(), s.applications(), s.callbacks());
        try {
            for (Seed seed : seeds) {
                seeder.apply(SeedFile.parse(seed.text(), seed.json(), seed.source()));
                s.sandboxReset().keep(seed.source(), seed.json(), seed.text());   // what reset() applies again
            }
        } catch (RuntimeException e) {
            close();
            throw new IllegalStateException("the sandbox's seed was refused: " + e.getMessage(), e);
        }
        controls = SandboxControls.connect(server.baseUrl(), operatorKey).withPasswords(passwords);
        return this;
    }

    @Override
    public synchronized void close() {
        if (server == null) return;
        server.close();
        server = null;
        controls = null;
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (server == null) {
            start();
            startedPerTest = true;
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (server != null) faults().clear();
        if (startedPerTest) {
            close();
            startedPerTest = false;
        }
    }

    /** The sandbox's HTTP controls, which every method of {@link Sandbox} uses. */
    @Override
    public SandboxControls controls() {
        SandboxControls c = controls;
        if (c == null) throw new IllegalStateException("the sandbox is not running: register it with @RegisterExtension, or call start()");
        return c;
    }
}
