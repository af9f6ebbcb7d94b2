package dev.ledgerlink.callbacks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.TestHttp;
import dev.ledgerlink.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** The callbacks endpoints of one account as a client library calls them: bearer token, Api-Version alpha, JSON. */
public final class CallbackApi {
    final TestServer server;
    final String accountId;
    final String token;

    public CallbackApi(TestServer server, String accountId, String token) {
        this.server = server;
        this.accountId = accountId;
        this.token = token;
    }

    /** The API of the fixtures' account, with a token of these scopes. */
    static CallbackApi of(Fixtures f, String... scopes) {
        return new CallbackApi(f.server(), f.account().accountId(), f.issue(java.util.Set.of(scopes)).accessToken());
    }

    CallbackApi as(String otherToken) {
        return new CallbackApi(server, accountId, otherToken);
    }

    CallbackApi in(String otherAccount) {
        return new CallbackApi(server, otherAccount, token);
    }

    String path() {
        return "/events/account/" + accountId + "/events/callbacks";
    }

    private String[] headers() {
        return new String[] {"Authorization", "Bearer " + token, "Api-Version", "alpha"};
    }

    TestHttp.Response register(String event, String uri) {
        return server.http.postJson(path(), "{\"callback\": {\"event\": \"" + event + "\", \"uri\": \"" + uri + "\"}}", headers());
    }

    public long registerId(String event, String uri) {
        TestHttp.Response r = register(event, uri);
        if (r.status() != 200) throw new AssertionError("register failed: " + r.status() + " " + r.body());
        return record(r).get("callbackid").asLong();
    }

    TestHttp.Response post(String json) {
        return server.http.postJson(path(), json, headers());
    }

    TestHttp.Response get(long id) {
        return server.http.get(path() + "/" + id, headers());
    }

    TestHttp.Response list(String encodedQuery) {
        return server.http.get(path() + (encodedQuery.isEmpty() ? "" : "?" + encodedQuery), headers());
    }

    TestHttp.Response put(long id, String json) {
        return server.http.putJson(path() + "/" + id, json, headers());
    }

    public TestHttp.Response verify(long id, String verifier) {
        return put(id, "{\"callback\": {\"verifier\": \"" + verifier + "\"}}");
    }

    TestHttp.Response resend(long id) {
        return put(id, "{\"callback\": {\"resend\": true}}");
    }

    TestHttp.Response delete(long id) {
        return server.http.delete(path() + "/" + id, headers());
    }

    static JsonNode record(TestHttp.Response r) {
        return r.json().path("response").path("result").path("callback");
    }

    static JsonNode result(TestHttp.Response r) {
        return r.json().path("response").path("result");
    }

    /** A raw HTTP/1.1 GET, the query written byte for byte (raw [ and ], as one client library sends them). */
    RawResponse rawGet(String pathAndQuery) {
        try (Socket s = new Socket("127.0.0.1", server.server.port())) {
            OutputStream out = s.getOutputStream();
            String req = "GET " + pathAndQuery + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                    + "\r\nApi-Version: alpha\r\nConnection: close\r\n\r\n";
            out.write(req.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int status = Integer.parseInt(text.substring(9, 12));
            int split = text.indexOf("\r\n\r\n");
            String head = text.substring(0, split);
            String body = text.substring(split + 4);
            if (head.toLowerCase().contains("transfer-encoding: chunked")) body = unchunk(body);
            return new RawResponse(status, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    record RawResponse(int status, String body) {
        JsonNode json() {
            try {
                return TestHttp.JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (" + status + "): " + body, e);
            }
        }
    }

    private static String unchunk(String chunked) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < chunked.length()) {
            int eol = chunked.indexOf("\r\n", i);
            int size = Integer.parseInt(chunked.substring(i, eol).trim(), 16);
            if (size == 0) break;
            out.append(chunked, eol + 2, eol + 2 + size);
            i = eol + 2 + size + 2;
        }
        return out.toString();
    }
}
