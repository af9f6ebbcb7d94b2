package dev.ledgerlink;

import dev.ledgerlink.accounts.AccountService;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.accounts.UserService;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.oauth.AccessTokenVerifier;
import dev.ledgerlink.oauth.TokenService;
import dev.ledgerlink.store.Database;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;

/** Every capability service of one process, built once by {@link #create}; shared by the web layer and the CLI. */
public record Services(
        Settings settings,
        Clock clock,
        Database database,
        PrometheusMeterRegistry metrics,
        UserService users,
        AccountService accounts,
        ApplicationService applications,
        TokenService tokens) {

    public static Services create(Settings settings, Clock clock, Database database, PrometheusMeterRegistry metrics) {
        boolean devMode = settings.flag(Setting.DEV);
        var jdbi = database.jdbi();
        return new Services(settings, clock, database, metrics,
                new UserService(jdbi, clock),
                new AccountService(jdbi, clock),
                new ApplicationService(jdbi, clock, devMode),
                new TokenService(jdbi, clock, settings.duration(Setting.ACCESS_TOKEN_TTL)));
    }

    /** Resolves bearer access tokens (web/BearerAuth uses it). */
    public AccessTokenVerifier accessTokens() {
        return tokens;
    }
}
