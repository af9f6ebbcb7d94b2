package dev.ledgerlink.oauth;

import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.accounts.UserService;
import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.notifications.OperatorNotices;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.secrets.KeyRing;
import dev.ledgerlink.store.ServiceClock;
import org.jdbi.v3.core.Jdbi;

/**
 * The authorization server's parts, built once: the page flow, client authentication, the grants, revocation,
 * the operator's grant without a browser, introspection, the operators' view of grants, a user's
 * connected applications and their second factor at sign-in.
 */
public record OAuthServer(
        AuthorizationRequests requests,
        AuthorizationFlow flow,
        LoginSessions sessions,
        PasswordLogin login,
        ClientAuthentication clients,
        AuthorizationCodeGrant authorizationCodeGrant,
        RefreshTokenGrant refreshTokenGrant,
        Revocation revocation,
        OperatorGrant operatorGrant,
        Introspection introspection,
        Grants grants,
        ConnectedApps connectedApps,
        SecondFactor secondFactor) {

    /** {@code clock} is the service clock (the sandbox's in development mode); second-factor codes are checked against its real time. */
    public static OAuthServer create(Settings settings, ServiceClock clock, Jdbi jdbi, TokenService tokens,
                                     UserService users, ApplicationService applications, KeyRing secrets, OperatorNotices notices,
                                     AuditLog audit) {
        var throttle = new LoginThrottle(jdbi, clock, settings.integer(Setting.LOGIN_MAX_FAILURES), settings.duration(Setting.LOGIN_THROTTLE_WINDOW));
        var consents = new Consents(jdbi, clock);
        var codeTtl = settings.duration(Setting.AUTHORIZATION_CODE_TTL);
        var codes = new AuthorizationCodes(jdbi, clock, codeTtl);
        var login = new PasswordLogin(users, throttle, audit);
        var secondFactor = new SecondFactor(jdbi, clock, clock.real(), secrets, throttle, audit);
        return new OAuthServer(
                new AuthorizationRequests(applications),
                new AuthorizationFlow(users, login, secondFactor, consents, codes),
                new LoginSessions(jdbi, clock),
                login,
                new ClientAuthentication(applications),
                new AuthorizationCodeGrant(jdbi, tokens, audit, codeTtl),
                new RefreshTokenGrant(jdbi, tokens, settings.duration(Setting.REFRESH_REPLAY_WINDOW), notices, audit),
                new Revocation(jdbi, tokens),
                new OperatorGrant(jdbi, users, applications, consents, tokens, audit),
                new Introspection(jdbi, clock, applications, tokens.format()),
                new Grants(jdbi, tokens),
                new ConnectedApps(jdbi, tokens, applications, audit),
                secondFactor);
    }
}
