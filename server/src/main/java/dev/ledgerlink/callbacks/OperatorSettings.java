package dev.ledgerlink.callbacks;

/**
 * What an operator changes on a callback with the admin API's PATCH or {@code ledgerlink callbacks
 * set}: each setting is left as it is or given a new value (which may be "none"). A new operator
 * setting is one more component here, one more line in {@link OperatorCallbacks#change} and in each
 * front's parser.
 *
 * @param rateLimit deliveries per second at most (null: the setting delivery.rate-limit), checked by config.RateLimit
 */
public record OperatorSettings(Change<Integer> rateLimit) {

    /** One setting: left alone, or set to {@code value}. */
    public record Change<T>(boolean given, T value) {
        public static <T> Change<T> keep() {
            return new Change<>(false, null);
        }

        public static <T> Change<T> to(T value) {
            return new Change<>(true, value);
        }
    }

    public static OperatorSettings none() {
        return new OperatorSettings(Change.keep());
    }

    public OperatorSettings withRateLimit(Integer perSecond) {
        return new OperatorSettings(Change.to(perSecond));
    }

    /** Whether anything is to change. */
    public boolean any() {
        return rateLimit.given();
    }
}
