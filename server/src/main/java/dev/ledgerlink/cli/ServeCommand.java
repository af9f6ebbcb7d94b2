package dev.ledgerlink.cli;

import dev.ledgerlink.LedgerlinkServer;
import dev.ledgerlink.accounts.DemoData;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run the server (API, authorization page, delivery workers) until SIGTERM, then stop in phases (docs/operations.md) and exit 0.")
final class ServeCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

    @Mixin
    StoreOptions store;

    @Option(names = "--port", description = "HTTP port (default 8080; 0 picks a free one).")
    Integer port;

    @Option(names = "--host", description = "Bind address (default 127.0.0.1).")
    String host;

    @Option(names = "--dev", description = "Development mode: http loopback URIs allowed; demo data on first start.")
    boolean dev;

    @Option(names = "--seed", paramLabel = "FILE", description = "Apply this seed file (YAML or JSON; idempotent) once the server is up.")
    java.nio.file.Path seed;

    @Override
    public Integer call() throws InterruptedException {
        Settings.Builder b = store.settingsBuilder();
        if (port != null) b.set(Setting.HTTP_PORT, port.toString());
        b.set(Setting.HTTP_HOST, host);
        if (dev) b.set(Setting.DEV, "true");
        Settings settings = b.build();

        long started = System.nanoTime();
        DataDir.announceNewDatabase(settings, System.err);
        LedgerlinkServer server = LedgerlinkServer.start(settings, Clock.systemUTC());
        if (seed != null) {
            try {
                System.out.println(SeedCommand.describe(SeedCommand.seed(server.services(), seed)));
            } catch (RuntimeException e) {
                server.close();
                throw e;
            }
        }
        // SIGTERM (and SIGINT) ask this thread to stop the server in its phases and return 0; the hook
        // covers any other way out of the JVM (the same stop; a no-op once it has run). Ctrl-C comes from
        // someone at a terminal, not from a load balancer's supervisor: that stop skips the drain.
        CountDownLatch stopRequested = new CountDownLatch(1);
        AtomicReference<StopSignals.Kind> signal = new AtomicReference<>(StopSignals.Kind.TERM);
        StopSignals.onStop(kind -> {
            signal.compareAndSet(StopSignals.Kind.TERM, kind);
            stopRequested.countDown();
        });
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutDown, "ledgerlink-shutdown"));

        if (settings.flag(Setting.DEV)) {
            var s = server.services();
            DemoData.ensure(s.users(), s.accounts(), s.applications()).ifPresent(demo -> System.out.println(demo.describe(server.authUrl())));
        }
        LOG.info("ledgerlink ready on {} (auth page {}, database {}) in {} ms", server.baseUrl(), server.authUrl(),
                server.services().database().dialect().name().toLowerCase(), (System.nanoTime() - started) / 1_000_000);
        stopRequested.await();
        server.shutDown(signal.get() == StopSignals.Kind.INT ? Duration.ZERO : settings.duration(Setting.SHUTDOWN_DRAIN));
        return 0;
    }
}
