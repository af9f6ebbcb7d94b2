package dev.ledgerlink.web.console;

import dev.ledgerlink.events.OperatorKey;
import dev.ledgerlink.oauth.PasswordLogin;
import dev.ledgerlink.web.ClientAddress;
import dev.ledgerlink.web.SignInRefusals;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.util.HashMap;
import java.util.Map;

/**
 * /console/sign-in: a user with e-mail and password (sees their accounts) or an operator with the
 * operator key (sees every account). Both are throttled like the authorization page's login, per
 * account and per client address (the same {@link ClientAddress} rule: X-Forwarded-For only from a
 * trusted proxy).
 */
final class SignInPage {
    private final ConsoleSession session;
    private final PasswordLogin login;
    private final OperatorKey operatorKey;
    private final ClientAddress clientAddress;

    SignInPage(ConsoleSession session, PasswordLogin login, OperatorKey operatorKey, ClientAddress clientAddress) {
        this.session = session;
        this.login = login;
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
        } else {
            session.signInUser(ctx, result.user().orElseThrow().id());
        }
        ctx.redirect("/console/applications", HttpStatus.SEE_OTHER);
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
