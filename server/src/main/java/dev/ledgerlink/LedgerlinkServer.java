package dev.ledgerlink;

import dev.ledgerlink.config.SchemaSettings;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.config.StartupChecks;
import dev.ledgerlink.logging.LogFormat;
import dev.ledgerlink.net.PublicAddressGate;
import dev.ledgerlink.notifications.NotificationSender;
import dev.ledgerlink.notifications.NotificationSettings;
import dev.ledgerlink.retention.RetentionWorker;
import dev.ledgerlink.events.OperatorKey;
import dev.ledgerlink.store.ConnectionBudget;
import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.PendingMigrations;
import dev.ledgerlink.store.SchemaStatus;
import dev.ledgerlink.store.Restores;
import dev.ledgerlink.tracing.Tracing;
import dev.ledgerlink.delivery.DeliveryEngine;
import dev.ledgerlink.web.Draining;
import dev.ledgerlink.web.ManagementServer;
import dev.ledgerlink.web.WebServer;
import io.javalin.Javalin;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Wiring only: settings → database → services → web server and background workers. */
public final class LedgerlinkServer implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LedgerlinkServer.class);
    private final Services services;
    private final Javalin web;
    private final ManagementServer management;
    private final List<AutoCloseable> workers;
    private final JvmGcMetrics gcMetrics;
    private final Draining draining;
    private boolean closed;

    private LedgerlinkServer(Services services, Javalin web, ManagementServer management, List<AutoCloseable> workers, JvmGcMetrics gcMetrics,
                             Draining draining) {
        this.services = services;
        this.web = web;
        this.management = management;
        this.workers = workers;
        this.gcMetrics = gcMetrics;
        this.draining = draining;
    }

    public static LedgerlinkServer start(Settings settings, Clock clock) {
        return start(settings, clock, PublicAddressGate.SYSTEM);
    }

    /** As {@link #start(Settings, Clock)}, the public-address gate resolving host names with {@code resolver} (tests decide the answers). */
    public static LedgerlinkServer start(Settings settings, Clock clock, PublicAddressGate.Resolver resolver) {
        return start(settings, clock, resolver, null);
    }

    /**
     * As {@link #start(Settings, Clock)}, /readyz answering 503 (naming {@code startupWork}) from the
     * first request until the caller calls {@code services().readiness().done()}: for work done after
     * the server listens, such as applying a seed file. Null: ready at once.
     */
    public static LedgerlinkServer start(Settings settings, Clock clock, String startupWork) {
        return start(settings, clock, PublicAddressGate.SYSTEM, startupWork);
    }

    private static LedgerlinkServer start(Settings settings, Clock clock, PublicAddressGate.Resolver resolver, String startupWork) {
        LogFormat.apply(settings);
        PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new ClassLoaderMetrics().bindTo(metrics);
        new JvmMemoryMetrics().bindTo(metrics);
        new JvmThreadMetrics().bindTo(metrics);
        new ProcessorMetrics().bindTo(metrics);
        new UptimeMetrics().bindTo(metrics);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(metrics);
        StartupChecks.check(settings);   // before the database is touched: no migration runs on a bad configuration
        for (String unknown : StartupChecks.unknownEnvironment(System.getenv())) {
            LOG.warn("environment variable {} is not a ledgerlink setting and is ignored (a typo? see docs/configuration.md)", unknown);
        }
        // The management port opens first: a probe sees the process at work (/healthz 200, /readyz 503
        // naming the step) through a long migration, instead of a closed port it would count as dead.
        Readiness readiness = new Readiness();
        readiness.hold("opening the database");
        Draining draining = new Draining();
        ManagementServer management = ManagementServer.start(settings, metrics, readiness, draining);
        List<AutoCloseable> workers = new ArrayList<>();
        if (management != null) workers.add(management::stop);
        Database db;
        try {
            db = Database.connect(settings.get(Setting.DB_URL), settings.get(Setting.DB_USER), settings.get(Setting.DB_PASSWORD),
                    settings.integer(Setting.DB_POOL_SIZE), metrics);
        } catch (RuntimeException e) {
            closeAll(workers);
            throw e;
        }
        Tracing tracing = Tracing.from(settings);
        try {
            SchemaStep.run(db, SchemaSettings.from(settings), readiness);
            ConnectionBudget.read(db, settings.integer(Setting.DB_POOL_SIZE)).filter(r -> !r.fits()).ifPresent(r -> LOG.warn(r.warning()));
            readiness.hold("starting the services");
            Services services = Services.withDeliveryEngine(settings, clock, resolver, db, metrics, tracing, readiness);
            // Once the keys are checked: a node refused for its key has not started on the database, and says nothing of it.
            Restores.announce(db, clock.instant()).ifPresent(r -> LOG.warn("started on a restored database: {}", r.describe()));
            services.deliveryEngine().ifPresent(e -> workers.add(0, e));   // stops last
            workers.add(services.journal());   // writes its last queued entries once the web server has stopped
            workers.add(services.faults());   // its reader thread (development mode)
            if (settings.get(Setting.BASE_URL).isBlank() && !settings.flag(Setting.DEV)) {
                LOG.warn("base-url is not set: discovery and the "
                        + "authorization flow announce this server's bound address (http://host:port); set base-url "
                        + "(LEDGERLINK_BASE_URL) to the public address clients use");
            }
            NotificationSettings.from(settings).ifPresent(n ->
                    workers.add(new NotificationSender(n, db.jdbi(), services.clock(), metrics)));
            RetentionWorker retention = RetentionWorker.start(services.retention(), settings.duration(Setting.RETENTION_INTERVAL));
            if (retention != null) workers.add(retention);
            // Work after the port opens (a seed file) keeps /readyz at 503 from the first request: no 200 can slip out before it.
            if (startupWork != null) readiness.hold(startupWork);
            else readiness.done();
            Javalin web = WebServer.create(services, OperatorKey.forServer(settings), draining)
                    .start(settings.get(Setting.HTTP_HOST), settings.integer(Setting.HTTP_PORT));
            if (management != null) management.serve(services, draining);
            return new LedgerlinkServer(services, web, management, workers, gc, draining);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeAll(workers);
            tracing.close();
            db.close();
            throw new IllegalStateException("interrupted while waiting for the schema's migrations", e);
        } catch (RuntimeException e) {
            closeAll(workers);
            tracing.close();
            db.close();
            throw e;
        }
    }

    /**
     * The configured database for the CLI's commands that work on it: its schema brought up to date, or
     * with db.migrate=never (a user without the right to change it) checked to be this build's
     * ({@link PendingMigrations}, exit code 4, when it is not).
     */
    public static Database openDatabase(Settings settings, io.micrometer.core.instrument.MeterRegistry metrics) {
        if (SchemaSettings.from(settings).migrateAtStart()) {
            return Database.open(settings.get(Setting.DB_URL), settings.get(Setting.DB_USER), settings.get(Setting.DB_PASSWORD),
                    settings.integer(Setting.DB_POOL_SIZE), metrics);
        }
        Database db = Database.connect(settings.get(Setting.DB_URL), settings.get(Setting.DB_USER), settings.get(Setting.DB_PASSWORD),
                settings.integer(Setting.DB_POOL_SIZE), metrics);
        SchemaStatus status = db.schemaStatus();
        if (!status.canServe()) {
            db.close();
            throw new PendingMigrations(status.pending());
        }
        return db;
    }

    public Services services() { return services; }

    public int port() { return web.port(); }

    /** The port of /metrics, /healthz and /readyz when management.port is set, else -1. */
    public int managementPort() { return management == null ? -1 : management.port(); }

    /** The web server (tests read the route table from it, so a route added later is exercised too). */
    public Javalin web() { return web; }

    /** The public API address: base-url when configured, else this server's own address. */
    public String baseUrl() {
        String configured = services.settings().get(Setting.BASE_URL);
        if (!configured.isBlank()) return stripSlash(configured);
        String host = services.settings().get(Setting.HTTP_HOST);
        if (host.equals("0.0.0.0") || host.equals("::")) host = "localhost";
        return "http://" + host + ":" + port();
    }

    public String authUrl() {
        String configured = services.settings().get(Setting.AUTH_URL);
        return configured.isBlank() ? baseUrl() : stripSlash(configured);
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /**
     * Stops at once (tests, a failed start): stops taking requests, lets workers finish what they hold
     * (the delivery engine its attempts in flight, for shutdown.grace at most), sends the spans still
     * waiting, then closes the database. A process told to stop by its supervisor stops with
     * {@link #shutDown} instead.
     */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        web.stop();
        closeAll(workers);
        services.tracing().close();
        gcMetrics.close();
        services.database().close();
    }

    /**
     * The stop of a serving process (SIGTERM), in phases, each logged in one line, for a load balancer
     * to take the node out before its port closes and for the other nodes to take over its deliveries:
     * <ol>
     * <li>/readyz answers 503 and the delivery engine claims nothing more (attempts in flight go on);
     * <li>for shutdown.drain the API still answers, each answer closing its connection ({@link Draining});
     * <li>the API port closes: requests in progress are finished, one still arriving on an open
     *     connection is answered 503 with Retry-After;
     * <li>the attempts in flight finish within shutdown.grace (counted from the signal) or are handed back
     *     to the queue, and the results are recorded;
     * <li>the other workers and the management port stop, the spans still waiting are sent (tracing on), and the database pool closes.
     * </ol>
     * A second call (the shutdown hook after the signal's stop) finds it done.
     */
    public void shutDown() {
        shutDown(services.settings().duration(Setting.SHUTDOWN_DRAIN));
    }

    /** As {@link #shutDown()}, draining the API for {@code drain} instead of shutdown.drain (zero: Ctrl-C at a terminal). */
    public synchronized void shutDown(Duration drain) {
        if (closed) return;
        closed = true;
        Duration grace = services.settings().duration(Setting.SHUTDOWN_GRACE);
        long started = System.nanoTime();
        draining.begin();
        var engine = services.deliveryEngine();
        int inFlight = engine.map(DeliveryEngine::stopClaiming).orElse(0);
        LOG.info("shutting down (1/5): /readyz answers 503, no delivery is claimed any more ({} attempts in flight have until "
                + "shutdown.grace {}), the API keeps answering for {} (shutdown.drain; none after Ctrl-C), each answer with Connection: close", inFlight, grace, drain);
        sleep(drain);
        int port = web.port();
        web.stop();
        LOG.info("shutting down (2/5): API port {} closed after {} ms (requests in progress finished, any still arriving answered 503 "
                + "with Retry-After)", port, millisSince(started));
        Duration left = grace.minusNanos(System.nanoTime() - started);
        DeliveryEngine.Stopped stopped = engine.map(e -> e.stop(left.isNegative() ? Duration.ZERO : left)).orElse(new DeliveryEngine.Stopped(0, 0));
        LOG.info("shutting down (3/5): delivery engine stopped after {} ms: {} attempts finished, {} handed back to the queue for "
                + "another node, every result recorded", millisSince(started), stopped.finished(), stopped.handedBack());
        closeAll(workers);
        services.tracing().close();   // the spans still waiting (the last attempts') are sent
        LOG.info("shutting down (4/5): background workers and the management port stopped, the last spans sent");
        gcMetrics.close();
        services.database().close();
        LOG.info("shutting down (5/5): database pool closed; stopped in {} ms", millisSince(started));
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The workers in the reverse order of their start: the delivery engine, first started, stops last. */
    private static void closeAll(List<AutoCloseable> workers) {
        for (AutoCloseable w : workers.reversed()) {
            try {
                w.close();
            } catch (Exception e) {
                org.slf4j.LoggerFactory.getLogger(LedgerlinkServer.class).warn("worker did not stop cleanly", e);
            }
        }
    }
}
