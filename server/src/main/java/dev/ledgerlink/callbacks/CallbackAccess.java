package dev.ledgerlink.callbacks;

import dev.ledgerlink.accounts.AccountService;
import dev.ledgerlink.errors.EchoedInput;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.events.EventCatalog;
import dev.ledgerlink.oauth.TokenPrincipal;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who may touch which callbacks (docs/callbacks.md, "Scope rules"):
 * <ul>
 * <li>the token's user must be a member of the account in the path, else 403;</li>
 * <li>a token sees and manages only the callbacks its own application registered in that account
 *     (others are 404, like those of another account);</li>
 * <li>registering, or changing a callback to, an event needs the scope of the event's noun
 *     (events table), else 403 naming the scope; reading, verifying, resending and deleting a
 *     callback need that scope too, and a list shows only callbacks whose scope the token holds.
 *     So a token can see exactly the subscriptions it could have made.</li>
 * </ul>
 */
public final class CallbackAccess {
    private final AccountService accounts;

    public CallbackAccess(AccountService accounts) {
        this.accounts = accounts;
    }

    public void requireMember(TokenPrincipal principal, String accountId) {
        if (accounts.membership(principal.userId(), accountId).isEmpty()) {
            throw ServiceException.forbidden("The token's user is not a member of account " + EchoedInput.identifier(accountId, 32) + ".");
        }
    }

    /** 403 naming the scope when the token lacks the scope of the event (a known noun or noun.verb). */
    public static void requireScopeFor(TokenPrincipal principal, String event) {
        EventCatalog.Noun noun = EventCatalog.subscription(event)
                .orElseThrow(() -> new IllegalArgumentException("not a catalogued event: " + event));
        if (!principal.hasScope(noun.scope())) throw ServiceException.insufficientScope(noun.scope());
    }

    /** The nouns whose events the token may see. */
    public static Set<String> visibleNouns(TokenPrincipal principal) {
        Set<String> nouns = new TreeSet<>();
        for (EventCatalog.Noun n : EventCatalog.nouns().values()) {
            if (principal.hasScope(n.scope())) nouns.add(n.name());
        }
        return nouns;
    }
}
