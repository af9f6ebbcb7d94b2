package dev.ledgerlink.bench;

import dev.ledgerlink.LedgerlinkServer;
import dev.ledgerlink.Services;
import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.proc.JfrSummary;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.bench.trace.TraceSink;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.secrets.RandomTokens;
import dev.ledgerlink.secrets.SecretBox;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What scenarios share: the bounds, fresh databases, setup through the real services, server starts,
 * and with --tracing the collector every server sends its traces to.
 */
public final class BenchRun implements AutoCloseable {
    private final BenchConfig config;
    private final List<String> profiles = new ArrayList<>();
    private final TraceSink traces;

    public BenchRun(BenchConfig config) {
        this.config = config;
        this.traces = config.tracing() ? TraceSink.start() : null;
    }

    public BenchConfig config() { return config; }

    /** The collector of --tracing, or null when the servers run without traces. */
    public TraceSink traces() { return traces; }

    @Override
    public void close() {
        if (traces != null) traces.close();
    }

    public List<String> profiles() { return profiles; }

    /** A fresh database, the settings the server will run with, and a server started over it on demand. */
    public final class Stage implements AutoCloseable {
        public final BenchDatabase db;
        public final Map<String, String> settings = new LinkedHashMap<>();
        public final String operatorKey = RandomTokens.urlSafe(32);
        private ServerProcess server;
        private String profileLabel;
        private Path jfr;

        Stage(BenchDatabase db, String secretsKey) {
            this.db = db;
            settings.put(Setting.SECRETS_KEY.key(), secretsKey);
            settings.put(Setting.OPERATOR_KEY.key(), operatorKey);
            if (traces != null) settings.put(Setting.TRACING_OTLP_ENDPOINT.key(), traces.endpoint());
        }

        /** Whether the server runs with traces on (--tracing): publishers then send a traceparent, as a traced service does. */
        public boolean traced() { return traces != null; }

        public boolean postgres() { return db.kind() == BenchDatabase.Kind.POSTGRES; }

        public String label() { return db.kind().label(); }

        /** Setup through the real services over the same database (before the server starts, or beside it). */
        public void setup(Consumer<Services> work) {
            Settings.Builder b = Settings.builder().set(Setting.DB_URL, db.url()).set(Setting.DB_USER, db.user())
                    .set(Setting.DB_POOL_SIZE, "2").set(Setting.DEV, "true");
            settings.forEach((k, v) -> b.set(k + "=" + v));
            Settings s = b.build();
            var metrics = new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
            Services services = Services.create(s, Clock.systemUTC(), LedgerlinkServer.openDatabase(s, null), metrics);
            try {
                work.accept(services);
            } finally {
                services.database().close();
            }
        }

        /** Starts the server (profiled later, from {@link #beginProfile}, when --profile is given). */
        public ServerProcess start() throws IOException, InterruptedException {
            return start(true);
        }

        /** dev false: as in production (no demo data on an empty database, https-only URIs). */
        public ServerProcess start(boolean dev) throws IOException, InterruptedException {
            server = ServerProcess.start(new ServerProcess.Launch(config.serverJar(), List.of()), db, settings,
                    config.outputDir().resolve("logs"), dev);
            System.out.printf("bench: server pid %d on %s ready in %.0f ms (log %s)%n", server.pid(), label(),
                    server.startToReadyMs(), server.log());
            return server;
        }

        /**
         * With --profile: starts a flight recording (CPU samples, monitors, parks; JFR "profile" settings)
         * in the running server via jcmd, so it covers the load that follows and not the start-up or the
         * setup. The recording ends (and is summarised) at {@link #endProfile} or when the server stops.
         */
        public void beginProfile(String phase) throws IOException, InterruptedException {
            if (!config.profile() || server == null) return;
            endProfile();
            jfr = config.outputDir().resolve("profile-" + phase + "-" + label() + ".jfr").toAbsolutePath();
            profileLabel = phase;
            jcmd("JFR.start", "name=bench", "settings=profile", "filename=" + jfr);
        }

        /** Ends the current recording, if any, and adds its summary to the run's profiles. */
        public void endProfile() {
            if (jfr == null || server == null) return;
            try {
                jcmd("JFR.stop", "name=bench");
                String summary = JfrSummary.describe(jfr, 12);
                profiles.add("== profile " + profileLabel + " on " + label() + " (" + jfr.getFileName() + ")\n" + summary);
                System.out.println(profiles.getLast());
            } catch (IOException | InterruptedException e) {
                profiles.add("== profile " + profileLabel + " on " + label() + ": " + e.getMessage());
            }
            jfr = null;
        }

        private void jcmd(String... args) throws IOException, InterruptedException {
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(server.pid())));
            cmd.addAll(List.of(args));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("jcmd " + String.join(" ", args) + " failed: " + output);
            }
        }

        public ServerProcess server() { return server; }

        /** Stops the server (dumping its profile, when recorded) and keeps the database for a restart. */
        public void stopServer() {
            if (server == null) return;
            endProfile();
            long t0 = System.nanoTime();
            server.close();
            System.out.printf("bench: server stopped in %.0f ms%n", (System.nanoTime() - t0) / 1e6);
            server = null;
        }

        @Override
        public void close() {
            stopServer();
            db.close();
        }
    }

    /** A stage over a fresh, empty database of this kind, with a new secrets key. */
    public Stage stage(BenchDatabase.Kind kind) {
        return new Stage(BenchDatabase.fresh(kind), SecretBox.newKeyBase64());
    }

    /** A stage over this database, whose sealed secrets were sealed with {@code secretsKey} (a kept database's own). */
    public Stage stage(BenchDatabase db, String secretsKey) {
        return new Stage(db, secretsKey);
    }
}
