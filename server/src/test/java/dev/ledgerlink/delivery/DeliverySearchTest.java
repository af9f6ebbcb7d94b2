package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.Receiver;
import dev.ledgerlink.testing.ServerSettings;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operators' search of deliveries over a long history: the count stops at 10,000 and the answer
 * says so, and a since..until window finds exactly the deliveries queued in it (by the id range the
 * window's times bound, and their times).
 */
@LedgerlinkTest
@ServerSettings({"events.operator-key=" + DeliverySearchTest.KEY})
class DeliverySearchTest {
    static final String KEY = "test-operator-key-search-0123456789";
    private static final int ROWS = 10_050;
    TestServer server;
    Fixtures f;
    Receiver receiver;
    long callback;
    Instant t0;

    @BeforeEach
    void history() {
        callback = f.verified("invoice", receiver).id();
        // A delivered row a minute apart for a week from now on, in id order as the queue writes them.
        t0 = Instant.now().plusSeconds(60).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        server.services().database().jdbi().useHandle(h -> {
            var batch = h.prepareBatch("""
                    insert into deliveries (callback_id, kind, state, attempts, next_attempt_at, created_at, finished_at)
                    values (:callback, 'verification', 'delivered', 1, :at, :at, :at)""");
            for (int i = 0; i < ROWS; i++) batch.bind("callback", callback).bind("at", t0.plus(Duration.ofMinutes(i))).add();
            batch.execute();
        });
    }

    private JsonNode search(String query) {
        var r = server.http.get("/internal/v1/admin/deliveries?callback_id=" + callback + query, "Authorization", "Bearer " + KEY);
        assertEquals(200, r.status(), r.body());
        return r.json();
    }

    /** One test: the rows it writes are times from now on, so those of a second test would run back in time against their ids. */
    @Test
    void theCountStopsAtTenThousandAndAWindowFindsExactlyTheDeliveriesQueuedInIt() {
        JsonNode all = search("");
        assertEquals(10_000, all.get("total").asLong());
        assertTrue(all.get("total_capped").asBoolean(), all.toString());
        assertEquals(667, all.get("pages").asInt());
        assertEquals(15, all.get("deliveries").size());
        assertFalse(search("&state=pending").has("total_capped"), "a count under the cap is exact and says nothing more");

        JsonNode window = search("&since=" + t0.plus(Duration.ofMinutes(100)) + "&until=" + t0.plus(Duration.ofMinutes(150)) + "&per_page=100");
        assertEquals(50, window.get("total").asLong(), window.toString());
        assertFalse(window.has("total_capped"));
        assertEquals(t0.plus(Duration.ofMinutes(149)).toString(), window.at("/deliveries/0/created_at").asText(), "newest first");
        assertEquals(t0.plus(Duration.ofMinutes(100)).toString(), window.at("/deliveries/49/created_at").asText());
        assertEquals(1, search("&since=" + t0.plus(Duration.ofMinutes(ROWS - 1))).get("total").asLong(), "the last one");
        assertEquals(1, search("&until=" + t0).get("total").asLong(), "before them, only the callback's verification request");
    }
}
