package dev.ledgerlink.web.console;

import dev.ledgerlink.Services;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.events.OperatorKey;
import dev.ledgerlink.web.ClientAddress;
import io.javalin.config.RoutesConfig;

/**
 * The developer console at /console (docs/console.md): served in development mode, and outside it
 * only when console.enabled is set. Every page is server-rendered; forms carry the session's CSRF token.
 */
public final class ConsoleRoutes {
    private ConsoleRoutes() {}

    public static boolean enabled(Services s) {
        return s.settings().flag(Setting.DEV) || s.settings().flag(Setting.CONSOLE_ENABLED);
    }

    /** {@code onStop} is told how to end the live tail's open streams when the server stops. */
    public static void register(RoutesConfig r, Services s, OperatorKey operatorKey, ClientAddress clientAddress,
                                java.util.function.Consumer<Runnable> onStop) {
        if (!enabled(s)) return;
        var session = new ConsoleSession(s.oauth().sessions(), s.users(), s.accounts(), s.settings(), s.settings().flag(Setting.DEV), s.clock());

        var signIn = new SignInPage(session, s.oauth().login(), s.oauth().secondFactor(), operatorKey, clientAddress);
        r.get("/console", ConsolePage.of(signIn::home));
        r.get("/console/sign-in", ConsolePage.of(signIn::show));
        r.post("/console/sign-in", ConsolePage.of(signIn::submit));
        r.post("/console/sign-out", ConsolePage.of(signIn::signOut));

        var apps = new ApplicationsPage(session, s.applications(), s.operatorCallbacks(), s.oauth().grants(), s.accounts());
        r.get("/console/applications", ConsolePage.of(apps::show));
        r.post("/console/applications", ConsolePage.of(apps::create));
        r.post("/console/applications/{client_id}/rotate-secret", ConsolePage.of(apps::rotateSecret));

        var grants = new GrantsPage(session, s.oauth().grants(), s.accounts(), s.users(), s.applications());
        r.get("/console/grants", ConsolePage.of(grants::show));
        r.post("/console/grants/revoke", ConsolePage.of(grants::revoke));

        var callbacks = new CallbacksPage(session, s.callbacks(), s.operatorCallbacks(), s.deliveryReads(), s.deliveries(),
                dev.ledgerlink.config.DeliverySettings.from(s.settings()).rateLimit());
        r.get("/console/callbacks", ConsolePage.of(callbacks::list));
        r.post("/console/callbacks/{id}/resend", ConsolePage.of(callbacks::resend));
        r.get("/console/callbacks/{id}/deliveries", ConsolePage.of(callbacks::deliveries));
        r.post("/console/deliveries/{id}/redeliver", ConsolePage.of(callbacks::redeliver));

        // Development mode: the form's test-delivery options, through the same TestEvents as the API's test-event route.
        var testEvent = new TestEventPage(session, s.events(), s.accounts(), s.settings().flag(dev.ledgerlink.config.Setting.DEV)
                ? new dev.ledgerlink.sandbox.TestEvents(s.events(), s.accounts(), s.deliveries()) : null);
        r.get("/console/test-event", ConsolePage.of(testEvent::show));
        r.post("/console/test-event", ConsolePage.of(testEvent::publish));

        var activity = new ActivityPage(session, s.deliveryReads(), s.clock());
        r.get("/console/activity", ConsolePage.of(activity::show));
        r.sse("/console/activity/stream", activity::stream);
        onStop.accept(activity::stop);

        // Development mode's sandbox: fault rules and the journal of the applications' calls (docs/sandbox.md).
        if (s.settings().flag(Setting.DEV)) {
            var faults = new FaultsPage(session, s.faults(), s.applications());
            r.get("/console/faults", ConsolePage.of(faults::show));
            r.post("/console/faults", ConsolePage.of(faults::add));
            r.post("/console/faults/clear", ConsolePage.of(faults::clear));
            var requests = new RequestsPage(session, s.journal(), s.applications());
            r.get("/console/requests", ConsolePage.of(requests::show));
        }

        r.get("/console/assets/{name}", new ConsoleAssets()::serve);
    }
}
