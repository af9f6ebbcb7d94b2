package dev.ledgerlink.web.console;

import dev.ledgerlink.delivery.DeliveryActivity;
import dev.ledgerlink.delivery.DeliveryReads;
import dev.ledgerlink.json.Json;
import io.javalin.http.Context;
import io.javalin.http.sse.SseClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * /console/activity: the chart of the last hour and a live tail of attempts. The tail is a
 * server-sent event stream: each connected browser's stream asks the database once a second for
 * attempts newer than the last one it sent (one indexed range query), sends a comment now and then
 * so a closed connection is noticed, and ends when the browser goes away.
 */
public final class ActivityPage {
    static final int INITIAL_ROWS = 25;
    static final int MAX_PER_POLL = 200;
    static final Duration POLL = Duration.ofSeconds(1);
    static final Duration HEARTBEAT = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(ActivityPage.class);

    private final ConsoleSession session;
    private final DeliveryReads deliveries;
    private final Clock clock;
    private volatile boolean stopping;

    ActivityPage(ConsoleSession session, DeliveryReads deliveries, Clock clock) {
        this.session = session;
        this.deliveries = deliveries;
        this.clock = clock;
    }

    void show(Context ctx) {
        Viewer viewer = session.require(ctx);
        Instant now = clock.instant();
        List<DeliveryActivity.TailEntry> recent = deliveries.attemptsAfter(viewer.accountIds(), 0, INITIAL_ROWS);
        Map<String, Object> p = new HashMap<>();
        p.put("chart", DeliveryChart.of(deliveries.attemptsPerMinute(viewer.accountIds(), now.minus(Duration.ofMinutes(DeliveryChart.MINUTES))), now));
        p.put("recent", recent);
        p.put("after", recent.isEmpty() ? deliveries.latestAttemptId() : recent.getFirst().attemptId());
        p.put("notice", ConsolePage.notice(ctx));
        ConsolePage.render(ctx, viewer, "activity", "activity.jte", p);
    }

    /** The SSE stream: event "attempt", data the attempt as JSON, id its attempt id (a reconnect resumes after it). */
    void stream(SseClient client) {
        Context ctx = client.ctx();
        Viewer viewer = session.viewer(ctx).orElse(null);
        if (viewer == null) {
            client.sendEvent("signed-out", "{}");
            client.close();
            return;
        }
        long after = ConsolePage.positive(ctx.header("Last-Event-ID"))
                .or(() -> ConsolePage.positive(ctx.queryParam("after")))
                .orElseGet(deliveries::latestAttemptId);
        long lastSent = System.nanoTime();
        client.sendComment("tail after attempt " + after);
        while (!client.terminated() && !stopping) {
            try {
                List<DeliveryActivity.TailEntry> fresh = deliveries.attemptsAfter(viewer.accountIds(), after, MAX_PER_POLL);
                for (DeliveryActivity.TailEntry e : fresh.reversed()) {
                    client.sendEvent("attempt", Json.MAPPER.writeValueAsString(json(e)), Long.toString(e.attemptId()));
                    after = Math.max(after, e.attemptId());
                    lastSent = System.nanoTime();
                }
                if (System.nanoTime() - lastSent > HEARTBEAT.toNanos()) {
                    client.sendComment("still here");
                    lastSent = System.nanoTime();
                }
                Thread.sleep(POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (Exception e) {
                // The database away for a moment: the browser's EventSource reconnects and resumes.
                LOG.debug("console tail stopped: {}", e.toString());
                break;
            }
        }
        client.close();
    }

    /** The server is stopping: every open stream ends within a poll (browsers reconnect to whichever server answers). */
    void stop() {
        stopping = true;
    }

    /** An attempt as the tail's script shows it (the same columns as the page's first rows). */
    static Map<String, Object> json(DeliveryActivity.TailEntry e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("attempt_id", e.attemptId());
        m.put("delivery_id", e.deliveryId());
        m.put("callback_id", e.callbackId());
        m.put("account_id", e.accountId());
        m.put("name", e.name());
        m.put("uri", e.uri());
        m.put("attempt", e.attempt());
        m.put("attempted_at", Format.time(e.attemptedAt()));
        m.put("outcome", e.outcome());
        m.put("result", Format.result(e.statusCode(), e.error()));
        m.put("duration_ms", e.durationMs());
        return m;
    }
}
