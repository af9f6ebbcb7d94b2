package dev.ledgerlink.secrets;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.jdbi.v3.core.Jdbi;

/**
 * Re-seals every sealed value ({@link SealedColumns}) with the ring's current key while the nodes
 * serve (ledgerlink secrets rotate-key, docs/operations.md "Keys"). First the database records the
 * new key as current and the old one as retiring, in one transaction: from then on a node must hold
 * both (KeyCheck). Then each column is walked in id order, a batch per transaction; each value is
 * opened with whichever key sealed it and written back sealed with the new key only if it is still
 * the value read (a node that re-issued the code meanwhile wrote a newer one, which the next pass
 * looks at). Passes repeat until one finds nothing left under another key; then the retiring record
 * is deleted. The progress is the data itself: killed at any point, the command run again picks up
 * where the values stand. The plain text of a value never leaves this process.
 */
public final class KeyRotation {
    private final Jdbi jdbi;
    private final KeyRing ring;
    private final Clock clock;

    public KeyRotation(Jdbi jdbi, KeyRing ring, Clock clock) {
        this.jdbi = jdbi;
        this.ring = ring;
        this.clock = clock;
    }

    /** One batch committed: {@code column}, how many values it re-sealed, how many of that column are still under another key. */
    public record Progress(String column, int resealed, long remaining) {}

    /** What a rotation did: values re-sealed per column, and the fingerprints involved. */
    public record Result(String from, String to, Map<String, Long> resealed, boolean resumed) {}

    /**
     * Runs the rotation to its end, {@code batchSize} values per transaction, pausing {@code pause}
     * between batches (to spare a busy database). Throws {@link WrongKey} when the ring does not hold
     * the database's current key (secrets.previous-key must be it, unless the rotation is being resumed).
     */
    public Result run(int batchSize, Duration pause, Consumer<Progress> progress) throws InterruptedException {
        Begun begun = begin();
        Map<String, Long> resealed = new TreeMap<>();
        for (SealedColumns.SealedColumn c : SealedColumns.ALL) resealed.put(c.toString(), 0L);
        boolean any = true;
        while (any) {
            any = false;
            for (SealedColumns.SealedColumn c : SealedColumns.ALL) {
                long after = Long.MIN_VALUE;
                long left = remaining(c);   // counted once a pass, not once a batch: a column may hold many values
                while (left > 0) {
                    Batch b = batch(c, after, batchSize);
                    if (b.read() == 0) break;
                    any = true;
                    after = b.lastId();
                    left = Math.max(0, left - b.read());
                    resealed.merge(c.toString(), (long) b.resealed(), Long::sum);
                    progress.accept(new Progress(c.toString(), b.resealed(), left));
                    if (!pause.isZero()) Thread.sleep(pause);
                }
            }
        }
        jdbi.useHandle(h -> h.createUpdate("delete from secrets_keys where role = 'retiring'").execute());
        return new Result(begun.from(), ring.current().keyId(), resealed, begun.resumed());
    }

    private record Begun(String from, boolean resumed) {}

    /** The new key recorded as current, the old one as retiring (or, resuming, found so). */
    private Begun begin() {
        return jdbi.inTransaction(h -> {
            List<KeyCheck.Recorded> keys = KeyCheck.recorded(h);
            SecretBox next = ring.current();
            if (keys.isEmpty()) {
                throw new WrongKey("this database has no key recorded yet: start a node (or any command) once with its key first");
            }
            KeyCheck.Recorded current = keys.getFirst();
            Optional<KeyCheck.Recorded> retiring = keys.stream().filter(k -> k.role().equals(KeyCheck.RETIRING)).findFirst();
            if (next.matches(current.checkValue())) {
                // Resumed (or every value is already under this key and only unlabelled values may be left).
                if (retiring.isPresent() && ring.previous().map(p -> !p.matches(retiring.get().checkValue())).orElse(true)) {
                    throw new WrongKey("a rotation from the key " + retiring.get().keyId() + " to " + current.keyId() + " is under way: "
                            + "set secrets.previous-key to the key with fingerprint " + retiring.get().keyId() + " to finish it");
                }
                return new Begun(retiring.map(KeyCheck.Recorded::keyId).orElse(current.keyId()), retiring.isPresent());
            }
            SecretBox old = ring.previous().filter(p -> p.matches(current.checkValue())).orElseThrow(() -> new WrongKey(
                    "the database's key has the fingerprint " + current.keyId() + "; to rotate it, set secrets.previous-key to that key and "
                            + "secrets.key to the new one (fingerprints given: secrets.key " + next.keyId()
                            + ring.previous().map(p -> ", secrets.previous-key " + p.keyId()).orElse(", no secrets.previous-key") + ")"));
            if (retiring.isPresent()) {
                throw new WrongKey("a rotation from " + retiring.get().keyId() + " to " + current.keyId() + " has not finished: run it to "
                        + "its end first (secrets.key " + current.keyId() + ", secrets.previous-key " + retiring.get().keyId() + ")");
            }
            h.createUpdate("update secrets_keys set role = 'retiring' where key_id = :id").bind("id", current.keyId()).execute();
            h.createUpdate("insert into secrets_keys (key_id, check_value, role, recorded_at) values (:id, :check, 'current', :now)")
                    .bind("id", next.keyId()).bind("check", next.checkValue()).bind("now", Instant.now(clock)).execute();
            return new Begun(old.keyId(), false);
        });
    }

    private record Batch(int read, int resealed, long lastId) {}

    private record Row(long id, String sealed, String keyId) {}

    private Batch batch(SealedColumns.SealedColumn c, long after, int size) {
        String to = ring.current().keyId();
        return jdbi.inTransaction(h -> {
            List<Row> rows = h.createQuery("select " + c.idColumn() + " as id, " + c.sealedColumn() + " as sealed, " + c.keyColumn() + " as key_id from "
                            + c.table() + " where " + c.sealedColumn() + " is not null and (" + c.keyColumn() + " is null or " + c.keyColumn()
                            + " <> :to) and " + c.idColumn() + " > :after order by " + c.idColumn() + " fetch first :size rows only")
                    .bind("to", to).bind("after", after).bind("size", size)
                    .map((rs, ctx) -> new Row(rs.getLong("id"), rs.getString("sealed"), rs.getString("key_id"))).list();
            int resealed = 0;
            for (Row r : rows) {
                KeyRing.Sealed fresh = ring.seal(ring.open(r.sealed(), r.keyId()));
                resealed += h.createUpdate("update " + c.table() + " set " + c.sealedColumn() + " = :fresh, " + c.keyColumn() + " = :to where "
                                + c.idColumn() + " = :id and " + c.sealedColumn() + " = :old")
                        .bind("fresh", fresh.value()).bind("to", fresh.keyId()).bind("id", r.id()).bind("old", r.sealed()).execute();
            }
            return new Batch(rows.size(), resealed, rows.isEmpty() ? after : rows.getLast().id());
        });
    }

    /** Values of {@code c} not yet under the current key. */
    public long remaining(SealedColumns.SealedColumn c) {
        return jdbi.withHandle(h -> h.createQuery("select count(*) from " + c.table() + " where " + c.sealedColumn() + " is not null and ("
                + c.keyColumn() + " is null or " + c.keyColumn() + " <> :to)").bind("to", ring.current().keyId()).mapTo(Long.class).one());
    }

    /** How many values of each sealed column are under each key (null: sealed before fingerprints), for secrets status. */
    public static Map<String, Map<String, Long>> census(Jdbi jdbi) {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        jdbi.useHandle(h -> {
            for (SealedColumns.SealedColumn c : SealedColumns.ALL) {
                Map<String, Long> perKey = new TreeMap<>();
                h.createQuery("select coalesce(" + c.keyColumn() + ", 'unlabelled') as k, count(*) as n from " + c.table() + " where "
                                + c.sealedColumn() + " is not null group by coalesce(" + c.keyColumn() + ", 'unlabelled')")
                        .map((rs, ctx) -> Map.entry(rs.getString("k"), rs.getLong("n"))).forEach(e -> perKey.put(e.getKey(), e.getValue()));
                out.put(c.toString(), perKey);
            }
        });
        return out;
    }
}
