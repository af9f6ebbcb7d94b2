package dev.ledgerlink.sandbox;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.oauth.TokenFormat;
import dev.ledgerlink.oauth.TokenService;
import dev.ledgerlink.store.RepeatingTask;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal of the applications' calls in development mode (docs/sandbox.md, "Journal"). A request
 * only puts its entry in a queue ({@link #record}); a writer thread stores what queued every
 * {@link #FLUSH_MS} ms in one batch, and once a tenth of {@code keep} more have been written deletes all but
 * the newest {@code keep}, so the journal never slows a request or grows without bound. (Trimming after
 * every batch cost a tenth of the token endpoint's rate under load: finding the keep-th newest entry
 * reads {@code keep} index entries.) Reads never show more than {@code keep}. Entries still queued are written before a read of this
 * process ({@link #newest}) and when the server stops; a process that dies loses at most its last
 * fraction of a second, which a development tool can afford.
 */
public final class RequestJournal implements AutoCloseable {
    public static final long FLUSH_MS = 200;
    /** Entries waiting for the writer at most; beyond it (the database stuck) new ones are dropped and counted. */
    static final int MAX_QUEUED = 10_000;
    public static final int MAX_LIMIT = 1_000;
    private static final Logger LOG = LoggerFactory.getLogger(RequestJournal.class);

    /**
     * A call as the web layer saw it. The client is named by {@code clientId} when the request said it
     * (token endpoints, the authorization page), else by {@code applicationId} (an access token the
     * route accepted), else by {@code refusedToken}, the access token it presented and the route did
     * not accept (expired, revoked, unknown, or not looked at: the database away), whose application
     * the writer looks up. Both are resolved by the writer, off the request's path: a request never
     * waits on the database for its journal entry.
     */
    public record Call(Instant receivedAt, String clientId, Long applicationId, TokenFormat.Presented refusedToken, String method,
                       String path, int status, String error, String errorDescription, int durationMs) {}

    private final Jdbi jdbi;
    private final ApplicationService applications;
    private final TokenService tokens;
    private final int keep;
    private final LinkedBlockingQueue<Call> queue = new LinkedBlockingQueue<>(MAX_QUEUED);
    private final Map<Long, String> clientIds = new ConcurrentHashMap<>();
    private final Object writing = new Object();
    private volatile RepeatingTask writer;
    private volatile boolean open = true;
    private long dropped;   // guarded by writing
    private long writtenSinceTrim;   // guarded by writing

    public RequestJournal(Jdbi jdbi, ApplicationService applications, TokenService tokens, int keep) {
        this.jdbi = jdbi;
        this.applications = applications;
        this.tokens = tokens;
        this.keep = keep;
    }

    /** Starts the writer thread (a server in development mode; a CLI process only reads). */
    public RequestJournal start() {
        writer = RepeatingTask.start("request-journal", Duration.ofMillis(FLUSH_MS), this::flush,
                e -> LOG.warn("the request journal could not be written (will retry): {}", e.toString()));
        return this;
    }

    /** Queues one call; never blocks and never fails the request. */
    public void record(Call call) {
        if (!open || writer == null) return;
        if (!queue.offer(call)) {
            synchronized (writing) {
                dropped++;
            }
        }
    }

    /** The newest entries, of one client when {@code clientId} is given, newest first (what this process queued included). */
    public List<JournalEntry> newest(String clientId, int limit) {
        flush();
        int n = Math.max(1, Math.min(Math.min(limit, MAX_LIMIT), keep));
        return jdbi.withExtension(JournalStore.class, s -> clientId == null || clientId.isBlank() ? s.newest(n) : s.newestOf(clientId, n));
    }

    /** Writes what is queued now. */
    public void flush() {
        synchronized (writing) {
            List<Call> batch = new ArrayList<>();
            while (queue.drainTo(batch, 500) > 0) {
                write(batch);
                batch.clear();
            }
            if (dropped > 0) {
                LOG.warn("the request journal dropped {} entries: its writer fell behind", dropped);
                dropped = 0;
            }
        }
    }

    private void write(List<Call> batch) {
        int size = batch.size();
        List<Instant> at = new ArrayList<>(size);
        List<String> client = new ArrayList<>(size);
        List<String> method = new ArrayList<>(size);
        List<String> path = new ArrayList<>(size);
        List<Integer> status = new ArrayList<>(size);
        List<String> error = new ArrayList<>(size);
        List<String> description = new ArrayList<>(size);
        List<Integer> duration = new ArrayList<>(size);
        for (Call c : batch) {
            at.add(c.receivedAt());
            client.add(cut(c.clientId() != null ? c.clientId() : clientIdOf(applicationOf(c)), 64));
            method.add(cut(c.method(), 8));
            path.add(cut(c.path(), 512));
            status.add(c.status());
            error.add(cut(c.error(), 64));
            description.add(cut(c.errorDescription(), 1000));
            duration.add(c.durationMs());
        }
        boolean trim = writtenSinceTrim + size >= Math.max(1, keep / 10);
        jdbi.useTransaction(h -> {
            JournalStore store = h.attach(JournalStore.class);
            store.insert(at, client, method, path, status, error, description, duration);
            if (trim) store.idAt(keep - 1).ifPresent(store::deleteBefore);
        });
        writtenSinceTrim = trim ? 0 : writtenSinceTrim + size;
    }

    /** The application of the call's access token: the one the route accepted, or the one a refused token was issued to. */
    private Long applicationOf(Call c) {
        if (c.applicationId() != null || c.refusedToken() == null) return c.applicationId();
        return tokens.issuedTo(c.refusedToken()).orElse(null);
    }

    private String clientIdOf(Long applicationId) {
        if (applicationId == null) return null;
        return clientIds.computeIfAbsent(applicationId, id -> applications.find(id).map(Application::clientId).orElse(null));
    }

    private static String cut(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }

    /** Stops the writer and writes what is still queued. */
    @Override
    public void close() {
        open = false;
        RepeatingTask w = writer;
        if (w != null) w.close();
        try {
            flush();
        } catch (RuntimeException e) {
            LOG.warn("the request journal's last entries could not be written: {}", e.toString());
        }
    }
}
