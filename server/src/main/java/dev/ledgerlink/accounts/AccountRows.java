package dev.ledgerlink.accounts;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;

/** Row mappers of the accounts package, where columns do not map one to one onto a record. */
final class AccountRows {
    private AccountRows() {}

    static Instant instant(ResultSet rs, String column, StatementContext ctx) throws SQLException {
        return ctx.findColumnMapperFor(Instant.class).orElseThrow().map(rs, column, ctx);
    }

    public static final class AccountMapper implements RowMapper<Account> {
        @Override
        public Account map(ResultSet rs, StatementContext ctx) throws SQLException {
            return new Account(rs.getLong("id"), rs.getString("account_id"), rs.getString("name"),
                    rs.getString("timezone"), instant(rs, "created_at", ctx));
        }
    }

    public static final class MembershipMapper implements RowMapper<Membership> {
        @Override
        public Membership map(ResultSet rs, StatementContext ctx) throws SQLException {
            return new Membership(rs.getLong("membership_id"), rs.getString("role"), new AccountMapper().map(rs, ctx));
        }
    }
}
