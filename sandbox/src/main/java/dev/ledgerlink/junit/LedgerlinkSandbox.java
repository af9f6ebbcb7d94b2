package dev.ledgerlink.junit;

import dev.ledgerlink.LedgerlinkServer;
import dev.ledgerlink.Services;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.delivery.DeliveryRecord;
import dev.ledgerlink.delivery.DeliveryState;
import dev.ledgerlink.events.Event;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.oauth.TokenResponse;
import dev.ledgerlink.sandbox.JournalEntry;
import dev.ledgerlink.sandbox.RequestJournal;
import dev.ledgerlink.sandbox.SandboxReset;
import dev.ledgerlink.sandbox.SeedFile;
import dev.ledgerlink.sandbox.Seeder;
import dev.ledgerlink.sandbox.TestDelivery;
import dev.ledgerlink.sandbox.TestEvents;
import dev.ledgerlink.secrets.SecretBox;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
 * A static field gives one server per test class; an instance field one per test.
 */
public final class LedgerlinkSandbox implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, AutoCloseable {
    private final List<Seed> seeds = new ArrayList<>();
    private final Map<String, String> settings = new LinkedHashMap<>();
    /** E-mail (lower case) → password, from the seeds: what {@link #authorizationCode} types into the login form. */
    private final Map<String, String> passwords = new LinkedHashMap<>();
    private Path dir;
    private LedgerlinkServer server;
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
        Settings.Builder b = Settings.builder()
                .set(Setting.DB_URL, "jdbc:h2:file:" + dir.resolve("ledgerlink").toAbsolutePath())
                .set(Setting.HTTP_HOST, "127.0.0.1")
                .set(Setting.HTTP_PORT, "0")
                .set(Setting.DEV, "true")
                .set(Setting.SECRETS_KEY, SecretBox.newKeyBase64());
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
        return this;
    }

    @Override
    public synchronized void close() {
        if (server == null) return;
        server.close();
        server = null;
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
        if (server != null) services().faults().clear();
        if (startedPerTest) {
            close();
            startedPerTest = false;
        }
    }

    private LedgerlinkServer running() {
        if (server == null) throw new IllegalStateException("the sandbox is not running: register it with @RegisterExtension, or call start()");
        return server;
    }

    /** The API's address, e.g. http://127.0.0.1:41234 (the authorization page is served there too). */
    public String baseUrl() {
        return running().baseUrl();
    }

    /** Every service of the server, for what this class does not wrap. */
    public Services services() {
        return running().services();
    }

    /**
     * The token response a code exchange would give, without a browser: a grant with consent like
     * any other (the user's older refresh token for this app stops working), as {@code ledgerlink
     * tokens issue} does. {@code user}: e-mail or id; {@code app}: client_id; no scopes: the app's.
     */
    public TokenResponse tokens(String user, String app, String... scopes) {
        return services().oauth().operatorGrant().issue(user, app, List.of(scopes)).response();
    }

    /**
     * An authorization code, obtained by driving the real authorization page over HTTP as a browser
     * would (login form, consent, CSRF tokens and session cookie); the user must come from a seed,
     * whose password is typed in. Exchange it at /auth/oauth/token as your application does.
     */
    public String authorizationCode(String user, String app, String redirectUri) {
        String password = passwords.get(user.toLowerCase(Locale.ROOT));
        if (password == null) throw new IllegalArgumentException(user + " is not a user of this sandbox's seeds (their password is needed)");
        return new AuthorizationPageDriver(baseUrl()).code(user, password, app, redirectUri);
    }

    /**
     * The fault rules (docs/sandbox.md, "Faults"): {@code faults().on("token").status(503, 1).times(2).add()}.
     * Rules left over when a test ends are cleared, so every test starts without any.
     */
    public SandboxFaults faults() {
        return new SandboxFaults(services().faults());
    }

    /**
     * The journal of one application's calls to the authorization page, token, revoke, introspect,
     * identity and callbacks routes, newest first (at most 1000): status, error and description,
     * duration; never a secret or token. {@code clientId} null: every application's.
     */
    public List<JournalEntry> requests(String clientId) {
        return services().journal().newest(clientId, RequestJournal.MAX_LIMIT);
    }

    /**
     * The sandbox's movable clock, the one every rule reads (token and code lifetimes, the refresh
     * replay window, retries, disabling, retention): {@code clock().advance(Duration.ofHours(13))},
     * {@code clock().set(instant)} (not before real time), {@code clock().reset()}, {@code clock().read()}.
     * A retry the move made due is sent at once. The clock is the sandbox's: it is back at real time
     * in the next sandbox, not in this one (call {@code reset()} between tests that share a server).
     */
    public dev.ledgerlink.sandbox.SandboxClock clock() {
        return new dev.ledgerlink.sandbox.SandboxClock(services().clock());
    }

    /** Publishes an event as an internal service does: stored, then fanned out to the verified callbacks of the account. */
    public Event publish(String accountId, String name, long objectId, long userId) {
        return services().events().publish(new EventPublisher.Request(name, accountId, objectId, userId, null));
    }

    /**
     * A test event whose deliveries test your receiver (docs/sandbox.md, "Test deliveries"): for
     * example {@code TestDelivery.PLAIN.withSignature(TestDelivery.Signature.TAMPERED)}, {@code .withCopies(3)},
     * {@code .withDelay(Duration.ofSeconds(30))}. {@code userId} is not checked, as for publish. Its
     * deliveries are marked as tests in the history.
     */
    public Event publish(String accountId, String name, long objectId, long userId, TestDelivery delivery) {
        return testEvents().sendAsOperator(accountId, List.of(new TestEvents.Item(name, objectId, userId)), delivery).getFirst();
    }

    /**
     * Several test events in one call, accepted in the order given and delivered to each callback one
     * after another in {@code delivery.order()} (as_sent, reversed, shuffled): out-of-order arrival, on purpose.
     */
    public List<Event> publish(String accountId, List<TestEvents.Item> events, TestDelivery delivery) {
        return testEvents().sendAsOperator(accountId, events, delivery);
    }

    private TestEvents testEvents() {
        Services s = services();
        return new TestEvents(s.events(), s.accounts(), s.deliveries());
    }

    /**
     * Back to the state of this sandbox's seeds (or empty with demo data when it has none), without a
     * restart: everything else is removed, the delivery engine keeps running (docs/sandbox.md, "Reset").
     */
    public SandboxReset.Result reset() {
        return services().sandboxReset().reset();
    }

    /** What was sent to a callback (verification requests and notifications), newest first, each with its attempts. */
    public List<DeliveryRecord> deliveries(long callbackId) {
        return services().deliveryReads().history(null, callbackId, 1, 100).deliveries();
    }

    /**
     * Waits until a delivery of {@code eventName} (e.g. invoice.create, or callback.verify) to the
     * callback has succeeded, and returns it. Fails with the delivery history when it was dropped or
     * did not succeed within {@code timeout} (a failed attempt is retried after a minute by default).
     */
    public DeliveryRecord awaitDelivery(long callbackId, String eventName, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<DeliveryRecord> all = deliveries(callbackId);
            Optional<DeliveryRecord> done = all.stream().filter(d -> eventName.equals(d.name()) && d.state() == DeliveryState.DELIVERED).findFirst();
            if (done.isPresent()) return done.get();
            Optional<DeliveryRecord> dropped = all.stream().filter(d -> eventName.equals(d.name()) && d.state() == DeliveryState.DROPPED).findFirst();
            if (dropped.isPresent()) throw new AssertionError("the " + eventName + " delivery to callback " + callbackId + " was dropped: " + dropped.get());
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no successful " + eventName + " delivery to callback " + callbackId + " within " + timeout
                        + "; deliveries so far: " + all);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
