package dev.ledgerlink.web;

import com.fasterxml.jackson.databind.JsonNode;

/** The recover call's body fields, shared by the bearer route and the admin route (the answer: {@link dev.ledgerlink.delivery.DeliveryJson#recovered}). */
final class RecoverJson {
    private RecoverJson() {}

    /** A string field; absent or null is null, anything but a string a 422 naming it. */
    static String text(JsonNode body, String field) {
        return RequestBodies.text(body, field, field, "must be a string: an ISO-8601 instant such as 2026-11-20T08:00:00Z");
    }
}
