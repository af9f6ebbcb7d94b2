package dev.ledgerlink.signature;

/**
 * The X-Service-Hmac-SHA256 header: base64 HMAC-SHA256 of the form parameters written as Python's
 * json.dumps writes a dict (see {@link PythonJson}), keyed with the verification code.
 */
public final class ServiceSignature {
    public static final String HEADER = "X-Service-Hmac-SHA256";

    private ServiceSignature() {}

    public static String sign(String code, FormParams params) {
        return Hmac.base64(code, params.signedJson());
    }

    /** For receivers: true when {@code header} is the signature of the received form body. Constant time. */
    public static boolean verify(String code, String formBody, String header) {
        return verify(code, FormParams.parse(formBody), header);
    }

    public static boolean verify(String code, FormParams params, String header) {
        return Hmac.equal(sign(code, params), header);
    }
}
