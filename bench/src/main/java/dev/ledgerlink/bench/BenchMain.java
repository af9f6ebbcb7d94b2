package dev.ledgerlink.bench;

import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.report.Figure;
import dev.ledgerlink.bench.report.Report;
import dev.ledgerlink.bench.scenarios.DeliveryScenario;
import dev.ledgerlink.bench.growth.GrowthDatabase;
import dev.ledgerlink.bench.scenarios.CostsScenario;
import dev.ledgerlink.bench.scenarios.FloodScenario;
import dev.ledgerlink.bench.scenarios.GrowthScenario;
import dev.ledgerlink.bench.scenarios.IsolationScenario;
import dev.ledgerlink.bench.scenarios.PeerScenario;
import dev.ledgerlink.bench.scenarios.SignInFloodScenario;
import dev.ledgerlink.bench.scenarios.StartupScenario;
import dev.ledgerlink.bench.scenarios.TokenEndpointScenario;
import dev.ledgerlink.bench.soak.SoakScenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The benchmark run: this JVM is the load generator (and the callback receiver); the server under
 * test runs in its own JVM. Prints a table and writes results.json (see docs/BENCHMARKS.md).
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measure ledgerlink on this machine over loopback: token endpoint, delivery, isolation, footprint; "
                + "with --peer keycloak, Keycloak's refresh grants beside ledgerlink's.")
public final class BenchMain implements Callable<Integer> {
    @Option(names = "--quick", description = "Every scenario for about a second with tiny counts (what the test suite runs).")
    boolean quick;

    @Option(names = "--db", defaultValue = "both", description = "h2, postgres or both (default: ${DEFAULT-VALUE}).")
    String db;

    @Option(names = "--server-jar", description = "The server's shaded jar; without it the server runs from this JVM's classpath.")
    Path serverJar;

    @Option(names = "--out", defaultValue = "bench/target/bench", description = "Directory for results.json, server logs and profiles.")
    Path out;

    @Option(names = "--profile", description = "Record a flight recording of the server in each scenario and print where its CPU went.")
    boolean profile;

    @Option(names = "--tracing", description = "Run every server with traces on (tracing.otlp-endpoint), sent to a collector in this JVM"
            + " that accepts and counts them; publishes carry a traceparent. Compare with a run without to see what tracing costs.")
    boolean tracing;

    @Option(names = "--only", split = ",", description = "Run only these scenarios: token, delivery, isolation, footprint, signin, flood; "
            + "soak (never part of a plain run: --minutes N of mixed load, the server read every minute); "
            + "growth (never part of a plain run: the same loads on an empty and on a filled database, --scale); "
            + "costs (never part of a plain run: each operation's cost, and the sizing guide's check on a mixed load).")
    List<String> only = new ArrayList<>();

    @Option(names = "--peer", description = "keycloak: measure Keycloak's refresh grants beside ledgerlink's in this run "
            + "(alone, unless --only names other scenarios too).")
    String peer;

    @Option(names = "--window", description = "Seconds each load is measured (default: 10; 1 with --quick). A longer window narrows"
            + " the spread of an A/B comparison.")
    Integer windowSeconds;

    @Option(names = "--minutes", defaultValue = "30", description = "With --only soak: how long the soak's load runs on each database"
            + " (default: ${DEFAULT-VALUE}); the server is read every minute.")
    int minutes;

    @Option(names = "--scale", description = "With --only growth: the filled PostgreSQL database's size, 1 being issue 45's"
            + " (10.7 million refresh tokens, 100,000 callbacks, ...); H2's is a tenth of it. Default: 1 (0.001 with --quick).")
    Double scale;

    @Option(names = "--growth-dir", description = "With --only growth: where the filled databases, their records and the harness's own"
            + " PostgreSQL cluster are kept between runs (default: LEDGERLINK_BENCH_GROWTH_DIR or /var/tmp/ledgerlink-growth).")
    Path growthDir;

    @Option(names = "--keycloak-zip", description = "The keycloak-quarkus-dist zip for --peer keycloak (scripts/bench fetches it with Maven).")
    Path keycloakZip;

    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<BenchDatabase.Kind> dbs = switch (db) {
            case "h2" -> List.of(BenchDatabase.Kind.H2);
            case "postgres" -> List.of(BenchDatabase.Kind.POSTGRES);
            case "both" -> List.of(BenchDatabase.Kind.H2, BenchDatabase.Kind.POSTGRES);
            default -> throw new CommandLine.ParameterException(new CommandLine(this), "--db must be h2, postgres or both");
        };
        BenchConfig config = quick ? BenchConfig.quick(dbs, serverJar, out, profile) : BenchConfig.full(dbs, serverJar, out, profile);
        if (tracing) config = config.withTracing();
        if (windowSeconds != null) {
            if (windowSeconds < 1) throw new CommandLine.ParameterException(new CommandLine(this), "--window must be at least 1 (seconds)");
            config = config.withLoad(config.warmup(), config.warmupMost(), Duration.ofSeconds(windowSeconds), config.tokenConcurrency());
        }
        List<Scenario> scenarios = new ArrayList<>(defaultScenarios());
        List<String> selected = new ArrayList<>(only);
        if (peer != null) {
            if (!peer.equals("keycloak")) throw new CommandLine.ParameterException(new CommandLine(this), "--peer must be keycloak");
            if (keycloakZip == null || !Files.isRegularFile(keycloakZip)) {
                throw new CommandLine.ParameterException(new CommandLine(this),
                        "--peer keycloak needs --keycloak-zip, the keycloak-quarkus-dist zip (scripts/bench fetches it)");
            }
            PeerScenario p = new PeerScenario(keycloakZip);
            scenarios.add(p);
            selected.add(p.name());
        }
        if (selected.contains("growth")) {
            double sc = scale != null ? scale : quick ? 0.001 : 1;
            if (!(sc > 0) || sc > 10) throw new CommandLine.ParameterException(new CommandLine(this), "--scale must be above 0 and at most 10");
            scenarios.add(new GrowthScenario(sc, growthDir != null ? growthDir : GrowthDatabase.defaultDir()));
        }
        if (selected.contains("costs")) scenarios.add(new CostsScenario(growthDir != null ? growthDir : GrowthDatabase.defaultDir()));
        if (selected.contains("soak")) {
            if (minutes < 1) throw new CommandLine.ParameterException(new CommandLine(this), "--minutes must be at least 1");
            scenarios.add(new SoakScenario(Duration.ofMinutes(minutes), Duration.ofMinutes(1)));
        }
        Report report = run(config, selected, scenarios);
        report.printTable(System.out);
        Path json = out.resolve("results.json");
        report.writeJson(json);
        report.writeMarkdown(out.resolve("results.md"));
        System.out.println("\nwrote " + json.toAbsolutePath() + " and results.md");
        return 0;
    }

    /** Runs the scenarios; one that fails is reported as not measured with its error, the others still run. */
    public static Report run(BenchConfig config, List<String> only) throws Exception {
        return run(config, only, defaultScenarios());
    }

    /** Every scenario of a plain run (the peer comparison is added by --peer). */
    static List<Scenario> defaultScenarios() {
        return List.of(new StartupScenario(), new TokenEndpointScenario(), new DeliveryScenario(), new IsolationScenario(), new SignInFloodScenario(),
                new FloodScenario());
    }

    /** Runs those of the scenarios that {@code only} names (all when it is empty). */
    public static Report run(BenchConfig config, List<String> only, List<Scenario> scenarios) throws Exception {
        Files.createDirectories(config.outputDir());
        Report report = new Report();
        MachineFacts.record(report, config);
        try (BenchRun run = new BenchRun(config)) {
            long t0 = System.nanoTime();
            for (Scenario s : scenarios) {
                if (!only.isEmpty() && !only.contains(s.name())) continue;
                long st = System.nanoTime();
                System.out.println("bench: scenario " + s.name() + " ...");
                try {
                    report.addAll(s.run(run));
                } catch (Exception | Error e) {
                    e.printStackTrace();
                    report.add(Figure.notMeasured(s.name(), "(scenario failed)", "-", "", null, e.toString()));
                }
                System.out.printf("bench: scenario %s took %.1f s%n", s.name(), (System.nanoTime() - st) / 1e9);
            }
            report.fact("run_seconds", (System.nanoTime() - t0) / 1e9);
            report.fact("profiles", run.profiles());
            report.fact("tracing", config.tracing());
            if (run.traces() != null) {
                report.fact("trace_exports", run.traces().exports());
                report.fact("trace_export_bytes", run.traces().bytes());
            }
            if (!run.profiles().isEmpty()) {
                Files.writeString(config.outputDir().resolve("profiles.txt"), String.join("\n", run.profiles()));
            }
        }
        return report;
    }
}
