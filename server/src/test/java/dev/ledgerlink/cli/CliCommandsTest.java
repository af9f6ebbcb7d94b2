package dev.ledgerlink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.testing.Cli;
import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.TestDatabases;
import org.junit.jupiter.api.Test;

/** Every operator command, end to end through the real picocli entry point, on a real database. */
@FrontEnd
class CliCommandsTest {
    private final Cli cli = new Cli(TestDatabases.fresh());

    @Test
    void accountsCreatePrintsAShortRandomAccountId() {
        JsonNode a = cli.run("accounts", "create", "--name", "Acme Ltd", "--json").json();
        assertTrue(a.get("account_id").asText().matches("[A-Za-z0-9]{5}"), a.toString());
        assertEquals("Acme Ltd", a.get("name").asText());
        assertNotEquals(a.get("account_id").asText(), cli.run("accounts", "create", "--name", "Other", "--json").json().get("account_id").asText());
    }

    @Test
    void usersCreatePrintsTheUserId() {
        var r = cli.run("users", "create", "--email", "Ana@Example.com", "--password", "correct horse", "--first-name", "Ana", "--last-name", "Lima", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode u = r.json();
        assertTrue(u.get("user_id").asLong() > 0);
        assertEquals("Ana@Example.com", u.get("email").asText());
        assertEquals("Ana", u.get("first_name").asText());
    }

    @Test
    void addMemberAcceptsUserIdOrEmailAndDefaultsToOwner() {
        String account = cli.run("accounts", "create", "--name", "Acme", "--json").json().get("account_id").asText();
        long userId = cli.run("users", "create", "--email", "bo@example.com", "--password", "pass-word-1", "--json").json().get("user_id").asLong();
        JsonNode m = cli.run("accounts", "add-member", "--account", account, "--user", Long.toString(userId), "--json").json();
        assertEquals("owner", m.get("role").asText());
        assertEquals(account, m.get("account_id").asText());
        String other = cli.run("accounts", "create", "--name", "Other", "--json").json().get("account_id").asText();
        JsonNode byEmail = cli.run("accounts", "add-member", "--account", other, "--user", "BO@example.com", "--role", "accountant", "--json").json();
        assertEquals("accountant", byEmail.get("role").asText());
        assertEquals(userId, byEmail.get("user_id").asLong());
    }

    @Test
    void appsCreateShowsTheSecretOnceAndListShowAndRotateWork() {
        JsonNode created = cli.run("apps", "create", "--name", "Books Sync", "--redirect-uri", "https://example.com/cb",
                "https://example.com/cb2", "--scope", "user:profile:read", "user:invoices:read", "--json").json();
        String clientId = created.get("client_id").asText();
        String secret = created.get("client_secret").asText();
        assertTrue(secret.length() >= 43, "256-bit secret");
        assertEquals(2, created.get("redirect_uris").size());

        JsonNode list = cli.run("apps", "list", "--json").json();
        assertEquals(1, list.get("applications").size());
        assertFalse(list.toString().contains(secret), "list never shows a secret");
        assertFalse(list.get("applications").get(0).has("client_secret"));

        JsonNode shown = cli.run("apps", "show", clientId, "--json").json();
        assertEquals("Books Sync", shown.get("name").asText());
        assertFalse(shown.has("client_secret"));
        assertEquals(clientId, cli.run("apps", "show", created.get("id").asText(), "--json").json().get("client_id").asText());

        JsonNode rotated = cli.run("apps", "rotate-secret", clientId, "--json").json();
        assertNotEquals(secret, rotated.get("client_secret").asText());
    }

    @Test
    void rotatedSecretReplacesTheOldOneAtOnce() {
        JsonNode created = cli.run("apps", "create", "--name", "X", "--redirect-uri", "https://x.example/cb", "--scope", "user:profile:read", "--json").json();
        String clientId = created.get("client_id").asText();
        String newSecret = cli.run("apps", "rotate-secret", clientId, "--json").json().get("client_secret").asText();
        var services = servicesOver(cli.db());
        try {
            assertTrue(services.applications().authenticate(clientId, created.get("client_secret").asText()).isEmpty());
            assertTrue(services.applications().authenticate(clientId, newSecret).isPresent());
        } finally {
            services.database().close();
        }
    }

    @Test
    void humanOutputIsReadableWithoutJson() {
        var r = cli.run("accounts", "create", "--name", "Plain");
        assertEquals(0, r.exitCode());
        assertTrue(r.out().startsWith("account "), r.out());
    }

    @Test
    void validationFailuresExitWithTwoAndPrintTheErrorBodyWithJson() {
        var r = cli.run("users", "create", "--email", "not-an-email", "--password", "short", "--json");
        assertEquals(2, r.exitCode());
        JsonNode body = r.json();
        assertEquals(422, body.get("errno").asInt());
        JsonNode fields = body.get("details").get(0).get("fieldViolations");
        assertEquals("email", fields.get(0).get("field").asText());
        assertEquals("password", fields.get(1).get("field").asText());

        var plain = cli.run("accounts", "create", "--name", " ");
        assertEquals(2, plain.exitCode());
        assertTrue(plain.err().startsWith("error: name must not be empty"), plain.err());
        assertEquals("", plain.out());
    }

    @Test
    void everyCommandHasHelp() {
        for (String[] cmd : new String[][] {{"serve"}, {"accounts", "create"}, {"accounts", "add-member"}, {"users", "create"},
                {"apps", "create"}, {"apps", "list"}, {"apps", "show"}, {"apps", "rotate-secret"}}) {
            String[] withHelp = java.util.Arrays.copyOf(cmd, cmd.length + 1);
            withHelp[cmd.length] = "--help";
            var out = new java.io.StringWriter();
            int code = Main.run(new java.io.PrintWriter(out, true), new java.io.PrintWriter(new java.io.StringWriter(), true), withHelp);
            assertEquals(0, code, String.join(" ", cmd));
            assertTrue(out.toString().contains("Usage: ledgerlink " + String.join(" ", cmd)), out.toString());
        }
    }

    @Test
    void aBadDatabaseUrlIsAConfigurationError() {
        var out = new java.io.StringWriter();
        var err = new java.io.StringWriter();
        int code = Main.run(new java.io.PrintWriter(out, true), new java.io.PrintWriter(err, true),
                "apps", "list", "--db", "jdbc:mysql://localhost/x", "--json");
        assertEquals(3, code);
        assertTrue(out.toString().contains("db.url must be a jdbc:h2: or jdbc:postgresql: URL"), out.toString());
    }

    /** The services over the same database the CLI used, to check effects the CLI cannot show. */
    private static dev.ledgerlink.Services servicesOver(TestDatabases.TestDb db) {
        var settings = dev.ledgerlink.config.Settings.builder()
                .set(dev.ledgerlink.config.Setting.DB_URL, db.url())
                .set(dev.ledgerlink.config.Setting.DB_USER, db.user())
                .set(dev.ledgerlink.config.Setting.SECRETS_KEY, dev.ledgerlink.testing.TestServer.keyOf(db)).build();
        return new StoreOptions().open(settings);
    }

    @Test
    void usersListShowsEveryUserAndSetPasswordReplacesAForgottenOne() {
        cli.run("users", "create", "--email", "demo@example.com", "--password", "the first one", "--json");
        JsonNode list = cli.run("users", "list", "--json").json();
        assertEquals("demo@example.com", list.get("users").get(0).get("email").asText());
        assertTrue(cli.run("users", "list").out().contains("demo@example.com"));

        var r = cli.run("users", "set-password", "--email", "DEMO@example.com", "--password", "a brand new one", "--json");
        assertEquals(0, r.exitCode(), r.err());
        var db = cli.db();
        try (var d = dev.ledgerlink.store.Database.open(db.url(), db.user(), db.password(), 2, null)) {
            var users = new dev.ledgerlink.accounts.UserService(d.jdbi(), java.time.Clock.systemUTC(), new dev.ledgerlink.secrets.PasswordHasher(19 * 1024, 2, java.time.Duration.ofMinutes(1)));
            assertTrue(users.authenticate("demo@example.com", "a brand new one").isPresent());
            assertFalse(users.authenticate("demo@example.com", "the first one").isPresent());
        }
        var unknown = cli.run("users", "set-password", "--email", "nobody@example.com", "--password", "whatever it is");
        assertEquals(Output.EXIT_INVALID, unknown.exitCode());
        assertEquals("error: No user has the e-mail nobody@example.com.", unknown.err().strip());
    }

    @Test
    void refusalsReadAsSentences() {
        var r = cli.run("accounts", "add-member", "--account", "NOPE1", "--user", "nobody@example.com");
        assertEquals(Output.EXIT_INVALID, r.exitCode());
        assertTrue(r.err().startsWith("error: user is not known: no user has the e-mail nobody@example.com."), r.err());
    }

    @Test
    void helpNamesTheDatabaseOptionsTheScopesAndTheVersion() {
        String top = direct("--help");
        for (String option : new String[] {"--db", "--data-dir", "--json", "LEDGERLINK_HOME"}) assertTrue(top.contains(option), top);
        String apps = direct("apps", "create", "--help");
        for (String scope : dev.ledgerlink.accounts.Scopes.all()) assertTrue(apps.contains(scope), apps);
        assertTrue(direct("--version").startsWith("ledgerlink "));
    }

    private static String direct(String... args) {
        var out = new java.io.StringWriter();
        int code = Main.run(new java.io.PrintWriter(out, true), new java.io.PrintWriter(new java.io.StringWriter(), true), args);
        assertEquals(0, code);
        return out.toString();
    }
}
