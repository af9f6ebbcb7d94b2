package dev.ledgerlink;

import dev.ledgerlink.accounts.AccountService;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.accounts.UserService;
import dev.ledgerlink.callbacks.CallbackService;
import dev.ledgerlink.callbacks.CallbackUriRule;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.delivery.DeliveryService;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.oauth.AccessTokenVerifier;
import dev.ledgerlink.oauth.TokenService;
import dev.ledgerlink.secrets.SecretBox;
import dev.ledgerlink.secrets.SecretKeys;
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
        TokenService tokens,
        SecretBox secretBox,
        DeliveryService deliveries,
        EventPublisher events,
        CallbackService callbacks) {

    public static Services create(Settings settings, Clock clock, Database database, PrometheusMeterRegistry metrics) {
        boolean devMode = settings.flag(Setting.DEV);
        var jdbi = database.jdbi();
        var accounts = new AccountService(jdbi, clock);
        var secretBox = SecretKeys.load(settings);
        var deliveries = new DeliveryService(jdbi, clock);
        return new Services(settings, clock, database, metrics,
                new UserService(jdbi, clock),
                accounts,
                new ApplicationService(jdbi, clock, devMode),
                new TokenService(jdbi, clock, settings.duration(Setting.ACCESS_TOKEN_TTL)),
                secretBox,
                deliveries,
                new EventPublisher(jdbi, clock, deliveries),
                new CallbackService(jdbi, clock, accounts, secretBox, CallbackUriRule.system(devMode), deliveries::enqueueVerification));
    }

    /** Resolves bearer access tokens (web/BearerAuth uses it). */
    public AccessTokenVerifier accessTokens() {
        return tokens;
    }
}
