package dev.ledgerlink.accounts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestServer;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Each validation rule of users, accounts and applications, against a real database. */
@LedgerlinkTest
class AccountsValidationTest {
    static TestServer server;
    static UserService users;
    static AccountService accounts;
    static ApplicationService apps;
    static ApplicationService prodApps;

    @BeforeAll
    static void start() {
        users = server.services().users();
        accounts = server.services().accounts();
        apps = server.services().applications();
        prodApps = new ApplicationService(server.services().database().jdbi(), server.clock(), false, server.services().audit(), java.time.Duration.ZERO);
    }

    private static String fieldsOf(Runnable r) {
        ServiceException e = assertThrows(ServiceException.class, r::run);
        assertEquals(ServiceException.Kind.INVALID_FIELD, e.kind());
        return String.join(",", e.violations().stream().map(ServiceException.FieldViolation::field).toList());
    }

    @Test
    void userEmailMustLookLikeAnEmail() {
        assertEquals("email", fieldsOf(() -> users.create("nope", "long enough", "", "")));
        assertEquals("email", fieldsOf(() -> users.create("a@b", "long enough", "", "")));
        assertEquals("email", fieldsOf(() -> users.create("x".repeat(320) + "@example.com", "long enough", "", "")));
    }

    @Test
    void userEmailIsUniqueIgnoringCase() {
        users.create("Case@Example.com", "long enough", "", "");
        assertEquals("email", fieldsOf(() -> users.create("case@EXAMPLE.com", "long enough", "", "")));
        assertTrue(users.findByEmail("CASE@example.COM").isPresent());
    }

    @Test
    void passwordLengthIsBounded() {
        assertEquals("password", fieldsOf(() -> users.create("p1@example.com", "short", "", "")));
        assertEquals("password", fieldsOf(() -> users.create("p2@example.com", "x".repeat(1025), "", "")));
        assertEquals("password", fieldsOf(() -> users.create("p3@example.com", null, "", "")));
    }

    @Test
    void namesRefuseControlCharactersAndExcessLength() {
        assertEquals("first_name", fieldsOf(() -> users.create("n1@example.com", "long enough", "a\u0000b", "")));
        assertEquals("last_name", fieldsOf(() -> users.create("n2@example.com", "long enough", "", "x".repeat(101))));
    }

    @Test
    void passwordsAreArgon2idHashedAndCheckedAtLogin() {
        User u = users.create("login@example.com", "open sesame", "Lo", "Gin");
        String stored = server.services().database().jdbi().withHandle(h ->
                h.createQuery("select password_hash from users where id = :id").bind("id", u.id()).mapTo(String.class).one());
        assertTrue(stored.startsWith("$argon2id$v=19$m=" + TestServer.CHEAP_ARGON2_MEMORY_KIB + ",t=1,p=1$"),
                "test servers in development mode hash at the cheap cost: " + stored);
        assertTrue(users.authenticate("LOGIN@example.com", "open sesame").isPresent());
        assertTrue(users.authenticate("login@example.com", "wrong").isEmpty());
        assertTrue(users.authenticate("nobody@example.com", "open sesame").isEmpty());
    }

    @Test
    void accountNameAndTimezoneAreChecked() {
        assertEquals("name", fieldsOf(() -> accounts.create("  ", "UTC")));
        assertEquals("timezone", fieldsOf(() -> accounts.create("Acme", "Mars/Olympus")));
        assertEquals("America/Toronto", accounts.create("Acme", "America/Toronto").timezone());
    }

    @Test
    void membershipNeedsAKnownAccountUserAndRoleOnce() {
        User u = users.create("member@example.com", "long enough", "", "");
        Account a = accounts.create("Members Inc", null);
        assertEquals("role", fieldsOf(() -> accounts.addMember(a.accountId(), u.id(), "emperor")));
        assertEquals("account", fieldsOf(() -> accounts.addMember("ZZZZZ", u.id(), "owner")));
        assertEquals("user", fieldsOf(() -> accounts.addMember(a.accountId(), 999_999, "owner")));
        accounts.addMember(a.accountId(), u.id(), "Owner");
        assertEquals("user", fieldsOf(() -> accounts.addMember(a.accountId(), u.id(), "admin")));
        assertEquals("owner", accounts.membership(u.id(), a.accountId()).orElseThrow().role());
    }

    @Test
    void applicationsNeedANameRedirectUrisAndKnownScopes() {
        assertEquals("name,redirect_uri,scope", fieldsOf(() -> apps.create("", List.of(), List.of())));
        assertEquals("scope", fieldsOf(() -> apps.create("A", List.of("https://a.example/cb"), List.of("user:everything"))));
    }

    @Test
    void redirectUrisFollowTheHttpsNoQueryNoFragmentRule() {
        assertEquals("redirect_uri", fieldsOf(() -> apps.create("A", List.of("https://a.example/cb?x=1"), List.of("user:profile:read"))));
        assertEquals("redirect_uri", fieldsOf(() -> apps.create("A", List.of("https://a.example/cb#frag"), List.of("user:profile:read"))));
        assertEquals("redirect_uri", fieldsOf(() -> apps.create("A", List.of("ftp://a.example/cb"), List.of("user:profile:read"))));
        assertEquals("redirect_uri", fieldsOf(() -> apps.create("A", List.of("/relative"), List.of("user:profile:read"))));
        assertEquals("redirect_uri", fieldsOf(() -> apps.create("A", List.of("http://example.com/cb"), List.of("user:profile:read"))));
        assertEquals("redirect_uri", fieldsOf(() -> apps.create("A", List.of("https://user:pw@a.example/cb"), List.of("user:profile:read"))));
    }

    @Test
    void httpToLoopbackIsAllowedOnlyInDevelopmentMode() {
        var devApp = apps.create("Dev", List.of("http://localhost:3000/cb", "http://127.0.0.1/cb", "http://[::1]:8080/cb"), List.of("user:profile:read"));
        assertEquals(3, devApp.application().redirectUris().size());
        assertEquals("redirect_uri", fieldsOf(() -> prodApps.create("Prod", List.of("http://localhost:3000/cb"), List.of("user:profile:read"))));
        // The browser that follows a redirect runs on the host, where the names containers give their host mean nothing.
        assertEquals("redirect_uri", fieldsOf(() -> apps.create("Dev", List.of("http://host.docker.internal:3000/cb"), List.of("user:profile:read"))));
        assertEquals("redirect_uri", fieldsOf(() -> apps.create("Dev", List.of("http://host.containers.internal:3000/cb"), List.of("user:profile:read"))));
        assertEquals("https://example.com/cb", prodApps.create("Prod", List.of("https://example.com/cb"), List.of("user:profile:read"))
                .application().redirectUris().getFirst());
    }

    @Test
    void clientSecretsAreStoredOnlyAsSha256AndCheckedExactly() {
        var created = apps.create("Secretive", List.of("https://s.example/cb"), List.of("user:profile:read"));
        String stored = server.services().database().jdbi().withHandle(h ->
                h.createQuery("select client_secret_hash from applications where id = :id").bind("id", created.application().id()).mapTo(String.class).one());
        assertEquals(dev.ledgerlink.secrets.Hashes.sha256Hex(created.clientSecret()), stored);
        assertTrue(apps.authenticate(created.application().clientId(), created.clientSecret()).isPresent());
        assertTrue(apps.authenticate(created.application().clientId(), created.clientSecret() + "x").isEmpty());
        assertTrue(apps.authenticate("unknown", created.clientSecret()).isEmpty());
        assertTrue(apps.authenticate(created.application().clientId(), null).isEmpty());
    }
}
