package dev.ledgerlink.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The W3C trace context as received, kept and sent: pure, through OpenTelemetry's propagator. */
class TraceHeadersTest {
    private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aValidTraceparentIsKeptWithItsTracestate() {
        TraceHeaders h = TraceHeaders.received(VALID, "congo=t61rcWkgMzE");
        assertEquals(VALID, h.traceparent());
        assertEquals("congo=t61rcWkgMzE", h.tracestate());
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", h.traceId());
    }

    @Test
    void whatIsNotAValidTraceparentIsIgnored() {
        for (String bad : new String[] {null, "", "garbage", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
                "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
                "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"}) {
            assertNull(TraceHeaders.received(bad, null), String.valueOf(bad));
        }
    }

    @Test
    void aTracestateTooLongToKeepIsDroppedAndTheTraceparentKept() {
        StringBuilder state = new StringBuilder();
        for (int i = 0; state.length() <= TraceHeaders.MAX_TRACESTATE; i++) state.append(i == 0 ? "" : ",").append("k").append(i).append("=").append("v".repeat(40));
        TraceHeaders h = TraceHeaders.received(VALID, state.toString());
        assertEquals(VALID, h.traceparent());
        assertNull(h.tracestate());
    }

    @Test
    void aNewTraceIsValidSampledAndNewEachTime() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            TraceHeaders t = TraceHeaders.newTrace();
            assertEquals(t, TraceHeaders.received(t.traceparent(), null), "what the propagator reads back");
            assertTrue(t.traceparent().endsWith("-01"));
            ids.add(t.traceId());
        }
        assertEquals(100, ids.size());
        assertNotEquals(TraceHeaders.newTrace().traceparent().substring(36, 52), TraceHeaders.newTrace().traceparent().substring(36, 52));
    }
}
