package dev.ledgerlink.signature;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class StandardWebhooksTest {
    private static final Duration FIVE_MINUTES = Duration.ofMinutes(5);

    @Test
    void signatureIsV1CommaBase64HmacOfIdDotTimestampDotBody() throws Exception {
        String body = "name=invoice.create&object_id=42&account_id=6BApk&user_id=1";
        String sig = StandardWebhooks.sign("c\u00f6de", "msg_7", 1700000000L, body);
        String python = python("import hmac,hashlib,base64;print('v1,'+base64.b64encode(hmac.new('c\u00f6de'.encode(),b'msg_7.1700000000.'+b'"
                + body + "',hashlib.sha256).digest()).decode())");
        assertEquals(python, sig);
    }

    @Test
    void receiversAcceptAFreshSignatureAmongSeveralAndRefuseStaleOrForged() {
        Instant now = Instant.ofEpochSecond(1_700_000_000L);
        String sig = StandardWebhooks.sign("k", "msg_1", now.getEpochSecond(), "b=1");
        assertTrue(StandardWebhooks.verify("k", "msg_1", "1700000000", "b=1", sig, now, FIVE_MINUTES));
        assertTrue(StandardWebhooks.verify("k", "msg_1", "1700000000", "b=1", "v1,AAAA " + sig, now, FIVE_MINUTES));
        assertFalse(StandardWebhooks.verify("k", "msg_1", "1700000000", "b=2", sig, now, FIVE_MINUTES));
        assertFalse(StandardWebhooks.verify("k", "msg_2", "1700000000", "b=1", sig, now, FIVE_MINUTES));
        assertFalse(StandardWebhooks.verify("x", "msg_1", "1700000000", "b=1", sig, now, FIVE_MINUTES));
        assertFalse(StandardWebhooks.verify("k", "msg_1", "1700000000", "b=1", sig, now.plus(Duration.ofMinutes(6)), FIVE_MINUTES));
        assertFalse(StandardWebhooks.verify("k", "msg_1", "not-a-number", "b=1", sig, now, FIVE_MINUTES));
        assertFalse(StandardWebhooks.verify("k", "msg_1", "1700000000", "b=1", null, now, FIVE_MINUTES));
    }

    private static String python(String program) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("python3", "-c", program).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), out);
        return out;
    }
}
