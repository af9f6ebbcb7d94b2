package dev.ledgerlink.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.errors.EchoedInput;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.oauth.AuthorizationCodeGrant;
import dev.ledgerlink.oauth.ClientAuthentication;
import dev.ledgerlink.oauth.Introspection;
import dev.ledgerlink.oauth.OAuthError;
import dev.ledgerlink.oauth.RefreshTokenGrant;
import dev.ledgerlink.oauth.Revocation;
import dev.ledgerlink.oauth.TokenResponse;
import io.javalin.http.Context;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * POST /auth/oauth/token, /auth/oauth/revoke and /auth/oauth/introspect: parse (JSON or form body, Basic or body
 * credentials), authenticate the client, hand over to the grant, render. Errors are RFC 6749 §5.2
 * bodies rendered by {@link #renderError}.
 */
final class TokenHandlers {
    private final ClientAuthentication clients;
    private final AuthorizationCodeGrant authorizationCode;
    private final RefreshTokenGrant refreshToken;
    private final Revocation revocation;
    private final Introspection introspection;
    private final OperatorAuth operator;

    TokenHandlers(ClientAuthentication clients, AuthorizationCodeGrant authorizationCode, RefreshTokenGrant refreshToken,
                  Revocation revocation, Introspection introspection, OperatorAuth operator) {
        this.clients = clients;
        this.authorizationCode = authorizationCode;
        this.refreshToken = refreshToken;
        this.revocation = revocation;
        this.introspection = introspection;
        this.operator = operator;
    }

    void token(Context ctx) {
        Map<String, String> p = parameters(ctx);
        Application client = clients.authenticate(credentials(ctx, p));
        String grantType = p.get("grant_type");
        TokenResponse response = switch (grantType == null ? "" : grantType) {
            case "" -> throw OAuthError.invalidRequest("grant_type is required: authorization_code or refresh_token");
            case "authorization_code" -> authorizationCode.exchange(client, p.get("code"), p.get("redirect_uri"), p.get("code_verifier"));
            case "refresh_token" -> refreshToken.exchange(client, p.get("refresh_token"));
            default -> throw OAuthError.unsupportedGrantType("grant_type " + EchoedInput.printable(grantType, 40)
                    + " is not supported; supported: authorization_code, refresh_token");
        };
        noStore(ctx);
        ctx.json(response);
    }

    void revoke(Context ctx) {
        Map<String, String> p = parameters(ctx);
        Application client = clients.authenticate(credentials(ctx, p));
        revocation.revoke(client, p.get("token"), p.get("token_type_hint"));
        noStore(ctx);
        ctx.json(Map.of());
    }

    /**
     * RFC 7662: the platform's services present the operator key as a Bearer token and may introspect
     * any token; a client authenticates as at the token endpoint and sees only its own tokens.
     */
    void introspect(Context ctx) {
        Map<String, String> p = parameters(ctx);
        Introspection.Caller caller = operator.presentedBy(ctx)
                ? Introspection.Caller.operator()
                : new Introspection.Caller(clients.authenticate(credentials(ctx, p)));
        Map<String, Object> answer = introspection.introspect(caller, p.get("token"), p.get("token_type_hint"));
        noStore(ctx);
        ctx.json(answer);
    }

    static void renderError(OAuthError e, Context ctx) {
        noStore(ctx);
        ErrorNote.note(ctx, e.error(), e.description());
        if (e.basicChallenge()) ctx.header("WWW-Authenticate", "Basic realm=\"ledgerlink\", charset=\"UTF-8\"");
        ctx.status(e.status()).json(Map.of("error", e.error(), "error_description", e.description()));
    }

    static void noStore(Context ctx) {
        ctx.header("Cache-Control", "no-store");
        ctx.header("Pragma", "no-cache");
    }

    /** The body's parameters, from either encoding client libraries use; each at most once (RFC 6749 §3.2). */
    private static Map<String, String> parameters(Context ctx) {
        String type = ctx.contentType() == null ? "" : ctx.contentType().toLowerCase(Locale.ROOT);
        Map<String, String> out = new HashMap<>();
        if (type.startsWith("application/x-www-form-urlencoded")) {
            for (Map.Entry<String, List<String>> e : ctx.formParamMap().entrySet()) {
                if (e.getValue().size() > 1) throw OAuthError.invalidRequest(EchoedInput.printable(e.getKey(), 40) + " was sent more than once");
                if (!e.getValue().isEmpty()) out.put(e.getKey(), e.getValue().getFirst());
            }
        } else if (type.startsWith("application/json")) {
            JsonNode body;
            try {
                body = RequestBodies.objectBody(ctx);
            } catch (ServiceException e) {
                throw OAuthError.invalidRequest(e.getMessage());
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = body.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = e.getValue();
                if (v.isNull()) continue;
                if (!v.isValueNode()) throw OAuthError.invalidRequest(EchoedInput.printable(e.getKey(), 40) + " must be a string");
                out.put(e.getKey(), v.asText());
            }
        } else {
            throw OAuthError.invalidRequest("send the parameters as application/x-www-form-urlencoded or application/json");
        }
        return out;
    }

    /**
     * HTTP Basic when the Authorization header uses it (id and secret form-urlencoded first, RFC 6749
     * §2.3.1), else the body. Any other scheme, such as "Bearer undefined" from a client library, is ignored.
     */
    private static ClientAuthentication.Credentials credentials(Context ctx, Map<String, String> p) {
        String header = ctx.header("Authorization");
        if (header == null || header.length() < 6 || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return new ClientAuthentication.Credentials(p.get("client_id"), p.get("client_secret"), false);
        }
        String id;
        String secret;
        try {
            String decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            if (colon < 0) throw new IllegalArgumentException("no colon");
            id = URLDecoder.decode(decoded.substring(0, colon), StandardCharsets.UTF_8);
            secret = URLDecoder.decode(decoded.substring(colon + 1), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw OAuthError.invalidClient("the Basic credentials are not base64 of client_id:client_secret", true);
        }
        if (p.containsKey("client_secret")) throw OAuthError.invalidRequest("use one client authentication method: HTTP Basic or client_secret in the body, not both");
        if (p.containsKey("client_id") && !p.get("client_id").equals(id)) throw OAuthError.invalidRequest("client_id in the body differs from the one in HTTP Basic");
        return new ClientAuthentication.Credentials(id, secret, true);
    }
}
