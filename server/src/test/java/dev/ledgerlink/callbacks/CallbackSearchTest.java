package dev.ledgerlink.callbacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.errors.ServiceException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallbackSearchTest {
    private static Map<String, List<String>> q(String... kv) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < kv.length; i += 2) m.put(kv[i], List.of(kv[i + 1]));
        return m;
    }

    @Test
    void defaultsArePageOneOfFifteen() {
        CallbackSearch s = CallbackSearch.parse(q());
        assertEquals(1, s.page());
        assertEquals(15, s.perPage());
        assertEquals(0, s.offset());
        assertNull(s.noun());
        assertNull(s.verified());
    }

    @Test
    void perPageOverAHundredIsClampedToAHundred() {
        assertEquals(100, CallbackSearch.parse(q("per_page", "1000")).perPage());
        assertEquals(100, CallbackSearch.parse(q("per_page", "100")).perPage());
    }

    @Test
    void pageAndPerPageMustBePositiveIntegers() {
        for (String bad : List.of("0", "-1", "abc", "1.5", "99999999999")) {
            var e = assertThrows(ServiceException.class, () -> CallbackSearch.parse(q("page", bad)), bad);
            assertEquals(422, e.kind().status);
            assertEquals("page", e.violations().getFirst().field());
            var e2 = assertThrows(ServiceException.class, () -> CallbackSearch.parse(q("per_page", bad)), bad);
            assertEquals("per_page", e2.violations().getFirst().field());
        }
    }

    @Test
    void eventSearchSplitsNounAndVerb() {
        CallbackSearch noun = CallbackSearch.parse(q("search[event]", "invoice"));
        assertEquals("invoice", noun.noun());
        assertNull(noun.name());
        CallbackSearch full = CallbackSearch.parse(q("search[event]", "invoice.create"));
        assertEquals("invoice", full.noun());
        assertEquals("invoice.create", full.name());
        var e = assertThrows(ServiceException.class, () -> CallbackSearch.parse(q("search[event]", "invoice.explode")));
        assertEquals("search[event]", e.violations().getFirst().field());
    }

    @Test
    void verifiedIsAcceptedInEverySpelling() {
        assertEquals(true, CallbackSearch.parse(q("search[verified]", "true")).verified());
        assertEquals(true, CallbackSearch.parse(q("search[verified]", "True")).verified());
        assertEquals(false, CallbackSearch.parse(q("search[verified]", "False")).verified());
        assertEquals(true, CallbackSearch.parse(q("verified", "true")).verified());
        assertEquals(false, CallbackSearch.parse(q("verified", "false")).verified());
        var e = assertThrows(ServiceException.class, () -> CallbackSearch.parse(q("search[verified]", "yes")));
        assertEquals("search[verified]", e.violations().getFirst().field());
    }

    @Test
    void unknownSearchKeysAreNamed() {
        var e = assertThrows(ServiceException.class, () -> CallbackSearch.parse(q("search[colour]", "blue")));
        assertTrue(e.getMessage().contains("search[colour]"));
    }
}
