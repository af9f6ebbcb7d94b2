package dev.ledgerlink;

import dev.ledgerlink.accounts.AccountService;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.accounts.UserService;
import dev.ledgerlink.audit.AuditLog;
import dev.ledgerlink.callbacks.CallbackService;
import dev.ledgerlink.callbacks.CallbackUriRule;
import dev.ledgerlink.callbacks.OperatorCallbacks;
import dev.ledgerlink.config.PasswordHashSettings;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.delivery.CallbackHistory;
import dev.ledgerlink.delivery.DeliveryService;
import dev.ledgerlink.delivery.Recovery;
import dev.ledgerlink.oauth.AccessTokenVerifier;
import dev.ledgerlink.oauth.OAuthServer;
import dev.ledgerlink.oauth.RotationBatches;
import dev.ledgerlink.oauth.TokenFormat;
import dev.ledgerlink.oauth.TokenService;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.events.FanOut;
import dev.ledgerlink.net.PublicAddressGate;
import dev.ledgerlink.notifications.NotificationSettings;
import dev.ledgerlink.notifications.OperatorNotices;
import dev.ledgerlink.retention.RetentionRules;
import dev.ledgerlink.retention.RetentionSweeper;
import dev.ledgerlink.secrets.PasswordHashMetrics;
import dev.ledgerlink.secrets.PasswordHasher;
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
        AuditLog audit,
        UserService users,
        AccountService accounts,
        ApplicationService applications,
        TokenService tokens,
        OAuthServer oauth,
        SecretBox secretBox,
        DeliveryService deliveries,
        EventPublisher events,
        CallbackService callbacks,
        CallbackHistory callbackHistory,
        OperatorCallbacks operatorCallbacks,
        OperatorNotices notices,
        RetentionSweeper retention,
        PublicAddressGate addressGate) {

    /** The services of a process, resolving host names with the system's resolver. */
    public static Services create(Settings settings, Clock clock, Database database, PrometheusMeterRegistry metrics) {
        return create(settings, clock, PublicAddressGate.SYSTEM, database, metrics);
    }

    /** The services of a process; {@code resolver} answers the public-address gate's look-ups (tests pass their own). */
    public static Services create(Settings settings, Clock clock, PublicAddressGate.Resolver resolver, Database database,
                                  PrometheusMeterRegistry metrics) {
        boolean devMode = settings.flag(Setting.DEV);
        // The one decision of development mode's exemption from the address rules, for registration and sending alike.
        var addressGate = PublicAddressGate.of(devMode, resolver);
        var jdbi = database.jdbi();
        var audit = new AuditLog(metrics);
        var passwordCost = PasswordHashSettings.from(settings);
        PasswordHashMetrics.register(metrics);
        var users = new UserService(jdbi, clock, new PasswordHasher(passwordCost.memoryKib(), passwordCost.iterations(),
                settings.duration(Setting.PASSWORD_HASH_MAX_WAIT)));
        var accounts = new AccountService(jdbi, clock);
        var applications = new ApplicationService(jdbi, clock, devMode, audit, settings.duration(Setting.CLIENT_CACHE_TTL));
        var tokens = new TokenService(jdbi, clock, settings.duration(Setting.ACCESS_TOKEN_TTL), TokenFormat.load(jdbi),
                database.closing(new RotationBatches(jdbi)));
        var secretBox = SecretKeys.load(settings);
        var deliveries = new DeliveryService(jdbi, clock, new Recovery(
                settings.duration(Setting.DELIVERY_RECOVER_SPACING), settings.duration(Setting.DELIVERY_RECOVER_MAX_WINDOW)));
        var notices = NotificationSettings.from(settings).isPresent() ? OperatorNotices.on() : OperatorNotices.off();
        var callbacks = new CallbackService(jdbi, clock, accounts, secretBox, new CallbackUriRule(addressGate), audit, new dev.ledgerlink.callbacks.VerificationRequests() {
                    @Override
                    public void enqueue(org.jdbi.v3.core.Handle transaction, long callbackId) {
                        deliveries.enqueueVerification(transaction, callbackId);
                    }

                    @Override
                    public void queued() {
                        deliveries.enqueued();
                    }
                });
        return new Services(settings, clock, database, metrics, audit,
                users,
                accounts,
                applications,
                tokens,
                OAuthServer.create(settings, clock, jdbi, database.dialect(), database.groupCommit(), tokens, users, applications, notices, audit),
                secretBox,
                deliveries,
                new EventPublisher(jdbi, database.groupCommit(), database.dialect(), clock, (h, eventId, accountId, name, noun, now) -> {
                    DeliveryService.Queued q = deliveries.fanOut(h, eventId, accountId, name, noun, now);
                    return new FanOut.Queued(q.deliveries(), q.afterCommit());
                }),
                callbacks,
                new CallbackHistory(callbacks, deliveries),
                new OperatorCallbacks(jdbi, clock, deliveries::dropPending, audit),
                notices,
                new RetentionSweeper(jdbi, database.dialect(), clock, RetentionRules.of(settings), settings.integer(Setting.RETENTION_BATCH_SIZE), metrics),
                addressGate);
    }

    /** Resolves bearer access tokens (web/BearerAuth uses it). */
    public AccessTokenVerifier accessTokens() {
        return tokens;
    }
}
