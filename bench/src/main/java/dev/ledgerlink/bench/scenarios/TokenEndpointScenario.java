package dev.ledgerlink.bench.scenarios;

import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.accounts.Scopes;
import dev.ledgerlink.bench.BenchConfig;
import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.Scenario;
import dev.ledgerlink.bench.http.Http1Connection;
import dev.ledgerlink.bench.load.ClosedLoop;
import dev.ledgerlink.bench.oauth.BrowserSession;
import dev.ledgerlink.bench.oauth.RefreshChains;
import dev.ledgerlink.bench.oauth.TokenCalls;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.bench.report.Figure;
import dev.ledgerlink.secrets.RandomTokens;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Scenario 1: the token endpoint under a closed loop at each concurrency, on each database, with
 * /healthz of the same server under the same load generator beside it (the ratio token/healthz says
 * how much of the HTTP stack's capacity a grant costs). Each load worker is one application of one
 * user (refresh tokens are single use and one live per user and application), set up through the
 * real services; codes come from driving the real authorization page over HTTP (login, consent,
 * and then the no-prompt path for an application already granted).
 */
public final class TokenEndpointScenario implements Scenario {
    public static final String REDIRECT = "http://127.0.0.1:9/bench/callback";

    @Override
    public String name() { return "token"; }

    @Override
    public List<Figure> run(BenchRun run) throws Exception {
        return onEachDatabase(run, stage -> runOn(run.config(), stage));
    }

    /** The user, the applications (one per chain) and each chain's first refresh token, set up on a stage. */
    public record Prepared(String email, String password, List<TokenCalls.Client> clients, List<String> refreshTokens) {
        public RefreshChains chains(ServerProcess server) {
            return new RefreshChains(new RefreshChains.Target("127.0.0.1", server.port(), TokenCalls.PATH), clients, refreshTokens);
        }
    }

    /**
     * One user with {@code chains} applications, each application one refresh chain (refresh tokens are
     * single use and one live per user and application), set up through the real services before the
     * server starts.
     */
    public static Prepared prepareChains(BenchRun.Stage stage, int chains) {
        String email = "bench-" + RandomTokens.alphanumeric(8).toLowerCase() + "@ledgerlink.test";
        String password = RandomTokens.alphanumeric(20);
        List<TokenCalls.Client> clients = new ArrayList<>();
        List<String> refreshTokens = new ArrayList<>();
        stage.setup(s -> {
            var user = s.users().create(email, password, "Bench", "User");
            var account = s.accounts().create("Bench Business", "UTC");
            s.accounts().addMember(account.accountId(), user.id(), "owner");
            var appService = new ApplicationService(s.database().jdbi(), s.clock(), true, s.audit(), java.time.Duration.ZERO);
            for (int i = 0; i < chains; i++) {
                var created = appService.create("Bench App " + i, List.of(REDIRECT), List.of("user:profile:read"));
                clients.add(new TokenCalls.Client(created.application().clientId(), created.clientSecret(), REDIRECT));
                // Each chain starts from a pair minted by the oauth service the way a code exchange mints it.
                refreshTokens.add(s.tokens().issue(user.id(), created.application().id(), java.util.Set.of("user:profile:read")).refreshToken());
            }
        });
        return new Prepared(email, password, clients, refreshTokens);
    }

    private List<Figure> runOn(BenchConfig c, BenchRun.Stage stage) throws Exception {
        List<Figure> out = new ArrayList<>();
        String db = stage.label();
        Prepared prepared = prepareChains(stage, c.tokenConcurrency().stream().mapToInt(Integer::intValue).max().orElse(1));
        List<TokenCalls.Client> clients = prepared.clients();
        // As in production: development mode journals every call an application makes (docs/sandbox.md),
        // which is not what a deployment runs; the applications' loopback redirect URI was registered above.
        ServerProcess server = stage.start(false);
        long pid = server.pid();

        Map<Integer, Double> healthzRate = new java.util.HashMap<>();
        for (int conc : c.tokenConcurrency()) {
            Loads.Measured m = Loads.measure(c, pid, stage.postgres(), conc, i -> {
                Http1Connection http = new Http1Connection("127.0.0.1", server.port());
                return new ClosedLoop.Worker() {
                    public boolean call() throws Exception { return http.get("/healthz", Map.of()).status() == 200; }
                    public void close() { http.close(); }
                };
            });
            healthzRate.put(conc, m.outcome().perSecond());
            out.addAll(Loads.figures(name(), "GET /healthz", db, conc, m, null, null));
        }

        String missing = tokenEndpointMissing(server.port());
        if (missing != null) {
            for (int conc : c.tokenConcurrency()) {
                out.add(Figure.notMeasured(name(), "refresh grants c" + conc + " per second", db, "/s", conc == 64 ? ">= 4,200" : null, missing));
                out.add(Figure.notMeasured(name(), "authorization_code exchanges c" + conc + " per second", db, "/s", null, missing));
            }
            return out;
        }

        RefreshChains chains = prepared.chains(server);
        for (int conc : c.tokenConcurrency()) {
            stage.beginProfile("refresh-c" + conc);
            Loads.Measured m = Loads.measure(c, pid, stage.postgres(), conc, chains);
            stage.endProfile();
            out.addAll(withRatio(Loads.figures(name(), "refresh grants", db, conc, m, conc == 64 ? ">= 4,200" : null,
                    conc == 64 ? "<= 30" : null), m.outcome().perSecond(), healthzRate.get(conc)));
        }

        String noPage = authorizePageMissing(server.port(), clients.getFirst());
        if (noPage != null) {
            for (int conc : c.tokenConcurrency()) {
                out.add(Figure.notMeasured(name(), "authorization_code exchanges c" + conc + " per second", db, "/s", null, noPage));
            }
            return out;
        }
        for (int conc : c.tokenConcurrency()) {
            stage.beginProfile("exchange-c" + conc);
            Loads.Measured m = exchanges(c, stage, server, prepared, conc);
            stage.endProfile();
            out.addAll(withRatio(Loads.figures(name(), "authorization_code exchanges", db, conc, m, null, null),
                    m.outcome().perSecond(), healthzRate.get(conc)));
        }
        return out;
    }

    /**
     * Code exchanges at {@code conc} workers, each exchanging codes of its own application: the codes are
     * taken beforehand over the page's no-prompt path (already granted), so the window times only exchanges.
     */
    static Loads.Measured exchanges(BenchConfig c, BenchRun.Stage stage, ServerProcess server, Prepared prepared, int conc) throws Exception {
        List<TokenCalls.Client> clients = prepared.clients();
        List<ArrayDeque<String>> codes = new ArrayList<>();
        try (BrowserSession browser = new BrowserSession("127.0.0.1", server.port(), prepared.email(), prepared.password())) {
            for (int i = 0; i < conc; i++) {
                ArrayDeque<String> q = new ArrayDeque<>();
                for (int k = 0; k < c.codesPerWorker(); k++) q.add(browser.authorize(clients.get(i).clientId(), REDIRECT));
                codes.add(q);
            }
        }
        BenchConfig exchangeBounds = c.withWarmup(java.time.Duration.ZERO);
        return Loads.measure(exchangeBounds, server.pid(), stage.db.cpu(), conc, (long) conc * c.codesPerWorker(), i -> {
            Http1Connection http = new Http1Connection("127.0.0.1", server.port());
            TokenCalls.Client client = clients.get(i);
            ArrayDeque<String> mine = codes.get(i);
            return new ClosedLoop.Worker() {
                public boolean call() throws Exception {
                    String code = mine.poll();
                    if (code == null) throw new ClosedLoop.Exhausted();
                    TokenCalls.tokens(TokenCalls.exchangeCode(http, client, code));
                    return true;
                }
                public void close() { http.close(); }
            };
        });
    }

    private static List<Figure> withRatio(List<Figure> figures, double rate, Double healthz) {
        List<Figure> out = new ArrayList<>(figures);
        Figure first = figures.getFirst();
        if (healthz != null && healthz > 0) {
            out.add(1, Figure.measured(first.scenario(), first.metric().replace(" per second", " / healthz ratio"), first.db(),
                    rate / healthz, "x", null, "same server, same load generator, same concurrency"));
        }
        return out;
    }

    /** Null when GET /oauth/authorize is served, else why codes cannot be had on this build. */
    static String authorizePageMissing(int port, TokenCalls.Client client) {
        try (Http1Connection http = new Http1Connection("127.0.0.1", port)) {
            int status = http.get("/oauth/authorize?response_type=code&client_id=" + client.clientId() + "&redirect_uri="
                    + java.net.URLEncoder.encode(client.redirectUri(), java.nio.charset.StandardCharsets.UTF_8), Map.of()).status();
            return status == 404 || status == 405 ? "GET /oauth/authorize answers " + status
                    + " on this build: the authorization page (issue 3, branch oauth) is not merged, so no code can be had" : null;
        } catch (java.io.IOException e) {
            return "authorization page probe failed: " + e.getMessage();
        }
    }

    /** Null when POST /auth/oauth/token is served (any answer but 404/405), else why it is not measured. */
    static String tokenEndpointMissing(int port) {
        try (Http1Connection http = new Http1Connection("127.0.0.1", port)) {
            int status = http.post(TokenCalls.PATH, Map.of(), "application/x-www-form-urlencoded", "grant_type=refresh_token").status();
            return status == 404 || status == 405 ? "POST /auth/oauth/token answers " + status
                    + " on this build: the token endpoint (issue 3, branch oauth) is not merged" : null;
        } catch (java.io.IOException e) {
            return "token endpoint probe failed: " + e.getMessage();
        }
    }
}
