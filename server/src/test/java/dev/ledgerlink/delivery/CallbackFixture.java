package dev.ledgerlink.delivery;

import dev.ledgerlink.Services;
import dev.ledgerlink.accounts.Account;
import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.User;
import dev.ledgerlink.events.EventCatalog;
import dev.ledgerlink.secrets.Hashes;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Accounts, users and applications through the real services; callback rows written per the
 * contract of V3__callbacks.sql (the code sealed with the server's SecretBox), as the callbacks
 * package would.
 */
public final class CallbackFixture {
    public final Services services;
    public final Account account;
    public final User user;
    public final Application app;

    public CallbackFixture(Services services) {
        this.services = services;
        this.account = services.accounts().create("Fixture Books", "UTC");
        this.user = services.users().create("u" + UUID.randomUUID().toString().substring(0, 8) + "@example.com",
                "correct horse battery staple", "Ada", "Lovelace");
        services.accounts().addMember(account.accountId(), user.id(), "owner");
        this.app = services.applications().create("Fixture App", List.of("https://app.example.com/cb"), List.of("user:invoices:read")).application();
    }

    public long callback(String event, String uri, String code, boolean verified) {
        Instant now = services.clock().instant();
        return services.database().jdbi().withHandle(h -> h.createUpdate("""
                        insert into callbacks (account_id, application_id, user_id, event, event_noun, uri, verified, disabled,
                                               verifier_sealed, verifier_hash, failing_since, created_at, updated_at)
                        values (:account, :app, :user, :event, :noun, :uri, :verified, false, :sealed, :hash, null, :now, :now)""")
                .bind("account", account.accountId()).bind("app", app.id()).bind("user", user.id())
                .bind("event", event).bind("noun", EventCatalog.nounOf(event)).bind("uri", uri).bind("verified", verified)
                .bind("sealed", services.secretBox().seal(code)).bind("hash", Hashes.sha256Hex(code)).bind("now", now)
                .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one());
    }

    /** What the callbacks package does on resend: new code, unverified, enabled, failure run reset. */
    public void resend(long callbackId, String newCode) {
        services.database().jdbi().useHandle(h -> h.createUpdate("""
                        update callbacks set verifier_sealed = :sealed, verifier_hash = :hash, verified = false,
                               disabled = false, failing_since = null, updated_at = :now where id = :id""")
                .bind("sealed", services.secretBox().seal(newCode)).bind("hash", Hashes.sha256Hex(newCode))
                .bind("now", services.clock().instant()).bind("id", callbackId).execute());
        services.deliveries().enqueueVerification(callbackId);
    }

    public void setVerified(long callbackId, boolean verified) {
        services.database().jdbi().useHandle(h -> h.createUpdate("update callbacks set verified = :v where id = :id")
                .bind("v", verified).bind("id", callbackId).execute());
    }

    public boolean disabled(long callbackId) {
        return services.database().jdbi().withHandle(h -> h.createQuery("select disabled from callbacks where id = :id")
                .bind("id", callbackId).mapTo(Boolean.class).one());
    }
}
