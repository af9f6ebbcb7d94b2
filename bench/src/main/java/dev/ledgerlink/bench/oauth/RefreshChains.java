package dev.ledgerlink.bench.oauth;

import dev.ledgerlink.bench.http.Http1Connection;
import dev.ledgerlink.bench.load.ClosedLoop;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The refresh loop, the same against ledgerlink and against a peer (Keycloak): one refresh-token chain
 * per load worker, each with its own keep-alive connection, sending its chain's newest refresh token
 * and keeping the one the answer carries (single-use rotation: the token just sent is spent). Chains
 * outlive one load, so a later load at a higher concurrency continues the first chains where they stand.
 */
public final class RefreshChains implements ClosedLoop.WorkerFactory {
    /** Where a token endpoint listens: loopback host, port and the path of its token endpoint. */
    public record Target(String host, int port, String tokenPath) {}

    private final Target target;
    private final List<TokenCalls.Client> clients;
    private final AtomicReferenceArray<String> newest;

    /** Chain i authenticates as clients.get(i) and starts from firstRefreshTokens.get(i). */
    public RefreshChains(Target target, List<TokenCalls.Client> clients, List<String> firstRefreshTokens) {
        if (clients.size() != firstRefreshTokens.size()) throw new IllegalArgumentException("one client per chain");
        this.target = target;
        this.clients = List.copyOf(clients);
        this.newest = new AtomicReferenceArray<>(firstRefreshTokens.toArray(String[]::new));
    }

    private RefreshChains(Target target, List<TokenCalls.Client> clients, AtomicReferenceArray<String> newest) {
        this.target = target;
        this.clients = clients;
        this.newest = newest;
    }

    /** The same chains where they stand, sent to another server (a restart of the same one, on a new port). */
    public RefreshChains on(int port) {
        return new RefreshChains(new Target(target.host(), port, target.tokenPath()), clients, newest);
    }

    public int size() { return clients.size(); }

    @Override
    public ClosedLoop.Worker create(int i) {
        if (i >= size()) throw new IllegalArgumentException("worker " + i + " but only " + size() + " chains were prepared");
        Http1Connection http = new Http1Connection(target.host(), target.port());
        TokenCalls.Client client = clients.get(i);
        return new ClosedLoop.Worker() {
            public boolean call() throws Exception {
                newest.set(i, TokenCalls.tokens(TokenCalls.refresh(http, target.tokenPath(), client, newest.get(i))).refreshToken());
                return true;
            }

            public void close() { http.close(); }
        };
    }
}
