package dev.ledgerlink.store;

import dev.ledgerlink.errors.Causes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The database's disk is full: a write it could not make for want of space, as opposed to a
 * statement it refused or a database it could not reach. PostgreSQL says so in SQLSTATE 53100
 * (disk_full: "could not extend file ... No space left on device") and keeps serving reads; H2 gets
 * the operating system's {@code IOException} ("No space left on device") while writing its file, closes
 * the database (an MVStore stops at a failed write), and every later use of it, and every attempt to
 * open it again while the disk is still full, carries that same IOException as its cause.
 *
 * <p>It is the service's momentary state, not the request's fault: the web layer answers 503 with
 * Retry-After (decisions.md, "Durability and failure"), and work resumes by itself once space is freed
 * (on H2 the pool then opens the file again). Each {@link Database} has one of these to say so in the
 * log: one line when the disk fills, then at most one a minute while writes keep being refused, with
 * how many were, instead of a line per refused request; {@code ledgerlink_database_disk_full_total}
 * counts them all.
 */
public final class DiskFull {
    private static final Logger LOG = LoggerFactory.getLogger(DiskFull.class);
    /** PostgreSQL's disk_full; the operating system's messages for ENOSPC and EDQUOT. */
    private static final String DISK_FULL_STATE = "53100";
    /** H2's DATABASE_IS_CLOSED. */
    private static final String H2_DATABASE_CLOSED = "90098";
    private static final String[] NO_SPACE = {"no space left on device", "disk quota exceeded", "not enough space on the disk"};
    /** At most one line this often while refusals go on; a refusal after this long without one starts a new episode. */
    static final Duration REMINDER = Duration.ofMinutes(1);

    private final String where;
    private final Counter counter;
    private final LongSupplier nanoTime;
    private final Object lock = new Object();
    private long lastLineAt;        // guarded by lock
    private long lastRefusalAt;     // guarded by lock
    private boolean episode;        // guarded by lock
    private final AtomicLong sinceLastLine = new AtomicLong();
    /**
     * The last I/O failure of the database that this process saw, when it was a full disk; null after
     * another one. H2 closes its store at that failure, and every later use of the store gets "This store
     * is closed" without the cause: H2 keeps the IOException, but passes it as a message argument
     * instead of chaining it.
     */
    private volatile Throwable closedForWantOfSpace;

    /** @param where the database, as the log line names it (the H2 file, or PostgreSQL's address) */
    DiskFull(String where, MeterRegistry metrics, LongSupplier nanoTime) {
        this.where = where;
        this.nanoTime = nanoTime;
        this.counter = metrics == null ? null : Counter.builder("ledgerlink.database.disk.full")
                .description("Requests and background writes refused because the database's disk is full").register(metrics);
    }

    /** True when {@code failure} (or a cause) says the database's disk is full. */
    public static boolean causedBy(Throwable failure) {
        return Causes.any(failure, DiskFull::noSpace);
    }

    private static boolean noSpace(Throwable t) {
        if (t instanceof SQLException sql && DISK_FULL_STATE.equals(sql.getSQLState())) return true;
        if (!(t instanceof IOException) || t.getMessage() == null) return false;
        String message = t.getMessage().toLowerCase(Locale.ROOT);
        for (String s : NO_SPACE) if (message.contains(s)) return true;
        return false;
    }

    /**
     * True when {@code failure} is the full disk of this database: it names the full disk as its cause,
     * or it is H2's closed store and what closed it was the full disk ({@link #observe}).
     */
    public boolean explains(Throwable failure) {
        return causedBy(failure) || (closedForWantOfSpace != null && Causes.any(failure, DiskFull::h2StoreClosed));
    }

    /**
     * Sees every failure of the database (the pool's exception override, H2 housekeeping), wherever
     * it happened: the write that fails for want of space, and so closes H2's store, may be a background
     * one (a delivery's record, a chunk rewrite) that no request sees.
     */
    void observe(Throwable failure) {
        if (causedBy(failure)) {
            closedForWantOfSpace = failure;
        } else if (Causes.any(failure, t -> t instanceof IOException)) {
            closedForWantOfSpace = null;   // another I/O failure: a store closed now was not closed by a full disk
        }
    }

    /** H2's store closed: MVStore's "This store is closed", or the JDBC driver's "The database has been closed". */
    private static boolean h2StoreClosed(Throwable t) {
        return (t instanceof MVStoreException m && m.getErrorCode() == DataUtils.ERROR_CLOSED)
                || (t instanceof SQLException sql && H2_DATABASE_CLOSED.equals(sql.getSQLState()));
    }

    /** What the database said, its first line: "No space left on device", PostgreSQL's "could not extend file ...". */
    private String reason(Throwable failure) {
        Throwable said = causedBy(failure) || closedForWantOfSpace == null ? failure : closedForWantOfSpace;
        String message = Causes.of(said).filter(DiskFull::noSpace).findFirst().orElse(said).getMessage();
        return message == null ? "no space left" : message.lines().findFirst().orElse("").strip();
    }

    /**
     * Counts a write refused for want of space, and says so in the log: one line when an episode
     * starts, then at most one line a minute while it goes on.
     */
    public void refused(Throwable failure) {
        if (counter != null) counter.increment();
        sinceLastLine.incrementAndGet();
        String line;
        synchronized (lock) {
            long now = nanoTime.getAsLong();
            boolean starts = !episode || now - lastRefusalAt > REMINDER.toNanos();
            lastRefusalAt = now;
            episode = true;
            if (!starts && now - lastLineAt < REMINDER.toNanos()) return;
            lastLineAt = now;
            long refused = sinceLastLine.getAndSet(0);
            line = starts
                    ? "the disk of the database (" + where + ") is full (" + reason(failure) + "): requests that "
                      + "write get 503 with Retry-After until space is freed on its volume, and work resumes by itself then "
                      + "(docs/operations.md, \"A full disk\")"
                    : "the disk of the database (" + where + ") is still full: " + refused + " writes refused in the last "
                      + REMINDER.toMinutes() + " min";
        }
        LOG.error(line);
    }
}
