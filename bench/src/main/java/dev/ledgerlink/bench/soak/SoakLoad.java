package dev.ledgerlink.bench.soak;

import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.delivery.DeliveryRig;
import dev.ledgerlink.bench.http.Http1Connection;
import dev.ledgerlink.bench.load.ClosedLoop;
import dev.ledgerlink.bench.oauth.BrowserSession;
import dev.ledgerlink.bench.oauth.RefreshChains;
import dev.ledgerlink.bench.oauth.TokenCalls;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.bench.scenarios.TokenEndpointScenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The soak's mixed load (issue 33, "Soak"), steady rather than flat out, from one load generator:
 * refresh grants on a few chains; code exchanges, each code taken over the authorization page as a
 * browser does; events published to two healthy callbacks, one that answers 500 to every attempt and
 * one that never answers (each attempt ends at delivery.timeout); browsers on the console's live tail,
 * reconnecting now and then. The retention sweeper is the server's own (the soak's settings make it
 * run every minute with short retention). Counts what each part got answered.
 */
public final class SoakLoad implements AutoCloseable {
    /** How hard each part pushes: chains and the pause after each refresh, one exchange and one publish every so often, tails. */
    public record Rates(int chains, Duration refreshPause, Duration exchangeEvery, Duration publishEvery, Duration failingEvery,
                        int tails, Duration tailReconnect) {
        /** The full soak's: about 100 refresh grants, 2 exchanges and 40 healthy and 2 failing or hanging deliveries a second. */
        public static final Rates FULL = new Rates(4, Duration.ofMillis(40), Duration.ofMillis(500), Duration.ofMillis(25),
                Duration.ofSeconds(1), 2, Duration.ofSeconds(60));
        /** The suite's short version: the same parts, lighter. */
        public static final Rates SHORT = new Rates(2, Duration.ofMillis(50), Duration.ofMillis(500), Duration.ofMillis(50),
                Duration.ofMillis(500), 1, Duration.ofSeconds(3));
    }

    /** What is set up through the services before the server starts. */
    public record Prepared(TokenEndpointScenario.Prepared tokens, DeliveryRig rig, Rates rates) {}

    /** One part's answers: as expected, otherwise (and the first such). */
    public static final class Count {
        final AtomicLong ok = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        final AtomicReference<String> firstFailure = new AtomicReference<>();

        public long ok() { return ok.get(); }
        public long failed() { return failed.get(); }
        public String firstFailure() { return firstFailure.get(); }

        void failed(Throwable e) {
            failed.incrementAndGet();
            firstFailure.compareAndSet(null, e.toString());
        }
    }

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    private final List<ConsoleTail> tails = new ArrayList<>();
    private final Map<String, Count> counts = new LinkedHashMap<>();
    private final AtomicLong objectIds = new AtomicLong();

    private SoakLoad() {
        for (String part : List.of("refresh", "exchange", "publish")) counts.put(part, new Count());
    }

    /** Users, applications (one per chain, and one for the exchanges) and the delivery rig; before the server starts. */
    public static Prepared prepare(BenchRun.Stage stage, Rates rates) throws Exception {
        return new Prepared(TokenEndpointScenario.prepareChains(stage, rates.chains() + 1), DeliveryRig.prepare(stage), rates);
    }

    /** The started server with the callbacks registered and verified, and the refresh chains where they stand: a load may start again on it. */
    public record Target(Prepared prepared, ServerProcess server, RefreshChains chains) {}

    /** Registers and verifies the callbacks (two healthy, one failing, one hanging) on the started server. */
    public static Target connect(Prepared p, ServerProcess server) throws Exception {
        String missing = p.rig().connect(server);
        if (missing != null) throw new IllegalStateException(missing);
        p.rig().register("invoice.create", "/hook/0");
        p.rig().register("invoice.create", "/hook/1");
        p.rig().register("client.create", "/fail/0");
        p.rig().register("project.create", "/hang/0");
        return new Target(p, server, p.tokens().chains(server));
    }

    /** Signs the tails in and starts every part. */
    public static SoakLoad start(Target target) throws Exception {
        Prepared p = target.prepared();
        ServerProcess server = target.server();
        RefreshChains chains = target.chains();
        SoakLoad load = new SoakLoad();
        Rates r = p.rates();
        for (int i = 0; i < r.chains(); i++) {
            ClosedLoop.Worker chain = chains.create(i);
            load.loop("refresh", r.refreshPause(), chain::call);
        }
        TokenCalls.Client exchanger = p.tokens().clients().get(r.chains());
        BrowserSession browser = new BrowserSession("127.0.0.1", server.port(), p.tokens().email(), p.tokens().password());
        Http1Connection exchanges = new Http1Connection("127.0.0.1", server.port());
        load.loop("exchange", r.exchangeEvery(), new ClosedLoop.Worker() {
            public boolean call() throws Exception {
                String code = browser.authorize(exchanger.clientId(), exchanger.redirectUri());
                TokenCalls.tokens(TokenCalls.exchangeCode(exchanges, exchanger, code));
                return true;
            }

            public void close() {
                browser.close();
                exchanges.close();
            }
        });
        DeliveryRig.Publisher healthy = p.rig().publisher();
        load.loop("publish", r.publishEvery(), new ClosedLoop.Worker() {
            public boolean call() throws Exception { return healthy.publish("invoice.create", load.objectIds.incrementAndGet()); }
            public void close() { healthy.close(); }
        });
        DeliveryRig.Publisher failing = p.rig().publisher();
        load.loop("publish", r.failingEvery(), new ClosedLoop.Worker() {
            public boolean call() throws Exception {
                return failing.publish("client.create", load.objectIds.incrementAndGet())
                        && failing.publish("project.create", load.objectIds.incrementAndGet());
            }
            public void close() { failing.close(); }
        });
        for (int i = 0; i < r.tails(); i++) {
            String cookie;
            try (BrowserSession b = p.rig().browser()) {
                cookie = b.signInToConsole();
            }
            load.tails.add(new ConsoleTail(server.baseUrl(), cookie, r.tailReconnect()));
        }
        return load;
    }

    private void loop(String part, Duration pause, ClosedLoop.Worker work) {
        Count count = counts.get(part);
        threads.add(Thread.ofVirtual().name("soak-" + part).start(() -> {
            try (work) {
                while (running.get()) {
                    try {
                        if (work.call()) count.ok.incrementAndGet();
                        else count.failed(new IllegalStateException("unexpected answer"));
                    } catch (Exception e) {
                        if (running.get()) count.failed(e);
                    }
                    Thread.sleep(pause);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
    }

    /** Refresh grants, exchanges and publishes answered so far, each as expected or not. */
    public Map<String, Count> counts() {
        return counts;
    }

    /** Live-tail streams opened, attempts they carried, and streams that failed. */
    public long[] tail() {
        long streams = 0, attempts = 0, failures = 0;
        for (ConsoleTail t : tails) {
            streams += t.streams();
            attempts += t.attempts();
            failures += t.failures();
        }
        return new long[] {streams, attempts, failures};
    }

    /** Stops every part and waits for it: a request in flight is answered first (nothing is cut mid-request). */
    @Override
    public void close() {
        running.set(false);
        tails.forEach(ConsoleTail::close);
        for (Thread t : threads) {
            try {
                t.join(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
