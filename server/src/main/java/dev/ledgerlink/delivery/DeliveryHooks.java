package dev.ledgerlink.delivery;

import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * The one seam where development mode changes how deliveries are sent and what their history
 * shows (docs/sandbox.md, "Test deliveries"), chosen at wiring as the web layer's sandbox route
 * hooks are. A production server gets {@link #NONE}: its claims read the queue's own tables, every
 * attempt is sent as {@link WebhookRequest} builds it, and nothing else is asked. A development-mode
 * server gets the sandbox's test deliveries (sandbox/TestDeliveryHooks).
 */
public interface DeliveryHooks {

    /**
     * The deliveries a claim just took, each with the {@link Variant} it is sent with; in the claim's
     * handle, before any of them is sent.
     */
    List<ClaimedDelivery> claimed(Handle h, List<ClaimedDelivery> claimed);

    /** What the history shows of these deliveries under {@code "test"}, by delivery id (none: absent). */
    Map<Long, Map<String, Object>> marks(Handle h, List<Long> deliveryIds);

    /** How one delivery's attempts differ from a plain one's; {@link #PLAIN} changes nothing. */
    interface Variant {
        /** The webhook-timestamp of an attempt made at {@code attemptSeconds}. */
        default long timestamp(long attemptSeconds) {
            return attemptSeconds;
        }

        /** Changes the signed request's headers in place. */
        default void alter(Map<String, String> headers) {}

        /** How many times the request is sent in one attempt, one after the other; the attempt is the first copy that failed, else the last. */
        default int copies() {
            return 1;
        }

        /** After an attempt was answered: whether that made other deliveries due now (the engine then claims at once). */
        default boolean answered() {
            return false;
        }
    }

    /** A delivery sent as built. */
    Variant PLAIN = new Variant() {};

    /** Production: nothing but the queue. */
    DeliveryHooks NONE = new DeliveryHooks() {
        @Override
        public List<ClaimedDelivery> claimed(Handle h, List<ClaimedDelivery> claimed) {
            return claimed;
        }

        @Override
        public Map<Long, Map<String, Object>> marks(Handle h, List<Long> deliveryIds) {
            return Map.of();
        }
    };
}
