package dev.ledgerlink.errors;

import java.util.regex.Pattern;

/**
 * Client input quoted back in an error message (an unsupported Api-Version, an Idempotency-Key, the
 * HTTP layer's reason for refusing a request, ...): what it keeps is safe in a JSON body, a terminal
 * and a log line, and a long value is cut, so a message never carries a control character, an
 * escape sequence or a page of the request. Every other character becomes '?'.
 */
public final class EchoedInput {
    private static final Pattern NOT_PRINTABLE_ASCII = Pattern.compile("[^\\x20-\\x7e]");
    private static final Pattern NOT_IDENTIFIER = Pattern.compile("[^A-Za-z0-9_-]");

    private EchoedInput() {}

    /** Printable ASCII kept; longer than {@code max}: its first {@code max} characters and "…". Null is "". */
    public static String printable(String input, int max) {
        return clip(NOT_PRINTABLE_ASCII, input, max);
    }

    /** Letters, digits, '_' and '-' kept (an identifier such as an account id); cut as {@link #printable}. */
    public static String identifier(String input, int max) {
        return clip(NOT_IDENTIFIER, input, max);
    }

    private static String clip(Pattern refused, String input, int max) {
        String clean = input == null ? "" : refused.matcher(input).replaceAll("?");
        return clean.length() > max ? clean.substring(0, max) + "…" : clean;
    }
}
