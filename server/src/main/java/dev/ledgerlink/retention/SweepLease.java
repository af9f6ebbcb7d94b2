package dev.ledgerlink.retention;

import java.time.Duration;
import java.time.Instant;
import org.jdbi.v3.core.Jdbi;

/**
 * One sweeper at a time across every node sharing the database: a row of maintenance_leases that a
 * sweeper takes when it is free or expired, renews after each batch, and gives back at the end. A
 * node that dies mid-pass holds it only until it expires.
 */
final class SweepLease {
    static final Duration TTL = Duration.ofMinutes(2);
    private static final String NAME = "retention";

    private final Jdbi jdbi;
    private final String holder;

    SweepLease(Jdbi jdbi, String holder) {
        this.jdbi = jdbi;
        this.holder = holder;
    }

    /** Takes (or renews) the lease; false when another sweeper holds it. */
    boolean take(Instant now) {
        return jdbi.withHandle(h -> h.createUpdate("""
                        update maintenance_leases set holder = :holder, expires_at = :until
                        where name = :name and (holder is null or holder = :holder or expires_at < :now)""")
                .bind("holder", holder).bind("until", now.plus(TTL)).bind("name", NAME).bind("now", now).execute()) == 1;
    }

    void release() {
        jdbi.useHandle(h -> h.createUpdate("update maintenance_leases set holder = null where name = :name and holder = :holder")
                .bind("name", NAME).bind("holder", holder).execute());
    }

    /** Who holds it and until when, for the message of a sweeper that has to wait. */
    String describe() {
        return jdbi.withHandle(h -> h.createQuery("select holder, expires_at from maintenance_leases where name = :name")
                .bind("name", NAME).map((rs, ctx) -> rs.getString("holder") + " until " + rs.getObject("expires_at")).findOne().orElse("nobody"));
    }
}
