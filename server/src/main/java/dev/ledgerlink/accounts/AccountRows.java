package dev.ledgerlink.accounts;

import dev.ledgerlink.store.TimeMapping;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;

/** Row mappers of the accounts package, where columns do not map one to one onto a record. */
final class AccountRows {
    private AccountRows() {}

    public static final class AccountMapper implements RowMapper<Account> {
        @Override
        public Account map(ResultSet rs, StatementContext ctx) throws SQLException {
            return new Account(rs.getLong("id"), rs.getString("account_id"), rs.getString("name"),
                    rs.getString("timezone"), TimeMapping.read(rs, "created_at"));
        }
    }

    public static final class MembershipMapper implements RowMapper<Membership> {
        @Override
        public Membership map(ResultSet rs, StatementContext ctx) throws SQLException {
            return new Membership(rs.getLong("membership_id"), rs.getString("role"), new AccountMapper().map(rs, ctx));
        }
    }
}
