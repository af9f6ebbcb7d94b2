package dev.ledgerlink.web.console;

import dev.ledgerlink.callbacks.Callback;
import dev.ledgerlink.callbacks.CallbackService;
import dev.ledgerlink.callbacks.OperatorCallbacks;
import dev.ledgerlink.delivery.DeliveryActivity;
import dev.ledgerlink.delivery.DeliveryRecord;
import dev.ledgerlink.delivery.DeliveryReads;
import dev.ledgerlink.delivery.DeliveryService;
import dev.ledgerlink.errors.ServiceException;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * /console/callbacks: each callback's event, uri, state, pace, failure run and last attempt, with resend
 * (a fresh verification code); /console/callbacks/{id}/deliveries: its pace, its deliveries and every
 * attempt as sent and answered, with redeliver.
 */
public final class CallbacksPage {
    static final int PER_PAGE = 20;

    /** A callback with its latest attempt (null: never attempted). */
    public record Row(Callback callback, DeliveryActivity.LastAttempt lastAttempt) {}

    private final ConsoleSession session;
    private final CallbackService callbacks;
    private final OperatorCallbacks operatorCallbacks;
    private final DeliveryReads reads;
    private final DeliveryService deliveries;
    /** delivery.rate-limit, null for none: the pace of callbacks without one of their own. */
    private final Integer defaultRateLimit;

    CallbacksPage(ConsoleSession session, CallbackService callbacks, OperatorCallbacks operatorCallbacks, DeliveryReads reads,
                  DeliveryService deliveries, Integer defaultRateLimit) {
        this.session = session;
        this.callbacks = callbacks;
        this.operatorCallbacks = operatorCallbacks;
        this.reads = reads;
        this.deliveries = deliveries;
        this.defaultRateLimit = defaultRateLimit;
    }

    void list(Context ctx) {
        Viewer viewer = session.require(ctx);
        List<Callback> list = operatorCallbacks.ofAccounts(viewer.accountIds());
        Map<Long, DeliveryActivity.LastAttempt> last = reads.lastAttempts(list.stream().map(Callback::id).toList());
        Map<String, Object> p = new HashMap<>();
        p.put("rows", list.stream().map(c -> new Row(c, last.get(c.id()))).toList());
        p.put("defaultRateLimit", defaultRateLimit);
        p.put("notice", ConsolePage.notice(ctx));
        ConsolePage.render(ctx, viewer, "callbacks", "callbacks.jte", p);
    }

    void resend(Context ctx) {
        Viewer viewer = session.requireForm(ctx);
        Callback c = visible(viewer, ConsolePage.pathId(ctx, "id"));
        callbacks.resendCode(c.id());
        ctx.redirect("/console/callbacks?notice=resent&ref=" + c.id(), HttpStatus.SEE_OTHER);
    }

    void deliveries(Context ctx) {
        Viewer viewer = session.require(ctx);
        Callback c = visible(viewer, ConsolePage.pathId(ctx, "id"));
        int page = ConsolePage.positive(ctx.queryParam("page")).map(Long::intValue).orElse(1);
        DeliveryReads.DeliveryPage history = reads.history(c.accountId(), c.id(), page, PER_PAGE);
        Map<String, Object> p = new HashMap<>();
        p.put("callback", c);
        p.put("history", history);
        p.put("defaultRateLimit", defaultRateLimit);
        p.put("notice", ConsolePage.notice(ctx));
        ConsolePage.render(ctx, viewer, "callbacks", "deliveries.jte", p);
    }

    void redeliver(Context ctx) {
        Viewer viewer = session.requireForm(ctx);
        DeliveryRecord d = reads.find(ConsolePage.pathId(ctx, "id")).orElseThrow(ServiceException::notFound);
        Callback c = visible(viewer, d.callbackId());
        deliveries.redeliver(d.id());
        ctx.redirect("/console/callbacks/" + c.id() + "/deliveries?notice=redelivered&ref=" + d.id(), HttpStatus.SEE_OTHER);
    }

    private Callback visible(Viewer viewer, long id) {
        Callback c = operatorCallbacks.show(id);
        if (!viewer.canSee(c.accountId())) throw ServiceException.notFound();
        return c;
    }
}
