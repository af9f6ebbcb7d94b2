package dev.ledgerlink.errors;

import java.util.ArrayList;
import java.util.List;

/** Collects every field violation of one input, so a client learns all its mistakes at once. */
public final class Validation {
    private final List<ServiceException.FieldViolation> violations = new ArrayList<>();

    public Validation check(boolean ok, String field, String description) {
        if (!ok) violations.add(new ServiceException.FieldViolation(field, description));
        return this;
    }

    public Validation add(String field, String description) {
        violations.add(new ServiceException.FieldViolation(field, description));
        return this;
    }

    public boolean hasViolation(String field) {
        return violations.stream().anyMatch(v -> v.field().equals(field));
    }

    /** Throws a 422 naming every violation, if there is any. */
    public void throwIfInvalid() {
        if (!violations.isEmpty()) throw ServiceException.invalid(violations);
    }
}
