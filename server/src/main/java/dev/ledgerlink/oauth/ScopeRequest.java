package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.Scopes;
import java.util.Set;
import java.util.function.Function;

/**
 * The scope rule of an authorization (decisions.md "Authorization page"): {@code scope} is optional;
 * by default the application's configured scopes; requested ones must be a subset of them.
 * Shared by the authorization page and the operator's grant.
 */
final class ScopeRequest {
    private ScopeRequest() {}

    /** The scopes to grant; {@code refusal} builds the error for the first requested scope the application lacks. */
    static Set<String> resolve(String requested, Application app, Function<String, RuntimeException> refusal) {
        if (requested == null || requested.isBlank()) return app.scopes();
        Set<String> scopes = Scopes.parse(requested);
        for (String s : scopes) {
            if (!app.scopes().contains(s)) throw refusal.apply(s);
        }
        return scopes;
    }
}
