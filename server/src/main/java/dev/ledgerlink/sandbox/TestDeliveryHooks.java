package dev.ledgerlink.sandbox;

import dev.ledgerlink.delivery.ClaimedDelivery;
import dev.ledgerlink.delivery.DeliveryHooks;
import dev.ledgerlink.delivery.DeliveryKind;
import dev.ledgerlink.store.DbTime;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Development mode's test deliveries plugged into the delivery engine (the one hook the delivery
 * package has for development mode, given at wiring to a development-mode server only): the options
 * of each claimed test delivery are looked up ({@link TestDeliveryStore}) and its attempts made as
 * {@link TestDelivery} says; the history marks them as tests. An ordered call's next delivery to a
 * callback goes once the one before it has had an attempt answered.
 */
public final class TestDeliveryHooks implements DeliveryHooks {
    private static final Logger LOG = LoggerFactory.getLogger(TestDeliveryHooks.class);

    private final Jdbi jdbi;
    private final Clock clock;

    public TestDeliveryHooks(Jdbi jdbi, Clock clock) {
        this.jdbi = jdbi;
        this.clock = clock;
    }

    @Override
    public List<ClaimedDelivery> claimed(Handle h, List<ClaimedDelivery> claimed) {
        List<Long> events = claimed.stream().filter(d -> d.kind() == DeliveryKind.EVENT).map(ClaimedDelivery::id).toList();
        Map<Long, TestDeliveryStore.Stored> tests = TestDeliveryStore.options(h, events);
        if (tests.isEmpty()) return claimed;
        return claimed.stream().map(d -> tests.containsKey(d.id()) ? d.with(new TestSend(d, tests.get(d.id()))) : d).toList();
    }

    @Override
    public Map<Long, Map<String, Object>> marks(Handle h, List<Long> deliveryIds) {
        Map<Long, Map<String, Object>> out = new LinkedHashMap<>();
        TestDeliveryStore.options(h, deliveryIds).forEach((id, t) -> out.put(id, t.options().json()));
        return out;
    }

    /** One claimed test delivery's attempts. */
    private final class TestSend implements Variant {
        private final ClaimedDelivery delivery;
        private final TestDeliveryStore.Stored test;

        TestSend(ClaimedDelivery delivery, TestDeliveryStore.Stored test) {
            this.delivery = delivery;
            this.test = test;
        }

        @Override
        public long timestamp(long attemptSeconds) {
            return test.options().timestamp(attemptSeconds);
        }

        @Override
        public void alter(Map<String, String> headers) {
            test.options().apply(headers);
        }

        @Override
        public int copies() {
            return test.options().copies();
        }

        /** In an ordered call: this one was answered, so the next one to the same callback may go. */
        @Override
        public boolean answered() {
            if (test.sequence() == null) return false;
            try {
                return jdbi.withHandle(h -> h.createUpdate(TestDeliveryStore.RELEASE_NEXT).bind("now", DbTime.now(clock))
                        .bind("sequence", test.sequence()).bind("next", test.position() + 1).bind("callbackId", delivery.callbackId()).execute()) > 0;
            } catch (RuntimeException e) {
                LOG.warn("test delivery {}: the next of its call is not released ({}); it goes when its hold ends", delivery.id(), e.toString());
                return false;
            }
        }
    }
}
