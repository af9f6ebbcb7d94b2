package dev.ledgerlink.web.console;

import dev.ledgerlink.accounts.AccountService;
import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.accounts.Scopes;
import dev.ledgerlink.callbacks.OperatorCallbacks;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.oauth.Grants;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * /console/applications: the applications of the viewer's accounts (an operator: all) with their
 * client id, redirect URIs and scopes; in development mode, create one and rotate its secret.
 * A new secret is shown once, on the page that answers the form, and never again.
 *
 * <p>An application is one of an account's when the account owns it (created here, or the demo
 * application), has a callback registered by it, or has a member who authorized it: applications
 * made with the CLI or a seed file belong to no account, yet their developers see them here.
 */
public final class ApplicationsPage {
    /** A scope as the create form offers it. */
    public record ScopeOption(String name, String description) {}

    /** What the create form was given, to show it again with the problem. */
    public record Draft(String name, String accountId, String redirectUris, List<String> scopes) {
        static final Draft EMPTY = new Draft("", "", "", List.of());
    }

    private final ConsoleSession session;
    private final ApplicationService applications;
    private final OperatorCallbacks callbacks;
    private final Grants grants;
    private final AccountService accounts;

    ApplicationsPage(ConsoleSession session, ApplicationService applications, OperatorCallbacks callbacks, Grants grants, AccountService accounts) {
        this.session = session;
        this.applications = applications;
        this.callbacks = callbacks;
        this.grants = grants;
        this.accounts = accounts;
    }

    void show(Context ctx) {
        render(ctx, session.require(ctx), null, null, Draft.EMPTY, HttpStatus.OK);
    }

    void create(Context ctx) {
        Viewer viewer = session.requireForm(ctx);
        requireDevMode(viewer);
        Draft draft = new Draft(ConsolePage.field(ctx, "name"), ConsolePage.field(ctx, "account_id"),
                ConsolePage.field(ctx, "redirect_uris"), ctx.formParams("scope"));
        if (!viewer.canSee(draft.accountId())) {
            render(ctx, viewer, null, "Choose one of your accounts for the application.", draft, HttpStatus.UNPROCESSABLE_CONTENT);
            return;
        }
        List<String> uris = Arrays.stream(draft.redirectUris().split("\\R")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        try {
            ApplicationService.Created created = applications.create(draft.name(), uris, draft.scopes(), draft.accountId());
            render(ctx, viewer, created, null, Draft.EMPTY, HttpStatus.CREATED);
        } catch (ServiceException e) {
            render(ctx, viewer, null, ConsolePage.describe(e), draft, HttpStatus.UNPROCESSABLE_CONTENT);
        }
    }

    void rotateSecret(Context ctx) {
        Viewer viewer = session.requireForm(ctx);
        requireDevMode(viewer);
        Application app = visible(viewer, ctx.pathParam("client_id"));
        render(ctx, viewer, applications.rotateSecret(app.clientId(), null), null, Draft.EMPTY, HttpStatus.OK);
    }

    private Application visible(Viewer viewer, String clientId) {
        Application app = applications.findByClientId(clientId).orElseThrow(ServiceException::notFound);
        if (viewer.operator() || listFor(viewer).stream().anyMatch(a -> a.id() == app.id())) return app;
        throw ServiceException.notFound();
    }

    /** Owned by the viewer's accounts, registered a callback there, or authorized by one of their members. */
    private List<Application> listFor(Viewer viewer) {
        if (viewer.operator()) return applications.list();
        Set<Long> ids = new LinkedHashSet<>();
        applications.ownedBy(viewer.accountIds()).forEach(a -> ids.add(a.id()));
        callbacks.ofAccounts(viewer.accountIds()).forEach(c -> ids.add(c.applicationId()));
        ids.addAll(grants.applicationsAuthorizedBy(accounts.memberIds(viewer.accountIds())));
        return ids.stream().sorted().map(applications::find).flatMap(Optional::stream).toList();
    }

    private static void requireDevMode(Viewer viewer) {
        if (!viewer.mayChangeApplications()) {
            throw ServiceException.forbidden("Applications are created and their secrets rotated in the console in development mode only; use `ledgerlink apps`.");
        }
    }

    private void render(Context ctx, Viewer viewer, ApplicationService.Created created, String problem, Draft draft, HttpStatus status) {
        Map<String, Object> p = new HashMap<>();
        p.put("applications", listFor(viewer));
        p.put("created", created);
        p.put("problem", problem);
        p.put("draft", draft);
        p.put("scopes", Scopes.all().stream().map(s -> new ScopeOption(s, Scopes.describe(s))).toList());
        ctx.status(status);
        ConsolePage.render(ctx, viewer, "applications", "applications.jte", p);
    }
}
