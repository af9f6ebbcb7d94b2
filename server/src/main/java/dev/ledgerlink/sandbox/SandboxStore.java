package dev.ledgerlink.sandbox;

import dev.ledgerlink.store.DbTime;
import java.time.Clock;
import java.util.List;
import org.jdbi.v3.core.Jdbi;

/**
 * The statements of development mode's reset and of the kept seed file (sandbox_seed, V38). The
 * reset empties every table of the sandbox's data in one transaction, children before parents, and
 * keeps only what is no data of its own: the schema's history, the token selector key
 * (oauth_token_keys), the secrets key's check value (secrets_keys), the database's restores from
 * backups (database_restores), the maintenance leases and the kept seed file. SandboxResetTest fails
 * when a table is in neither list, so a table added later is placed here on purpose.
 */
final class SandboxStore {
    /** Emptied by a reset, in this order (a row's references first). */
    static final List<String> WIPED = List.of(
            "test_deliveries", "delivery_attempts", "callback_last_attempts", "callback_pace", "deliveries", "events", "operator_notifications",
            "callbacks", "oauth_consent_scopes", "oauth_access_tokens", "oauth_refresh_tokens", "oauth_authorization_codes",
            "oauth_legacy_token_hashes", "oauth_grants", "oauth_token_slots", "oauth_login_sessions", "oauth_login_failures",
            "user_recovery_codes", "user_second_factors",
            "memberships", "applications", "users", "accounts", "sandbox_faults", "sandbox_requests");

    /** Left alone by a reset: not data of the sandbox's own. */
    static final List<String> KEPT = List.of("flyway_schema_history", "oauth_token_keys", "secrets_keys", "database_restores",
            "maintenance_leases", "sandbox_seed", "sandbox_fault_version", "sandbox_state");

    /** A seed file as kept. */
    record KeptSeed(String source, boolean json, String content) {}

    private final Jdbi jdbi;
    private final Clock clock;

    SandboxStore(Jdbi jdbi, Clock clock) {
        this.jdbi = jdbi;
        this.clock = clock;
    }

    /** Empties every table of {@link #WIPED}, all or none. Ids are not reused afterwards (identities go on counting). */
    void wipe() {
        jdbi.useTransaction(h -> {
            for (String table : WIPED) h.execute("delete from " + table);
            // Fault rules gone: every process's cache of them learns it from the version (sandbox.Faults).
            h.execute("update sandbox_fault_version set version = version + 1");
            // The clock back at real time (store.ServiceClock re-reads the offset every 250 ms in every process).
            h.execute("update sandbox_state set clock_offset_micros = 0 where id = 1");
        });
    }

    /**
     * Whether the last server that started over this database ran in development mode (the mark every
     * server sets or clears at start: store.ServiceClock).
     */
    boolean lastServerInDevelopmentMode() {
        return jdbi.withHandle(h -> h.createQuery("select development from sandbox_state where id = 1").mapTo(Boolean.class).one());
    }

    /** Keeps a seed file after those kept before; one of the same source is replaced (it goes last). */
    void keepSeed(String source, boolean json, String content) {
        jdbi.useTransaction(h -> {
            h.createUpdate("delete from sandbox_seed where source = :source").bind("source", source).execute();
            int next = h.createQuery("select coalesce(max(position), 0) + 1 from sandbox_seed").mapTo(Integer.class).one();
            h.createUpdate("insert into sandbox_seed (position, source, json, content, stored_at) values (:position, :source, :json, :content, :now)")
                    .bind("position", next).bind("source", source).bind("json", json).bind("content", content)
                    .bind("now", DbTime.now(clock)).execute();
        });
    }

    /** The kept seed files, in the order they are applied. */
    List<KeptSeed> keptSeeds() {
        return jdbi.withHandle(h -> h.createQuery("select source, json, content from sandbox_seed order by position")
                .map((rs, ctx) -> new KeptSeed(rs.getString("source"), rs.getBoolean("json"), rs.getString("content"))).list());
    }
}
