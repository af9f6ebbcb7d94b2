package dev.ledgerlink.callbacks;

import static dev.ledgerlink.callbacks.CallbackStateMachine.Effect.COUNT_WRONG_TRY;
import static dev.ledgerlink.callbacks.CallbackStateMachine.Effect.DROP_PENDING;
import static dev.ledgerlink.callbacks.CallbackStateMachine.Effect.HOLD_PENDING;
import static dev.ledgerlink.callbacks.CallbackStateMachine.Effect.RELEASE_HELD;
import static dev.ledgerlink.callbacks.CallbackStateMachine.Effect.ISSUE_NEW_CODE;
import static dev.ledgerlink.callbacks.CallbackStateMachine.Effect.SEND_VERIFICATION_REQUEST;
import static dev.ledgerlink.callbacks.CallbackStateMachine.Effect.START_NOTIFICATIONS;
import static dev.ledgerlink.callbacks.CallbackStateMachine.Effect.STOP_NOTIFICATIONS;
import static dev.ledgerlink.callbacks.CallbackStateMachine.State.DELETED;
import static dev.ledgerlink.callbacks.CallbackStateMachine.State.DISABLED;
import static dev.ledgerlink.callbacks.CallbackStateMachine.State.REKEYING;
import static dev.ledgerlink.callbacks.CallbackStateMachine.State.UNVERIFIED;
import static dev.ledgerlink.callbacks.CallbackStateMachine.State.VERIFIED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.callbacks.CallbackStateMachine.Effect;
import dev.ledgerlink.callbacks.CallbackStateMachine.IllegalTransition;
import dev.ledgerlink.callbacks.CallbackStateMachine.State;
import dev.ledgerlink.callbacks.CallbackStateMachine.Transition;
import dev.ledgerlink.callbacks.CallbackStateMachine.Trigger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every (state, trigger) pair, including "not registered", against the table of interface.md. */
class CallbackStateMachineTest {
    private record Expected(State next, Set<Effect> effects) {}

    /** null state = not registered; a missing pair = refused. */
    private static final Map<State, Map<Trigger, Expected>> TABLE = new HashMap<>();

    private static void row(State from, Trigger t, State next, Effect... effects) {
        TABLE.computeIfAbsent(from, k -> new EnumMap<>(Trigger.class)).put(t, new Expected(next, Set.of(effects)));
    }

    static {
        row(null, Trigger.REGISTER, UNVERIFIED, ISSUE_NEW_CODE, SEND_VERIFICATION_REQUEST);

        row(UNVERIFIED, Trigger.VERIFY_WITH_RIGHT_CODE, VERIFIED, START_NOTIFICATIONS);
        row(UNVERIFIED, Trigger.VERIFY_WITH_WRONG_CODE, UNVERIFIED, COUNT_WRONG_TRY);
        row(UNVERIFIED, Trigger.RESEND, UNVERIFIED, ISSUE_NEW_CODE, SEND_VERIFICATION_REQUEST);
        row(UNVERIFIED, Trigger.CHANGE_URI, UNVERIFIED, ISSUE_NEW_CODE, SEND_VERIFICATION_REQUEST);
        row(UNVERIFIED, Trigger.CHANGE_EVENT, UNVERIFIED);
        row(UNVERIFIED, Trigger.ENDPOINT_GONE, UNVERIFIED);
        row(UNVERIFIED, Trigger.DELETE, DELETED, STOP_NOTIFICATIONS, DROP_PENDING);
        row(UNVERIFIED, Trigger.OPERATOR_DISABLE, DISABLED);
        row(UNVERIFIED, Trigger.OPERATOR_ENABLE, UNVERIFIED);

        row(VERIFIED, Trigger.VERIFY_WITH_RIGHT_CODE, VERIFIED);
        row(VERIFIED, Trigger.VERIFY_WITH_WRONG_CODE, VERIFIED, COUNT_WRONG_TRY);
        row(VERIFIED, Trigger.RESEND, REKEYING, ISSUE_NEW_CODE, SEND_VERIFICATION_REQUEST, HOLD_PENDING);
        row(VERIFIED, Trigger.CHANGE_URI, UNVERIFIED, ISSUE_NEW_CODE, SEND_VERIFICATION_REQUEST, STOP_NOTIFICATIONS);
        row(VERIFIED, Trigger.CHANGE_EVENT, VERIFIED);
        row(VERIFIED, Trigger.FAILING_TOO_LONG, DISABLED, STOP_NOTIFICATIONS, DROP_PENDING);
        row(VERIFIED, Trigger.ENDPOINT_GONE, DISABLED, STOP_NOTIFICATIONS, DROP_PENDING);
        row(VERIFIED, Trigger.DELETE, DELETED, STOP_NOTIFICATIONS, DROP_PENDING);
        row(VERIFIED, Trigger.OPERATOR_DISABLE, DISABLED, STOP_NOTIFICATIONS, DROP_PENDING);
        row(VERIFIED, Trigger.OPERATOR_ENABLE, VERIFIED);

        row(REKEYING, Trigger.VERIFY_WITH_RIGHT_CODE, VERIFIED, START_NOTIFICATIONS, RELEASE_HELD);
        row(REKEYING, Trigger.VERIFY_WITH_WRONG_CODE, REKEYING, COUNT_WRONG_TRY);
        row(REKEYING, Trigger.RESEND, REKEYING, ISSUE_NEW_CODE, SEND_VERIFICATION_REQUEST);
        row(REKEYING, Trigger.CHANGE_URI, UNVERIFIED, ISSUE_NEW_CODE, SEND_VERIFICATION_REQUEST, STOP_NOTIFICATIONS, DROP_PENDING);
        row(REKEYING, Trigger.CHANGE_EVENT, REKEYING);
        row(REKEYING, Trigger.ENDPOINT_GONE, REKEYING);
        row(REKEYING, Trigger.DELETE, DELETED, STOP_NOTIFICATIONS, DROP_PENDING);
        row(REKEYING, Trigger.OPERATOR_DISABLE, DISABLED, STOP_NOTIFICATIONS, DROP_PENDING);
        row(REKEYING, Trigger.OPERATOR_ENABLE, REKEYING);
        row(REKEYING, Trigger.REKEYING_LAPSED, UNVERIFIED, STOP_NOTIFICATIONS, DROP_PENDING);

        row(DISABLED, Trigger.VERIFY_WITH_RIGHT_CODE, DISABLED);
        row(DISABLED, Trigger.VERIFY_WITH_WRONG_CODE, DISABLED, COUNT_WRONG_TRY);
        row(DISABLED, Trigger.RESEND, UNVERIFIED, ISSUE_NEW_CODE, SEND_VERIFICATION_REQUEST);
        row(DISABLED, Trigger.CHANGE_URI, UNVERIFIED, ISSUE_NEW_CODE, SEND_VERIFICATION_REQUEST);
        row(DISABLED, Trigger.CHANGE_EVENT, DISABLED);
        row(DISABLED, Trigger.FAILING_TOO_LONG, DISABLED);
        row(DISABLED, Trigger.ENDPOINT_GONE, DISABLED);
        row(DISABLED, Trigger.DELETE, DELETED, STOP_NOTIFICATIONS, DROP_PENDING);
        row(DISABLED, Trigger.OPERATOR_DISABLE, DISABLED);
        row(DISABLED, Trigger.OPERATOR_ENABLE, VERIFIED, START_NOTIFICATIONS);
        // DELETED: nothing applies.
    }

    @Test
    void everyStateAndTriggerFollowsTheTable() {
        List<State> states = new ArrayList<>(Arrays.asList(State.values()));
        states.add(null);
        int checked = 0;
        for (State from : states) {
            for (Trigger t : Trigger.values()) {
                Expected e = TABLE.getOrDefault(from, Map.of()).get(t);
                if (e == null) {
                    assertThrows(IllegalTransition.class, () -> CallbackStateMachine.apply(from, t), from + " + " + t);
                } else {
                    Transition got = CallbackStateMachine.apply(from, t);
                    assertEquals(e.next(), got.next(), from + " + " + t);
                    assertEquals(e.effects(), got.effects(), from + " + " + t);
                }
                checked++;
            }
        }
        assertEquals((State.values().length + 1) * Trigger.values().length, checked);
    }

    @Test
    void registrationSendsTheCodeAndStartsUnverified() {
        Transition t = CallbackStateMachine.apply(null, Trigger.REGISTER);
        assertEquals(UNVERIFIED, t.next());
        assertEquals(Set.of(ISSUE_NEW_CODE, SEND_VERIFICATION_REQUEST), t.effects());
    }

    @Test
    void onlyTheRightCodeStartsNotifications() {
        assertEquals(VERIFIED, CallbackStateMachine.apply(UNVERIFIED, Trigger.VERIFY_WITH_RIGHT_CODE).next());
        assertEquals(UNVERIFIED, CallbackStateMachine.apply(UNVERIFIED, Trigger.VERIFY_WITH_WRONG_CODE).next());
    }

    @Test
    void resendReEnablesADisabledCallbackAsUnverified() {
        assertEquals(UNVERIFIED, CallbackStateMachine.apply(DISABLED, Trigger.RESEND).next());
    }

    @Test
    void aResentVerifiedCallbackStaysSubscribedButSendsNothingUntilVerified() {
        Transition resend = CallbackStateMachine.apply(VERIFIED, Trigger.RESEND);
        assertEquals(REKEYING, resend.next());
        assertTrue(EventReceivers.receives(REKEYING), "publishes still create its deliveries");
        assertFalse(EventReceivers.sendsNow(REKEYING), "held until the new code is verified");
        assertTrue(resend.has(HOLD_PENDING) && !resend.has(DROP_PENDING), "what was pending is held, not dropped");
        assertTrue(CallbackStateMachine.apply(REKEYING, Trigger.VERIFY_WITH_RIGHT_CODE).has(RELEASE_HELD));
    }

    @Test
    void onlyAVerifiedCallbackSendsAndOnlyVerifiedOrReKeyingReceives() {
        for (State s : State.values()) {
            assertEquals(s == VERIFIED, EventReceivers.sendsNow(s), s.name());
            assertEquals(s == VERIFIED || s == REKEYING, EventReceivers.receives(s), s.name());
        }
    }

    @Test
    void nothingAppliesAfterADelete() {
        for (Trigger t : Trigger.values()) assertThrows(IllegalTransition.class, () -> CallbackStateMachine.apply(DELETED, t));
    }

    @Test
    void disabledWinsOverVerifiedInTheStoredFlags() {
        assertEquals(UNVERIFIED, StateColumns.of(false, false, false));
        assertEquals(REKEYING, StateColumns.of(false, false, true));
        assertEquals(VERIFIED, StateColumns.of(true, false, false));
        assertEquals(VERIFIED, StateColumns.of(true, false, true));
        assertEquals(DISABLED, StateColumns.of(true, true, false));
        assertEquals(DISABLED, StateColumns.of(false, true, false));
        assertEquals(DISABLED, StateColumns.of(false, true, true));
    }
}
