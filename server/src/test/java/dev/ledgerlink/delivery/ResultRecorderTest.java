package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ledgerlink.callbacks.Callback;
import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import dev.ledgerlink.callbacks.DisablePolicy;
import dev.ledgerlink.callbacks.FailureRuns;
import dev.ledgerlink.notifications.OperatorNotices;
import dev.ledgerlink.retry.RetryRule;
import dev.ledgerlink.retry.RetrySchedule;
import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.testing.Eventually;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.TestServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/**
 * The recorder's metrics count what was committed, once: a batch that fails is written again row by
 * row (so one bad row cannot lose the others), and the rows of the failed batch must not be counted
 * by it as well as by their second write. Real deliveries in the real database; the bad row is one
 * the database refuses (an attempt without its time).
 */
@LedgerlinkTest
class ResultRecorderTest {
    /** Marks this test's attempt rows (no real attempt takes exactly this long). */
    private static final long MARK_MS = 424_242;

    TestServer server;
    Fixtures f;
    Receiver receiver;

    @Test
    void aBatchWrittenAgainRowByRowCountsEachOutcomeOnce() {
        Jdbi jdbi = server.services().database().jdbi();
        List<ClaimedDelivery> deliveries = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            deliveries.add(claimed(jdbi, f.register("invoice.create", receiver.uri())));
        }
        Eventually.await("the engine has sent the verification requests", () -> jdbi.withHandle(h -> h.createQuery(
                "select count(*) from deliveries where id in (<ids>) and state = 'delivered'")
                .bindList("ids", deliveries.stream().map(ClaimedDelivery::id).toList()).mapTo(Integer.class).one()) == 4);

        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        DeliveryMetrics metrics = new DeliveryMetrics(registry);
        Instant at = server.clock.instant();
        AttemptOutcome ok = new AttemptOutcome(200, MARK_MS, null, null, "ok", null);
        AttemptOutcome failed = new AttemptOutcome(500, MARK_MS, "HTTP 500", null, "no", null);
        try (ResultRecorder recorder = new ResultRecorder(jdbi, server.clock, new RetryRule(new RetrySchedule(List.of(Duration.ofMinutes(1)))),
                new FailureRuns(new DisablePolicy(Duration.ofDays(5)), new CallbackDeliveries()), metrics, OperatorNotices.off(), server.services().audit())) {
            recorder.writeOrSplit(List.of(
                    new ResultRecorder.Result(deliveries.get(0), "not-the-lease", at, null, ok, null),
                    new ResultRecorder.Result(deliveries.get(1), "not-the-lease", at, null, ok, null),
                    new ResultRecorder.Result(deliveries.get(2), "not-the-lease", at, null, failed, null),
                    // Refused by the database (attempted_at is not null): the batch fails and is written again row by row.
                    new ResultRecorder.Result(deliveries.get(3), "not-the-lease", null, null, ok, null)));
        }

        int recorded = jdbi.withHandle(h -> h.createQuery("select count(*) from delivery_attempts where duration_ms = :mark and delivery_id in (<ids>)")
                .bind("mark", MARK_MS).bindList("ids", deliveries.stream().map(ClaimedDelivery::id).toList()).mapTo(Integer.class).one());
        assertEquals(3, recorded, "the three good rows are recorded once each, the refused one not at all");
        assertEquals(2, metrics.delivered.count(), "delivered counts the two committed successes once");
        assertEquals(1, metrics.failed.count(), "failed counts the one committed failure once");
        assertEquals(0, metrics.dropped.count());
    }
    /**
     * Each callback's latest attempt (the console's list) is the newest one recorded: of two in one
     * batch the later one, and an older attempt recorded afterwards (another node committing late)
     * does not replace it. A result for a callback deleted meanwhile writes no row.
     */
    @Test
    void eachCallbacksLatestAttemptIsTheNewestRecorded() {
        Jdbi jdbi = server.services().database().jdbi();
        DeliveryReads service = server.services().deliveryReads();
        Callback c = f.register("invoice.create", receiver.uri());
        Callback deleted = f.register("invoice.create", receiver.uri());
        Eventually.await("the engine has sent both verification requests", () -> service.lastAttempts(List.of(c.id(), deleted.id())).size() == 2);
        DeliveryActivity.LastAttempt verification = service.lastAttempts(List.of(c.id())).get(c.id());
        assertEquals(200, verification.statusCode(), "the verification request, as the engine recorded it");
        ClaimedDelivery d = claimed(jdbi, c);
        ClaimedDelivery gone = claimed(jdbi, deleted);
        f.delete(deleted.id());

        Instant at = DbTime.now(server.clock).plusSeconds(60);
        AttemptOutcome ok = new AttemptOutcome(200, MARK_MS, null, null, "ok", null);
        AttemptOutcome failed = new AttemptOutcome(503, MARK_MS, "HTTP 503", null, "no", null);
        try (ResultRecorder recorder = new ResultRecorder(jdbi, server.clock, new RetryRule(new RetrySchedule(List.of(Duration.ofMinutes(1)))),
                new FailureRuns(new DisablePolicy(Duration.ofDays(5)), new CallbackDeliveries()), new DeliveryMetrics(new SimpleMeterRegistry()), OperatorNotices.off(),
                server.services().audit())) {
            recorder.writeOrSplit(List.of(
                    new ResultRecorder.Result(d, "not-the-lease", at.plusSeconds(2), null, failed, null),
                    new ResultRecorder.Result(d, "not-the-lease", at.plusSeconds(1), null, ok, null),
                    new ResultRecorder.Result(gone, "not-the-lease", at.plusSeconds(3), null, ok, null)));
            recorder.writeOrSplit(List.of(new ResultRecorder.Result(d, "not-the-lease", at, null, ok, null)));
        }

        DeliveryActivity.LastAttempt last = service.lastAttempts(List.of(c.id(), deleted.id())).get(c.id());
        assertEquals(Arrays.asList(503, "HTTP 503", d.id(), 101, at.plusSeconds(2)),
                Arrays.asList(last.statusCode(), last.error(), last.deliveryId(), last.attempt(), last.attemptedAt()));
        assertEquals(Set.of(c.id()), service.lastAttempts(List.of(c.id(), deleted.id())).keySet(), "nothing for the deleted callback");
        int recorded = jdbi.withHandle(h -> h.createQuery("select count(*) from delivery_attempts where duration_ms = :mark and delivery_id = :d")
                .bind("mark", MARK_MS).bind("d", d.id()).mapTo(Integer.class).one());
        assertEquals(3, recorded, "every attempt is recorded, the older ones too");
    }

    /** The callback's verification delivery as if claimed with 100 attempts (far beyond the engine's own). */
    private ClaimedDelivery claimed(Jdbi jdbi, Callback c) {
        long id = jdbi.withHandle(h -> h.createQuery("select id from deliveries where callback_id = :c").bind("c", c.id()).mapTo(Long.class).one());
        return new ClaimedDelivery(id, c.id(), DeliveryKind.VERIFICATION, 100, null, null, 0, null, 0, c.uri(), null,
                f.account().accountId(), f.user().id(), State.UNVERIFIED, null);
    }
}
