package dev.ledgerlink.web.console;

import dev.ledgerlink.accounts.AccountService;
import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.accounts.User;
import dev.ledgerlink.accounts.UserService;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.oauth.Grants;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * /console/grants: per user and application, the live refresh chain and the access tokens (counts
 * and times, never a token), and revoking them all. A user sees the members of their accounts.
 */
public final class GrantsPage {
    /** One row: who, which application, and what they hold. */
    public record Row(Grants.Summary grant, String userEmail, String applicationName, String clientId) {}

    private final ConsoleSession session;
    private final Grants grants;
    private final AccountService accounts;
    private final UserService users;
    private final ApplicationService applications;

    GrantsPage(ConsoleSession session, Grants grants, AccountService accounts, UserService users, ApplicationService applications) {
        this.session = session;
        this.grants = grants;
        this.accounts = accounts;
        this.users = users;
        this.applications = applications;
    }

    void show(Context ctx) {
        Viewer viewer = session.require(ctx);
        Grants.SummaryPage page = grants.summaries(members(viewer), ConsolePage.positive(ctx.queryParam("page")).orElse(1L).intValue());
        // Only the page's users and applications are read, each set in one query.
        Map<Long, Application> apps = applications.findAll(page.summaries().stream().map(Grants.Summary::applicationId).toList());
        Map<Long, User> people = users.findAll(page.summaries().stream().map(Grants.Summary::userId).toList());
        List<Row> rows = page.summaries().stream().map(g -> {
            Application app = apps.get(g.applicationId());
            String email = people.containsKey(g.userId()) ? people.get(g.userId()).email() : "user " + g.userId();
            return new Row(g, email, app == null ? "application " + g.applicationId() : app.name(), app == null ? "" : app.clientId());
        }).toList();
        Map<String, Object> p = new HashMap<>();
        p.put("rows", rows);
        p.put("page", page.page());
        p.put("more", page.more());
        p.put("notice", ConsolePage.notice(ctx));
        ConsolePage.render(ctx, viewer, "grants", "grants.jte", p);
    }

    void revoke(Context ctx) {
        Viewer viewer = session.requireForm(ctx);
        long userId = ConsolePage.positive(ctx.formParam("user_id")).orElseThrow(ServiceException::notFound);
        long applicationId = ConsolePage.positive(ctx.formParam("application_id")).orElseThrow(ServiceException::notFound);
        List<Long> visible = members(viewer);
        if (visible != null && !visible.contains(userId)) throw ServiceException.notFound();
        grants.revokePair(userId, applicationId);
        ctx.redirect("/console/grants?notice=revoked", HttpStatus.SEE_OTHER);
    }

    /** The users whose grants this viewer sees: members of their accounts (an operator: everyone, null). */
    private List<Long> members(Viewer viewer) {
        return viewer.operator() ? null : accounts.memberIds(viewer.accountIds());
    }
}
