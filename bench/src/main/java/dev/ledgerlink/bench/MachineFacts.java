package dev.ledgerlink.bench;

import dev.ledgerlink.bench.proc.BenchDatabase;
import dev.ledgerlink.bench.report.Report;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;

/** The facts a figure means nothing without: cores, CPU model, memory, JDK, JVM options, databases. */
final class MachineFacts {
    private MachineFacts() {}

    static void record(Report r, BenchConfig c) {
        r.fact("started_at", Instant.now().toString());
        r.fact("mode", c.quick() ? "quick" : "full");
        r.fact("build", System.getenv().getOrDefault("LEDGERLINK_BENCH_BUILD", "unknown"));
        r.fact("cores", Runtime.getRuntime().availableProcessors());
        r.fact("cpu_model", cpuModel());
        r.fact("memory_total", memTotal());
        r.fact("load_average_at_start", loadAverage());
        r.fact("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vendor") + ")");
        r.fact("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        r.fact("server_jvm_options", System.getenv().getOrDefault("LEDGERLINK_JAVA_OPTS", dev.ledgerlink.bench.proc.ServerProcess.DEFAULT_JAVA_OPTS));
        r.fact("server_launch", c.serverJar() == null ? "classpath of the bench JVM" : "java -jar " + c.serverJar());
        r.fact("databases", c.databases().stream().map(BenchDatabase.Kind::label).toList());
        if (c.databases().contains(BenchDatabase.Kind.POSTGRES)) r.fact("postgres", postgresVersion());
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("unknown");
        } catch (Exception e) {
            return "unknown";
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return "unknown";
        }
    }

    private static String memTotal() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).getFirst().replaceAll("\\s+", " ");
        } catch (Exception e) {
            return "unknown";
        }
    }

    private static String postgresVersion() {
        try (Connection c = DriverManager.getConnection(BenchDatabase.PG_URL, BenchDatabase.PG_USER, "");
             var rs = c.createStatement().executeQuery("select version()")) {
            return rs.next() ? rs.getString(1) : "unknown";
        } catch (Exception e) {
            return "unreachable: " + e.getMessage();
        }
    }
}
