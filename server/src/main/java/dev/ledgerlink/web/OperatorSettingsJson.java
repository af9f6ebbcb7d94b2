package dev.ledgerlink.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.callbacks.OperatorSettings;
import dev.ledgerlink.config.RateLimit;
import dev.ledgerlink.errors.Validation;
import java.util.Set;

/**
 * The body of PATCH /internal/v1/admin/callbacks/{callback_id}: {@code {"rate_limit": 5}}, null for
 * none. A field that names no setting is refused, so a misspelt setting never passes for a change.
 * A new setting is one more name in {@link #FIELDS} and one more block in {@link #parse}.
 */
final class OperatorSettingsJson {
    static final Set<String> FIELDS = Set.of("rate_limit");

    private OperatorSettingsJson() {}

    /** The settings the body changes; a 422 naming every field that is wrong. */
    static OperatorSettings parse(JsonNode body) {
        Validation v = new Validation();
        body.fieldNames().forEachRemaining(f -> {
            if (!FIELDS.contains(f)) v.add(f, "is not a setting of a callback (" + String.join(", ", FIELDS.stream().sorted().toList()) + ")");
        });
        OperatorSettings settings = OperatorSettings.none();
        JsonNode rate = body.get("rate_limit");
        if (rate != null) {
            if (rate.isNull()) {
                settings = settings.withRateLimit(null);
            } else if (rate.isIntegralNumber() && rate.canConvertToLong() && RateLimit.valid(rate.longValue())) {
                settings = settings.withRateLimit(rate.intValue());
            } else {
                v.add("rate_limit", RateLimit.RULE + ", or null");
            }
        }
        v.throwIfInvalid();
        return settings;
    }
}
