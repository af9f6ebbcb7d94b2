package dev.ledgerlink.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.FreshServer;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerCli;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestDatabases;
import dev.ledgerlink.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * POST /sandbox/v1/reset, `ledgerlink sandbox reset` and the JUnit extension's reset() (its own test
 * in module sandbox): the sandbox goes back to its seed files' state, or to demo data, without a
 * restart, and the running delivery engine neither fails nor sends what was queued before.
 */
@LedgerlinkTest
@FreshServer   // each test resets the whole database
@ServerSettings({"events.operator-key=" + SandboxResetTest.KEY, "delivery.poll-interval=PT0.1S"})
class SandboxResetTest {
    static final String KEY = "sandbox-reset-operator-key-0123";
    TestServer server;
    Receiver receiver;

    @TempDir
    Path dir;

    private String seed() {
        return """
                users:
                  - {email: ana@example.com, password: "correct horse battery", first_name: Ana, last_name: Lima}
                accounts:
                  - {account_id: ANA01, name: Ana's Books, members: [{user: ana@example.com}]}
                applications:
                  - {name: Sync, client_id: synctest01, client_secret: sync-secret-for-tests,
                     redirect_uris: ["http://localhost:8000/callback"], scopes: [user:profile:read, user:invoices:read]}
                callbacks:
                  - {account: ANA01, user: ana@example.com, application: synctest01, event: invoice.create, uri: "%s"}
                """.formatted(receiver.uri());
    }

    private TestHttp.Response reset(String... headers) {
        return server.http.postJson("/sandbox/v1/reset", "{}", headers);
    }

    private int count(String table) {
        return server.services().database().jdbi().withHandle(h -> h.createQuery("select count(*) from " + table).mapTo(Integer.class).one());
    }

    private Path seedFile() throws Exception {
        return Files.writeString(dir.resolve("seed.yaml"), seed());
    }

    @Test
    void theApiBringsTheSandboxBackToItsSeedFile() throws Exception {
        assertEquals(0, ServerCli.run(server, "seed", seedFile().toString(), "--dev").exitCode());
        // the command stamped its rows with the real time; the server's test clock stands still at its start
        server.clock.advance(Duration.ofMinutes(1));
        receiver.next("callback.verify");
        // what a developer's session adds: another user, a grant, a test event and its deliveries
        Fixtures extra = Fixtures.create(server);
        extra.verified("invoice", receiver);
        extra.publish("invoice.create", 1);
        receiver.next("invoice.create");

        var r = reset("Authorization", "Bearer " + KEY);
        assertEquals(200, r.status(), r.body());
        assertEquals(List.of(dir.resolve("seed.yaml").toString()), List.of(r.json().get("reset").get("seeds").get(0).asText()));

        assertTrue(server.services().users().findByEmail(extra.user().email()).isEmpty(), "what the session added is gone");
        assertTrue(server.services().users().authenticate("ana@example.com", "correct horse battery").isPresent(), "the seed's user is back");
        assertTrue(server.services().applications().authenticate("synctest01", "sync-secret-for-tests").isPresent());
        assertEquals(0, count("events"));
        assertEquals(0, count("oauth_grants"));
        assertEquals(1, count("callbacks"), "the seed's callback, registered again");
        assertEquals("callback.verify", receiver.next().param("name"), "and its verification request sent again");
    }

    @Test
    void withoutASeedFileTheSandboxIsEmptyWithFreshDemoData() {
        Fixtures.create(server);
        var r = reset("Authorization", "Bearer " + KEY);
        assertEquals(200, r.status(), r.body());
        var demo = r.json().get("reset").get("demo");
        assertEquals("demo@ledgerlink.test", demo.get("email").asText());
        assertEquals(1, count("users"));
        assertTrue(server.services().users().authenticate("demo@ledgerlink.test", demo.get("password").asText()).isPresent());
        assertTrue(server.services().applications().authenticate(demo.get("client_id").asText(), demo.get("client_secret").asText()).isPresent());
    }

    @Test
    void theOperatorKeyIsRequired() {
        assertEquals(401, reset().status());
        assertEquals(401, reset("Authorization", "Bearer wrong").status());
    }

    /**
     * A delivery in flight when the reset comes is answered and recorded nowhere; one waiting for its
     * retry is never sent again; the engine keeps delivering what comes after.
     */
    @Test
    void theRunningEngineDoesNotFailNorResendStaleWork() {
        Fixtures f = Fixtures.create(server);
        Fixtures.Verified hanging = f.verified("invoice.create", receiver, receiver.uri() + "?hang");
        Fixtures.Verified failing = f.verified("invoice.update", receiver, receiver.uri() + "?fail");
        CountDownLatch inFlight = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        receiver.answer(req -> {
            String name = req.param("name");
            if ("invoice.create".equals(name)) {
                inFlight.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Receiver.Answer.of("invoice.update".equals(name) ? 500 : 200);
        });
        f.publish("invoice.update", 2);
        Eventually.await("the failure is recorded", () -> server.services().deliveryReads().history(null, failing.id(), 1, 10)
                .deliveries().stream().anyMatch(d -> d.name().equals("invoice.update") && d.attemptCount() == 1));
        f.publish("invoice.create", 1);
        try {
            assertTrue(inFlight.await(30, TimeUnit.SECONDS), "the delivery is in flight");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }

        assertEquals(200, reset("Authorization", "Bearer " + KEY).status());
        release.countDown();
        receiver.answer(req -> Receiver.Answer.of(200));
        server.clock.advance(Duration.ofHours(1));   // the failed delivery's retry would be due by now

        // the engine still works: a new callback gets its verification request and a new event
        receiver.clear();
        Fixtures after = Fixtures.create(server);
        Fixtures.Verified fresh = after.verified("client", receiver, receiver.uri() + "?fresh");
        after.publish("client.create", 9);
        assertEquals("9", receiver.next("client.create").param("object_id"));
        List<String> names = new ArrayList<>();
        receiver.requests.forEach(q -> names.add(q.param("name")));
        assertFalse(names.contains("invoice.update"), "the old retry was not sent: " + names);
        assertEquals(0, count("delivery_attempts where delivery_id in (select id from deliveries where callback_id <> " + fresh.id() + ")"),
                "the in-flight attempt's outcome was recorded nowhere");
        assertEquals(hanging.id() < fresh.id(), true, "ids are not reused");
    }

    @Test
    void theCliResetsTheDatabaseOfARunningServer() throws Exception {
        assertEquals(0, ServerCli.run(server, "seed", seedFile().toString(), "--dev").exitCode());
        // the command stamped its rows with the real time; the server's test clock stands still at its start
        server.clock.advance(Duration.ofMinutes(1));
        receiver.next("callback.verify");
        Fixtures.create(server);
        Cli.Result r = ServerCli.run(server, "sandbox", "reset", "--json");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertEquals(1, r.json().get("seeds").size(), r.out());
        assertEquals(1, count("users"));
        // the running server serves the reset database: its engine sends the re-registered callback's verification request
        server.clock.advance(Duration.ofMinutes(1));
        assertEquals("callback.verify", receiver.next().param("name"));
        Cli.Result human = ServerCli.run(server, "sandbox", "reset");
        assertTrue(human.out().contains("seed.yaml applied again"), human.out());
    }

    @Test
    void aDatabaseNeverUsedInDevelopmentModeIsNotReset() {
        try (TestServer prod = TestServer.start(s -> s.set(Setting.DEV, "false"))) {
            Fixtures.create(prod, "https://app.example.com/callback");
            var e = org.junit.jupiter.api.Assertions.assertThrows(ServiceException.class, () -> prod.services().sandboxReset().reset());
            assertEquals(ServiceException.Kind.CONFLICT, e.kind());
            int users = prod.services().database().jdbi().withHandle(h -> h.createQuery("select count(*) from users").mapTo(Integer.class).one());
            assertEquals(1, users, "nothing was removed");
            assertEquals(404, prod.http.postJson("/sandbox/v1/reset", "{}", "Authorization", "Bearer x").status(), "no such route outside development mode");
        }
    }

    /** A sandbox's database that a production server has since started over is no sandbox's any more. */
    @Test
    void aSandboxDatabaseThatAProductionServerTookOverIsNotReset(@TempDir Path dir) {
        TestDatabases.TestDb db = TestDatabases.freshShared(dir);   // outlives each server (an H2 file, or a PostgreSQL schema)
        String key = dev.ledgerlink.secrets.SecretBox.newKeyBase64();
        try (TestServer sandbox = TestServer.start(db, s -> s.set(Setting.SECRETS_KEY, key))) {
            assertTrue(sandbox.services().sandboxReset().reset().demo().isPresent(), "a development server's database is reset");
        }
        try (TestServer prod = TestServer.start(db, s -> s.set(Setting.SECRETS_KEY, key).set(Setting.DEV, "false"))) {
            var e = org.junit.jupiter.api.Assertions.assertThrows(ServiceException.class, () -> prod.services().sandboxReset().reset());
            assertEquals(ServiceException.Kind.CONFLICT, e.kind());
            int users = prod.services().database().jdbi().withHandle(h -> h.createQuery("select count(*) from users").mapTo(Integer.class).one());
            assertTrue(users > 0, "the demo data is still there");
        }
        try (TestServer again = TestServer.start(db, s -> s.set(Setting.SECRETS_KEY, key))) {
            assertEquals(0, ServerCli.run(again, "sandbox", "reset").exitCode(), "a development server over it again makes it a sandbox's again");
        }
    }

    /** A table added later must be placed on purpose: wiped by a reset, or kept. */
    @Test
    void everyTableIsEitherWipedOrKept() {
        List<String> found = server.services().database().jdbi().withHandle(h -> h.createQuery("""
                select lower(table_name) from information_schema.tables
                where lower(table_schema) = lower(current_schema()) and table_type in ('BASE TABLE', 'TABLE')""").mapTo(String.class).list());
        Set<String> tables = new TreeSet<>(found);
        Set<String> placed = new TreeSet<>(SandboxStore.WIPED);
        placed.addAll(SandboxStore.KEPT);
        assertEquals(tables, placed);
    }
}
