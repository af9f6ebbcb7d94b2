package dev.ledgerlink.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.sql.DataSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.FileStore;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.RandomAccessStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The housekeeping H2 does not do for ledgerlink's durable commits. H2 never writes over a page: each
 * commit writes what it changed as a new chunk at the end of the file, and space is used again only
 * once every page of an old chunk has been written anew. A chunk that keeps a few live pages (a row
 * that is never updated beside rows that were) keeps its whole space, so H2 has a background thread
 * that rewrites the live pages of the emptiest chunks. That thread runs only with a write delay above
 * zero, and ledgerlink sets WRITE_DELAY=0 so that a commit is in the file before it is acknowledged
 * (JdbcUrls). Without it, an H2 file under the soak's load kept growing after retention held its
 * rows level; with it the file levels off (docs/BENCHMARKS.md, "Soak"; docs/benchmarks-history.md,
 * "H2 housekeeping"). H2HousekeepingTest shows it on a smaller churn.
 *
 * <p>So every {@link #EVERY} this rewrites the live pages of the emptiest chunks (at most
 * {@link #WRITE_BUDGET} a pass) while the live share of the chunks is below {@link #TARGET_FILL_RATE},
 * as H2's own thread would; the chunks left with no live page are then reused by later commits. It
 * runs under the store's lock like a commit, so commits wait for a pass (a few milliseconds for its
 * budget); H2 gives up on that lock after 10 ms, which under steady commits it mostly did, so a pass
 * tries up to {@link #ATTEMPTS} times. It then frees the chunks left empty and, once a quarter of the
 * file is free space between chunks, moves the last chunks into the gaps and cuts the file's end, as
 * H2's thread does when idle. Only the process that holds the file does it (another one reaches it
 * over AUTO_SERVER).
 *
 * <p>What it cannot do (the 60-minute soak, docs/BENCHMARKS.md): H2 keeps every chunk for 45 s after
 * it was written (RETENTION_TIME, so that a power cut finds older versions whole, as the operating
 * system writes back within 30 s) and frees dead chunks only in the order they died, so under constant
 * load the file holds about a minute of writes (docs/BENCHMARKS.md, "Soak"). The chunks that grew it without bound,
 * kept by pages H2 counted live but no tree held, came from a bug in H2 2.5.252's commit, fixed by
 * ledgerlink's copy of org.h2.mvstore.tx.CommitDecisionMaker (H2CommitFix); a file written before that fix keeps
 * them until {@code ledgerlink db rebuild}. The gauges (ledgerlink_h2_*) show which of these a file is in.
 */
final class H2Housekeeping implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(H2Housekeeping.class);
    static final Duration EVERY = Duration.ofSeconds(5);
    /** Percent of live data in the file's chunks below which their emptiest ones are rewritten (H2's own thread aims higher, rewriting more). */
    static final int TARGET_FILL_RATE = 50;
    /** Bytes one pass writes at most: H2's own thread writes up to a quarter of its 19 MiB commit buffer under load. */
    static final int WRITE_BUDGET = 8 * 1024 * 1024;
    /** Percent of the file that chunks occupy below which chunks are moved into the gaps and the file cut. */
    static final int FILE_FILL_TO_MOVE = 75;
    /** Bytes of chunks one pass moves at most. */
    static final long MOVE_BUDGET = 16L * 1024 * 1024;
    /** Tries a pass makes for the store's lock. */
    static final int ATTEMPTS = 50;

    private final DataSource dataSource;
    /** Told of a failed pass: a chunk rewrite is a write, and may be the one that finds the disk full. */
    private final Consumer<Throwable> failures;
    private final Thread thread;
    /** Counted down at close; never an interrupt: one in the middle of H2's file I/O closes its file. */
    private final CountDownLatch closing = new CountDownLatch(1);

    /** The last pass's reading, for the gauges. */
    private volatile Reading last;
    private final Map<Outcome, Counter> passes;

    private H2Housekeeping(DataSource dataSource, Consumer<Throwable> failures, MeterRegistry metrics) {
        this.dataSource = dataSource;
        this.failures = failures;
        if (metrics != null) {
            Gauge.builder("ledgerlink.h2.file.size", this, h -> h.last == null ? Double.NaN : h.last.fileBytes()).baseUnit("bytes")
                    .description("Size of the H2 file, as the last housekeeping pass read it").register(metrics);
            Gauge.builder("ledgerlink.h2.file.fill", this, h -> h.last == null ? Double.NaN : h.last.fileFillPercent())
                    .description("Percent of the H2 file that chunks occupy (the rest is free space between them)").register(metrics);
            Gauge.builder("ledgerlink.h2.chunks.fill", this, h -> h.last == null ? Double.NaN : h.last.chunksFillPercent())
                    .description("Percent of the H2 chunks' data that is live (the rest waits to be rewritten)").register(metrics);
            FunctionCounter.builder("ledgerlink.h2.file.written", this,
                            h -> h.last == null ? 0 : h.last.writtenBytes()).baseUnit("bytes")
                    .description("Bytes H2 wrote to its file since it was opened (commits and chunk rewrites)").register(metrics);
            passes = new EnumMap<>(Outcome.class);
            for (Outcome o : Outcome.values()) {
                passes.put(o, Counter.builder("ledgerlink.h2.housekeeping.passes")
                        .tag("outcome", o.name().toLowerCase(Locale.ROOT))
                        .description("H2 housekeeping passes: chunks rewritten, nothing to rewrite, or nothing rewritten though the chunks are below their target").register(metrics));
            }
        } else {
            passes = null;
        }
        this.thread = Thread.ofPlatform().daemon().name("h2-housekeeping").start(this::loop);
    }

    static H2Housekeeping start(DataSource dataSource, Consumer<Throwable> failures, MeterRegistry metrics) {
        return new H2Housekeeping(dataSource, failures, metrics);
    }

    private void loop() {
        while (true) {
            try {
                if (closing.await(EVERY.toMillis(), TimeUnit.MILLISECONDS)) return;
                last = pass(dataSource);
                if (passes != null) passes.get(last.outcome()).increment();
            } catch (InterruptedException e) {
                return;
            } catch (SQLException | RuntimeException e) {
                // The database away (closed at a full disk, being reopened): the next pass tries again.
                failures.accept(e);
                LOG.debug("H2 housekeeping skipped a pass: {}", e.toString());
            }
        }
    }

    /**
     * What a pass read of the file after its work: its size, the share of it that chunks occupy (the
     * rest is free space between them), and the share of the chunks' data that is live.
     */
    record Reading(Outcome outcome, long fileBytes, int fileFillPercent, int chunksFillPercent, long writtenBytes) {}

    /** Bytes H2 wrote to the file since it was opened (its info.FILE_WRITE_BYTES). */
    private static long writtenBytes(FileStore<?> file) {
        long[] bytes = {0};
        file.populateInfo((key, value) -> {
            if (key.equals("info.FILE_WRITE_BYTES")) bytes[0] = Long.parseLong(value);
        });
        return bytes[0];
    }

    /**
     * What a pass did: rewrote chunks; had nothing to rewrite (the chunks' live share above the
     * target); or rewrote nothing though below it ({@link #ATTEMPTS} tries without the store's lock, or
     * no chunk old enough to rewrite).
     */
    enum Outcome { REWROTE, NOTHING_TO_DO, NOT_REWRITTEN }

    /** One pass. */
    static Reading pass(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            if (!(c.unwrap(JdbcConnection.class).getSession() instanceof SessionLocal session)) return new Reading(Outcome.NOTHING_TO_DO, 0, 100, 100, 0);
            MVStore store = session.getDatabase().getStore().getMvStore();
            FileStore<?> file = store.getFileStore();
            Outcome outcome = Outcome.NOTHING_TO_DO;
            // compact() gives up when it cannot have the store's lock within 10 ms, and under steady
            // commits it mostly cannot: try again, a pass is worth little waits.
            for (int attempt = 0; attempt < ATTEMPTS && file.getChunksFillRate() < TARGET_FILL_RATE; attempt++) {
                if (store.compact(TARGET_FILL_RATE, WRITE_BUDGET)) {
                    outcome = Outcome.REWROTE;
                    break;
                }
                outcome = Outcome.NOT_REWRITTEN;
            }
            // Chunks left with no live page are freed only by the next commit, and free space between
            // chunks is used again by later commits but never given back. This frees them now and,
            // when a quarter of the file is free (after load falls, or a retention sweep), moves the
            // last chunks into the gaps and cuts the file's end, as H2's own thread does when idle.
            if (file instanceof RandomAccessStore moving) moving.compactMoveChunks(FILE_FILL_TO_MOVE, MOVE_BUDGET, store);
            return new Reading(outcome, file.size(), file.getFillRate(), file.getChunksFillRate(), writtenBytes(file));
        }
    }

    @Override
    public void close() {
        closing.countDown();
        try {
            thread.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
