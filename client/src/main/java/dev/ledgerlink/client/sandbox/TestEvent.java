package dev.ledgerlink.client.sandbox;

/** One event of a test publish: its name (noun.verb of the catalog), object and the user it names. */
public record TestEvent(String name, long objectId, long userId) {}
