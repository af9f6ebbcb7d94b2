package dev.ledgerlink.accounts;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The scope catalog: every scope the interface names, with the plain words the consent page shows.
 * Applications may only be granted scopes listed here.
 */
public final class Scopes {
    private static final Map<String, String> CATALOG = new LinkedHashMap<>();

    static {
        CATALOG.put("user:profile:read", "See your name, e-mail address and the businesses you belong to");
        CATALOG.put("user:bills:read", "See your bills");
        CATALOG.put("user:bills:write", "Create and change your bills");
        CATALOG.put("user:bill_payments:read", "See payments of your bills");
        CATALOG.put("user:bill_payments:write", "Record payments of your bills");
        CATALOG.put("user:billable_items:read", "See your items and services");
        CATALOG.put("user:clients:read", "See your clients");
        CATALOG.put("user:estimates:read", "See your estimates");
        CATALOG.put("user:expenses:read", "See your expenses and their categories");
        CATALOG.put("user:invoices:read", "See your invoices and recurring invoices");
        CATALOG.put("user:payments:read", "See payments you received");
        CATALOG.put("user:projects:read", "See your projects");
        CATALOG.put("user:taxes:read", "See your taxes");
        CATALOG.put("user:time_entries:read", "See your time entries");
    }

    private Scopes() {}

    public static boolean isKnown(String scope) {
        return CATALOG.containsKey(scope);
    }

    /** Plain-words description for the consent page; the scope name itself for an unknown one. */
    public static String describe(String scope) {
        return CATALOG.getOrDefault(scope, scope);
    }

    public static Set<String> all() {
        return CATALOG.keySet();
    }

    /** Splits a space-separated scope string, keeping order and dropping repeats. */
    public static Set<String> parse(String spaceSeparated) {
        Set<String> out = new LinkedHashSet<>();
        if (spaceSeparated == null) return out;
        for (String s : spaceSeparated.trim().split("\\s+")) if (!s.isEmpty()) out.add(s);
        return out;
    }

    public static String join(Collection<String> scopes) {
        return String.join(" ", scopes);
    }
}
