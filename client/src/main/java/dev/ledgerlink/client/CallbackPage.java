package dev.ledgerlink.client;

import java.util.List;

/** One page of the callbacks list. */
public record CallbackPage(List<Callback> callbacks, int page, int pages, int perPage, int total) {}
