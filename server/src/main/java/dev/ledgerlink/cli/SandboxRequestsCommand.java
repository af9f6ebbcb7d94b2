package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.sandbox.JournalEntry;
import dev.ledgerlink.sandbox.SandboxJson;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ledgerlink sandbox requests --app ID}: the journal of an application's calls, newest first (docs/sandbox.md, "Journal"). */
@Command(name = "requests", mixinStandardHelpOptions = true,
        description = "The journal of the applications' calls (authorization page, token, revoke, introspect, identity, callbacks), "
                + "newest first: status, error and description, duration. Never a secret or token.")
final class SandboxRequestsCommand extends ServiceCommand {
    @Option(names = "--app", paramLabel = "CLIENT_ID", description = "Only this application's calls: client_id (or id).")
    String app;

    @Option(names = "--limit", paramLabel = "N", description = "How many (1 to 1000, default 50).")
    int limit = 50;

    @Override
    void run(Services s) {
        if (limit < 1 || limit > 1000) throw dev.ledgerlink.errors.ServiceException.invalid("limit", "must be a number from 1 to 1000");
        String clientId = app == null ? null : s.applications().show(app).clientId();
        List<JournalEntry> entries = s.journal().newest(clientId, limit);
        StringBuilder human = new StringBuilder();
        for (JournalEntry e : entries) {
            human.append(e.receivedAt()).append("  ").append(e.clientId() == null ? "-" : e.clientId()).append("  ")
                    .append(e.method()).append(' ').append(e.path()).append(" -> ").append(e.status())
                    .append(" in ").append(e.durationMs()).append(" ms");
            if (e.error() != null) human.append("  ").append(e.error());
            if (e.errorDescription() != null) human.append(": ").append(e.errorDescription());
            human.append('\n');
        }
        if (entries.isEmpty()) human.append("no requests journaled").append(clientId == null ? "" : " for " + clientId).append('\n');
        print(Map.of("requests", entries.stream().map(SandboxJson::request).toList()), human.toString().stripTrailing());
    }
}
