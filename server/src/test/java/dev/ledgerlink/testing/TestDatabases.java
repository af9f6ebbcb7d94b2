package dev.ledgerlink.testing;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

/**
 * Fresh, isolated databases for tests. The suite runs twice (see server/pom.xml): with
 * -Dledgerlink.test.db=h2 every test gets its own in-memory H2 database; with =postgres its own
 * schema in the real PostgreSQL at LEDGERLINK_TEST_PG_URL (default 127.0.0.1:5432/test, which
 * scripts/test starts or installs when it does not answer).
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

    private static TestDb freshPostgresSchema() {
        String schema = "t_" + uniqueSuffix();
        try (Connection c = DriverManager.getConnection(PG_URL, PG_USER, "");
             Statement st = c.createStatement()) {
            st.execute("create schema " + schema);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL at " + PG_URL + " does not answer (" + e.getMessage()
                    + "); run the suite through scripts/test, which starts one", e);
        }
        String sep = PG_URL.contains("?") ? "&" : "?";
        return new TestDb(PG_URL + sep + "currentSchema=" + schema, PG_USER, "");
    }

    private static String uniqueSuffix() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
    }

    public record TestDb(String url, String user, String password) {}
}
