package dev.ledgerlink.web;

import java.util.List;

/** One connected application as the account page lists it: what it can do in plain words, and its times in words. */
public record ConnectedAppLine(String clientId, String name, List<String> can, String since, String lastUsed) {}
