package dev.ledgerlink.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class EchoedInputTest {
    @Test
    void printableKeepsPrintableAsciiAndCutsWithAMark() {
        assertEquals("v1 ?x?[2J?", EchoedInput.printable("v1 \nx\u001b[2J\u00e9", 40));
        assertEquals("abc…", EchoedInput.printable("abcdef", 3));
        assertEquals("abc", EchoedInput.printable("abc", 3));
        assertEquals("", EchoedInput.printable(null, 3));
    }

    @Test
    void identifierKeepsLettersDigitsUnderscoreAndDash() {
        assertEquals("AB_c-9?????", EchoedInput.identifier("AB_c-9 ./'<", 32));
        assertEquals("xy…", EchoedInput.identifier("xyz", 2));
    }
}
