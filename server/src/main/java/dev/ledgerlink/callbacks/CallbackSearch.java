package dev.ledgerlink.callbacks;

import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.events.EventCatalog;
import dev.ledgerlink.paging.Paging;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The list call's query (decisions.md, "Callbacks"): page and per_page as {@link Paging} reads them,
 * search[event] (noun or noun.verb), search[uri] (exact), search[verified] (true/false in any
 * letter case; the bare parameter verified is accepted too). A page, per_page or verified that is
 * not a positive integer / boolean, an unknown event, or an unknown search[...] key is a 422 naming it.
 */
public record CallbackSearch(int page, int perPage, String noun, String name, String uri, Boolean verified) {
    public static final int MAX_PER_PAGE = Paging.MAX_PER_PAGE;
    private static final java.util.Set<String> SEARCH_KEYS = java.util.Set.of("search[event]", "search[uri]", "search[verified]");

    public long offset() {
        return (long) (page - 1) * perPage;
    }

    /** @param query every query parameter with all its values, names as sent (brackets decoded) */
    public static CallbackSearch parse(Map<String, List<String>> query) {
        Validation v = new Validation();
        Paging paging = Paging.parse(query, v);
        int page = paging.page();
        int perPage = paging.perPage();

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
        return Paging.first(query, key);
    }
}
