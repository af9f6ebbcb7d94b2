package dev.ledgerlink.store.migration;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.List;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Access and refresh tokens are stored as the 32 bytes of their SHA-256 instead of its 64 hex
 * characters (secrets/Hashes.sha256): every grant inserts one row into each table and one entry into
 * each unique hash index, and on H2 each commit rewrites every index page it touched, so half the
 * bytes per key, compared as bytes, make every grant cheaper (docs/benchmarks-history.md, "Token
 * hashes as bytes"). Tokens issued before keep working: their hex is decoded in place.
 *
 * <p>PostgreSQL converts each column in one transactional statement. H2 has no SQL function that
 * decodes hex (a cast to binary takes the characters' UTF-8), and its DDL commits at once, so there
 * the bytes are written into a new column in pages of rows and the columns swapped; every step checks
 * what is already done, so a migration cut off by a crash finishes on the next start.
 */
public final class V21__binary_token_hashes extends BaseJavaMigration {
    static final List<String> TABLES = List.of("oauth_refresh_tokens", "oauth_access_tokens");
    private static final int PAGE = 5_000;

    @Override
    public void migrate(Context context) throws Exception {
        Connection c = context.getConnection();
        boolean h2 = SchemaQueries.isH2(c);
        for (String table : TABLES) {
            if (h2) onH2(c, table);
            else execute(c, "alter table " + table + " alter column token_hash type bytea using decode(token_hash, 'hex')");
        }
    }

    private static void onH2(Connection c, String table) throws SQLException {
        String unique = table + "_hash_unique";
        String type = SchemaQueries.columnType(c, table, "token_hash");
        if (type != null && !type.toUpperCase().contains("BINARY")) {   // still hex characters
            execute(c, "alter table " + table + " add column if not exists token_digest bytea");
            fill(c, table);
            execute(c, "alter table " + table + " drop constraint if exists " + unique);
            execute(c, "alter table " + table + " drop column token_hash");
        }
        if (SchemaQueries.columnType(c, table, "token_hash") == null) {
            execute(c, "alter table " + table + " alter column token_digest rename to token_hash");
        }
        execute(c, "alter table " + table + " alter column token_hash set not null");
        execute(c, "alter table " + table + " add constraint if not exists " + unique + " unique (token_hash)");
    }

    /** Decodes the hex of every row not yet done, a page of rows per transaction, in id order. */
    private static void fill(Connection c, String table) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement read = c.prepareStatement("select id, token_hash from " + table
                     + " where token_digest is null and id > ? order by id limit " + PAGE);
             PreparedStatement write = c.prepareStatement("update " + table + " set token_digest = ? where id = ?")) {
            long after = Long.MIN_VALUE;
            while (true) {
                int rows = 0;
                read.setLong(1, after);
                try (ResultSet rs = read.executeQuery()) {
                    while (rs.next()) {
                        after = rs.getLong(1);
                        write.setBytes(1, HexFormat.of().parseHex(rs.getString(2)));
                        write.setLong(2, after);
                        write.addBatch();
                        rows++;
                    }
                }
                if (rows == 0) break;
                write.executeBatch();
                c.commit();
            }
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        SchemaQueries.execute(c, sql);
    }
}
