package dev.ledgerlink.callbacks;

/**
 * Sends the verification request of a callback (decisions.md: name=callback.verify, object_id,
 * verifier, account_id, user_id, signed with the code). The delivery engine implements it: it reads
 * the callback's row (uri, sealed code) when it sends, so a resend that replaced the code in the
 * meantime is what goes out.
 */
@FunctionalInterface
public interface VerificationRequests {
    void enqueue(long callbackId);
}
