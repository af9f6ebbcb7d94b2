package dev.ledgerlink.cli;

import dev.ledgerlink.oauth.GrantJson;
import dev.ledgerlink.Services;
import dev.ledgerlink.oauth.Grants;
import dev.ledgerlink.paging.Paging;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "grants", mixinStandardHelpOptions = true, description = "OAuth grants (a user's authorization of an application): list, revoke.",
        subcommands = {GrantsCommand.ListGrants.class, GrantsCommand.Revoke.class})
final class GrantsCommand {

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Grants of a user and/or an application, newest first.")
    static final class ListGrants extends ServiceCommand {
        @Option(names = "--user", paramLabel = "ID|EMAIL", description = "The user's id or e-mail (give --user, --app or both).")
        String user;

        @Option(names = "--app", paramLabel = "ID|CLIENT_ID", description = "The application's id or client_id (give --user, --app or both).")
        String app;

        @Mixin
        PageOptions pages;

        @Override
        void run(Services s) {
            Long userId = user == null ? null : AccountsCommand.resolveUser(s, user);
            Long appId = app == null ? null : s.applications().show(app).id();
            Paging.Page<Grants.Grant> p = s.oauth().grants().list(userId, appId, pages.paging());
            StringBuilder human = new StringBuilder();
            for (Grants.Grant g : p.items()) human.append(line(g)).append('\n');
            human.append(PageOptions.footer(p, "grants"));
            print(p.json("grants", GrantJson::of), human.toString());
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true,
            description = "End a grant: its refresh token and every access token issued with it stop working at once.")
    static final class Revoke extends ServiceCommand {
        @Parameters(paramLabel = "GRANT_ID", description = "The grant's id (grants list shows it).")
        long id;

        @Override
        void run(Services s) {
            Grants.Grant g = s.oauth().grants().revoke(id);
            print(Map.of("grant", GrantJson.of(g)), line(g) + "\nrevoked");
        }
    }

    private static String line(Grants.Grant g) {
        return g.id() + "\tuser=" + g.userId() + "\tapp=" + g.applicationId() + "\t" + (g.active() ? "active" : "ended")
                + "\t" + g.scopes() + "\t" + g.createdAt();
    }
}
