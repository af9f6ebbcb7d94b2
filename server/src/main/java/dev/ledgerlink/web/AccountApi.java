package dev.ledgerlink.web;

import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.oauth.ConnectedAppJson;
import dev.ledgerlink.oauth.ConnectedApps;
import dev.ledgerlink.oauth.LoginSession;
import dev.ledgerlink.oauth.LoginSessions;
import dev.ledgerlink.oauth.OAuthServer;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The account page's JSON API, {auth_url}/oauth/account/api (docs/oauth.md, "Connected
 * applications"): the signed-in user's session cookie authenticates (the hosted sign-in's, not a
 * bearer token), and a request that changes something carries the session's CSRF token in
 * {@code X-CSRF-Token} (the list hands it out; another site can neither read it nor set the header).
 * Errors are the API's JSON error body.
 */
final class AccountApi {
    static final String CSRF_HEADER = "X-CSRF-Token";

    private final OAuthServer oauth;
    private final ClientAddress clientAddress;

    AccountApi(OAuthServer oauth, ClientAddress clientAddress) {
        this.oauth = oauth;
        this.clientAddress = clientAddress;
    }

    /** GET .../connected-apps: {"connected_apps": [...], "csrf_token": "..."} */
    void connectedApps(Context ctx) {
        LoginSession session = signedIn(ctx);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("connected_apps", oauth.connectedApps().of(session.userId()).stream().map(ConnectedAppJson::of).toList());
        body.put("csrf_token", session.csrfToken());
        ctx.header("Cache-Control", "no-store");
        ctx.json(body);
    }

    /** DELETE .../connected-apps/{client_id}: {"disconnected": {...}} */
    void disconnect(Context ctx) {
        LoginSession session = signedIn(ctx);
        if (!LoginSessions.csrfMatches(session, ctx.header(CSRF_HEADER))) {
            throw ServiceException.forbidden("The " + CSRF_HEADER + " header must carry this session's csrf_token (GET .../connected-apps gives it).");
        }
        ConnectedApps.Disconnected d = oauth.connectedApps().disconnect(session.userId(), ctx.pathParam("client_id"), ConnectedApps.By.USER,
                clientAddress.of(ctx));
        ctx.header("Cache-Control", "no-store");
        ctx.json(Map.of("disconnected", ConnectedAppJson.disconnected(d)));
    }

    private LoginSession signedIn(Context ctx) {
        return oauth.sessions().find(ctx.cookie(AuthorizePage.COOKIE)).filter(LoginSession::isAuthenticated)
                .orElseThrow(() -> ServiceException.unauthorized("Sign in on the account page first: this API takes its session cookie."));
    }
}
