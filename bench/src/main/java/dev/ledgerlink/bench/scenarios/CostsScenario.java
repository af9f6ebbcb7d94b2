package dev.ledgerlink.bench.scenarios;

import dev.ledgerlink.bench.BenchConfig;
import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.Scenario;
import dev.ledgerlink.bench.costs.Cost;
import dev.ledgerlink.bench.costs.Counters;
import dev.ledgerlink.bench.costs.SizingModel;
import dev.ledgerlink.bench.delivery.DeliveryRig;
import dev.ledgerlink.bench.http.Http1Connection;
import dev.ledgerlink.bench.load.ClosedLoop;
import dev.ledgerlink.bench.load.OpenLoop;
import dev.ledgerlink.bench.oauth.BrowserSession;
import dev.ledgerlink.bench.oauth.RefreshChains;
import dev.ledgerlink.bench.oauth.TokenCalls;
import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.proc.PrivatePostgres;
import dev.ledgerlink.bench.proc.ProcStats;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.bench.report.Figure;
import dev.ledgerlink.secrets.SecretBox;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.jdbi.v3.core.Jdbi;

/**
 * Issue 45's cost of each operation, and the check of the sizing guide built from them (docs/sizing.md).
 * On each database, the harness's own PostgreSQL cluster or an H2 file, every operation runs alone in
 * an open loop at a rate below saturation and what the phase cost is divided by the operations it ran
 * (Counters: server CPU, and on PostgreSQL its CPU, WAL bytes, commits, statements; on H2 the bytes H2
 * wrote). Then a mixed load runs (issue 45's 500 refresh grants, 200 publishes to 3 answered subscribers
 * and 5 sign-ins with a code exchange a second, or the share of it the costs say fits in half the
 * machine) and its measured CPU is set beside the sum of the costs of the operations it completed
 * (SizingModel): the guide's claim that costs add up, checked.
 *
 * <p>Each server runs every phase twice and only the second pass is counted: the first compiles the
 * operation's code (a JIT compiling inside a measured phase made a refresh grant cost ten times what
 * it does warm). Between the passes the server sits idle for a while, and what it spends idle (its
 * dispatcher's polls, housekeeping; PostgreSQL's background work) is taken off every phase by its
 * length: an operation's cost is what it adds, and a node's idle cost is a row of the guide of its own.
 *
 * <p>The token operations are measured twice: on a server as in production (the guide's figures), and
 * with the delivery operations and the mixed load on a server in development mode, which the loopback
 * receiver needs (http callbacks). Development mode journals each call an application makes (the token,
 * authorization and callbacks routes: docs/sandbox.md) and nothing on the publish and delivery path, so
 * the mixed load's prediction uses the development-mode costs of the operations it runs.
 */
public final class CostsScenario implements Scenario {
    /** The mixed load of issue 45, per second; run at the share of it that fits in {@link #MIXED_MACHINE_SHARE}. */
    static final SizingModel.Mix ISSUE_MIX = new SizingModel.Mix(500, 200, 3, 5);
    /** The share of the machine's cores the mixed load may take by the costs (server and database): the load generator has the rest. */
    static final double MIXED_MACHINE_SHARE = 0.5;
    /** The least of the mix that runs, however little the costs say fits (a cold, quick run's costs can say nothing does). */
    static final double MIXED_LEAST_SHARE = 0.02;
    /** The rate each operation runs at alone (below saturation on two cores; publishes to 4 subscribers). */
    static final double REFRESH_RATE = 500;
    static final double INTROSPECT_RATE = 500;
    static final double PUBLISH_RATE = 100;
    static final double SIGN_IN_RATE = 5;
    static final int FAN_OUT = 4;

    private final Path dir;

    /** {@code dir}: where the harness's PostgreSQL cluster lives (the growth directory's). */
    public CostsScenario(Path dir) {
        this.dir = dir;
    }

    @Override
    public String name() { return "costs"; }

    @Override
    public List<Figure> run(BenchRun run) throws Exception {
        return onEachDatabase(run, dir.resolve("pg"), (kind, pg) -> onDatabase(run, kind, pg));
    }

    private List<Figure> onDatabase(BenchRun run, BenchDatabase.Kind kind, PrivatePostgres pg) throws Exception {
        BenchConfig c = run.config();
        List<Figure> out = new ArrayList<>();
        Map<String, Cost> production = new LinkedHashMap<>();
        Map<String, Cost> development = new LinkedHashMap<>();
        BenchDatabase db = kind == BenchDatabase.Kind.POSTGRES ? BenchDatabase.freshIn(pg, "costs") : BenchDatabase.fresh(kind);
        try (BenchRun.Stage stage = run.stage(db, SecretBox.newKeyBase64())) {
            stage.settings.put("retention.interval", "PT0S");
            stage.settings.put("delivery.retry-schedule", "PT1H");   // a failed attempt's retry falls after the run
            TokenEndpointScenario.Prepared prepared = TokenEndpointScenario.prepareChains(stage, 16);
            stage.setup(s -> s.users().create(SIGN_IN_EMAIL, prepared.password(), "Costs", "SignIn"));
            String introspected = introspectedToken(stage, prepared);
            try (DeliveryRig rig = DeliveryRig.prepare(stage)) {
                // Production mode: the token operations, for the guide.
                ServerProcess server = stage.start(false);
                RefreshChains chains = prepared.chains(server);
                Meter warming = Meter.warming(counters(stage, server, pg));
                tokenOperations(c, warming, server, chains, prepared, introspected, new LinkedHashMap<>());
                Meter meter = Meter.afterIdle(counters(stage, server, pg), idle(c));
                tokenOperations(c, meter, server, chains, prepared, introspected, production);
                Meter productionMeter = meter;
                stage.stopServer();

                // Development mode (the loopback receiver): the same token operations, the delivery operations, the mixed load.
                server = stage.start(true);
                chains = chains.on(server.port());
                registerSubscribers(stage, server, rig);
                warming = Meter.warming(counters(stage, server, pg));
                tokenOperations(c, warming, server, chains, prepared, introspected, new LinkedHashMap<>());
                deliveryOperations(c, warming, stage, rig, new LinkedHashMap<>());
                meter = Meter.afterIdle(counters(stage, server, pg), idle(c));
                tokenOperations(c, meter, server, chains, prepared, introspected, development);
                deliveryOperations(c, meter, stage, rig, development);
                out.addAll(mixed(c, meter, stage, server, chains, prepared, rig, development));
                out.add(idleFigure(kind.label(), "production mode", productionMeter));
                out.add(idleFigure(kind.label(), "development mode", meter));
            }
        }
        String label = kind.label();
        production.forEach((op, cost) -> out.add(costFigure(label, op + " (production mode)", cost)));
        development.forEach((op, cost) -> out.add(costFigure(label, op + " (development mode)", cost)));
        out.addAll(SizingModel.guide(name(), label, production, development));
        return out;
    }

    private Figure costFigure(String db, String op, Cost cost) {
        return Figure.measured(name(), op + ": server CPU per operation", db, cost.serverCpuMicros(), "us", null, cost.describe())
                .with("server_cpu_us", cost.serverCpuMicros()).with("db_cpu_us", cost.dbCpuMicros()).with("wal_bytes", cost.walBytes())
                .with("commits", cost.commits()).with("statements", cost.statements()).with("h2_bytes_written", cost.h2Bytes());
    }

    /** An access token of the first chain's application, for introspection by that client. */
    private static String introspectedToken(BenchRun.Stage stage, TokenEndpointScenario.Prepared prepared) {
        AtomicReference<String> token = new AtomicReference<>();
        stage.setup(s -> {
            long app = s.applications().show(prepared.clients().getFirst().clientId()).id();
            long user = s.users().findByEmail(prepared.email()).orElseThrow().id();
            token.set(s.tokens().issue(user, app, java.util.Set.of("user:profile:read")).accessToken());
        });
        return token.get();
    }

    private static Counters counters(BenchRun.Stage stage, ServerProcess server, PrivatePostgres pg) {
        return new Counters(server.pid(), server.port(), stage.postgres() ? pg : null, stage.db.url().replaceAll(".*/", "").replaceAll("\\?.*", ""));
    }

    /**
     * One server's counters, and what it spends idle over an interval ({@code idle}), which each phase's
     * cost leaves out in proportion to its length. A warming meter counts nothing off (its figures are
     * thrown away: its pass is there to compile the code).
     */
    record Meter(Counters counters, Counters.Reading idle) {
        static Meter warming(Counters counters) {
            return new Meter(counters, null);
        }

        /** The server left alone for {@code interval} once the warming pass is done: its idle spending. */
        static Meter afterIdle(Counters counters, Duration interval) throws Exception {
            Counters.Reading before = counters.read();
            Thread.sleep(interval.toMillis());
            return new Meter(counters, counters.read().minus(before));
        }

        /** One phase: the counters before, the load, whatever must finish after it, the counters after; the cost per operation. */
        Cost phase(Load load) throws Exception {
            Counters.Reading before = counters.read();
            long count = load.run();
            Counters.Reading d = counters.read().minus(before);
            return Cost.per(idle == null ? d : d.lessIdle(idle), count);
        }

        /** What the idle server spends a second. */
        Cost idlePerSecond() {
            return idle == null ? Cost.ZERO : Cost.per(idle, idle.seconds());
        }
    }

    private static Duration idle(BenchConfig c) {
        return c.quick() ? Duration.ofSeconds(1) : Duration.ofSeconds(15);
    }

    private Figure idleFigure(String db, String mode, Meter meter) {
        Cost perSecond = meter.idlePerSecond();
        Counters.Reading idle = meter.idle();
        return Figure.measured(name(), "idle node (" + mode + "): server cores", db, perSecond.serverCpuMicros() / 1e6, "cores", null,
                        String.format("over %.0f s with no request: PostgreSQL %.3f cores, WAL %.0f bytes/s, %.1f commits/s", idle.seconds(),
                                perSecond.dbCpuMicros() / 1e6, perSecond.walBytes(), perSecond.commits()))
                .with("server_cpu_us", perSecond.serverCpuMicros()).with("db_cpu_us", perSecond.dbCpuMicros()).with("wal_bytes", perSecond.walBytes())
                .with("commits", perSecond.commits()).with("statements", perSecond.statements()).with("h2_bytes_written", perSecond.h2Bytes());
    }

    @FunctionalInterface
    interface Load {
        /** Runs the load and returns how many operations it completed. */
        long run() throws Exception;
    }

    private static Duration window(BenchConfig c) {
        return c.quick() ? Duration.ofSeconds(1) : Duration.ofSeconds(20);
    }

    private void tokenOperations(BenchConfig c, Meter meter, ServerProcess server, RefreshChains chains,
                                 TokenEndpointScenario.Prepared prepared, String introspected, Map<String, Cost> costs) throws Exception {
        costs.put("refresh grant", meter.phase(() -> OpenLoop.run(REFRESH_RATE, 16, window(c), chains).ok()));
        TokenCalls.Client client = prepared.clients().getFirst();
        costs.put("introspection", meter.phase(() -> OpenLoop.run(INTROSPECT_RATE, 16, window(c), i -> {
            Http1Connection http = new Http1Connection("127.0.0.1", server.port());
            return new ClosedLoop.Worker() {
                public boolean call() throws Exception {
                    return introspect(http, client, introspected);
                }
                public void close() { http.close(); }
            };
        }).ok()));
        costs.put("sign-in and code exchange", meter.phase(() -> OpenLoop.run(SIGN_IN_RATE, 2, window(c).plusSeconds(c.quick() ? 1 : 10),
                signIns(server, signingIn(prepared))).ok()));
    }

    static boolean introspect(Http1Connection http, TokenCalls.Client client, String token) throws Exception {
        String form = "token=" + token + "&client_id=" + client.clientId() + "&client_secret=" + java.net.URLEncoder.encode(client.clientSecret(),
                java.nio.charset.StandardCharsets.UTF_8);
        Http1Connection.Response r = http.post("/auth/oauth/introspect", Map.of("Accept", "application/json"), "application/x-www-form-urlencoded", form);
        return r.status() == 200 && r.text().contains("\"active\":true");
    }

    /**
     * The user the sign-ins are made as: another user of the chains' applications, since a code exchange
     * supersedes its user's grant for the application (one live per pair), which would end the refresh
     * chains' grants under them.
     */
    private static final String SIGN_IN_EMAIL = "costs-sign-in@bench.ledgerlink.test";

    private static TokenEndpointScenario.Prepared signingIn(TokenEndpointScenario.Prepared chains) {
        return new TokenEndpointScenario.Prepared(SIGN_IN_EMAIL, chains.password(), chains.clients(), List.of());
    }

    /** A user signing in on the authorization page (Argon2id) of an application already consented to, and the code exchanged. */
    static ClosedLoop.WorkerFactory signIns(ServerProcess server, TokenEndpointScenario.Prepared prepared) {
        AtomicLong next = new AtomicLong();
        return i -> {
            Http1Connection http = new Http1Connection("127.0.0.1", server.port());
            return new ClosedLoop.Worker() {
                public boolean call() throws Exception {
                    TokenCalls.Client client = prepared.clients().get((int) (next.getAndIncrement() % prepared.clients().size()));
                    try (BrowserSession browser = new BrowserSession("127.0.0.1", server.port(), prepared.email(), prepared.password())) {
                        TokenCalls.tokens(TokenCalls.exchangeCode(http, client, browser.authorize(client.clientId(), TokenEndpointScenario.REDIRECT)));
                    }
                    return true;
                }
                public void close() { http.close(); }
            };
        };
    }

    /**
     * Publishes to held, answered, failing and hanging subscribers (each FAN_OUT callbacks of an account
     * of their own), and verification handshakes. A held subscriber (re-keying) gets its delivery row and
     * no attempt, which separates the publish from the attempts: per event and per subscriber from one
     * and FAN_OUT held subscribers, then each kind of attempt from FAN_OUT such subscribers less the held
     * publish.
     */
    /** The delivery operations' subscribers, on the development-mode server: each kind's callbacks subscribe to a noun of their own, so one publish reaches exactly them. */
    private static void registerSubscribers(BenchRun.Stage stage, ServerProcess server, DeliveryRig rig) throws Exception {
        String missing = rig.connect(server);
        if (missing != null) throw new IllegalStateException(missing);
        for (int i = 0; i < FAN_OUT; i++) {
            rig.register("client", "/hook/held-" + i);
            rig.register("project", "/hook/ok-" + i);
            rig.register("payment", "/fail/" + i);
            rig.register("expense", "/hang/" + i);
        }
        rig.register("estimate", "/hook/held-one");
        Jdbi jdbi = GrowthScenario.jdbi(stage);
        for (long id : jdbi.withHandle(h -> h.createQuery("select id from callbacks where uri like '%/hook/held-%'").mapTo(Long.class).list())) {
            rig.resend(id);   // re-keying: its deliveries are held until the new code comes back, which it never does here
        }
    }

    private void deliveryOperations(BenchConfig c, Meter meter, BenchRun.Stage stage, DeliveryRig rig, Map<String, Cost> costs) throws Exception {
        Jdbi jdbi = GrowthScenario.jdbi(stage);
        Cost one = meter.phase(() -> publishes(c, rig, "estimate.create", PUBLISH_RATE));
        Cost fan = meter.phase(() -> publishes(c, rig, "client.create", PUBLISH_RATE));
        Cost perSubscriber = fan.minus(one).times(1.0 / (FAN_OUT - 1));
        Cost perEvent = one.minus(perSubscriber);
        costs.put("publish, per event", perEvent);
        costs.put("publish, per subscriber (its delivery queued)", perSubscriber);
        Cost heldPublish = perEvent.plus(perSubscriber.times(FAN_OUT));
        Cost answered = meter.phase(() -> drained(jdbi, publishes(c, rig, "project.create", PUBLISH_RATE), Duration.ofSeconds(60)));
        costs.put("delivery attempt, answered", answered.minus(heldPublish).times(1.0 / FAN_OUT));
        Cost failing = meter.phase(() -> drained(jdbi, publishes(c, rig, "payment.create", PUBLISH_RATE), Duration.ofSeconds(60)));
        costs.put("delivery attempt, failing (HTTP 500)", failing.minus(heldPublish).times(1.0 / FAN_OUT));
        // Hanging: each attempt holds a slot for delivery.timeout, so few: a slow open loop, then every attempt's timeout.
        Cost hanging = meter.phase(() -> drained(jdbi, publishes(c, rig, "expense.create", c.quick() ? 2 : 4), Duration.ofSeconds(90)));
        costs.put("delivery attempt, timing out", hanging.minus(heldPublish).times(1.0 / FAN_OUT));
        AtomicLong handshakes = new AtomicLong();
        costs.put("verification handshake (register, request, verify)", meter.phase(() -> {
            long n = c.quick() ? 3 : 100;
            for (int i = 0; i < n; i++) rig.register("invoice", "/hook/handshake-" + handshakes.incrementAndGet());
            return n;
        }));
    }

    /** Publishes {@code name} at {@code rate} a second for the window; returns how many were acknowledged. */
    private static long publishes(BenchConfig c, DeliveryRig rig, String name, double rate) throws Exception {
        return OpenLoop.run(rate, 4, window(c), i -> {
            DeliveryRig.Publisher p = rig.publisher();
            return new ClosedLoop.Worker() {
                public boolean call() throws Exception { return p.publish(name, DeliveryScenario.OBJECT_IDS.incrementAndGet()); }
                public void close() { p.close(); }
            };
        }).ok();
    }

    /** Waits until no delivery is leased (every attempt sent has its outcome recorded); returns {@code count}. */
    private static long drained(Jdbi jdbi, long count, Duration bound) throws InterruptedException {
        long end = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < end) {
            long leased = jdbi.withHandle(h -> h.createQuery("select count(*) from deliveries where lease_owner is not null").mapTo(Long.class).one());
            if (leased == 0) return count;
            Thread.sleep(200);
        }
        throw new IllegalStateException("deliveries still in flight after " + bound);
    }

    /**
     * The mixed load, and its CPU beside the sum of its parts' development-mode costs: issue 45's mix, or
     * the share of it the costs say fits in half the machine, from its first request until its last
     * delivery is recorded, predicted from the operations it completed.
     */
    private List<Figure> mixed(BenchConfig c, Meter meter, BenchRun.Stage stage, ServerProcess server, RefreshChains chains,
                               TokenEndpointScenario.Prepared prepared, DeliveryRig rig, Map<String, Cost> costs) throws Exception {
        for (int i = 0; i < ISSUE_MIX.subscribers(); i++) rig.register("tax", "/hook/mixed-" + i);
        Jdbi jdbi = GrowthScenario.jdbi(stage);
        Counters counters = meter.counters();
        double cores = Runtime.getRuntime().availableProcessors() * MIXED_MACHINE_SHARE;
        SizingModel.Mix asked = ISSUE_MIX.times(Math.max(MIXED_LEAST_SHARE, SizingModel.fitting(costs, meter.idlePerSecond(), ISSUE_MIX, cores)));
        Duration window = c.quick() ? Duration.ofSeconds(2) : Duration.ofSeconds(30);
        double rssBefore = ProcStats.rssMib(server.pid());
        PoolSampler pool = new PoolSampler(server.port());
        Counters.Reading before = counters.read();
        AtomicReference<OpenLoop.Outcome> refreshed = new AtomicReference<>();
        AtomicReference<OpenLoop.Outcome> signedIn = new AtomicReference<>();
        AtomicReference<OpenLoop.Outcome> published = new AtomicReference<>();
        Thread refresh = Thread.ofVirtual().start(() -> run(() -> refreshed.set(OpenLoop.run(asked.refreshes(), 16, window, chains))));
        Thread signIns = Thread.ofVirtual().start(() -> run(() -> signedIn.set(OpenLoop.run(asked.signIns(), 2, window,
                signIns(server, signingIn(prepared))))));
        Thread publishes = Thread.ofVirtual().start(() -> run(() -> published.set(OpenLoop.run(asked.publishes(), 8, window, w -> {
            DeliveryRig.Publisher p = rig.publisher();
            return new ClosedLoop.Worker() {
                public boolean call() throws Exception { return p.publish("tax.create", DeliveryScenario.OBJECT_IDS.incrementAndGet()); }
                public void close() { p.close(); }
            };
        }))));
        refresh.join();
        signIns.join();
        publishes.join();
        drained(jdbi, 0, Duration.ofSeconds(60));
        Counters.Reading d = counters.read().minus(before);
        double rssAfter = ProcStats.rssMib(server.pid());
        int[] connections = pool.stop();
        SizingModel.Mix done = new SizingModel.Mix(refreshed.get().ok(), published.get().ok(), asked.subscribers(), signedIn.get().ok());
        List<Figure> out = new ArrayList<>(SizingModel.check(name(), stage.label(), costs, meter.idlePerSecond(), d, done, asked,
                Math.max(rssBefore, rssAfter)));
        out.add(Figure.measured(name(), "mixed load: requests late or failed", stage.label(),
                Stream.of(refreshed.get(), signedIn.get(), published.get()).mapToLong(o -> o.late() + o.failed()).sum(), "requests", null,
                "late: sent after the next was due (the machine fell behind); failed: not answered as expected"));
        out.add(Figure.measured(name(), "mixed load: pool connections in use, most", stage.label(), connections[0], "connections", null,
                "db.pool-size 16; most requests waiting for a connection at once: " + connections[1] + " (read from /metrics every 200 ms)"));
        return out;
    }

    /** The pool's connections in use and requests waiting for one, their most over a load, read from the server's /metrics. */
    private static final class PoolSampler {
        private static final java.util.regex.Pattern ACTIVE = java.util.regex.Pattern.compile("(?m)^hikaricp_connections_active\\{[^}]*\\} ([0-9.]+)");
        private static final java.util.regex.Pattern PENDING = java.util.regex.Pattern.compile("(?m)^hikaricp_connections_pending\\{[^}]*\\} ([0-9.]+)");
        private final java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
        private final int[] most = new int[2];
        private final Thread thread;

        PoolSampler(int port) {
            thread = Thread.ofVirtual().start(() -> {
                try (Http1Connection http = new Http1Connection("127.0.0.1", port)) {
                    while (running.get()) {
                        String text = http.get("/metrics", Map.of()).text();
                        synchronized (most) {
                            most[0] = Math.max(most[0], read(ACTIVE, text));
                            most[1] = Math.max(most[1], read(PENDING, text));
                        }
                        Thread.sleep(200);
                    }
                } catch (Exception e) {
                    // the server went away: what was read so far stands
                }
            });
        }

        private static int read(java.util.regex.Pattern p, String text) {
            java.util.regex.Matcher m = p.matcher(text);
            return m.find() ? (int) Double.parseDouble(m.group(1)) : 0;
        }

        int[] stop() throws InterruptedException {
            running.set(false);
            thread.join(Duration.ofSeconds(5));
            synchronized (most) {
                return most.clone();
            }
        }
    }

    private static void run(Work w) {
        try {
            w.run();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @FunctionalInterface
    interface Work {
        void run() throws Exception;
    }
}
