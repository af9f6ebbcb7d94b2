package dev.ledgerlink.client.sandbox;

import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Walks the authorization page as a browser does, over real HTTP: GET the page, post the login form
 * with its CSRF token (the session cookie kept), approve the consent page with its token, and read
 * the code from the redirect. Nothing is skipped: a refusal on the way fails with the page's words.
 */
final class AuthorizationPageDriver {
    private static final Pattern CSRF = Pattern.compile("name=\"csrf_token\" value=\"([^\"]+)\"");
    private static final Pattern ALERT = Pattern.compile("<p class=\"alert\"[^>]*>([^<]*)</p>");

    private final String authorizationEndpoint;
    private final HttpClient http = HttpClient.newBuilder()
            .cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    AuthorizationPageDriver(String authorizationEndpoint) {
        this.authorizationEndpoint = authorizationEndpoint;
    }

    String code(String email, String password, String clientId, String redirectUri) {
        String page = authorizationEndpoint + "?response_type=code&client_id=" + enc(clientId) + "&redirect_uri=" + enc(redirectUri)
                + "&state=sandbox";
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(page)).GET());
        r = post(page, "action=login&csrf_token=" + enc(csrf(r)) + "&email=" + enc(email) + "&password=" + enc(password));
        if (r.statusCode() == 200 && r.body().contains("value=\"authorize\"")) {
            r = post(page, "action=authorize&csrf_token=" + enc(csrf(r)));
        }
        String location = r.headers().firstValue("Location").orElse(null);
        if (r.statusCode() / 100 != 3 || location == null) throw refused(r);
        Matcher code = Pattern.compile("[?&]code=([^&]+)").matcher(location);
        if (!code.find()) throw new IllegalStateException("the authorization page redirected without a code: " + location);
        return URLDecoder.decode(code.group(1), StandardCharsets.UTF_8);
    }

    private HttpResponse<String> post(String page, String form) {
        return send(HttpRequest.newBuilder(URI.create(page)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)));
    }

    private static String csrf(HttpResponse<String> r) {
        Matcher m = CSRF.matcher(r.body());
        if (r.statusCode() != 200 || !m.find()) throw refused(r);
        return m.group(1);
    }

    private static IllegalStateException refused(HttpResponse<String> r) {
        Matcher alert = ALERT.matcher(r.body());
        String why = alert.find() ? alert.group(1) : r.body().replaceAll("<[^>]+>", " ").replaceAll("\\s+", " ").trim();
        return new IllegalStateException("the authorization page answered " + r.statusCode() + ": " + why);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("the authorization page did not answer: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
