package dev.ledgerlink.testing;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

/**
 * Fresh, isolated databases for tests. The suite runs twice (docs/testing.md): with
 * -Dledgerlink.test.db=h2 every test gets its own in-memory H2 database; with =postgres its own
 * schema in the real PostgreSQL at LEDGERLINK_TEST_PG_URL (default 127.0.0.1:5432/test, which
 * scripts/test starts or installs when it does not answer).
 *
 * <p>The schemas live in a database of this test JVM's own ({@link #PG_URL}'s server, a new
 * database created at first use and dropped when the JVM exits), not in the database the URL names:
 * schemas were never dropped, so that database's catalog grew by every test class of every run
 * (54,000 relations after a few runs here), and Flyway's catalog queries, which every server start
 * makes, slowed with it (a migration took 1 to 1.6 s instead of 0.25 s). Where the user may not
 * create databases, the schemas go to the named database as before.
 */
public final class TestDatabases {
    public static final String PG_URL = System.getenv().getOrDefault("LEDGERLINK_TEST_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
    public static final String PG_USER = System.getenv().getOrDefault("LEDGERLINK_TEST_PG_USER", "postgres");

    private TestDatabases() {}

    public static boolean postgres() {
        return System.getProperty("ledgerlink.test.db", "h2").equalsIgnoreCase("postgres");
    }

    /** A new empty database for this process only (in-memory on H2). */
    public static TestDb fresh() {
        return postgres() ? freshPostgresSchema() : new TestDb("jdbc:h2:mem:t" + uniqueSuffix(), "", "");
    }

    /** A new empty database that several processes can open at once (an H2 file under dir, or a PostgreSQL schema). */
    public static TestDb freshShared(Path dir) {
        if (postgres()) return freshPostgresSchema();
        return new TestDb("jdbc:h2:file:" + dir.resolve("db" + uniqueSuffix()).toAbsolutePath(), "", "");
    }

    /** A new empty PostgreSQL schema whichever pass runs (tests of what only PostgreSQL has, run once). */
    public static TestDb freshPostgres() {
        return freshPostgresSchema();
    }

    private static TestDb freshPostgresSchema() {
        String url = JvmDatabase.URL;
        String schema = "t_" + uniqueSuffix();
        try (Connection c = DriverManager.getConnection(url, PG_USER, "");
             Statement st = c.createStatement()) {
            st.execute("create schema " + schema);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL at " + url + " does not answer (" + e.getMessage()
                    + "); run the suite through scripts/test, which starts one", e);
        }
        String sep = url.contains("?") ? "&" : "?";
        return new TestDb(url + sep + "currentSchema=" + schema, PG_USER, "");
    }

    /** This JVM's database on {@link #PG_URL}'s server (see the class comment), made at first use. */
    private static final class JvmDatabase {
        private static final String PREFIX = "ledgerlink_test_";
        static final String URL = create();

        private static String create() {
            String name = PREFIX + java.time.Instant.now().getEpochSecond() + "_" + ProcessHandle.current().pid()
                    + "_" + uniqueSuffix().substring(0, 8);
            try (Connection c = DriverManager.getConnection(PG_URL, PG_USER, "");
                 Statement st = c.createStatement()) {
                dropThoseOfEndedJvms(st);
                st.execute("create database " + name);
            } catch (SQLException e) {
                return PG_URL;   // no right to create databases (or no server: the caller reports that)
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> drop(name), "drop-test-database"));
            return withDatabase(PG_URL, name);
        }

        /**
         * Databases left by test JVMs that ended without dropping theirs (killed): made over a day ago
         * by a process of this machine that is gone. A JVM of another machine or container sharing the
         * server is never younger than a day with the same name, so its database is left alone.
         */
        private static void dropThoseOfEndedJvms(Statement st) throws SQLException {
            if (!PG_URL.startsWith("jdbc:postgresql://127.0.0.1") && !PG_URL.startsWith("jdbc:postgresql://localhost")) return;
            java.util.List<String> stale = new java.util.ArrayList<>();
            try (var rs = st.executeQuery("select datname from pg_database where datname like '" + PREFIX + "%'")) {
                while (rs.next()) {
                    String db = rs.getString(1);
                    String[] parts = db.substring(PREFIX.length()).split("_");
                    try {
                        boolean old = Long.parseLong(parts[0]) < java.time.Instant.now().minus(java.time.Duration.ofDays(1)).getEpochSecond();
                        if (old && ProcessHandle.of(Long.parseLong(parts[1])).isEmpty()) stale.add(db);
                    } catch (NumberFormatException | ArrayIndexOutOfBoundsException ignored) {
                        // not one of ours
                    }
                }
            }
            for (String db : stale) {
                try {
                    st.execute("drop database if exists " + db + " with (force)");
                } catch (SQLException ignored) {
                    // another JVM dropped it first
                }
            }
        }

        private static void drop(String name) {
            try (Connection c = DriverManager.getConnection(PG_URL, PG_USER, "");
                 Statement st = c.createStatement()) {
                st.execute("drop database if exists " + name + " with (force)");
            } catch (SQLException e) {
                System.err.println("could not drop the test database " + name + ": " + e.getMessage());
            }
        }

        /** {@code url} naming database {@code name} instead of its own (host, port and parameters kept). */
        static String withDatabase(String url, String name) {
            int query = url.indexOf('?');
            String params = query < 0 ? "" : url.substring(query);
            String base = query < 0 ? url : url.substring(0, query);
            int hosts = base.indexOf("//");
            if (hosts < 0) return "jdbc:postgresql:" + name + params;   // jdbc:postgresql:database
            int path = base.indexOf('/', hosts + 2);
            return (path < 0 ? base : base.substring(0, path)) + "/" + name + params;
        }
    }

    private static String uniqueSuffix() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
    }

    public record TestDb(String url, String user, String password) {}
}
