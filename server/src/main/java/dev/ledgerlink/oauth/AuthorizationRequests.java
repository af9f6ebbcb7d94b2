package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.ApplicationService;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks an authorization request in the order RFC 6749 §4.1.2.1 gives. First the client and its
 * redirect URI, which decide whether we may redirect at all (an error page otherwise); then the rest,
 * each refused with a redirect carrying the RFC error code and state.
 */
public final class AuthorizationRequests {
    private static final Set<String> PROMPTS = Set.of("login", "consent", "none");
    private static final int MAX_STATE_LENGTH = 2048;

    private final ApplicationService applications;

    public AuthorizationRequests(ApplicationService applications) {
        this.applications = applications;
    }

    public AuthorizationRequest validate(Map<String, List<String>> query) {
        String clientId = single(query, "client_id", null, null);
        if (clientId == null || clientId.isEmpty()) throw AuthorizationError.page("The link is missing client_id: the application did not say who it is.");
        Application app = applications.findByClientId(clientId)
                .orElseThrow(() -> AuthorizationError.page("No application has the client_id in this link."));
        String redirectUri = single(query, "redirect_uri", null, null);
        if (redirectUri == null || redirectUri.isEmpty()) throw AuthorizationError.page("The link is missing redirect_uri.");
        if (!app.redirectUris().contains(redirectUri)) {
            throw AuthorizationError.page("The redirect_uri in this link is not registered for " + app.name() + ".");
        }

        // From here on the redirect URI is trusted: errors go back to the client.
        String state = firstOf(query, "state");
        if (state != null && state.length() > MAX_STATE_LENGTH) {
            throw AuthorizationError.redirect(redirectUri, null, "invalid_request", "state is longer than " + MAX_STATE_LENGTH + " characters");
        }
        for (Map.Entry<String, List<String>> e : query.entrySet()) {
            if (e.getValue().size() > 1) {
                throw AuthorizationError.redirect(redirectUri, state, "invalid_request", e.getKey() + " was sent more than once");
            }
        }
        String responseType = single(query, "response_type", redirectUri, state);
        if (responseType == null || responseType.isEmpty()) {
            throw AuthorizationError.redirect(redirectUri, state, "invalid_request", "response_type is required (code)");
        }
        if (!responseType.equals("code")) {
            throw AuthorizationError.redirect(redirectUri, state, "unsupported_response_type", "only response_type=code is supported");
        }
        Set<String> scopes = scopes(single(query, "scope", redirectUri, state), app, redirectUri, state);

        String challenge = single(query, "code_challenge", redirectUri, state);
        String method = single(query, "code_challenge_method", redirectUri, state);
        if (challenge == null && method != null) {
            throw AuthorizationError.redirect(redirectUri, state, "invalid_request", "code_challenge_method was sent without code_challenge");
        }
        if (challenge != null) {
            if (method == null) method = "plain";   // RFC 7636 §4.3: plain when the method is absent
            if (!Pkce.isMethod(method)) {
                throw AuthorizationError.redirect(redirectUri, state, "invalid_request", "code_challenge_method must be S256 or plain");
            }
            if (!Pkce.isWellFormed(challenge)) {
                throw AuthorizationError.redirect(redirectUri, state, "invalid_request",
                        "code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~");
            }
        }
        String prompt = single(query, "prompt", redirectUri, state);
        if (prompt != null && !PROMPTS.contains(prompt)) {
            throw AuthorizationError.redirect(redirectUri, state, "invalid_request", "prompt must be login, consent or none");
        }
        return new AuthorizationRequest(app, redirectUri, state, scopes, challenge, method, prompt);
    }

    /** Requested scopes must be known and a subset of the application's; none requested means all of them. */
    private static Set<String> scopes(String requested, Application app, String redirectUri, String state) {
        return ScopeRequest.resolve(requested, app, s -> AuthorizationError.redirect(redirectUri, state, "invalid_scope",
                "scope " + s + " is not among the scopes of this application"));
    }

    private static String single(Map<String, List<String>> query, String name, String redirectUri, String state) {
        List<String> values = query.get(name);
        if (values == null || values.isEmpty()) return null;
        if (values.size() > 1) {
            if (redirectUri == null) throw AuthorizationError.page("The link carries " + name + " more than once.");
            throw AuthorizationError.redirect(redirectUri, state, "invalid_request", name + " was sent more than once");
        }
        return values.getFirst();
    }

    private static String firstOf(Map<String, List<String>> query, String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? null : values.getFirst();
    }
}
