package dev.ledgerlink.web;

import dev.ledgerlink.callbacks.Callback;
import dev.ledgerlink.delivery.DeliveryService;
import dev.ledgerlink.oauth.Grants;
import dev.ledgerlink.paging.Paging;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/** The admin API's JSON shapes, shared with the CLI (what an operator reads is the same in both). */
public final class AdminJson {
    private AdminJson() {}

    /** A page of any list: {"page", "pages", "per_page", "total", "<name>": [...]}. */
    public static <T> Map<String, Object> page(Paging.Page<T> p, String name, Function<T, Map<String, Object>> json) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("page", p.page());
        m.put("pages", p.pages());
        m.put("per_page", p.perPage());
        m.put("total", p.total());
        m.put(name, p.items().stream().map(json).toList());
        return m;
    }

    /** The public callback record plus what only operators see. */
    public static Map<String, Object> callback(Callback c) {
        Map<String, Object> m = CallbackHandlers.record(c);
        m.put("account_id", c.accountId());
        m.put("application_id", c.applicationId());
        m.put("user_id", c.userId());
        m.put("state", c.state().name().toLowerCase(java.util.Locale.ROOT));
        m.put("failing_since", c.failingSince() == null ? null : c.failingSince().toString());
        m.put("created_at", c.createdAt().toString());
        return m;
    }

    public static Map<String, Object> grant(Grants.Grant g) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", g.id());
        m.put("user_id", g.userId());
        m.put("application_id", g.applicationId());
        m.put("scope", g.scopes());
        m.put("created_at", g.createdAt().toString());
        m.put("active", g.active());
        return m;
    }

    /** What a recover did: the window, how many were re-queued, when the first and last fall due. */
    public static Map<String, Object> recover(DeliveryService.Recovered r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("callbackid", r.callbackId());
        m.put("since", r.window().since().toString());
        m.put("until", r.window().until().toString());
        m.put("requeued", r.requeued());
        m.put("first_attempt_at", r.firstDueAt() == null ? null : r.firstDueAt().toString());
        m.put("last_attempt_at", r.lastDueAt() == null ? null : r.lastDueAt().toString());
        return m;
    }
}
