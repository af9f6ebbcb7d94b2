package dev.ledgerlink.cli;

import dev.ledgerlink.paging.Paging;
import picocli.CommandLine.Option;

/** --page and --per-page of every list command, read by the same {@link Paging} rule as the API. */
final class PageOptions {
    @Option(names = "--page", defaultValue = "1", paramLabel = "N", description = "Which page to print, from 1 (default: ${DEFAULT-VALUE}).")
    int page;

    @Option(names = "--per-page", defaultValue = "15", paramLabel = "N",
            description = "How many per page, at most " + Paging.MAX_PER_PAGE + " (default: ${DEFAULT-VALUE}).")
    int perPage;

    Paging paging() {
        return Paging.of(page, perPage);
    }

    /** The last line of a list: where the page sits. */
    static String footer(int page, int pages, long total, String noun) {
        return "page " + page + "/" + pages + ", " + total + " " + noun;
    }

    static String footer(Paging.Page<?> p, String noun) {
        if (p.capped()) return "page " + p.page() + "/" + p.pages() + "+, more than " + p.total() + " " + noun;
        return footer(p.page(), p.pages(), p.total(), noun);
    }
}
