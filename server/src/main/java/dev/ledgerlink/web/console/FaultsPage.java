package dev.ledgerlink.web.console;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.sandbox.FaultRoute;
import dev.ledgerlink.sandbox.FaultRule;
import dev.ledgerlink.sandbox.Faults;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * /console/faults (development mode): the sandbox's fault rules with what each has left, a form that
 * adds one and a button that clears them; the same rules as POST /sandbox/v1/faults (sandbox.Faults).
 * A development-mode server is one developer's sandbox: every signed-in viewer manages its rules.
 */
public final class FaultsPage {
    /** The form as typed: effect is 503, 429, invalid_grant or latency; value is Retry-After (s) or the delay (ms). */
    public record Draft(String route, String clientId, String grantType, String effect, String value, String times) {}

    private final ConsoleSession session;
    private final Faults faults;
    private final ApplicationService applications;

    FaultsPage(ConsoleSession session, Faults faults, ApplicationService applications) {
        this.session = session;
        this.faults = faults;
        this.applications = applications;
    }

    void show(Context ctx) {
        Viewer viewer = session.require(ctx);
        render(ctx, viewer, new Draft("token", "", "", "503", "1", "1"), null, HttpStatus.OK);
    }

    void add(Context ctx) {
        Viewer viewer = session.requireForm(ctx);
        Draft d = new Draft(ConsolePage.field(ctx, "route"), ConsolePage.field(ctx, "client_id"), ConsolePage.field(ctx, "grant_type"),
                ConsolePage.field(ctx, "effect"), ConsolePage.field(ctx, "value").trim(), ConsolePage.field(ctx, "times").trim());
        Integer value = number(d.value());
        boolean status = d.effect().equals("503") || d.effect().equals("429");
        try {
            FaultRule rule = faults.add(new FaultRule.Draft(d.route(), d.clientId(), d.grantType(),
                    status ? Integer.valueOf(d.effect()) : null, status ? (d.value().isEmpty() ? null : orInvalid(value, "effect.retry_after")) : null,
                    d.effect().equals("invalid_grant") ? "invalid_grant" : null,
                    d.effect().equals("latency") ? orInvalid(value, "effect.latency_ms") : null,
                    d.times().isEmpty() ? null : orInvalid(number(d.times()), "times")));
            ctx.redirect("/console/faults?notice=fault-added&ref=" + rule.id(), HttpStatus.SEE_OTHER);
        } catch (ServiceException e) {
            render(ctx, viewer, d, ConsolePage.describe(e), HttpStatus.UNPROCESSABLE_CONTENT);
        }
    }

    void clear(Context ctx) {
        session.requireForm(ctx);
        faults.clear();
        ctx.redirect("/console/faults?notice=faults-cleared", HttpStatus.SEE_OTHER);
    }

    private void render(Context ctx, Viewer viewer, Draft draft, String problem, HttpStatus status) {
        List<Application> apps = viewer.operator() ? applications.list() : applications.ownedBy(viewer.accountIds());
        Map<String, Object> p = new HashMap<>();
        p.put("rules", faults.list());
        p.put("routes", Arrays.stream(FaultRoute.values()).map(FaultRoute::wireName).toList());
        p.put("applications", apps);
        p.put("draft", draft);
        p.put("problem", problem);
        p.put("notice", ConsolePage.notice(ctx));
        ctx.status(status);
        ConsolePage.render(ctx, viewer, "faults", "faults.jte", p);
    }

    private static Integer number(String s) {
        return s.matches("-?\\d{1,9}") ? Integer.valueOf(s) : null;
    }

    private static Integer orInvalid(Integer value, String field) {
        if (value == null) throw ServiceException.invalid(field, "must be a whole number");
        return value;
    }
}
