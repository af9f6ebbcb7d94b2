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
import dev.ledgerlink.delivery.CallbackDeliveries;
import dev.ledgerlink.delivery.DeliveryOrder;
import dev.ledgerlink.delivery.CallbackHistory;
import dev.ledgerlink.delivery.DeliveryEngine;
import dev.ledgerlink.delivery.DeliveryHooks;
import dev.ledgerlink.delivery.DeliveryReads;
import dev.ledgerlink.delivery.DeliveryService;
import dev.ledgerlink.delivery.HandOff;
import dev.ledgerlink.delivery.Recovery;
import dev.ledgerlink.oauth.AccessTokenVerifier;
import dev.ledgerlink.oauth.OAuthServer;
import dev.ledgerlink.oauth.TokenFormat;
import dev.ledgerlink.oauth.TokenService;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.events.FanOut;
import dev.ledgerlink.net.PublicAddressGate;
import dev.ledgerlink.notifications.NotificationSettings;
import dev.ledgerlink.notifications.OperatorNotices;
import dev.ledgerlink.retention.RetentionRules;
import dev.ledgerlink.sandbox.SandboxReset;
import dev.ledgerlink.retention.RetentionSweeper;
import dev.ledgerlink.sandbox.Faults;
import dev.ledgerlink.sandbox.RequestJournal;
import dev.ledgerlink.sandbox.TestDeliveryHooks;
import dev.ledgerlink.secrets.PasswordHashMetrics;
import dev.ledgerlink.secrets.PasswordHasher;
import dev.ledgerlink.secrets.KeyCheck;
import dev.ledgerlink.secrets.KeyRing;
import dev.ledgerlink.secrets.SecretKeys;
import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.ServiceClock;
import dev.ledgerlink.tracing.Tracing;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.util.Optional;

/**
 * Every capability service of one process, built once; shared by the web layer and the CLI. A server
 * process ({@link #withDeliveryEngine}) also runs a delivery engine, which its publishes hand their
 * deliveries to; any other ({@link #create}: the CLI) only queues work for a server's engine.
 */
public record Services(
        Settings settings,
        ServiceClock clock,
        Database database,
        PrometheusMeterRegistry metrics,
        Tracing tracing,
        AuditLog audit,
        UserService users,
        AccountService accounts,
        ApplicationService applications,
        TokenService tokens,
        OAuthServer oauth,
        KeyRing keys,
        DeliveryService deliveries,
        DeliveryReads deliveryReads,
        EventPublisher events,
        CallbackService callbacks,
        CallbackHistory callbackHistory,
        OperatorCallbacks operatorCallbacks,
        OperatorNotices notices,
        RetentionSweeper retention,
        Faults faults,
        RequestJournal journal,
        Optional<DeliveryEngine> deliveryEngine,
        Readiness readiness) {

    /**
     * The services of a process that runs no delivery engine (the CLI): what it queues, a server's
     * engine sends. {@code nodeClock} is this machine's clock (or a test's); every service reads the
     * {@link ServiceClock} built over it, which follows the sandbox's clock when a development-mode
     * server marked the database as a sandbox. It records no traces: events it publishes carry no
     * trace context, and their deliveries start traces of their own.
     */
    public static Services create(Settings settings, Clock clock, Database database, PrometheusMeterRegistry metrics) {
        return build(settings, clock, PublicAddressGate.SYSTEM, database, metrics, Tracing.OFF, false, new Readiness());
    }

    /**
     * The services of a server process, its delivery engine started; {@code resolver} answers the
     * public-address gate's look-ups (the system's, or a test's); {@code tracing} records its spans.
     * The caller stops the engine, then closes {@code tracing}.
     */
    public static Services withDeliveryEngine(Settings settings, Clock clock, PublicAddressGate.Resolver resolver, Database database,
                                              PrometheusMeterRegistry metrics, Tracing tracing, Readiness readiness) {
        return build(settings, clock, resolver, database, metrics, tracing, true, readiness);
    }

    private static Services build(Settings settings, Clock nodeClock, PublicAddressGate.Resolver resolver, Database database,
                                  PrometheusMeterRegistry metrics, Tracing tracing, boolean runEngine, Readiness readiness) {
        KeyRing keys = keys(settings, database, nodeClock);
        boolean devMode = settings.flag(Setting.DEV);
        // A server honours the sandbox's clock in development mode only; the CLI follows the database's mark.
        ServiceClock clock = ServiceClock.start(nodeClock, database,
                !runEngine ? ServiceClock.Sandbox.FOLLOW : devMode ? ServiceClock.Sandbox.ON : ServiceClock.Sandbox.OFF);
        // The one decision of development mode's exemption from the address rules, for registration and sending alike.
        var addressGate = PublicAddressGate.of(devMode, java.util.Set.copyOf(settings.list(Setting.DEV_CALLBACK_HOSTS)), resolver);
        var jdbi = database.jdbi();
        var audit = new AuditLog(metrics);
        var passwordCost = PasswordHashSettings.from(settings);
        PasswordHashMetrics.register(metrics);
        var users = new UserService(jdbi, clock, new PasswordHasher(passwordCost.memoryKib(), passwordCost.iterations(),
                settings.duration(Setting.PASSWORD_HASH_MAX_WAIT)));
        var accounts = new AccountService(jdbi, clock);
        var applications = new ApplicationService(jdbi, clock, devMode, audit, settings.duration(Setting.CLIENT_CACHE_TTL));
        var tokens = new TokenService(jdbi, clock, settings.duration(Setting.ACCESS_TOKEN_TTL), TokenFormat.load(jdbi),
                TokenService.rotations(database));
        var notices = NotificationSettings.from(settings).isPresent() ? OperatorNotices.on() : OperatorNotices.off();
        var order = new DeliveryOrder(settings.duration(Setting.DELIVERY_LEASE));
        var callbackQueue = new CallbackDeliveries(order);
        // Development mode's one seam in the delivery path: its test deliveries, for a development-mode
        // server, and for the CLI on a database such a server marked as a sandbox (what it lists is marked).
        boolean sandboxDeliveries = runEngine ? devMode : clock.stored().development();
        DeliveryHooks hooks = sandboxDeliveries ? new TestDeliveryHooks(jdbi, clock) : DeliveryHooks.NONE;
        Optional<DeliveryEngine> engine = runEngine
                ? Optional.of(DeliveryEngineWiring.create(settings, clock, database, keys, metrics, tracing, notices, audit, addressGate,
                        callbackQueue, hooks))
                : Optional.empty();
        try {
            var deliveryReads = new DeliveryReads(jdbi, hooks);
            var deliveries = new DeliveryService(jdbi, database.dialect(), clock, new Recovery(
                    settings.duration(Setting.DELIVERY_RECOVER_SPACING), settings.duration(Setting.DELIVERY_RECOVER_MAX_WINDOW)),
                    engine.<HandOff>map(e -> e).orElse(HandOff.NONE), order, deliveryReads);
            var faults = new Faults(jdbi, clock);
            var journal = new RequestJournal(jdbi, applications, tokens, Math.max(1, settings.integer(Setting.SANDBOX_JOURNAL_SIZE)));
            var callbacks = new CallbackService(jdbi, clock, accounts, keys, new CallbackUriRule(addressGate), audit,
                    callbackQueue, deliveries::enqueued);
            Services services = new Services(settings, clock, database, metrics, tracing, audit,
                    users,
                    accounts,
                    applications,
                    tokens,
                    OAuthServer.create(settings, clock, jdbi, tokens, users, applications, keys, notices, audit),
                    keys,
                    deliveries,
                    deliveryReads,
                    new EventPublisher(jdbi, database.groupCommit(), database.dialect(), clock, tracing, (h, eventId, accountId, name, noun, now) -> {
                        DeliveryService.Queued q = deliveries.fanOut(h, eventId, accountId, name, noun, now);
                        return new FanOut.Queued(q.deliveries(), q.afterCommit());
                    }),
                    callbacks,
                    new CallbackHistory(callbacks, deliveryReads, deliveries),
                    new OperatorCallbacks(jdbi, clock, callbackQueue, audit),
                    notices,
                    new RetentionSweeper(jdbi, database.dialect(), clock, RetentionRules.of(settings), settings.integer(Setting.RETENTION_BATCH_SIZE), metrics),
                    faults,
                    journal,
                    engine,
                    readiness);
            // Development mode's journal of the applications' calls and its fault rules: a server writes the
            // journal and keeps reading the rules; the CLI only reads the one and changes the other.
            if (runEngine && devMode) {
                journal.start();
                faults.start();
            }
            engine.ifPresent(DeliveryEngine::start);
            return services;
        } catch (RuntimeException e) {
            engine.ifPresent(DeliveryEngine::close);
            throw e;
        }
    }

    /**
     * The secrets keys, checked against the database's record once, at start (KeyCheck): a process
     * given another key than the database's stops here (WrongKey, exit code 5). A key file is made
     * only for a new H2 database: one with no key recorded and nothing sealed.
     */
    private static KeyRing keys(Settings settings, Database database, Clock clock) {
        var jdbi = database.jdbi();
        var recorded = KeyCheck.recorded(jdbi);
        boolean newEmbedded = database.dialect() == Database.Dialect.H2 && recorded.isEmpty() && !KeyCheck.anySealed(jdbi);
        KeyRing keys = SecretKeys.load(settings, newEmbedded, recorded.isEmpty() ? null : recorded.getFirst().keyId());
        KeyCheck.verify(jdbi, keys, clock).ifPresent(note -> org.slf4j.LoggerFactory.getLogger(Services.class).warn(note));
        return keys;
    }

    /** Development mode's reset and its kept seed files (docs/sandbox.md, "Reset"). */
    public SandboxReset sandboxReset() {
        return new SandboxReset(database.jdbi(), clock, users, accounts, applications, callbacks);
    }

    /** Resolves bearer access tokens (web/BearerAuth uses it). */
    public AccessTokenVerifier accessTokens() {
        return tokens;
    }
}
