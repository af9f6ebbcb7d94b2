package dev.ledgerlink.accounts;

/** The rule for human-readable names (people, businesses, applications). */
final class Names {
    static final String RULE = "must be at most 100 characters without control characters";

    private Names() {}

    static boolean isValid(String name) {
        return name != null && name.length() <= 100 && name.chars().noneMatch(Character::isISOControl);
    }

    static boolean isValidRequired(String name) {
        return isValid(name) && !name.isBlank();
    }
}
