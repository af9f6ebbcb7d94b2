package dev.ledgerlink.web;

import dev.ledgerlink.accounts.Scopes;
import dev.ledgerlink.config.Settings;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * RFC 8414 authorization server metadata at /.well-known/oauth-authorization-server. The issuer is
 * the base URL (base-url, or this request's own address when it is not configured); the
 * authorization endpoint lives on the auth URL.
 */
final class DiscoveryHandler {
    private final Settings settings;

    DiscoveryHandler(Settings settings) {
        this.settings = settings;
    }

    void metadata(Context ctx) {
        String base = PublicUrls.base(settings, ctx);
        String auth = PublicUrls.auth(settings, ctx);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("issuer", base);
        m.put("authorization_endpoint", auth + "/oauth/authorize");
        m.put("token_endpoint", base + "/auth/oauth/token");
        m.put("revocation_endpoint", base + "/auth/oauth/revoke");
        m.put("response_types_supported", List.of("code"));
        m.put("response_modes_supported", List.of("query"));
        m.put("grant_types_supported", List.of("authorization_code", "refresh_token"));
        m.put("code_challenge_methods_supported", List.of("S256", "plain"));
        m.put("token_endpoint_auth_methods_supported", List.of("client_secret_basic", "client_secret_post"));
        m.put("revocation_endpoint_auth_methods_supported", List.of("client_secret_basic", "client_secret_post"));
        m.put("introspection_endpoint", base + "/auth/oauth/introspect");
        // Clients with their credentials; the platform's own services with the operator key as a Bearer token.
        m.put("introspection_endpoint_auth_methods_supported", List.of("client_secret_basic", "client_secret_post", "bearer"));
        m.put("scopes_supported", List.copyOf(Scopes.all()));
        ctx.header("Cache-Control", "public, max-age=3600");
        ctx.json(m);
    }
}
