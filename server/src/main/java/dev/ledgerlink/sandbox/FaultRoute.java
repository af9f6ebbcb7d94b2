package dev.ledgerlink.sandbox;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** The routes an application calls, by the names fault rules and the journal use (docs/sandbox.md, "Faults"). */
public enum FaultRoute {
    AUTHORIZE, TOKEN, REVOKE, INTROSPECT, IDENTITY, CALLBACKS;

    /** authorize, token, ...: the name in rules and in the journal. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<FaultRoute> byName(String name) {
        return Arrays.stream(values()).filter(r -> r.wireName().equals(name)).findFirst();
    }

    /** Every name, for messages and help: "authorize, token, revoke, introspect, identity, callbacks". */
    public static String names() {
        return String.join(", ", Arrays.stream(values()).map(FaultRoute::wireName).toList());
    }
}
