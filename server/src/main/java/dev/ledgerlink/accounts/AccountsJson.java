package dev.ledgerlink.accounts;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON shapes of accounts, users, memberships and applications, shared by the admin API and the CLI. */
public final class AccountsJson {
    private AccountsJson() {}

    public static Map<String, Object> account(Account a) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("account_id", a.accountId());
        out.put("business_id", a.businessId());
        out.put("name", a.name());
        out.put("timezone", a.timezone());
        out.put("created_at", String.valueOf(a.createdAt()));
        return out;
    }

    public static Map<String, Object> user(User u) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", u.id());
        out.put("email", u.email());
        out.put("first_name", u.firstName());
        out.put("last_name", u.lastName());
        out.put("created_at", String.valueOf(u.createdAt()));
        return out;
    }

    public static Map<String, Object> membership(AccountService.Member m) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("membership_id", m.membershipId());
        out.put("account_id", m.accountId());
        out.put("user_id", m.userId());
        out.put("role", m.role());
        out.put("created_at", String.valueOf(m.createdAt()));
        return out;
    }

    /** Never the secret: it exists in plain text only in the answer of create and rotate. */
    public static Map<String, Object> application(Application a, Instant now) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", a.id());
        out.put("client_id", a.clientId());
        out.put("name", a.name());
        out.put("redirect_uris", a.redirectUris());
        out.put("scopes", List.copyOf(a.scopes()));
        out.put("created_at", a.createdAt().toString());
        out.put("secret_rotated_at", a.secretRotatedAt().toString());
        Instant until = a.previousSecretExpiresAt();
        out.put("previous_secret_valid_until", until != null && now.isBefore(until) ? until.toString() : null);
        return out;
    }

    /** An application with its new secret, as create and rotate-secret answer (the one time it is shown). */
    public static Map<String, Object> created(ApplicationService.Created c, Instant now) {
        Map<String, Object> out = application(c.application(), now);
        out.put("client_secret", c.clientSecret());
        return out;
    }
}
