package dev.ledgerlink.testing;

import dev.ledgerlink.LedgerlinkServer;
import dev.ledgerlink.Services;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.secrets.SecretBox;
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
    public final MutableClock clock = new MutableClock();
    public final LedgerlinkServer server;
    public final TestHttp http;
    private final List<AutoCloseable> clients = new ArrayList<>();

    private TestServer(Settings settings) {
        this.server = LedgerlinkServer.start(settings, clock);
        this.http = closeFirst(new TestHttp(server.baseUrl()));
    }

    public static TestServer start() {
        return start(s -> s);
    }

    /** Starts with test settings (fresh database, port 0, dev mode), adjusted by {@code tweak}. */
    public static TestServer start(UnaryOperator<Settings.Builder> tweak) {
        return new TestServer(tweak.apply(settingsFor(TestDatabases.fresh())).build());
    }

    /** Starts over a given database (one the test also reaches otherwise, e.g. with {@link Cli}). */
    public static TestServer start(TestDatabases.TestDb db, UnaryOperator<Settings.Builder> tweak) {
        return new TestServer(tweak.apply(settingsFor(db)).build());
    }

    public static Settings.Builder settingsFor(TestDatabases.TestDb db) {
        return Settings.builder()
                .set(Setting.DB_URL, db.url())
                .set(Setting.DB_USER, db.user())
                .set(Setting.DB_PASSWORD, db.password())
                .set(Setting.DB_POOL_SIZE, "8")
                .set(Setting.HTTP_PORT, "0")
                .set(Setting.DEV, "true")
                .set(Setting.SECRETS_KEY, SecretBox.newKeyBase64());
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
