package dev.ledgerlink.callbacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.net.PublicAddressGate;
import dev.ledgerlink.oauth.TokenPrincipal;
import dev.ledgerlink.secrets.Hashes;
import dev.ledgerlink.secrets.KeyRing;
import dev.ledgerlink.secrets.SecretBox;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.LedgerlinkTest;
import dev.ledgerlink.testing.TestServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The service over the real database (H2 and PostgreSQL), below HTTP: rules, state changes and
 * what is stored. The verification requests are recorded here; CallbackHttpTest sends them for real.
 */
@LedgerlinkTest
class CallbackServiceTest {
    private static final String URI = "http://127.0.0.1:9/hook";
    private static final CallbackUriRule DEV_URIS = new CallbackUriRule(PublicAddressGate.of(true, PublicAddressGate.SYSTEM));
    static TestServer server;
    Fixtures f;
    private KeyRing box;
    private CallbackService callbacks;
    private final List<Long> verificationRequests = new CopyOnWriteArrayList<>();
    private TokenPrincipal owner;
    private String accountId;

    /** A service of its own that records the verification requests instead of queueing them; f's account and user. */
    @BeforeEach
    void start() {
        var s = server.services();
        box = KeyRing.of(SecretBox.fromBase64(SecretBox.newKeyBase64()));
        callbacks = new CallbackService(s.database().jdbi(), server.clock, s.accounts(), box,
                DEV_URIS, s.audit(), new CallbackQueue() {
                    @Override
                    public void enqueueVerification(org.jdbi.v3.core.Handle transaction, long callbackId, Instant now) {
                        verificationRequests.add(callbackId);
                    }

                    @Override
                    public int dropPending(org.jdbi.v3.core.Handle transaction, long callbackId, String reason, Instant now) {
                        throw new AssertionError("nothing of these tests drops deliveries");
                    }

                    @Override
                    public int holdPending(org.jdbi.v3.core.Handle transaction, long callbackId, Instant now) {
                        return 0;   // nothing is queued in these tests (RekeyingTest holds real deliveries)
                    }

                    @Override
                    public int releaseHeld(org.jdbi.v3.core.Handle transaction, long callbackId, Instant now) {
                        return 0;
                    }

                    @Override
                    public int repace(org.jdbi.v3.core.Handle transaction, long callbackId, Instant now) {
                        throw new AssertionError("nothing of these tests changes a rate limit");
                    }

                    @Override
                    public void orderChanged(org.jdbi.v3.core.Handle transaction, long callbackId, boolean ordered, Instant now) {
                        throw new AssertionError("nothing of these tests changes the order setting");
                    }
                }, () -> {});
        accountId = f.account().accountId();
        owner = new TokenPrincipal(f.user().id(), f.app().id(),
                Set.of("user:invoices:read", "user:clients:read"), Instant.now().plusSeconds(3600));
    }

    private String codeOf(long id) {
        Callback c = server.services().database().jdbi().withExtension(CallbackStore.class,
                s -> s.find(id, accountId, owner.applicationId())).orElseThrow();
        return box.open(c.verifierSealed(), c.verifierKey());
    }

    @Test
    void registrationStoresTheCodeSealedAndHashedAndQueuesTheVerificationRequest() {
        Callback c = callbacks.register(owner, accountId, "invoice.create", URI);
        assertFalse(c.verified());
        assertFalse(c.disabled());
        assertEquals(List.of(c.id()), verificationRequests);
        String code = codeOf(c.id());
        assertTrue(code.matches("[A-Za-z0-9_-]{43}"), "256-bit URL-safe code");
        assertEquals(Hashes.sha256Hex(code), c.verifierHash());
        assertFalse(c.verifierSealed().contains(code));
    }

    @Test
    void rightCodeVerifiesAndWrongCodeChangesNothing() {
        Callback c = callbacks.register(owner, accountId, "invoice", URI);
        var wrong = assertThrows(ServiceException.class, () -> callbacks.verify(owner, accountId, c.id(), "not-the-code"));
        assertEquals(422, wrong.kind().status);
        assertEquals("callback.verifier", wrong.violations().getFirst().field());
        Callback after = callbacks.get(owner, accountId, c.id());
        assertFalse(after.verified());
        assertEquals(c.updatedAt(), after.updatedAt());
        assertTrue(callbacks.verify(owner, accountId, c.id(), codeOf(c.id())).verified());
    }

    @Test
    void repeatedWrongCodesAreThrottledEvenForTheRightOneUntilTheWindowEnds() {
        Callback c = callbacks.register(owner, accountId, "invoice", URI);
        for (int i = 0; i < VerifierThrottle.MAX_WRONG_TRIES; i++) {
            assertEquals(422, assertThrows(ServiceException.class, () -> callbacks.verify(owner, accountId, c.id(), "wrong")).kind().status);
        }
        var throttled = assertThrows(ServiceException.class, () -> callbacks.verify(owner, accountId, c.id(), codeOf(c.id())));
        assertEquals(429, throttled.kind().status);
        assertTrue(throttled.retryAfter().compareTo(Duration.ZERO) > 0);
        server.clock.advance(VerifierThrottle.WINDOW);
        assertTrue(callbacks.verify(owner, accountId, c.id(), codeOf(c.id())).verified());
    }

    @Test
    void resendIssuesAFreshCodeTheOldOneStopsWorkingAndItIsUnverifiedAgain() {
        Callback c = callbacks.register(owner, accountId, "invoice", URI);
        String first = codeOf(c.id());
        callbacks.verify(owner, accountId, c.id(), first);
        Callback resent = callbacks.resend(owner, accountId, c.id());
        assertFalse(resent.verified());
        assertEquals(List.of(c.id(), c.id()), verificationRequests);
        String second = codeOf(c.id());
        assertNotEquals(first, second);
        assertEquals(422, assertThrows(ServiceException.class, () -> callbacks.verify(owner, accountId, c.id(), first)).kind().status);
        assertTrue(callbacks.verify(owner, accountId, c.id(), second).verified());
    }

    /**
     * Whether a callback receives events (and sends them now) is written once per language in
     * EventReceivers: the SQL conditions the fan-out selects receivers with (and queues pending or
     * held by), and the Java the engine asks of a state. They agree on a callback in each stored state.
     */
    @Test
    void theFanOutsConditionAndTheStateAgreeOnWhoReceivesEvents() {
        Callback unverified = callbacks.register(owner, accountId, "invoice", URI);
        Callback verified = callbacks.register(owner, accountId, "invoice", URI);
        callbacks.verify(owner, accountId, verified.id(), codeOf(verified.id()));
        Callback disabledAfterVerification = callbacks.register(owner, accountId, "invoice", URI);
        callbacks.verify(owner, accountId, disabledAfterVerification.id(), codeOf(disabledAfterVerification.id()));
        server.services().operatorCallbacks().disable(disabledAfterVerification.id());
        Callback disabledUnverified = callbacks.register(owner, accountId, "invoice", URI);
        server.services().operatorCallbacks().disable(disabledUnverified.id());
        Callback rekeying = callbacks.register(owner, accountId, "invoice", URI);
        callbacks.verify(owner, accountId, rekeying.id(), codeOf(rekeying.id()));
        callbacks.resend(owner, accountId, rekeying.id());

        List<Callback> all = List.of(unverified, verified, disabledAfterVerification, disabledUnverified, rekeying);
        for (Callback c : all) {
            Callback now = callbacks.get(owner, accountId, c.id());
            assertEquals(EventReceivers.receives(now.state()), matches(c.id(), EventReceivers.RECEIVING), now.state() + " (verified " + now.verified() + ")");
            assertEquals(EventReceivers.sendsNow(now.state()), matches(c.id(), EventReceivers.SENDS_NOW), now.state() + " sends");
        }
        assertEquals(List.of(CallbackStateMachine.State.UNVERIFIED, CallbackStateMachine.State.VERIFIED, CallbackStateMachine.State.DISABLED,
                CallbackStateMachine.State.DISABLED, CallbackStateMachine.State.REKEYING), all.stream()
                .map(c -> callbacks.get(owner, accountId, c.id()).state()).toList());
    }

    private boolean matches(long callbackId, String condition) {
        return server.services().database().jdbi().withHandle(h -> h.createQuery("select count(*) from callbacks c where c.id = :id and " + condition)
                .bind("id", callbackId).mapTo(Integer.class).one() == 1);
    }

    @Test
    void resendReEnablesADisabledCallbackAndClearsItsFailureRun() {
        Callback c = callbacks.register(owner, accountId, "invoice", URI);
        callbacks.verify(owner, accountId, c.id(), codeOf(c.id()));
        // What the delivery engine writes after the disable window (see V3).
        server.services().database().jdbi().useHandle(h -> h.createUpdate(
                "update callbacks set disabled = true, failing_since = :t where id = :id")
                .bind("t", Instant.now().minus(Duration.ofDays(6))).bind("id", c.id()).execute());
        Callback disabled = callbacks.get(owner, accountId, c.id());
        assertTrue(disabled.disabled());
        assertEquals(CallbackStateMachine.State.DISABLED, disabled.state());
        Callback resent = callbacks.resend(owner, accountId, c.id());
        assertFalse(resent.disabled());
        assertFalse(resent.verified());
        assertEquals(null, resent.failingSince());
        assertTrue(callbacks.verify(owner, accountId, c.id(), codeOf(c.id())).verified());
    }

    @Test
    void changingTheUriRequiresVerificationAnewButChangingTheEventDoesNot() {
        Callback c = callbacks.register(owner, accountId, "invoice", URI);
        String code = codeOf(c.id());
        callbacks.verify(owner, accountId, c.id(), code);
        Callback sameUri = callbacks.update(owner, accountId, c.id(), "invoice.update", URI);
        assertTrue(sameUri.verified());
        assertEquals("invoice.update", sameUri.event());
        assertEquals(1, verificationRequests.size());
        Callback moved = callbacks.update(owner, accountId, c.id(), null, "http://127.0.0.1:10/other");
        assertFalse(moved.verified());
        assertEquals("http://127.0.0.1:10/other", moved.uri());
        assertEquals("invoice.update", moved.event());
        assertEquals(2, verificationRequests.size());
        assertNotEquals(code, codeOf(c.id()));
    }

    @Test
    void listSearchesByNounNounVerbUriAndVerifiedInIdOrder() {
        Callback inv = callbacks.register(owner, accountId, "invoice", URI);
        Callback invCreate = callbacks.register(owner, accountId, "invoice.create", URI);
        Callback invDelete = callbacks.register(owner, accountId, "invoice.delete", "http://127.0.0.1:11/x");
        Callback client = callbacks.register(owner, accountId, "client.create", URI);
        callbacks.verify(owner, accountId, invDelete.id(), codeOf(invDelete.id()));

        assertEquals(ids(inv, invCreate, invDelete), ids(search("search[event]", "invoice")));
        assertEquals(ids(inv, invCreate), ids(search("search[event]", "invoice.create")));
        assertEquals(ids(inv, invCreate, client), ids(search("search[uri]", URI)));
        assertEquals(ids(invDelete), ids(search("search[verified]", "True")));
        assertEquals(ids(inv, invCreate, client), ids(search("verified", "false")));
        assertEquals(ids(inv, invCreate, invDelete, client), ids(search()));
    }

    @Test
    void pagesCountFromOneAndAPagePastTheEndIsEmpty() {
        for (int i = 0; i < 5; i++) callbacks.register(owner, accountId, "invoice", URI);
        CallbackPage p2 = callbacks.list(owner, accountId, CallbackSearch.parse(Map.of("page", List.of("2"), "per_page", List.of("2"))));
        assertEquals(2, p2.callbacks().size());
        assertEquals(3, p2.pages());
        assertEquals(5, p2.total());
        CallbackPage past = callbacks.list(owner, accountId, CallbackSearch.parse(Map.of("page", List.of("9"), "per_page", List.of("2"))));
        assertEquals(0, past.callbacks().size());
        assertEquals(9, past.page());
        assertEquals(3, past.pages());
    }

    @Test
    void aTokenSeesOnlyCallbacksWhoseScopeItHolds() {
        Callback inv = callbacks.register(owner, accountId, "invoice", URI);
        callbacks.register(owner, accountId, "client", URI);
        TokenPrincipal invoicesOnly = new TokenPrincipal(owner.userId(), owner.applicationId(), Set.of("user:invoices:read"), owner.expiresAt());
        assertEquals(List.of(inv.id()), ids(callbacks.list(invoicesOnly, accountId, CallbackSearch.parse(Map.of())).callbacks()));
        var e = assertThrows(ServiceException.class, () -> callbacks.register(invoicesOnly, accountId, "expense", URI));
        assertEquals(403, e.kind().status);
        assertTrue(e.getMessage().contains("user:expenses:read"));
    }

    @Test
    void anotherApplicationsOrAccountsCallbackIsNotFound() {
        Callback c = callbacks.register(owner, accountId, "invoice", URI);
        var otherApp = server.services().applications().create("Other", List.of("https://o.example.com/cb"), List.of("user:profile:read"));
        TokenPrincipal other = new TokenPrincipal(owner.userId(), otherApp.application().id(), owner.scopes(), owner.expiresAt());
        assertEquals(404, assertThrows(ServiceException.class, () -> callbacks.get(other, accountId, c.id())).kind().status);
        String otherAccount = server.services().accounts().create("Other Co", "UTC").accountId();
        server.services().accounts().addMember(otherAccount, owner.userId(), "owner");
        assertEquals(404, assertThrows(ServiceException.class, () -> callbacks.get(owner, otherAccount, c.id())).kind().status);
        assertEquals(404, assertThrows(ServiceException.class, () -> callbacks.delete(owner, otherAccount, c.id())).kind().status);
    }

    @Test
    void deleteRemovesTheCallback() {
        Callback c = callbacks.register(owner, accountId, "invoice", URI);
        callbacks.delete(owner, accountId, c.id());
        assertEquals(404, assertThrows(ServiceException.class, () -> callbacks.get(owner, accountId, c.id())).kind().status);
        assertEquals(404, assertThrows(ServiceException.class, () -> callbacks.delete(owner, accountId, c.id())).kind().status);
    }

    private CallbackPage search(String... kv) {
        Map<String, List<String>> q = new java.util.LinkedHashMap<>();
        for (int i = 0; i + 1 < kv.length; i += 2) q.put(kv[i], List.of(kv[i + 1]));
        return callbacks.list(owner, accountId, CallbackSearch.parse(q));
    }

    private static List<Long> ids(Callback... cs) {
        return java.util.Arrays.stream(cs).map(Callback::id).toList();
    }

    private static List<Long> ids(CallbackPage p) {
        return ids(p.callbacks());
    }

    private static List<Long> ids(List<Callback> cs) {
        return cs.stream().map(Callback::id).toList();
    }

    @Test
    void aCallbackAndItsVerificationRequestCommitTogether() {
        var s = server.services();
        var failing = new CallbackService(s.database().jdbi(), server.clock, s.accounts(), box, DEV_URIS, s.audit(),
                new CallbackQueue() {
                    @Override
                    public void enqueueVerification(org.jdbi.v3.core.Handle transaction, long callbackId, Instant now) {
                        throw new IllegalStateException("the process dies between the two writes");
                    }

                    @Override
                    public int dropPending(org.jdbi.v3.core.Handle transaction, long callbackId, String reason, Instant now) {
                        throw new AssertionError("not reached");
                    }

                    @Override
                    public int holdPending(org.jdbi.v3.core.Handle transaction, long callbackId, Instant now) {
                        throw new AssertionError("not reached");
                    }

                    @Override
                    public int releaseHeld(org.jdbi.v3.core.Handle transaction, long callbackId, Instant now) {
                        throw new AssertionError("not reached");
                    }

                    @Override
                    public int repace(org.jdbi.v3.core.Handle transaction, long callbackId, Instant now) {
                        throw new AssertionError("not reached");
                    }

                    @Override
                    public void orderChanged(org.jdbi.v3.core.Handle transaction, long callbackId, boolean ordered, Instant now) {
                        throw new AssertionError("not reached");
                    }
                }, () -> {});
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> failing.register(owner, accountId, "invoice.create", "http://127.0.0.1:9/hook"));
        long callbacksStored = s.database().jdbi().withHandle(h -> h.createQuery("select count(*) from callbacks where account_id = :a")
                .bind("a", accountId).mapTo(Long.class).one());
        assertEquals(0, callbacksStored, "no callback without its verification request");
    }
}
