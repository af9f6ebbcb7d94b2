package dev.ledgerlink.accounts;

/** A user's role in an account, with the account it names. */
public record Membership(long id, String role, Account account) {}
