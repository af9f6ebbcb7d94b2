package dev.ledgerlink.testing;

import dev.ledgerlink.LedgerlinkServer;
import dev.ledgerlink.Services;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.net.PublicAddressGate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A real server on a free loopback port over a fresh database, with a clock the test controls.
 * Usually managed by {@link TestServerExtension} (one per test class, injected as a parameter);
 * {@code try (TestServer s = TestServer.start(...))} still works for a server of one's own.
 * HTTP clients registered with {@link #closeFirst} (and {@link #http}) are closed before the server
 * stops: stopping under an open keep-alive connection waits for it.
 */
public final class TestServer implements AutoCloseable {
    /** The Argon2id memory cost of test servers in development mode (see {@link #cheapPasswordsInDevMode}). */
    public static final String CHEAP_ARGON2_MEMORY_KIB = "64";
    /**
     * The same cheap Argon2id cost as {@code --set} values, for a development-mode server a test
     * starts in a process of its own ({@link ChildJvm}): the demo user of {@code serve --dev}, and the
     * dummy hash every server makes at start, cost a 19 MiB two-pass hash each otherwise.
     */
    public static final java.util.List<String> CHEAP_ARGON2_SETTINGS = java.util.List.of(
            Setting.PASSWORD_HASH_MEMORY_KIB.key() + "=" + CHEAP_ARGON2_MEMORY_KIB, Setting.PASSWORD_HASH_ITERATIONS.key() + "=1");
    public final MutableClock clock = new MutableClock();
    public final LedgerlinkServer server;
    public final TestHttp http;
    private final List<AutoCloseable> clients = new ArrayList<>();

    private TestServer(Settings settings, PublicAddressGate.Resolver resolver) {
        this.server = LedgerlinkServer.start(settings, clock, resolver);
        this.http = closeFirst(new TestHttp(server.baseUrl()));
    }

    public static TestServer start() {
        return start(s -> s);
    }

    /** Starts with test settings (fresh database, port 0, dev mode), adjusted by {@code tweak}. */
    public static TestServer start(UnaryOperator<Settings.Builder> tweak) {
        return start(tweak, PublicAddressGate.SYSTEM);
    }

    /** As {@link #start(UnaryOperator)}, host names resolved by {@code resolver} wherever the server checks an address. */
    public static TestServer start(UnaryOperator<Settings.Builder> tweak, PublicAddressGate.Resolver resolver) {
        return new TestServer(cheapPasswordsInDevMode(tweak.apply(settingsFor(TestDatabases.fresh()))), resolver);
    }

    /** Starts over a given database (one the test also reaches otherwise, e.g. with {@link Cli}). */
    public static TestServer start(TestDatabases.TestDb db, UnaryOperator<Settings.Builder> tweak) {
        return new TestServer(cheapPasswordsInDevMode(tweak.apply(settingsFor(db))), PublicAddressGate.SYSTEM);
    }

    /**
     * Argon2id at 64 KiB and one iteration instead of OWASP's 19 MiB and two, when the test left the
     * server in development mode (the only mode that allows it) and did not choose a cost itself:
     * password hashing was the largest CPU cost of the suite, one hash per fixture user.
     */
    private static Settings cheapPasswordsInDevMode(Settings.Builder b) {
        Settings s = b.build();
        if (!s.flag(Setting.DEV) || !s.get(Setting.PASSWORD_HASH_MEMORY_KIB).equals(Setting.PASSWORD_HASH_MEMORY_KIB.defaultValue())
                || !s.get(Setting.PASSWORD_HASH_ITERATIONS).equals(Setting.PASSWORD_HASH_ITERATIONS.defaultValue())) return s;
        return b.set(Setting.PASSWORD_HASH_MEMORY_KIB, CHEAP_ARGON2_MEMORY_KIB).set(Setting.PASSWORD_HASH_ITERATIONS, "1").build();
    }

    public static Settings.Builder settingsFor(TestDatabases.TestDb db) {
        return Settings.builder()
                .set(Setting.DB_URL, db.url())
                .set(Setting.DB_USER, db.user())
                .set(Setting.DB_PASSWORD, db.password())
                .set(Setting.DB_POOL_SIZE, "8")
                .set(Setting.HTTP_PORT, "0")
                .set(Setting.DEV, "true")
                .set(Setting.SECRETS_KEY, keyOf(db));
    }

    /**
     * The secrets key of a test database: derived from its URL, so every server and command a test
     * starts over one database holds the database's key (a node with another refuses to start).
     */
    public static String keyOf(TestDatabases.TestDb db) {
        try {
            return java.util.Base64.getEncoder().encodeToString(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(("ledgerlink test key " + db.url()).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Registers a client (an HTTP client, a browser session) to be closed before the server stops. */
    public synchronized <T extends AutoCloseable> T closeFirst(T client) {
        clients.add(client);
        return client;
    }

    public Services services() {
        return server.services();
    }

    public String baseUrl() {
        return server.baseUrl();
    }

    public Clock clock() {
        return clock;
    }

    @Override
    public void close() {
        List<AutoCloseable> toClose;
        synchronized (this) {
            toClose = List.copyOf(clients.reversed());
            clients.clear();
        }
        for (AutoCloseable c : toClose) {
            try {
                c.close();
            } catch (Exception e) {
                // a client that fails to close must not keep the server running
            }
        }
        server.close();
    }
}
