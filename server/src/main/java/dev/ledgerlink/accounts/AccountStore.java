package dev.ledgerlink.accounts;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.config.RegisterRowMapper;
import org.jdbi.v3.sqlobject.statement.GetGeneratedKeys;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** The accounts and memberships tables. */
@RegisterRowMapper(AccountRows.AccountMapper.class)
@RegisterRowMapper(AccountRows.MembershipMapper.class)
public interface AccountStore {

    @SqlUpdate("""
            insert into accounts (account_id, name, timezone, created_at)
            values (:accountId, :name, :timezone, :createdAt)""")
    @GetGeneratedKeys("id")
    long insert(String accountId, String name, String timezone, Instant createdAt);

    @SqlQuery("select id, account_id, name, timezone, created_at from accounts where account_id = :accountId")
    Optional<Account> findByAccountId(String accountId);

    @SqlQuery("select id, account_id, name, timezone, created_at from accounts order by id")
    List<Account> list();

    @SqlQuery("""
            select distinct m.user_id from memberships m join accounts a on a.id = m.account_id
            where a.account_id in (<accountIds>) order by m.user_id""")
    List<Long> memberIds(@org.jdbi.v3.sqlobject.customizer.BindList("accountIds") java.util.Collection<String> accountIds);

    @SqlUpdate("""
            insert into memberships (account_id, user_id, role, created_at)
            values (:businessId, :userId, :role, :createdAt)""")
    @GetGeneratedKeys("id")
    long insertMembership(long businessId, long userId, String role, Instant createdAt);

    @SqlQuery("""
            select m.id as membership_id, m.role, a.id, a.account_id, a.name, a.timezone, a.created_at
            from memberships m join accounts a on a.id = m.account_id
            where m.user_id = :userId order by m.id""")
    List<Membership> membershipsOf(long userId);

    @SqlQuery("""
            select m.id as membership_id, m.role, a.id, a.account_id, a.name, a.timezone, a.created_at
            from memberships m join accounts a on a.id = m.account_id
            where m.user_id = :userId and a.account_id = :accountId""")
    Optional<Membership> membership(long userId, String accountId);

    @SqlQuery("select id, account_id, name, timezone, created_at from accounts order by id limit :limit offset :offset")
    List<Account> page(int limit, long offset);

    @SqlQuery("select count(*) from accounts")
    long count();

    // Memberships for the admin list: by account (its public id), by user, or all (a null filter is no filter).
    String MEMBER_FILTER = """
            from memberships m join accounts a on a.id = m.account_id
            where (cast(:accountId as varchar(16)) is null or a.account_id = :accountId)
              and (cast(:userId as bigint) is null or m.user_id = :userId)""";

    @SqlQuery("select m.id as membership_id, a.account_id, m.user_id, m.role, m.created_at " + MEMBER_FILTER
            + " order by m.id limit :limit offset :offset")
    @RegisterConstructorMapper(AccountService.Member.class)
    List<AccountService.Member> members(String accountId, Long userId, int limit, long offset);

    @SqlQuery("select count(*) " + MEMBER_FILTER)
    long countMembers(String accountId, Long userId);
}
