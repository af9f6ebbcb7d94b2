package dev.ledgerlink.bench.scenarios;

import dev.ledgerlink.accounts.Scopes;
import dev.ledgerlink.bench.BenchConfig;
import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.Scenario;
import dev.ledgerlink.bench.delivery.DeliveryRig;
import dev.ledgerlink.bench.delivery.ReceivedLog;
import dev.ledgerlink.bench.growth.GrowthDatabase;
import dev.ledgerlink.bench.growth.GrowthSize;
import dev.ledgerlink.bench.growth.GrowthWorld;
import dev.ledgerlink.bench.growth.PagedReads;
import dev.ledgerlink.bench.growth.PlanCapture;
import dev.ledgerlink.bench.growth.RetentionPass;
import dev.ledgerlink.bench.growth.StatementStats;
import dev.ledgerlink.bench.load.ClosedLoop;
import dev.ledgerlink.bench.oauth.BrowserSession;
import dev.ledgerlink.bench.oauth.RefreshChains;
import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.proc.PrivatePostgres;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.bench.proc.Usage;
import dev.ledgerlink.bench.report.Figure;
import dev.ledgerlink.store.JdbcUrls;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.jdbi.v3.core.Jdbi;

/**
 * Issue 45's growth scenario: the same measurements on an empty database and on one filled to a
 * production-like size (GrowthDatabase, kept between runs), in one run, on each database, so that what
 * grows with the tables shows as a ratio. PostgreSQL is the harness's own cluster (PrivatePostgres); the
 * empty database is made in it beside the filled one. On each: start to ready; refresh grants at 16 and
 * 64 chains and code exchanges (production mode); publishes and deliveries to healthy callbacks while
 * the filled backlog waits and the failing callbacks' due retries go out, with the claim statement's
 * time as the database counts it (development mode: the callbacks are on loopback); the paged reads,
 * idle and under 16 chains; a retention pass under 16 chains; and, on the filled database, the plans of
 * the statements the loads ran (PostgreSQL: auto_explain, as run; H2: EXPLAIN of each statement its
 * query statistics saw), written to plans-postgres.txt and plans-h2.txt.
 */
public final class GrowthScenario implements Scenario {
    /** Flatness bounds of issue 45: large / empty throughput at least this, p99 at most this many times, paged reads under this. */
    static final double THROUGHPUT_RATIO = 0.8;
    static final double P99_RATIO = 1.5;
    static final double PAGED_P99_MS = 100;

    private final double scale;
    private final Path dir;

    /** {@code scale}: PostgreSQL's filled size (1: issue 45's); H2's is a tenth of it. */
    public GrowthScenario(double scale, Path dir) {
        this.scale = scale;
        this.dir = dir;
    }

    @Override
    public String name() { return "growth"; }

    /** Which of the two databases a measurement is on. */
    enum Size {
        EMPTY, LARGE;

        String label() { return name().toLowerCase(); }
    }

    @Override
    public List<Figure> run(BenchRun run) throws Exception {
        return onEachDatabase(run, dir.resolve("pg"), (kind, pg) -> onDatabase(run, kind, pg));
    }

    private List<Figure> onDatabase(BenchRun run, BenchDatabase.Kind kind, PrivatePostgres pg) throws Exception {
        BenchConfig c = run.config();
        GrowthSize size = GrowthSize.of(kind == BenchDatabase.Kind.H2 ? scale / 10 : scale);
        GrowthDatabase kept = GrowthDatabase.ensure(run, kind, size, dir, pg, Duration.ofSeconds(c.quick() ? 1 : 10), System.out::println);
        Map<Size, Map<String, Double>> measured = new LinkedHashMap<>();
        List<Figure> out = new ArrayList<>();
        out.add(Figure.measured(name(), "filled database", kind.label(), size.scale(), "scale", null, kept.describe().toString())
                .with("filled", kept.describe()));
        // The empty database first, then the filled one: each in its own stage, the same steps.
        BenchDatabase empty = kind == BenchDatabase.Kind.POSTGRES ? BenchDatabase.freshIn(pg, "growth_empty") : BenchDatabase.fresh(kind);
        try (BenchRun.Stage stage = run.stage(empty, dev.ledgerlink.secrets.SecretBox.newKeyBase64())) {
            measured.put(Size.EMPTY, new LinkedHashMap<>());
            out.addAll(steps(c, stage, Size.EMPTY, null, measured.get(Size.EMPTY), pg));
        }
        try (BenchRun.Stage stage = run.stage(kept.database(), kept.secretsKey())) {
            measured.put(Size.LARGE, new LinkedHashMap<>());
            out.addAll(steps(c, stage, Size.LARGE, kept, measured.get(Size.LARGE), pg));
        }
        out.addAll(ratios(kind.label(), measured.get(Size.EMPTY), measured.get(Size.LARGE)));
        return out;
    }

    /** Every measurement on one stage; {@code kept} is null on the empty database. Rates and p99s also go into {@code m} for the ratios. */
    private List<Figure> steps(BenchConfig c, BenchRun.Stage stage, Size size, GrowthDatabase kept, Map<String, Double> m,
                               PrivatePostgres pg) throws Exception {
        List<Figure> out = new ArrayList<>();
        String db = stage.label();
        String tag = " (" + size.label() + ")";
        stage.settings.put("retention.interval", "PT0S");   // retention is measured on its own, below
        stage.settings.put("console.enabled", "true");
        if (c.quick()) stage.settings.put("delivery.timeout", "PT1S");
        try (DeliveryRig rig = DeliveryRig.prepare(stage)) {
            if (kept != null) {
                kept.prepareForRun(rig.receiver.port());
                GrowthWorld world = kept.world();
                for (long f = 0; f < kept.size().failingCallbacks(); f++) {
                    long cb = GrowthWorld.failingCallback(f);
                    rig.log.codeFor("/" + GrowthWorld.CallbackKind.of(cb).path() + "/" + cb, world.callbackCode(cb));
                }
            }
            int chains = c.tokenConcurrency().stream().mapToInt(Integer::intValue).max().orElse(1);
            TokenEndpointScenario.Prepared prepared = TokenEndpointScenario.prepareChains(stage, chains);

            // Start to ready, production mode: a first start (migrations, on the empty database the whole schema), then restarts.
            ServerProcess server = stage.start(false);
            out.add(Figure.measured(name(), "start to ready, first start" + tag, db, server.startToReadyMs(), "ms", null,
                    kept == null ? "creates the schema" : "migrations the filled database still needed, if any"));
            List<Double> starts = new ArrayList<>();
            for (int i = 0; i < c.startups(); i++) {
                stage.stopServer();
                server = stage.start(false);
                starts.add(server.startToReadyMs());
            }
            double startup = StartupScenario.median(starts);
            m.put("start to ready ms", startup);
            out.add(Figure.measured(name(), "start to ready, restart, median" + tag, db, startup, "ms", null, "starts: " + starts));

            // Refresh grants and code exchanges.
            RefreshChains refresh = prepared.chains(server);
            for (int conc : c.tokenConcurrency()) {
                Loads.Measured r = Loads.measure(c, server.pid(), stage.db.cpu(), conc, c.maxRequests(), refresh);
                out.addAll(Loads.figures(name(), "refresh grants" + tag, db, conc, r, null, null));
                m.put("refresh grants c" + conc + " per second", r.outcome().perSecond());
                m.put("refresh grants c" + conc + " p99", r.outcome().latencies().percentileMillis(0.99));
            }
            int exchangeConcurrency = c.tokenConcurrency().getFirst();
            Loads.Measured x = TokenEndpointScenario.exchanges(c, stage, server, prepared, exchangeConcurrency);
            out.addAll(Loads.figures(name(), "authorization_code exchanges" + tag, db, exchangeConcurrency, x, null, null));
            m.put("code exchanges c" + exchangeConcurrency + " per second", x.outcome().perSecond());

            // Deliveries: development mode, for the loopback receiver.
            stage.stopServer();
            server = stage.start(true);
            out.addAll(deliveries(c, stage, server, rig, tag, m, kept));
            refresh = refresh.on(server.port());
            int port = server.port();

            // Paged reads, idle and under 16 chains of refresh load (the same server, with the console on).
            List<PagedReads.Read> reads = reads(stage, server, rig, prepared, kept);
            int rounds = c.quick() ? 3 : 50;
            List<PagedReads.Timed> idle = PagedReads.measure(port, reads, rounds);
            Beside<List<PagedReads.Timed>> loaded = underRefreshLoad(c, refresh, () -> PagedReads.measure(port, reads, rounds));
            out.addAll(pagedFigures(db, tag, "idle", idle));
            out.addAll(pagedFigures(db, tag, "under " + besideChains(c) + " chains", loaded.result()));

            // Retention: one pass removing a slice of the history while 16 chains refresh, then one with nothing due.
            out.addAll(retention(c, stage, server, refresh, kept, tag, m));

            // The plans the loads ran, on the filled PostgreSQL database.
            if (kept != null) {
                stage.stopServer();
                RefreshChains current = refresh;
                PlanCapture.Work work = s -> planWork(stage, s, rig, prepared, current, reads, kept);
                Path file = c.outputDir().resolve("plans-" + db + ".txt");
                Path plans = pg != null ? PlanCapture.capture(pg, stage, true, work, file) : PlanCapture.captureH2(stage, true, jdbi(stage), work, file);
                out.add(Figure.measured(name(), "statement plans recorded" + tag, db, 1, "file", null, plans.toAbsolutePath().toString()));
            }
        }
        return out;
    }

    /**
     * A little of every load, for the plans: refreshes on two chains, two code exchanges, publishes, each
     * paged read once, a retention pass (its candidates' and deletes' plans; nothing new is due), and the
     * engine's claims meanwhile.
     */
    private static void planWork(BenchRun.Stage stage, ServerProcess server, DeliveryRig rig, TokenEndpointScenario.Prepared prepared,
                                 RefreshChains refresh, List<PagedReads.Read> reads, GrowthDatabase kept) throws Exception {
        ClosedLoop.run(2, Duration.ZERO, Duration.ofSeconds(1), 500, refresh.on(server.port()));
        try (BrowserSession browser = new BrowserSession("127.0.0.1", server.port(), prepared.email(), prepared.password());
             dev.ledgerlink.bench.http.Http1Connection http = new dev.ledgerlink.bench.http.Http1Connection("127.0.0.1", server.port())) {
            for (int i = 0; i < 2; i++) {
                var client = prepared.clients().get(i);
                dev.ledgerlink.bench.oauth.TokenCalls.tokens(dev.ledgerlink.bench.oauth.TokenCalls.exchangeCode(http, client,
                        browser.authorize(client.clientId(), TokenEndpointScenario.REDIRECT)));
            }
        }
        rig.connect(server);
        try (DeliveryRig.Publisher p = rig.publisher()) {
            for (int i = 0; i < 50; i++) p.publish("invoice.create", DeliveryScenario.OBJECT_IDS.incrementAndGet());
        }
        PagedReads.measure(server.port(), reads, 1);
        RetentionPass.run(stage.db, kept.record().deliveriesRemovedBefore(), kept.record().tokensRemovedBefore());
        Thread.sleep(2_000);   // the engine's claims and the recorder's writes
    }

    private List<Figure> deliveries(BenchConfig c, BenchRun.Stage stage, ServerProcess server, DeliveryRig rig, String tag,
                                    Map<String, Double> m, GrowthDatabase kept) throws Exception {
        List<Figure> out = new ArrayList<>();
        String db = stage.label();
        String missing = rig.connect(server);
        if (missing != null) return List.of(Figure.notMeasured(name(), "deliveries per second" + tag, db, "/s", null, missing));
        for (int i = 0; i < c.callbacks(); i++) rig.register("invoice", "/hook/growth-" + i);
        StatementStats stats = new StatementStats(jdbi(stage), stage.db.kind());
        ClosedLoop.WorkerFactory publishers = w -> {
            DeliveryRig.Publisher p = rig.publisher();
            return new ClosedLoop.Worker() {
                public boolean call() throws Exception { return p.publish("invoice.create", DeliveryScenario.OBJECT_IDS.incrementAndGet()); }
                public void close() { p.close(); }
            };
        };
        rig.log.phase("warm");
        ClosedLoop.Warmed w = ClosedLoop.warmUp(c.publishers(), c.warmupUntilJitQuiet(server.pid()), publishers);
        DeliveryScenario.awaitCount(rig.log.group("warm:hook"), w.ok() * c.callbacks(), Duration.ofSeconds(c.quick() ? 10 : 120));

        rig.log.phase("load");
        ReceivedLog.Group healthy = rig.log.group("load:hook");
        long backlogBefore = rig.log.unknownEvents();
        stats.reset();
        Usage usage = Usage.start(server.pid(), stage.db.cpu());
        long start = System.nanoTime();
        ClosedLoop.Outcome published = ClosedLoop.run(c.publishers(), Duration.ZERO, c.window(), c.maxEvents(), publishers);
        long expected = published.ok() * c.callbacks();
        boolean drained = DeliveryScenario.awaitCount(healthy, expected, Duration.ofSeconds(c.quick() ? 10 : 60));
        Usage.Summary u = usage.stop();
        List<StatementStats.Statement> statements = stats.read();
        double seconds = (healthy.lastNanos() - start) / 1e9;
        double rate = healthy.count() / Math.max(seconds, 1e-9);
        long backlogSent = rig.log.unknownEvents() - backlogBefore;
        String note = String.format("%d events x %d healthy callbacks in %.1f s (%s); backlog and failing callbacks' attempts meanwhile: %d; %s;"
                        + " bad signatures %d", published.ok(), c.callbacks(), seconds, drained ? "all received" : "NOT all received: "
                        + healthy.count() + " of " + expected, backlogSent, u.describe(), rig.log.badSignatures());
        out.add(Loads.withUsage(Figure.measured(name(), "deliveries per second to healthy callbacks" + tag, db, rate, "/s", null, note)
                .with("backlog_attempts", backlogSent), u, w.seconds()));
        double publishP99 = published.latencies().percentileMillis(0.99);
        out.add(Figure.measured(name(), "publish p99" + tag, db, publishP99, "ms", null,
                String.format("p50 %.1f ms; %.0f events/s", published.latencies().percentileMillis(0.5), published.perSecond())));
        out.add(Figure.measured(name(), "publish-to-receive p99 under load" + tag, db, healthy.p(0.99), "ms", null, ""));
        m.put("deliveries per second", rate);
        m.put("publish p99", publishP99);
        m.put("events published per second", published.perSecond());

        StatementStats.Statement claim = stage.postgres()
                ? StatementStats.of(statements, "update deliveries set lease_owner", "for update skip locked")
                : StatementStats.of(statements, "select id from deliveries", "order by state, next_attempt_at");
        out.add(Figure.measured(name(), "claim statement mean" + tag, db, claim.meanMs(), "ms", null,
                String.format("%d claims in the window, most %.2f ms, %d rows claimed; as the database counts it (%s)", claim.calls(), claim.maxMs(),
                        claim.rows(), stage.postgres() ? "pg_stat_statements" : "H2 query statistics")).with("statement", claim.text()));
        m.put("claim mean ms", claim.meanMs());
        out.add(Figure.measured(name(), "statements of the delivery window" + tag, db, statements.size(), "statements", null, "the ten costliest in detail")
                .with("top", statements.stream().limit(10).map(s -> Map.of("text", s.text(), "calls", s.calls(), "mean_ms", s.meanMs(),
                        "max_ms", s.maxMs())).toList()));
        return out;
    }

    /** The paged reads of this stage: the bench callback's deliveries (and, filled, a failing one's), the console's pages, the admin lists. */
    private List<PagedReads.Read> reads(BenchRun.Stage stage, ServerProcess server, DeliveryRig rig, TokenEndpointScenario.Prepared prepared,
                                        GrowthDatabase kept) throws Exception {
        Jdbi jdbi = jdbi(stage);
        long callback = jdbi.withHandle(h -> h.createQuery("select max(id) from callbacks where account_id = :a").bind("a", rig.accountId())
                .mapTo(Long.class).one());
        String cookie;
        try (BrowserSession b = new BrowserSession("127.0.0.1", server.port(), "-", "-")) {
            cookie = b.signInToConsoleAsOperator(stage.operatorKey);
        }
        Map<String, String> console = Map.of("Cookie", cookie);
        Map<String, String> admin = Map.of("Authorization", "Bearer " + stage.operatorKey);
        String a = "/internal/v1/admin";
        long user = jdbi.withHandle(h -> h.createQuery("select id from users where email_key = :e").bind("e", prepared.email().toLowerCase())
                .mapTo(Long.class).one());
        List<PagedReads.Read> reads = new ArrayList<>(List.of(
                new PagedReads.Read("a callback's deliveries (API)", rig.deliveriesPath(callback), rig.apiHeaders()),
                new PagedReads.Read("a callback's deliveries (console)", "/console/callbacks/" + callback + "/deliveries", console),
                new PagedReads.Read("console activity", "/console/activity", console),
                new PagedReads.Read("console callbacks", "/console/callbacks", console),
                new PagedReads.Read("console grants", "/console/grants", console),
                new PagedReads.Read("console applications", "/console/applications", console),
                new PagedReads.Read("admin users", a + "/users", admin),
                new PagedReads.Read("admin accounts", a + "/accounts", admin),
                new PagedReads.Read("admin applications", a + "/applications", admin),
                new PagedReads.Read("admin memberships of an account", a + "/memberships?account_id=" + rig.accountId(), admin),
                new PagedReads.Read("admin callbacks", a + "/callbacks", admin),
                new PagedReads.Read("admin callbacks disabled", a + "/callbacks?state=disabled", admin),
                new PagedReads.Read("admin deliveries", a + "/deliveries", admin),
                new PagedReads.Read("admin deliveries pending", a + "/deliveries?state=pending", admin),
                new PagedReads.Read("admin deliveries of a callback", a + "/deliveries?callback_id=" + callback, admin),
                new PagedReads.Read("admin deliveries of the last hour", a + "/deliveries?since=" + Instant.now().minus(Duration.ofHours(1))
                        .truncatedTo(java.time.temporal.ChronoUnit.SECONDS), admin),
                new PagedReads.Read("admin grants of a user", a + "/grants?user_id=" + user, admin),
                new PagedReads.Read("admin grants of an application", a + "/grants?application_id=1", admin)));
        if (kept != null) {
            // A filled failing callback with its backlog, read by its own application as an integration would.
            long failing = GrowthWorld.failingCallback(1);
            long account = (failing - 1) / GrowthSize.CALLBACKS_PER_ACCOUNT + 1;
            long app = (account - 1) % kept.size().applications() + 1;
            AtomicReference<String> token = new AtomicReference<>();
            stage.setup(s -> token.set(s.tokens().issue(account, app, Scopes.all()).accessToken()));
            String path = "/events/account/" + GrowthWorld.accountId(account) + "/events/callbacks/" + failing + "/deliveries";
            reads.add(1, new PagedReads.Read("a failing callback's deliveries (API)", path,
                    Map.of("Authorization", "Bearer " + token.get(), "Api-Version", "alpha", "Accept", "application/json")));
        }
        return reads;
    }

    private List<Figure> pagedFigures(String db, String tag, String when, List<PagedReads.Timed> timed) {
        List<Figure> out = new ArrayList<>();
        for (PagedReads.Timed t : timed) {
            String note = String.format("p50 %.1f ms, max %.1f ms, %d reads%s", t.p(0.5), t.p(1.0), t.latencies().size(),
                    t.failures() > 0 ? "; " + t.failures() + " not 200, first: " + t.firstFailure() : "");
            out.add(Figure.measured(name(), t.read().name() + " p99, " + when + tag, db, t.p(0.99), "ms", "< " + (int) PAGED_P99_MS, note)
                    .with("path", t.read().path()).with("failures", t.failures()));
        }
        return out;
    }

    /** What a task returned, and what the 16 refresh chains beside it did meanwhile. */
    record Beside<T>(T result, long grants, double seconds, dev.ledgerlink.bench.load.Latencies latencies) {
        double perSecond() { return grants / Math.max(seconds, 1e-9); }
    }

    /** A task while 16 refresh chains keep the server busy: the chains start first (and warm a moment) and stop after it. */
    private static <T> Beside<T> underRefreshLoad(BenchConfig c, RefreshChains refresh, Work<T> work) throws Exception {
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicBoolean counting = new java.util.concurrent.atomic.AtomicBoolean();
        List<dev.ledgerlink.bench.load.Latencies> parts = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.atomic.AtomicLong ok = new java.util.concurrent.atomic.AtomicLong();
        Thread load = Thread.ofVirtual().start(() -> {
            try {
                while (!done.get()) {
                    ClosedLoop.Outcome o = ClosedLoop.run(besideChains(c), Duration.ZERO, Duration.ofMillis(500), Long.MAX_VALUE, refresh);
                    if (counting.get()) {
                        parts.add(o.latencies());
                        ok.addAndGet(o.ok());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            Thread.sleep(c.quick() ? 200 : 2_000);
            counting.set(true);
            long t0 = System.nanoTime();
            T result = work.run();
            double seconds = (System.nanoTime() - t0) / 1e9;
            counting.set(false);
            return new Beside<>(result, ok.get(), seconds, dev.ledgerlink.bench.load.Latencies.merge(new ArrayList<>(parts)));
        } finally {
            done.set(true);
            load.join(Duration.ofSeconds(40));
        }
    }

    /** The refresh chains beside paged reads and retention: 16 (the first concurrency of the token loads; 4 with --quick). */
    static int besideChains(BenchConfig c) {
        return c.tokenConcurrency().getFirst();
    }

    @FunctionalInterface
    interface Work<T> {
        T run() throws Exception;
    }

    /**
     * Retention under load: 16 chains refresh while one pass removes a slice of history (on the filled
     * database its oldest hundredth: 0.3 days of deliveries and 0.9 of tokens; on the empty one what the
     * run wrote, all of it finished and used), then a pass with nothing new due, which is what a pass
     * costs when it only has to find that out.
     */
    private List<Figure> retention(BenchConfig c, BenchRun.Stage stage, ServerProcess server, RefreshChains refresh, GrowthDatabase kept,
                                   String tag, Map<String, Double> m) throws Exception {
        List<Figure> out = new ArrayList<>();
        String db = stage.label();
        Instant deliveriesBefore;
        Instant tokensBefore;
        if (kept != null) {
            deliveriesBefore = kept.record().deliveriesRemovedBefore().plus(GrowthWorld.EVENT_WINDOW.dividedBy(100));
            tokensBefore = kept.record().tokensRemovedBefore().plus(Duration.ofDays(90).dividedBy(100));
        } else {
            deliveriesBefore = Instant.now();
            tokensBefore = Instant.now();
        }
        Usage usage = Usage.start(server.pid(), stage.db.cpu());
        Beside<RetentionPass.Result> during = underRefreshLoad(c, refresh, () -> RetentionPass.run(stage.db, deliveriesBefore, tokensBefore));
        Usage.Summary u = usage.stop();
        RetentionPass.Result pass = during.result();
        RetentionPass.Result idle = RetentionPass.run(stage.db, deliveriesBefore, tokensBefore);
        if (kept != null) kept.removedBefore(deliveriesBefore, tokensBefore);
        double written = during.perSecond() * 2;   // a refresh grant writes a refresh and an access token
        out.add(Figure.measured(name(), "retention pass, rows removed per second" + tag, db, pass.rowsPerSecond(), "/s", null,
                String.format("%,d rows in %.1f s (%s)%s; meanwhile %d chains wrote %,.0f token rows/s (p99 %.1f ms); %s", pass.total(),
                        pass.seconds(), pass.removed(), pass.errors().isEmpty() ? "" : "; errors " + pass.errors(), besideChains(c), written,
                        during.latencies().percentileMillis(0.99), u.describe())).with("removed", pass.removed())
                .with("token_rows_written_per_second", written));
        out.add(Figure.measured(name(), "retention pass with nothing due, seconds" + tag, db, idle.seconds(), "s", null,
                "removed " + idle.total() + " rows; what finding nothing costs: each rule reads its table up to its cutoff (store/WrittenOrder)"));
        m.put("retention rows per second", pass.rowsPerSecond());
        m.put("retention idle pass seconds", idle.seconds());
        return out;
    }

    /** Large over empty, with issue 45's bounds beside the ratios they apply to. */
    private List<Figure> ratios(String db, Map<String, Double> empty, Map<String, Double> large) {
        List<Figure> out = new ArrayList<>();
        for (String key : large.keySet()) {
            Double e = empty.get(key);
            Double l = large.get(key);
            if (e == null || l == null || e == 0) continue;
            String target = null;
            if (key.endsWith("per second") && (key.startsWith("refresh") || key.startsWith("deliveries") || key.startsWith("events")))
                target = ">= " + THROUGHPUT_RATIO;
            if (key.endsWith("p99") && (key.startsWith("refresh") || key.startsWith("publish"))) target = "<= " + P99_RATIO;
            out.add(Figure.measured(name(), key + ", large / empty", db, l / e, "x", target, String.format("%.2f / %.2f", l, e)));
        }
        return out;
    }

    static Jdbi jdbi(BenchRun.Stage stage) {
        return Jdbi.create(JdbcUrls.normalize(stage.db.url()), stage.db.user().isEmpty() ? "sa" : stage.db.user(), "");
    }
}
