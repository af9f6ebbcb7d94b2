package dev.ledgerlink.paging;

import dev.ledgerlink.errors.Validation;
import java.util.List;
import java.util.Map;

/**
 * The one page rule of every list (decisions.md, "Callbacks", and the admin API): {@code page}
 * (default 1) and {@code per_page} (default 15; above 100 it is clamped to 100, the value shown in
 * the answer, as the client libraries' own paginators do). A page or per_page that is not a positive
 * integer is a 422 naming it.
 */
public record Paging(int page, int perPage) {
    public static final int DEFAULT_PER_PAGE = 15;
    public static final int MAX_PER_PAGE = 100;

    /**
     * A page of a list: the items, and where the page sits (pages is at least 1). {@code capped}: the
     * list was counted only up to {@code total}, and holds at least that many (a search over a history
     * of millions of rows); pages then counts the pages up to there.
     */
    public record Page<T>(List<T> items, int page, int pages, int perPage, long total, boolean capped) {
        public Page(List<T> items, int page, int pages, int perPage, long total) {
            this(items, page, pages, perPage, total, false);
        }

        /**
         * As the admin API and the CLI print a list: {"page", "pages", "per_page", "total", "<name>": [...]},
         * and "total_capped": true when the count stopped at total.
         */
        public Map<String, Object> json(String name, java.util.function.Function<T, Map<String, Object>> item) {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("page", page);
            m.put("pages", pages);
            m.put("per_page", perPage);
            m.put("total", total);
            if (capped) m.put("total_capped", true);
            m.put(name, items.stream().map(item).toList());
            return m;
        }

        public <R> Page<R> map(java.util.function.Function<T, R> f) {
            return new Page<>(items.stream().map(f).toList(), page, pages, perPage, total, capped);
        }
    }

    public static Paging of(int page, int perPage) {
        Validation v = new Validation();
        v.check(page >= 1, "page", "must be a positive integer");
        v.check(perPage >= 1, "per_page", "must be a positive integer");
        v.throwIfInvalid();
        return new Paging(page, Math.min(MAX_PER_PAGE, perPage));
    }

    /** Reads page and per_page from a query, adding what is wrong to {@code v} (the caller throws). */
    public static Paging parse(Map<String, List<String>> query, Validation v) {
        int page = positive(first(query, "page"), 1, "page", v);
        int perPage = Math.min(MAX_PER_PAGE, positive(first(query, "per_page"), DEFAULT_PER_PAGE, "per_page", v));
        return new Paging(page, perPage);
    }

    /** The same, throwing the 422 at once. */
    public static Paging parse(Map<String, List<String>> query) {
        Validation v = new Validation();
        Paging p = parse(query, v);
        v.throwIfInvalid();
        return p;
    }

    public long offset() {
        return (long) (page - 1) * perPage;
    }

    /** This page of a list of {@code total} items. */
    public <T> Page<T> page(long total, List<T> items) {
        int pages = (int) Math.max(1, (total + perPage - 1) / perPage);
        return new Page<>(items, page, pages, perPage, total);
    }

    /** This page of a list counted only up to {@code atLeast} items (it holds at least that many). */
    public <T> Page<T> pageOfAtLeast(long atLeast, List<T> items) {
        int pages = (int) Math.max(1, (atLeast + perPage - 1) / perPage);
        return new Page<>(items, page, pages, perPage, atLeast, true);
    }

    public static String first(Map<String, List<String>> query, String key) {
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
