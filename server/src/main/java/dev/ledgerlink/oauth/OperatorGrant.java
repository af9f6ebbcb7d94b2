package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.accounts.Scopes;
import dev.ledgerlink.accounts.User;
import dev.ledgerlink.accounts.UserService;
import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.errors.ServiceException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;

/**
 * Tokens without a browser (`ledgerlink tokens issue`, the JUnit sandbox): an operator grants an
 * application access for a user. Everything the authorization page would do after the user clicked
 * Authorize happens here, in one transaction: the scope rule of the authorization request (a subset
 * of the application's, its configured scopes by default), the consent recorded, then the same
 * minting as a code exchange (older refresh tokens of the pair superseded). Written to the audit log.
 */
public final class OperatorGrant {
    /** The token response and whom it was issued to. */
    public record Issued(TokenResponse response, User user, Application application) {}

    private final Jdbi jdbi;
    private final UserService users;
    private final ApplicationService applications;
    private final Consents consents;
    private final TokenService tokens;
    private final AuditLog audit;

    OperatorGrant(Jdbi jdbi, UserService users, ApplicationService applications, Consents consents, TokenService tokens, AuditLog audit) {
        this.jdbi = jdbi;
        this.users = users;
        this.applications = applications;
        this.consents = consents;
        this.tokens = tokens;
        this.audit = audit;
    }

    /**
     * @param user     an e-mail address or a numeric user id
     * @param clientId the application's client_id (or its numeric id)
     * @param scopes   requested scopes; empty for the application's configured scopes
     */
    public Issued issue(String user, String clientId, List<String> scopes) {
        User u = findUser(user).orElseThrow(() -> ServiceException.notFound("no user " + user));
        Application app = applications.show(clientId);
        Set<String> granted = ScopeRequest.resolve(scopes == null ? null : String.join(" ", scopes), app,
                s -> ServiceException.invalid("scope", s + " is not among the scopes of application " + app.clientId()
                        + " (" + Scopes.join(app.scopes()) + ")"));
        TokenPair pair = jdbi.inTransaction(h -> {
            consents.grant(h, u.id(), app.id(), granted);
            return tokens.issueForNewGrant(h, u.id(), app.id(), granted, null);
        });
        audit.record(AuditLog.Event.TOKENS_ISSUED_BY_OPERATOR, "grant_id", pair.grantId(), "user_id", u.id(),
                "application_id", app.id(), "client_id", app.clientId(), "scopes", Scopes.join(granted));
        return new Issued(TokenResponse.of(pair), u, app);
    }

    private Optional<User> findUser(String user) {
        if (user == null || user.isBlank()) return Optional.empty();
        if (user.matches("\\d{1,18}")) return users.find(Long.parseLong(user));
        return users.findByEmail(user);
    }
}
