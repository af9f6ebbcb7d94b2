package dev.ledgerlink.web;

import dev.ledgerlink.accounts.AccountService;
import dev.ledgerlink.accounts.Membership;
import dev.ledgerlink.accounts.User;
import dev.ledgerlink.accounts.UserService;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.oauth.TokenPrincipal;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GET /auth/api/v1/users/me: who the bearer token speaks for. Every key of decisions.md is present
 * (null where we hold nothing), because a widely used client crashes when one is missing. Any valid
 * token may call it: client libraries call it right after the code exchange to learn the account id.
 */
final class IdentityHandler {
    private final BearerAuth bearer;
    private final UserService users;
    private final AccountService accounts;

    IdentityHandler(BearerAuth bearer, UserService users, AccountService accounts) {
        this.bearer = bearer;
        this.users = users;
        this.accounts = accounts;
    }

    void me(Context ctx) {
        TokenPrincipal principal = bearer.require(ctx);
        User user = users.find(principal.userId())
                .orElseThrow(() -> ServiceException.unauthorized("The access token's user no longer exists."));
        List<Map<String, Object>> memberships = new ArrayList<>();
        for (Membership m : accounts.membershipsOf(user.id())) {
            Map<String, Object> business = new LinkedHashMap<>();
            business.put("id", m.account().businessId());
            business.put("name", m.account().name());
            business.put("account_id", m.account().accountId());
            business.put("timezone", m.account().timezone());
            business.put("address", null);
            business.put("phone_number", null);
            business.put("business_clients", List.of());
            Map<String, Object> membership = new LinkedHashMap<>();
            membership.put("id", m.id());
            membership.put("role", m.role());
            membership.put("business", business);
            memberships.add(membership);
        }
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("id", user.id());
        response.put("identity_id", user.id());
        response.put("first_name", user.firstName());
        response.put("last_name", user.lastName());
        response.put("email", user.email());
        response.put("business_memberships", memberships);
        ctx.json(Map.of("response", response));
    }
}
