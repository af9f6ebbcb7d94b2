package dev.ledgerlink.bench.costs;

/**
 * What one operation cost, on average over a phase that ran {@code count} of it: the server's CPU, the
 * database's CPU (PostgreSQL's processes; 0 on H2, which runs in the server), WAL bytes, commits and
 * statements on PostgreSQL, bytes H2 wrote to its file. Costs add up: a composite operation's cost is the
 * sum of its parts' (see {@link #plus}, {@link #times}).
 */
public record Cost(double serverCpuMicros, double dbCpuMicros, double walBytes, double commits, double statements, double h2Bytes) {
    public static final Cost ZERO = new Cost(0, 0, 0, 0, 0, 0);

    /** The phase's difference over its operations. */
    public static Cost per(Counters.Reading d, double count) {
        double n = Math.max(count, 1e-9);
        return new Cost(d.serverCpu() * 1e6 / n, d.dbCpu() * 1e6 / n, d.walBytes() / n, d.commits() / n, d.statements() / n, d.h2Written() / n);
    }

    public Cost plus(Cost o) {
        return new Cost(serverCpuMicros + o.serverCpuMicros, dbCpuMicros + o.dbCpuMicros, walBytes + o.walBytes, commits + o.commits,
                statements + o.statements, h2Bytes + o.h2Bytes);
    }

    public Cost minus(Cost o) {
        return plus(o.times(-1));
    }

    public Cost times(double k) {
        return new Cost(serverCpuMicros * k, dbCpuMicros * k, walBytes * k, commits * k, statements * k, h2Bytes * k);
    }

    /** Cores the server needs for {@code perSecond} of these. */
    public double serverCores(double perSecond) {
        return serverCpuMicros * perSecond / 1e6;
    }

    public double dbCores(double perSecond) {
        return dbCpuMicros * perSecond / 1e6;
    }

    public String describe() {
        return String.format("server %.0f us, database %.0f us, WAL %.0f bytes, %.2f commits, %.2f statements%s", serverCpuMicros, dbCpuMicros,
                walBytes, commits, statements, h2Bytes > 0 ? String.format(", H2 wrote %.0f bytes", h2Bytes) : "");
    }
}
