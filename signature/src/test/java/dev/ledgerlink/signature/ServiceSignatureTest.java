package dev.ledgerlink.signature;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ServiceSignatureTest {

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {
            "", "invoice.create", "plain ascii with spaces ~!@#$%^&*()_+`-={}|[]:;'<>?,./",
            "quote \" and backslash \\ and slash /", "new\nline, cr\r, tab\t, bs\b, ff\f",
            "control \u0000 \u0001 \u001f \u007f", "caf\u00e9 na\u00efve \u00fc\u00df", "\u65e5\u672c\u8a9e \u0627\u0644\u0639\u0631\u0628\u064a\u0629",
            "emoji \ud83d\ude00 and \ud83c\udff3\ufe0f\u200d\ud83c\udf08", "line sep \u2028 para \u2029 bom \ufeff nbsp \u00a0",
            "html <script>&amp;</script>", "{\"json\": [1, 2]}", "unicode escape text \\u00e9"})
    void signedJsonAndSignatureEqualPythonsForAnyValue(String value) {
        FormParams params = new FormParams(List.of(
                new FormParams.Param("name", "invoice.create"),
                new FormParams.Param("object_id", value),
                new FormParams.Param("account_id", "6BApk"),
                new FormParams.Param("user_id", "1")));
        String code = "code-\u00e9\ud83d\ude00-" + value.length();
        PythonReference.Result python = PythonReference.compute(code, params);
        assertEquals(python.json(), params.signedJson());
        assertEquals(python.signature(), ServiceSignature.sign(code, params));
    }

    @Test
    void aVerificationRequestSignsItsFiveParametersInOrder() {
        FormParams params = FormParams.verification(42, "s3cr\u00eat", "6BApk", 7);
        PythonReference.Result python = PythonReference.compute("s3cr\u00eat", params);
        assertEquals("{\"name\": \"callback.verify\", \"object_id\": \"42\", \"verifier\": \"s3cr\\u00eat\", \"account_id\": \"6BApk\", \"user_id\": \"7\"}",
                params.signedJson());
        assertEquals(python.signature(), ServiceSignature.sign("s3cr\u00eat", params));
    }

    @Test
    void anEmptyFormIsAnEmptyObject() {
        FormParams none = new FormParams(List.of());
        assertEquals("{}", none.signedJson());
        assertEquals(PythonReference.compute("k", none).signature(), ServiceSignature.sign("k", none));
    }

    /** Pinned from a python3 run, so the rule is visible here without running anything. */
    @Test
    void notificationSignatureMatchesAPinnedPythonValue() {
        FormParams params = FormParams.notification("invoice.create", 42, "6BApk", 1);
        assertEquals("{\"name\": \"invoice.create\", \"object_id\": \"42\", \"account_id\": \"6BApk\", \"user_id\": \"1\"}", params.signedJson());
        assertEquals("name=invoice.create&object_id=42&account_id=6BApk&user_id=1", params.formEncoded());
        assertEquals(PINNED, ServiceSignature.sign("verifier-code", params));
    }

    static final String PINNED = "Pa+zLLT1xTaJOBIdjOrIIl8tTmTC2rLjn09828MwQFc=";

    @Test
    void receiversVerifyTheFormBodyAsReceivedAndRejectTampering() {
        FormParams params = FormParams.notification("client.update", 9, "xY7", 3);
        String header = ServiceSignature.sign("the code", params);
        assertTrue(ServiceSignature.verify("the code", params.formEncoded(), header));
        assertFalse(ServiceSignature.verify("other code", params.formEncoded(), header));
        assertFalse(ServiceSignature.verify("the code", params.formEncoded().replace("9", "8"), header));
        assertFalse(ServiceSignature.verify("the code", params.formEncoded(), null));
        assertFalse(ServiceSignature.verify("the code", params.formEncoded(), ""));
    }

    @Test
    void formEncodingRoundTripsAnyValue() {
        FormParams params = FormParams.notification("invoice.create", 1, "a b&c=d/\u00e9\ud83d\ude00", 2);
        assertEquals(params, FormParams.parse(params.formEncoded()));
        assertEquals("name=invoice.create&object_id=1&account_id=a+b%26c%3Dd%2F%C3%A9%F0%9F%98%80&user_id=2", params.formEncoded());
    }
}
