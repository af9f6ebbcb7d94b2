package dev.ledgerlink.bench.scenarios;

import dev.ledgerlink.bench.BenchConfig;
import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.Scenario;
import dev.ledgerlink.bench.oauth.RefreshChains;
import dev.ledgerlink.bench.peer.KeycloakRealm;
import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.proc.KeycloakProcess;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.bench.report.Figure;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Issue 10's side-by-side comparison: refresh grants of ledgerlink and of Keycloak measured in the same
 * run by the same closed loop ({@link RefreshChains}: one single-use rotation chain per virtual
 * thread), with the same bounds (a warm-up of 10 s, longer while the server's JIT compiler is still busy, at
 * most 60 s; a 30 s window; 16 and 64 chains), one server at a time,
 * and the ratio ledgerlink / Keycloak of the grants per second. Keycloak runs as its distribution
 * starts in dev mode ({@link KeycloakProcess}), its realm set up through its admin API
 * ({@link KeycloakRealm}).
 */
public final class PeerScenario implements Scenario {
    static final String KEYCLOAK_DB = "dev-file";
    private final Path keycloakZip;

    /** @param keycloakZip the keycloak-quarkus-dist zip (scripts/bench --peer keycloak fetches it with Maven) */
    public PeerScenario(Path keycloakZip) {
        this.keycloakZip = keycloakZip;
    }

    @Override
    public String name() { return "peer"; }

    /** The bounds; --quick keeps the shape with short windows, for a functional check only. */
    static BenchConfig bounds(BenchConfig c) {
        return c.quick() ? c.withLoad(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(3), List.of(4, 16))
                : c.withLoad(Duration.ofSeconds(10), Duration.ofSeconds(60), Duration.ofSeconds(30), List.of(16, 64));
    }

    @Override
    public List<Figure> run(BenchRun run) throws Exception {
        BenchConfig c = bounds(run.config());
        int chains = c.tokenConcurrency().stream().mapToInt(Integer::intValue).max().orElse(1);
        List<Figure> out = new ArrayList<>();

        Map<String, Map<Integer, Double>> ours = new LinkedHashMap<>();
        for (BenchDatabase.Kind kind : c.databases()) {
            try (BenchRun.Stage stage = run.stage(kind)) {
                TokenEndpointScenario.Prepared prepared = TokenEndpointScenario.prepareChains(stage, chains);
                // As in production: development mode journals every call an application makes (docs/sandbox.md),
                // which is not what a deployment runs; the applications' loopback redirect URI was registered above.
                ServerProcess server = stage.start(false);
                RefreshChains loop = prepared.chains(server);
                Map<Integer, Double> rates = new LinkedHashMap<>();
                for (int conc : c.tokenConcurrency()) {
                    Loads.Measured m = Loads.measure(c, server.pid(), stage.postgres(), conc, loop);
                    rates.put(conc, m.outcome().perSecond());
                    out.addAll(Loads.figures(name(), "ledgerlink refresh grants", stage.label(), conc, m, null, null));
                }
                ours.put(stage.label(), rates);
            } catch (Exception e) {
                e.printStackTrace();
                out.add(Figure.notMeasured(name(), "ledgerlink refresh grants", kind.label(), "/s", null, e.toString()));
            }
        }

        Map<Integer, Double> theirs = new LinkedHashMap<>();
        String keycloakNote;
        try (KeycloakProcess kc = KeycloakProcess.start(keycloakZip, c.outputDir().resolve("keycloak"), c.outputDir().resolve("logs"))) {
            keycloakNote = kc.version() + ", start-dev";
            System.out.printf("bench: %s (java pid %d) ready in %.0f ms (log %s)%n", kc.version(), kc.javaPid(), kc.startToReadyMs(),
                    kc.log());
            out.add(Figure.measured(name(), "Keycloak start-dev to ready", KEYCLOAK_DB, kc.startToReadyMs(), "ms", null,
                    "first start of a fresh data directory: Quarkus re-augmentation, schema creation, master realm"));
            RefreshChains loop = KeycloakRealm.create(kc).chains(chains);
            for (int conc : c.tokenConcurrency()) {
                Loads.Measured m = Loads.measure(c, kc.javaPid(), false, conc, loop);
                theirs.put(conc, m.outcome().perSecond());
                List<Figure> figures = Loads.figures(name(), "Keycloak refresh grants", KEYCLOAK_DB, conc, m, null, null, null);
                figures.getFirst().with("keycloak", keycloakNote).with("keycloak_jvm_options", kc.jvmOptions());
                out.addAll(figures);
            }
        } catch (Exception e) {
            e.printStackTrace();
            keycloakNote = e.toString();
            out.add(Figure.notMeasured(name(), "Keycloak refresh grants", KEYCLOAK_DB, "/s", null, e.toString()));
        }

        for (var db : ours.entrySet()) {
            for (int conc : c.tokenConcurrency()) {
                Double mine = db.getValue().get(conc);
                Double peer = theirs.get(conc);
                String metric = "refresh grants c" + conc + " ledgerlink / Keycloak";
                if (mine == null || peer == null || peer <= 0) {
                    out.add(Figure.notMeasured(name(), metric, db.getKey(), "x", null,
                            "Keycloak's refresh grants were not measured: " + keycloakNote));
                } else {
                    out.add(Figure.measured(name(), metric, db.getKey(), mine / peer, "x", null,
                            String.format("same run, same loop: ledgerlink %.0f/s on %s, Keycloak %.0f/s (%s)", mine, db.getKey(), peer,
                                    keycloakNote)));
                }
            }
        }
        return out;
    }
}
