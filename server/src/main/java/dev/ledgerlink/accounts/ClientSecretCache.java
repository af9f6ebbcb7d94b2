package dev.ledgerlink.accounts;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The stored secrets of clients that authenticated lately, kept for at most {@code ttl}: the token
 * endpoint authenticates its client on every request, and at thousands of refresh grants per second
 * that lookup was a database round trip per grant (docs/benchmarks-history.md, "Client secrets cached for a
 * second"). What is kept is the stored row (the hashes and the application), never a decision: each
 * request still hashes the secret it presents and compares it in constant time, and the previous
 * secret's expiry is checked against the clock at that moment.
 *
 * <p>A change made through this node (rotation, retirement) forgets the client at once; one made on
 * another node, or by the CLI beside a running server, reaches this node within {@code ttl}: that is
 * how long a secret replaced without overlap can still authenticate here (docs/configuration.md,
 * {@code oauth.client-cache-ttl}). Only clients that exist are kept (an unknown client_id is looked up
 * every time: nobody can fill the map with made-up ids), and never more than {@link #MAX_CLIENTS}.
 */
final class ClientSecretCache {
    static final int MAX_CLIENTS = 10_000;

    private record Entry(ClientSecretStore.WithSecretHash row, long loadedAt) {}

    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final long ttlNanos;

    /** A {@code ttl} of zero keeps nothing: every authentication reads the database. */
    ClientSecretCache(Duration ttl) {
        this.ttlNanos = ttl.toNanos();
    }

    Optional<ClientSecretStore.WithSecretHash> find(String clientId, Supplier<Optional<ClientSecretStore.WithSecretHash>> load) {
        if (ttlNanos <= 0) return load.get();
        long now = System.nanoTime();
        Entry e = entries.get(clientId);
        if (e != null && now - e.loadedAt() < ttlNanos) return Optional.of(e.row());
        Optional<ClientSecretStore.WithSecretHash> row = load.get();
        if (row.isEmpty()) {
            entries.remove(clientId);
        } else {
            if (entries.size() >= MAX_CLIENTS) entries.clear();
            entries.put(clientId, new Entry(row.get(), now));
        }
        return row;
    }

    /** After a change of the client's secrets on this node: the next authentication reads the database. */
    void forget(String clientId) {
        entries.remove(clientId);
    }

    /** After the sandbox's reset emptied the database: every client is read again. */
    void forgetAll() {
        entries.clear();
    }
}
