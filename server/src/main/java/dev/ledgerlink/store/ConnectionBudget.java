package dev.ledgerlink.store;

import java.util.Optional;

/**
 * Whether the nodes' pools fit in PostgreSQL's connections: every node may hold db.pool-size
 * connections, and the server refuses connections beyond max_connections (less those kept for
 * superusers), so a node started beside too many others fails requests under load rather than at
 * start. Each node names its connections ({@link #applicationName()}), so a node starting can count
 * the ledgerlink processes connected to the same PostgreSQL server and warn when the sum does not fit
 * (docs/operations.md, "Connections"). Asked once, at start.
 */
public final class ConnectionBudget {
    static final String PREFIX = "ledgerlink ";

    private ConnectionBudget() {}

    /** "ledgerlink host pid": what pg_stat_activity shows as this process's connections' application_name (at most 63 bytes). */
    static String applicationName() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            host = "unknown-host";
        }
        String name = PREFIX + host + " " + ProcessHandle.current().pid();
        return name.length() <= 63 ? name : name.substring(0, 63);
    }

    /** What PostgreSQL allows and what its ledgerlink processes may take, as read at one moment. */
    public record Reading(int maxConnections, int reservedForSuperusers, int ledgerlinkProcesses, int otherConnections, int poolSize) {
        /** Connections an ordinary user may open. */
        public int available() {
            return maxConnections - reservedForSuperusers;
        }

        /** Connections the ledgerlink processes may open at most, this one included. */
        public int needed() {
            return ledgerlinkProcesses * poolSize;
        }

        public boolean fits() {
            return needed() + otherConnections <= available();
        }

        public String warning() {
            return "db.pool-size " + poolSize + " x " + ledgerlinkProcesses + " ledgerlink processes connected to this PostgreSQL server "
                    + "(this node included) = " + needed() + " connections at most, and " + otherConnections + " other connections are open, "
                    + "but PostgreSQL allows " + available() + " (max_connections " + maxConnections + " - superuser_reserved_connections "
                    + reservedForSuperusers + "): under load a node would wait for connections and answer 503. Lower db.pool-size, run fewer "
                    + "nodes, or raise max_connections (docs/operations.md, \"Connections\")";
        }
    }

    /** The reading for a node with this pool size on {@code database}; empty on H2, which has no connection limit. */
    public static Optional<Reading> read(Database database, int poolSize) {
        if (database.dialect() != Database.Dialect.POSTGRESQL) return Optional.empty();
        return Optional.of(database.jdbi().withHandle(h -> h.createQuery("""
                        select current_setting('max_connections')::int as max_connections,
                               current_setting('superuser_reserved_connections')::int as reserved,
                               count(distinct application_name) filter (where application_name like :prefix) as processes,
                               count(*) filter (where application_name not like :prefix and backend_type = 'client backend') as others
                        from pg_stat_activity""")
                .bind("prefix", PREFIX + "%")
                .map((rs, ctx) -> new Reading(rs.getInt("max_connections"), rs.getInt("reserved"),
                        Math.max(1, rs.getInt("processes")), rs.getInt("others"), poolSize))
                .one()));
    }
}
