package dev.ledgerlink.events;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The events table of the interface: each noun, its verbs, and the scope a subscriber needs.
 * An event name is a noun alone (all its verbs) or noun.verb.
 */
public final class EventCatalog {

    public record Noun(String name, List<String> verbs, String scope) {}

    private static final Map<String, Noun> NOUNS = new LinkedHashMap<>();

    static {
        add("category", "user:expenses:read", "create", "update", "delete");
        add("client", "user:clients:read", "create", "update", "delete");
        add("estimate", "user:estimates:read", "create", "update", "delete", "sendByEmail");
        add("expense", "user:expenses:read", "create", "update", "delete");
        add("invoice", "user:invoices:read", "create", "update", "delete", "sendByEmail");
        add("item", "user:billable_items:read", "create", "update", "delete");
        add("payment", "user:payments:read", "create", "update", "delete");
        add("project", "user:projects:read", "create", "update", "delete");
        add("recurring", "user:invoices:read", "create", "update", "delete");
        add("service", "user:billable_items:read", "create", "update", "delete");
        add("tax", "user:taxes:read", "create", "update", "delete");
        add("time_entry", "user:time_entries:read", "create", "update", "delete");
    }

    private EventCatalog() {}

    private static void add(String noun, String scope, String... verbs) {
        NOUNS.put(noun, new Noun(noun, List.of(verbs), scope));
    }

    /** The noun of a known subscription name (noun or noun.verb); empty for anything else. */
    public static Optional<Noun> subscription(String name) {
        if (name == null) return Optional.empty();
        int dot = name.indexOf('.');
        Noun noun = NOUNS.get(dot < 0 ? name : name.substring(0, dot));
        if (noun == null) return Optional.empty();
        if (dot < 0) return Optional.of(noun);
        return noun.verbs().contains(name.substring(dot + 1)) ? Optional.of(noun) : Optional.empty();
    }

    /** True for a publishable event: exactly noun.verb from the table. */
    public static boolean isEvent(String name) {
        return name != null && name.indexOf('.') > 0 && subscription(name).isPresent();
    }

    /** The noun part of a name: "invoice" for both "invoice" and "invoice.create". */
    public static String nounOf(String name) {
        int dot = name.indexOf('.');
        return dot < 0 ? name : name.substring(0, dot);
    }

    public static Map<String, Noun> nouns() {
        return java.util.Collections.unmodifiableMap(NOUNS);
    }
}
