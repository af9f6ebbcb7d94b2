package dev.ledgerlink.delivery;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON shape of a delivery and its attempts, shared by the history route and the CLI. */
public final class DeliveryJson {
    private DeliveryJson() {}

    public static Map<String, Object> of(DeliveryRecord d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", d.id());
        m.put("message_id", "msg_" + d.id());
        m.put("callbackid", d.callbackId());
        m.put("event_id", d.eventId());
        m.put("kind", d.kind().value());
        m.put("name", d.name());
        m.put("state", d.state().value());
        m.put("state_description", d.state().description());
        m.put("attempt_count", d.attemptCount());
        // null also while it waits behind an earlier delivery of its ordered callback (docs/delivery.md, "Order").
        m.put("next_attempt_at", d.state() == DeliveryState.PENDING && !d.waitsForEarlier() ? String.valueOf(d.nextAttemptAt()) : null);
        m.put("drop_reason", d.dropReason());
        m.put("created_at", String.valueOf(d.createdAt()));
        m.put("finished_at", d.finishedAt() == null ? null : d.finishedAt().toString());
        m.put("test", d.test());
        m.put("attempts", d.attempts().stream().map(DeliveryJson::attempt).toList());
        return m;
    }

    static Map<String, Object> attempt(DeliveryRecord.Attempt a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("attempt", a.attempt());
        m.put("attempted_at", a.attemptedAt().toString());
        m.put("status_code", a.statusCode());
        m.put("duration_ms", a.durationMs());
        m.put("error", a.error());
        m.put("request_headers", a.requestHeaders());
        m.put("request_body", a.requestBody());
        m.put("response_headers", a.responseHeaders());
        m.put("response_body", a.responseBody());
        return m;
    }

    public static Map<String, Object> page(DeliveryReads.DeliveryPage p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("page", p.page());
        m.put("pages", p.pages());
        m.put("per_page", p.perPage());
        m.put("total", p.total());
        List<Map<String, Object>> list = p.deliveries().stream().map(DeliveryJson::of).toList();
        m.put("deliveries", list);
        return m;
    }

    /** What a recover did: the window, how many were re-queued, when the first and last fall due. */
    public static Map<String, Object> recovered(DeliveryService.Recovered r) {
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
