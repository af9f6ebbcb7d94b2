package dev.ledgerlink.accounts;

import dev.ledgerlink.paging.Paging;
import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.secrets.RandomTokens;
import dev.ledgerlink.store.Constraints;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;

/** Accounts (businesses) and who belongs to them. */
public final class AccountService {
    public static final Set<String> ROLES = Set.of("owner", "admin", "manager", "employee", "accountant", "contractor");
    private static final int ACCOUNT_ID_LENGTH = 5;
    private static final java.util.regex.Pattern FIXED_ACCOUNT_ID = java.util.regex.Pattern.compile("[A-Za-z0-9]{1,16}");

    private final Jdbi jdbi;
    private final Clock clock;

    public AccountService(Jdbi jdbi, Clock clock) {
        this.jdbi = jdbi;
        this.clock = clock;
    }

    public Account create(String name, String timezone) {
        String n = name == null ? "" : name.trim();
        String tz = timezone == null || timezone.isBlank() ? "UTC" : timezone.trim();
        validate(n, tz).throwIfInvalid();
        // A short random id, as the platform's own ids look; retry on the rare collision.
        for (int attempt = 0; attempt < 20; attempt++) {
            String accountId = RandomTokens.alphanumeric(ACCOUNT_ID_LENGTH);
            try {
                jdbi.useExtension(AccountStore.class, s -> s.insert(accountId, n, tz, DbTime.now(clock)));
                return find(accountId).orElseThrow();
            } catch (RuntimeException e) {
                if (!Constraints.isUniqueViolation(e)) throw e;
            }
        }
        throw new IllegalStateException("no free account id after 20 attempts");
    }

    /** An account under an id chosen by the caller (seed files, so test suites can name their accounts). */
    public Account createWithId(String accountId, String name, String timezone) {
        String n = name == null ? "" : name.trim();
        String tz = timezone == null || timezone.isBlank() ? "UTC" : timezone.trim();
        validate(n, tz).check(accountId != null && FIXED_ACCOUNT_ID.matcher(accountId).matches(), "account_id",
                "must be 1 to 16 letters and digits").throwIfInvalid();
        try {
            jdbi.useExtension(AccountStore.class, s -> s.insert(accountId, n, tz, clock.instant()));
        } catch (RuntimeException e) {
            if (Constraints.isUniqueViolation(e)) throw ServiceException.invalid("account_id", accountId + " is already taken");
            throw e;
        }
        return find(accountId).orElseThrow();
    }

    private static Validation validate(String name, String tz) {
        return new Validation()
                .check(Names.isValidRequired(name), "name", "must not be empty; " + Names.RULE)
                .check(isZone(tz), "timezone", "must be an IANA time zone such as America/Toronto");
    }

    public Optional<Account> find(String accountId) {
        if (accountId == null) return Optional.empty();
        return jdbi.withExtension(AccountStore.class, s -> s.findByAccountId(accountId));
    }

    public Membership addMember(String accountId, long userId, String role) {
        String r = role == null ? "owner" : role.trim().toLowerCase(java.util.Locale.ROOT);
        Validation v = new Validation().check(ROLES.contains(r), "role", "must be one of " + String.join(", ", ROLES.stream().sorted().toList()));
        Optional<Account> account = find(accountId);
        v.check(account.isPresent(), "account", "is not known: no account has the id " + accountId);
        boolean userExists = jdbi.withExtension(UserStore.class, s -> s.find(userId)).isPresent();
        v.check(userExists, "user", "is not known: no user has the id " + userId);
        v.throwIfInvalid();
        try {
            jdbi.useExtension(AccountStore.class, s -> s.insertMembership(account.get().businessId(), userId, r, DbTime.now(clock)));
        } catch (RuntimeException e) {
            if (Constraints.isUniqueViolation(e)) throw ServiceException.invalid("user", "is already a member of account " + accountId);
            throw e;
        }
        return membership(userId, accountId).orElseThrow();
    }

    /** Every account, in the order they were created (operators see them all in the console). */
    public List<Account> list() {
        return jdbi.withExtension(AccountStore.class, AccountStore::list);
    }

    /** The ids of the users who belong to any of these accounts. */
    public List<Long> memberIds(java.util.Collection<String> accountIds) {
        if (accountIds.isEmpty()) return List.of();
        return jdbi.withExtension(AccountStore.class, s -> s.memberIds(accountIds));
    }

    public List<Membership> membershipsOf(long userId) {
        return jdbi.withExtension(AccountStore.class, s -> s.membershipsOf(userId));
    }

    public Optional<Membership> membership(long userId, String accountId) {
        return jdbi.withExtension(AccountStore.class, s -> s.membership(userId, accountId));
    }

    /** A page of accounts, in the order they were created. */
    public Paging.Page<Account> page(Paging paging) {
        return jdbi.withExtension(AccountStore.class, s -> paging.page(s.count(), s.page(paging.perPage(), paging.offset())));
    }

    /** One membership as the admin list shows it. */
    public record Member(long membershipId, String accountId, long userId, String role, java.time.Instant createdAt) {}

    /** Memberships of one account, of one user, or all (null filters), in id order. */
    public Paging.Page<Member> members(String accountIdFilter, Long userId, Paging paging) {
        String accountId = accountIdFilter == null || accountIdFilter.isBlank() ? null : accountIdFilter.trim();
        new Validation().check(accountId == null || accountId.length() <= 16, "account_id", "is not an account id (at most 16 characters)")
                .throwIfInvalid();
        return jdbi.withExtension(AccountStore.class, s -> paging.page(s.countMembers(accountId, userId),
                s.members(accountId, userId, paging.perPage(), paging.offset())));
    }

    private static boolean isZone(String tz) {
        try {
            ZoneId.of(tz);
            return true;
        } catch (DateTimeException e) {
            return false;
        }
    }
}
