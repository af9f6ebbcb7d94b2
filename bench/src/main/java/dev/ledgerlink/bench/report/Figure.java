package dev.ledgerlink.bench.report;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One measured figure, or one that could not be measured (value null, and the note says why).
 * {@code target} is the bound of issue 6 beside it, for the reader; nothing asserts it.
 */
public record Figure(String scenario, String metric, String db, Double value, String unit, String target,
                     String note, Map<String, Object> detail) {

    public static Figure measured(String scenario, String metric, String db, double value, String unit, String target, String note) {
        return new Figure(scenario, metric, db, value, unit, target, note, new LinkedHashMap<>());
    }

    public static Figure notMeasured(String scenario, String metric, String db, String unit, String target, String why) {
        return new Figure(scenario, metric, db, null, unit, target, "not measured: " + why, new LinkedHashMap<>());
    }

    public Figure with(String key, Object value) {
        detail.put(key, value);
        return this;
    }

    public boolean isMeasured() { return value != null && !value.isNaN(); }
}
