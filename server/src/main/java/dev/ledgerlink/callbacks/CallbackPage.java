package dev.ledgerlink.callbacks;

import java.util.List;

/** One page of a list: the callbacks, and where the page sits (pages is at least 1). */
public record CallbackPage(List<Callback> callbacks, int page, int pages, int perPage, long total) {}
