package dev.ledgerlink.web.console;

import dev.ledgerlink.accounts.Account;
import dev.ledgerlink.accounts.User;
import java.util.List;

/**
 * Who is looking at the console: an operator (signed in with the operator key: every account) or a
 * user (signed in with e-mail and password: the accounts they belong to). {@code csrf} is the
 * session's token, which every form of the page carries. {@code sandboxTime} is set only in a
 * development sandbox whose clock was moved: every page then says which time its rules read.
 */
public record Viewer(boolean operator, User user, List<Account> accounts, String csrf, boolean devMode, SandboxTime sandboxTime) {

    /** The sandbox's time when it was moved off real time (its banner on every page), else null. */
    public record SandboxTime(java.time.Instant now, java.time.Duration offset) {}

    /** The accounts this viewer may see, or null for every account (an operator). */
    public List<String> accountIds() {
        return operator ? null : accounts.stream().map(Account::accountId).toList();
    }

    public boolean canSee(String accountId) {
        return operator || accounts.stream().anyMatch(a -> a.accountId().equals(accountId));
    }

    public String name() {
        return operator ? "Operator" : user.email();
    }

    /** Creating applications and rotating their secrets: development mode only. */
    public boolean mayChangeApplications() {
        return devMode;
    }
}
