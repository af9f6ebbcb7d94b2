package dev.ledgerlink.web;

/** One line of the consent page: the scope's name and what it lets the application do, in plain words. */
public record ConsentScope(String name, String description) {}
