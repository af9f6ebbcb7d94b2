package dev.ledgerlink.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.FreshServer;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerCli;
import dev.ledgerlink.testing.TestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `ledgerlink seed FILE`: YAML or JSON, every rule of the services, idempotent, conflicts named, nothing half-written. */
@LedgerlinkTest
@FreshServer   // each test seeds fixed ids into an empty database
class SeedCommandTest {
    TestServer server;
    Receiver receiver;

    @TempDir
    Path dir;

    private String yaml(String password) {
        return """
                users:
                  - {email: ana@example.com, password: "%s", first_name: Ana, last_name: Lima}
                accounts:
                  - account_id: ANA01
                    name: Ana's Books
                    timezone: America/Toronto
                    members: [{user: ana@example.com, role: owner}]
                applications:
                  - name: Sync
                    client_id: synctest01
                    client_secret: sync-secret-for-tests
                    redirect_uris: ["http://localhost:8000/callback"]
                    scopes: [user:profile:read, user:invoices:read]
                callbacks:
                  - {account: ANA01, user: ana@example.com, application: synctest01, event: invoice.create, uri: "%s"}
                """.formatted(password, receiver.uri());
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private Cli.Result seed(Path file, String... more) {
        // on the server's database with its secrets key: a callback's code sealed by this command is unsealed by the server
        String[] args = new String[3 + more.length];
        args[0] = "seed"; args[1] = file.toString(); args[2] = "--json";
        System.arraycopy(more, 0, args, 3, more.length);
        return ServerCli.run(server, args);
    }

    private int count(String table) {
        return server.services().database().jdbi().withHandle(h -> h.createQuery("select count(*) from " + table).mapTo(Integer.class).one());
    }

    @Test
    void aYamlSeedCreatesEverythingThroughTheRealRules() throws Exception {
        Cli.Result r = seed(write("seed.yaml", yaml("correct horse battery")), "--dev");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertEquals(5, r.json().get("created").size(), r.out());

        // the fixed credentials authenticate on the token endpoint (revocation answers 200 only to an authenticated client)
        String basic = "Basic " + Base64.getEncoder().encodeToString("synctest01:sync-secret-for-tests".getBytes(StandardCharsets.UTF_8));
        assertEquals(200, server.http.postForm("/auth/oauth/revoke", "token=anything", "Authorization", basic).status());
        // the password is the seeded one; the account keeps its id; the membership holds
        assertTrue(server.services().users().authenticate("ana@example.com", "correct horse battery").isPresent());
        long ana = server.services().users().findByEmail("ana@example.com").orElseThrow().id();
        assertEquals("owner", server.services().accounts().membership(ana, "ANA01").orElseThrow().role());
        // the callback was registered like an API call: unverified, and its verification request reaches the receiver
        // (the command stamped it with the real time; the server's test clock stands still at its start, so move it past that)
        server.clock.advance(java.time.Duration.ofMinutes(1));
        var verify = receiver.next("callback.verify");
        assertEquals("ANA01", verify.param("account_id"));
        assertEquals(Long.toString(ana), verify.param("user_id"));
    }

    @Test
    void runningItTwiceChangesNothing() throws Exception {
        Path file = write("seed.yml", yaml("correct horse battery"));
        assertEquals(0, seed(file, "--dev").exitCode());
        int users = count("users"), apps = count("applications"), callbacks = count("callbacks"), members = count("memberships");
        JsonNode again = seed(file, "--dev").json();
        assertEquals(0, again.get("created").size(), again.toString());
        assertEquals(5, again.get("unchanged").size(), again.toString());
        assertEquals(users, count("users"));
        assertEquals(apps, count("applications"));
        assertEquals(callbacks, count("callbacks"));
        assertEquals(members, count("memberships"));
    }

    @Test
    void aConflictingEntryIsAnErrorNamingItAndNothingIsWritten() throws Exception {
        assertEquals(0, seed(write("a.yaml", yaml("correct horse battery")), "--dev").exitCode());
        String changed = yaml("another password") + """
                  - {account: ANA01, user: ana@example.com, application: synctest01, event: client.create, uri: "%s"}
                """.formatted(receiver.uri());
        int callbacks = count("callbacks");
        Cli.Result r = seed(write("b.yaml", changed), "--dev");
        assertEquals(2, r.exitCode(), r.out() + r.err());
        assertEquals(422, r.json().get("errno").asInt());
        assertTrue(r.json().get("message").asText().contains("users[0] ana@example.com exists with another password"), r.out());
        assertEquals(callbacks, count("callbacks"), "nothing of the conflicting file was applied");
    }

    @Test
    void fixedClientIdsNeedDevelopmentMode() throws Exception {
        Cli.Result r = seed(write("seed.yaml", yaml("correct horse battery")));
        assertEquals(2, r.exitCode(), r.out() + r.err());
        assertTrue(r.json().get("message").asText().contains("applications[0] Sync"), r.out());
        assertTrue(r.json().get("message").asText().contains("development mode only"), r.out());
    }

    @Test
    void aJsonSeedWithAGeneratedSecretPrintsItOnce() throws Exception {
        Path file = write("seed.json", """
                {"users": [{"email": "bo@example.com", "password": "pass-word-12"}],
                 "accounts": [{"account_id": "BO1", "name": "Bo", "members": [{"user": "bo@example.com"}]}],
                 "applications": [{"name": "Reports", "redirect_uris": ["https://reports.example.com/cb"], "scopes": ["user:profile:read"]}]}""");
        JsonNode first = seed(file).json();
        assertEquals(4, first.get("created").size(), first.toString());
        assertEquals(1, first.get("client_secrets").size());
        JsonNode second = seed(file).json();
        assertEquals(0, second.get("created").size(), second.toString());
        assertEquals(0, second.get("client_secrets").size(), "a secret is shown only when it is made");
    }

    @Test
    void anUnknownKeyOrBrokenFileIsNamed() throws Exception {
        Cli.Result typo = seed(write("typo.yaml", "users:\n  - {email: a@example.com, pasword: x}\n"));
        assertEquals(2, typo.exitCode());
        assertTrue(typo.json().get("message").asText().contains("unknown key \"pasword\""), typo.out());
        Cli.Result broken = seed(write("broken.yaml", "users: [\n"));
        assertEquals(2, broken.exitCode());
        assertTrue(broken.json().get("message").asText().contains("broken.yaml"), broken.out());
        Cli.Result missing = seed(dir.resolve("nope.yaml"));
        assertTrue(missing.json().get("message").asText().contains("does not exist"), missing.out());
    }
}
