package dev.ledgerlink.client;

import java.util.List;

/** The user an access token speaks for, and the businesses they belong to. */
public record Identity(long id, String firstName, String lastName, String email, List<Membership> memberships) {

    /** A business membership; {@code accountId} is what the callbacks paths take. */
    public record Membership(long id, String role, long businessId, String businessName, String accountId) {}
}
