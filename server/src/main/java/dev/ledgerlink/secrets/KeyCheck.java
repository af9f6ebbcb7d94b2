package dev.ledgerlink.secrets;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * The database's record of its secrets key (table {@code secrets_keys}): the check value and
 * fingerprint of the current key, and during a rotation of the key being replaced ({@code retiring}),
 * never a key. Every process checks its keys against it once, at start ({@link #verify}): a node given
 * another key refuses to start ({@link WrongKey}) instead of sealing codes the other nodes cannot
 * open. The first process of a database without a record (new, or made before there was one) proves
 * its key on the values already sealed, then records it.
 */
public final class KeyCheck {
    static final String CURRENT = "current";
    static final String RETIRING = "retiring";

    private KeyCheck() {}

    /** One recorded key: its fingerprint, check value and role (current or retiring). */
    public record Recorded(String keyId, String checkValue, String role) {}

    /** The database's keys, the current one first. */
    public static List<Recorded> recorded(Jdbi jdbi) {
        return jdbi.withHandle(KeyCheck::recorded);
    }

    static List<Recorded> recorded(Handle h) {
        return h.createQuery("select key_id, check_value, role from secrets_keys order by case role when 'current' then 0 else 1 end")
                .map((rs, ctx) -> new Recorded(rs.getString("key_id"), rs.getString("check_value"), rs.getString("role"))).list();
    }

    /** Whether any sealed value is stored (a database on which a new key file would open nothing). */
    public static boolean anySealed(Jdbi jdbi) {
        return jdbi.withHandle(h -> SealedColumns.ALL.stream().anyMatch(c ->
                h.createQuery("select count(*) from (select 1 from " + c.table() + " where " + c.sealedColumn() + " is not null fetch first 1 rows only) x")
                        .mapTo(Long.class).one() > 0));
    }

    /**
     * Checks {@code ring} against the database, recording its current key when the database has no
     * record yet; returns what a node should be told (a rotation under way, a previous key no longer
     * needed), if anything. Throws {@link WrongKey} when the ring cannot serve this database.
     */
    public static Optional<String> verify(Jdbi jdbi, KeyRing ring, Clock clock) {
        for (int attempt = 0; ; attempt++) {
            List<Recorded> keys = recorded(jdbi);
            if (!keys.isEmpty()) return judge(keys, ring);
            proveOnSealedValues(jdbi, ring);
            try {
                jdbi.useHandle(h -> h.createUpdate("insert into secrets_keys (key_id, check_value, role, recorded_at) values (:id, :check, 'current', :now)")
                        .bind("id", ring.current().keyId()).bind("check", ring.current().checkValue()).bind("now", Instant.now(clock)).execute());
                return Optional.empty();
            } catch (UnableToExecuteStatementException raced) {
                if (attempt > 0) throw raced;   // another node recorded its key at the same moment: judge against that one
            }
        }
    }

    private static Optional<String> judge(List<Recorded> keys, KeyRing ring) {
        Recorded current = keys.getFirst();
        Optional<Recorded> retiring = keys.stream().filter(k -> k.role().equals(RETIRING)).findFirst();
        SecretBox mine = ring.current();
        Optional<SecretBox> previous = ring.previous();
        if (!current.role().equals(CURRENT)) throw new IllegalStateException("secrets_keys has no current key: " + keys);
        if (mine.matches(current.checkValue())) {
            if (retiring.isPresent() && (previous.isEmpty() || !previous.get().matches(retiring.get().checkValue()))) {
                throw new WrongKey("a rotation of the secrets key from " + retiring.get().keyId() + " to " + current.keyId() + " is under way and "
                        + "this node does not hold the key being replaced: set secrets.previous-key to the key with fingerprint "
                        + retiring.get().keyId() + " until ledgerlink secrets rotate-key has finished (docs/operations.md, \"Keys\")");
            }
            if (retiring.isEmpty() && previous.isPresent()) {
                return Optional.of("secrets.previous-key (fingerprint " + previous.get().keyId() + ") is set but no rotation is under way: "
                        + "run ledgerlink secrets rotate-key if one should be, else remove the setting");
            }
            return Optional.empty();
        }
        if (retiring.isEmpty() && previous.isPresent() && previous.get().matches(current.checkValue())) {
            return Optional.of("this node seals with the key " + mine.keyId() + " and still reads the database's key " + current.keyId()
                    + " (secrets.previous-key): once every node runs so, run ledgerlink secrets rotate-key to re-seal every value with "
                    + mine.keyId());
        }
        if (retiring.isPresent() && mine.matches(retiring.get().checkValue()) && previous.isPresent() && previous.get().matches(current.checkValue())) {
            return Optional.empty();   // both keys of the rotation held, in the other order: everything opens
        }
        String given = "secrets.key has the fingerprint " + mine.keyId()
                + previous.map(p -> " (secrets.previous-key " + p.keyId() + ")").orElse("");
        throw new WrongKey(given + ", but this database's key has the fingerprint " + current.keyId()
                + retiring.map(r -> " (a rotation from " + r.keyId() + " is under way)").orElse("")
                + ": every node sharing a database needs its key, or it seals codes the other nodes cannot open. Give this node the key "
                + "with fingerprint " + current.keyId() + " (the one the other nodes have; `ledgerlink secrets status` prints a key's "
                + "fingerprint). To change the key, rotate it (docs/operations.md, \"Keys\")");
    }

    /** A database without a record: one value of each sealed column must open with the ring, or the key is not this database's. */
    private static void proveOnSealedValues(Jdbi jdbi, KeyRing ring) {
        jdbi.useHandle(h -> {
            for (SealedColumns.SealedColumn c : SealedColumns.ALL) {
                var sample = h.createQuery("select " + c.sealedColumn() + " as sealed, " + c.keyColumn() + " as key_id from " + c.table()
                                + " where " + c.sealedColumn() + " is not null order by " + c.idColumn() + " desc fetch first 1 rows only")
                        .map((rs, ctx) -> new KeyRing.Sealed(rs.getString("sealed"), rs.getString("key_id"))).findOne();
                if (sample.isEmpty()) continue;
                try {
                    ring.open(sample.get().value(), sample.get().keyId());
                } catch (RuntimeException wrong) {
                    throw new WrongKey("secrets.key has the fingerprint " + ring.current().keyId() + ", but the values already sealed in "
                            + c + " do not open with it: this database was sealed with another key. Give this node that key (the one "
                            + "the database was used with before; `ledgerlink secrets status` prints a key's fingerprint)");
                }
            }
        });
    }
}
