package dev.ledgerlink.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/** The callbacks of one account: register, verify, resend, update, get, list with search, delete. */
public final class CallbacksClient {
    private final Http http;
    private final String base;
    private final String accessToken;

    CallbacksClient(Http http, String base, String accessToken) {
        this.http = http;
        this.base = base;
        this.accessToken = accessToken;
    }

    /** Registers {@code uri} for {@code event} (noun or noun.verb); the service then POSTs it a verification code. */
    public Callback register(String event, String uri) {
        return one("POST", base, Map.of("event", event, "uri", uri));
    }

    /** Sends back the code the service POSTed to the URI; notifications begin. */
    public Callback verify(long id, String verifier) {
        return one("PUT", base + "/" + id, Map.of("verifier", verifier));
    }

    /** A fresh code is sent to the URI (the old one stops working); re-enables a disabled callback. */
    public Callback resendVerification(long id) {
        return one("PUT", base + "/" + id, Map.of("resend", true));
    }

    /** Changes the event and/or the URI (null keeps it); a new URI must be verified again. */
    public Callback update(long id, String event, String uri) {
        Map<String, Object> fields = new LinkedHashMap<>();
        if (event != null) fields.put("event", event);
        if (uri != null) fields.put("uri", uri);
        return one("PUT", base + "/" + id, fields);
    }

    public Callback get(long id) {
        return one("GET", base + "/" + id, null);
    }

    /** One page; {@code event}, {@code uri}, {@code verified} filter when not null. */
    public CallbackPage list(int page, int perPage, String event, String uri, Boolean verified) {
        StringJoiner q = new StringJoiner("&", base + "?", "");
        q.add("page=" + page).add("per_page=" + perPage);
        if (event != null) q.add("search%5Bevent%5D=" + LedgerlinkClient.enc(event));
        if (uri != null) q.add("search%5Buri%5D=" + LedgerlinkClient.enc(uri));
        if (verified != null) q.add("search%5Bverified%5D=" + verified);
        Http.Reply r = http.send("GET", q.toString(), null, accessToken);
        if (r.status() != 200) throw Http.apiError(r);
        JsonNode result = Http.json(r).path("response").path("result");
        List<Callback> callbacks = new ArrayList<>();
        for (JsonNode c : result.path("callbacks")) callbacks.add(Callback.from(c));
        return new CallbackPage(callbacks, result.path("page").asInt(), result.path("pages").asInt(),
                result.path("per_page").asInt(), result.path("total").asInt());
    }

    public void delete(long id) {
        Http.Reply r = http.send("DELETE", base + "/" + id, null, accessToken);
        if (r.status() != 200) throw Http.apiError(r);
    }

    private Callback one(String method, String url, Map<String, ?> callbackFields) {
        Object body = callbackFields == null ? null : Map.of("callback", callbackFields);
        Http.Reply r = http.send(method, url, body, accessToken);
        if (r.status() / 100 != 2) throw Http.apiError(r);
        return Callback.from(Http.json(r).path("response").path("result").path("callback"));
    }
}
