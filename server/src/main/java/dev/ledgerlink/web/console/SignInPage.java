package dev.ledgerlink.web.console;

import dev.ledgerlink.events.OperatorKey;
import dev.ledgerlink.accounts.User;
import dev.ledgerlink.oauth.LoginSession;
import dev.ledgerlink.oauth.PasswordLogin;
import dev.ledgerlink.oauth.SecondFactor;
import dev.ledgerlink.web.ClientAddress;
import dev.ledgerlink.web.SignInRefusals;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * /console/sign-in: a user with e-mail and password (sees their accounts), then their second factor
 * when they have one, or an operator with the operator key (sees every account). Both are throttled like the authorization page's login, per
 * account and per client address (the same {@link ClientAddress} rule: X-Forwarded-For only from a
 * trusted proxy).
 */
final class SignInPage {
    private final ConsoleSession session;
    private final PasswordLogin login;
    private final SecondFactor secondFactor;
    private final OperatorKey operatorKey;
    private final ClientAddress clientAddress;

    SignInPage(ConsoleSession session, PasswordLogin login, SecondFactor secondFactor, OperatorKey operatorKey, ClientAddress clientAddress) {
        this.session = session;
        this.login = login;
        this.secondFactor = secondFactor;
        this.operatorKey = operatorKey;
        this.clientAddress = clientAddress;
    }

    void home(Context ctx) {
        ctx.redirect(session.viewer(ctx).isPresent() ? "/console/applications" : "/console/sign-in");
    }

    void show(Context ctx) {
        if (session.viewer(ctx).isPresent()) {
            ctx.redirect("/console/applications");
            return;
        }
        form(ctx, null, "");
    }

    void submit(Context ctx) {
        if (!session.signInFormValid(ctx)) throw new ConsoleSession.FormExpired();
        if ("second_factor".equals(ctx.formParam("as"))) {
            secondFactor(ctx);
            return;
        }
        boolean asOperator = "operator".equals(ctx.formParam("as"));
        PasswordLogin.Result result = asOperator
                ? login.withOperatorKey(ctx.formParam("operator_key"), operatorKey::matches, clientAddress.of(ctx))
                : login.withPassword(ctx.formParam("email"), ctx.formParam("password"), clientAddress.of(ctx));
        if (!result.succeeded()) {
            SignInRefusals.status(ctx, result.refusal(), result.retryAfter(), HttpStatus.UNAUTHORIZED);
            form(ctx, result.problem(), asOperator ? "" : ctx.formParam("email"));
            return;
        }
        if (asOperator) {
            session.signInOperator(ctx);
        } else if (secondFactor.enrolled(result.user().orElseThrow().id())) {
            LoginSession waiting = session.awaitSecondFactor(ctx, result.user().get().id());
            codeForm(ctx, waiting.csrfToken(), result.user().get().email(), null);
            return;
        } else {
            session.signInUser(ctx, result.user().orElseThrow().id());
        }
        ctx.redirect("/console/applications", HttpStatus.SEE_OTHER);
    }

    /** The code of a user whose password was right and who has a second factor (oauth.SecondFactor: the same check and throttle as the hosted sign-in's). */
    private void secondFactor(Context ctx) {
        Optional<User> user = session.awaitingSecondFactor(ctx);
        if (user.isEmpty()) {
            ctx.status(HttpStatus.UNAUTHORIZED);
            form(ctx, "Your sign-in took too long; sign in again.", "");
            return;
        }
        SecondFactor.Check check = secondFactor.verify(user.get().id(), ctx.formParam("code"), clientAddress.of(ctx));
        switch (check) {
            case SecondFactor.Accepted a -> {
                session.signInUser(ctx, user.get().id());
                ctx.redirect("/console/applications", HttpStatus.SEE_OTHER);
            }
            case SecondFactor.Refused r -> {
                SignInRefusals.secondFactor(ctx, r.problem(), null, HttpStatus.UNAUTHORIZED);
                codeForm(ctx, session.anonymous(ctx).csrfToken(), user.get().email(), r.problem());
            }
            case SecondFactor.Throttled t -> {
                SignInRefusals.secondFactor(ctx, t.problem(), t.retryAfter(), HttpStatus.UNAUTHORIZED);
                codeForm(ctx, session.anonymous(ctx).csrfToken(), user.get().email(), t.problem());
            }
        }
    }

    private void codeForm(Context ctx, String csrf, String email, String problem) {
        Map<String, Object> p = new HashMap<>();
        p.put("csrf", csrf);
        p.put("problem", problem);
        p.put("email", email);
        dev.ledgerlink.web.Pages.render(ctx, "console/second-factor.jte", p);
    }

    void signOut(Context ctx) {
        session.requireForm(ctx);
        session.signOut(ctx);
        ctx.redirect("/console/sign-in", HttpStatus.SEE_OTHER);
    }

    private void form(Context ctx, String problem, String email) {
        Map<String, Object> p = new HashMap<>();
        p.put("csrf", session.anonymous(ctx).csrfToken());
        p.put("problem", problem);
        p.put("email", email == null ? "" : email);
        p.put("operatorKeyConfigured", operatorKey.configured());
        dev.ledgerlink.web.Pages.render(ctx, "console/sign-in.jte", p);
    }
}
