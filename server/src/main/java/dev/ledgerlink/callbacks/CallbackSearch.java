package dev.ledgerlink.callbacks;

import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.events.EventCatalog;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The list call's query (decisions.md, "Callbacks"): page (default 1), per_page (default 15; above
 * 100 it is clamped to 100, the value shown in the answer, as the client libraries' own paginators
 * do), search[event] (noun or noun.verb), search[uri] (exact), search[verified] (true/false in any
 * letter case; the bare parameter verified is accepted too). A page, per_page or verified that is
 * not a positive integer / boolean, an unknown event, or an unknown search[...] key is a 422 naming it.
 */
public record CallbackSearch(int page, int perPage, String noun, String name, String uri, Boolean verified) {
    public static final int DEFAULT_PER_PAGE = 15;
    public static final int MAX_PER_PAGE = 100;
    private static final java.util.Set<String> SEARCH_KEYS = java.util.Set.of("search[event]", "search[uri]", "search[verified]");

    public long offset() {
        return (long) (page - 1) * perPage;
    }

    /** @param query every query parameter with all its values, names as sent (brackets decoded) */
    public static CallbackSearch parse(Map<String, List<String>> query) {
        Validation v = new Validation();
        int page = positive(first(query, "page"), 1, "page", v);
        int perPage = Math.min(MAX_PER_PAGE, positive(first(query, "per_page"), DEFAULT_PER_PAGE, "per_page", v));

        String event = first(query, "search[event]");
        String noun = null, name = null;
        if (event != null) {
            if (EventCatalog.subscription(event).isEmpty()) {
                v.add("search[event]", "must be a noun or noun.verb from the events table");
            } else {
                noun = EventCatalog.nounOf(event);
                name = event.equals(noun) ? null : event;
            }
        }
        String uri = first(query, "search[uri]");

        String verifiedText = first(query, "search[verified]");
        String verifiedField = "search[verified]";
        if (verifiedText == null) {
            verifiedText = first(query, "verified");
            verifiedField = "verified";
        }
        Boolean verified = null;
        if (verifiedText != null) {
            String t = verifiedText.trim().toLowerCase(Locale.ROOT);
            if (t.equals("true")) verified = true;
            else if (t.equals("false")) verified = false;
            else v.add(verifiedField, "must be true or false");
        }
        for (String key : query.keySet()) {
            if (key.startsWith("search[") && !SEARCH_KEYS.contains(key)) {
                v.add(key, "is not a search filter of callbacks (event, uri, verified)");
            }
        }
        v.throwIfInvalid();
        return new CallbackSearch(page, perPage, noun, name, uri, verified);
    }

    private static String first(Map<String, List<String>> query, String key) {
        List<String> values = query.get(key);
        return values == null || values.isEmpty() ? null : values.getFirst();
    }

    private static int positive(String text, int fallback, String field, Validation v) {
        if (text == null || text.isBlank()) return fallback;
        try {
            int n = Integer.parseInt(text.trim());
            if (n >= 1) return n;
        } catch (NumberFormatException e) {
            // falls through to the violation
        }
        v.add(field, "must be a positive integer");
        return fallback;
    }
}
