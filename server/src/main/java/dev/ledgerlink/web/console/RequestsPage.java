package dev.ledgerlink.web.console;

import dev.ledgerlink.accounts.Application;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.sandbox.JournalEntry;
import dev.ledgerlink.sandbox.RequestJournal;
import io.javalin.http.Context;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * /console/requests (development mode): the journal of the applications' calls, newest first, with
 * each refusal's error and description ("why did my token call fail"). A user sees the calls of their
 * accounts' applications, an operator every call.
 */
public final class RequestsPage {
    static final int SHOWN = 100;

    private final ConsoleSession session;
    private final RequestJournal journal;
    private final ApplicationService applications;

    RequestsPage(ConsoleSession session, RequestJournal journal, ApplicationService applications) {
        this.session = session;
        this.journal = journal;
        this.applications = applications;
    }

    void show(Context ctx) {
        Viewer viewer = session.require(ctx);
        List<Application> apps = viewer.operator() ? applications.list() : applications.ownedBy(viewer.accountIds());
        Set<String> visible = apps.stream().map(Application::clientId).collect(Collectors.toSet());
        String selected = ctx.queryParam("client_id") == null ? "" : ctx.queryParam("client_id");
        if (!selected.isEmpty() && !visible.contains(selected)) throw ServiceException.notFound("No application of yours has that client_id.");
        List<JournalEntry> entries;
        if (!selected.isEmpty()) {
            entries = journal.newest(selected, SHOWN);
        } else if (viewer.operator()) {
            entries = journal.newest(null, SHOWN);
        } else {
            entries = journal.newest(null, RequestJournal.MAX_LIMIT).stream()
                    .filter(e -> e.clientId() != null && visible.contains(e.clientId())).limit(SHOWN).toList();
        }
        Map<String, Object> p = new HashMap<>();
        p.put("entries", entries);
        p.put("applications", apps);
        p.put("selected", selected);
        ConsolePage.render(ctx, viewer, "requests", "requests.jte", p);
    }
}
