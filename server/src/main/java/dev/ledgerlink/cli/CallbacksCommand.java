package dev.ledgerlink.cli;

import dev.ledgerlink.callbacks.CallbackJson;
import dev.ledgerlink.Services;
import dev.ledgerlink.callbacks.Callback;
import dev.ledgerlink.callbacks.OperatorSettings;
import dev.ledgerlink.config.RateLimit;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.paging.Paging;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "callbacks", mixinStandardHelpOptions = true, description = "Callbacks across accounts (operators): list, show, set, disable, enable.",
        subcommands = {CallbacksCommand.ListCallbacks.class, CallbacksCommand.Show.class, CallbacksCommand.SetSettings.class, CallbacksCommand.Disable.class,
                CallbacksCommand.Enable.class})
final class CallbacksCommand {

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Callbacks in id order, optionally of one state or account.")
    static final class ListCallbacks extends ServiceCommand {
        @Option(names = "--state", description = "unverified, verified or disabled.")
        String state;

        @Option(names = "--account", paramLabel = "ACCOUNT_ID", description = "Only the callbacks of this account (its account_id).")
        String account;

        @Mixin
        PageOptions pages;

        @Override
        void run(Services s) {
            Paging.Page<Callback> p = s.operatorCallbacks().list(state, account, pages.paging());
            StringBuilder human = new StringBuilder();
            for (Callback c : p.items()) human.append(line(c)).append('\n');
            human.append(PageOptions.footer(p, "callbacks"));
            print(p.json("callbacks", CallbackJson::operatorView), human.toString());
        }
    }

    /** The commands that act on one callback and print it. */
    abstract static class OneCallback extends ServiceCommand {
        @Parameters(paramLabel = "ID", description = "The callback's id (callbacks list shows it).")
        long id;

        abstract Callback apply(Services s, long id);

        @Override
        final void run(Services s) {
            Callback c = apply(s, id);
            print(Map.of("callback", CallbackJson.operatorView(c)), line(c));
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "One callback.")
    static final class Show extends OneCallback {
        @Override
        Callback apply(Services s, long id) {
            return s.operatorCallbacks().show(id);
        }
    }

    /**
     * The operator's settings of a callback, as the admin API's PATCH changes them: each option given
     * changes its setting, the others stay. A new setting is one more option and one more line in
     * {@link #settings}.
     */
    @Command(name = "set", mixinStandardHelpOptions = true, description = "Change a callback's operator settings (those not given stay).")
    static final class SetSettings extends OneCallback {
        @Option(names = "--rate-limit", paramLabel = "PER_SECOND",
                description = "Deliveries per second at most to it (1 to 10000), or none for the setting delivery.rate-limit. "
                        + "Deliveries beyond it wait their turn; none is dropped for it.")
        String rateLimit;

        @Override
        Callback apply(Services s, long id) {
            return s.operatorCallbacks().change(id, settings());
        }

        private OperatorSettings settings() {
            OperatorSettings settings = OperatorSettings.none();
            if (rateLimit != null) {
                try {
                    settings = settings.withRateLimit(RateLimit.parse(rateLimit));
                } catch (IllegalArgumentException e) {
                    throw ServiceException.invalid("--rate-limit", RateLimit.RULE + ", or none; got '" + rateLimit + "'");
                }
            }
            if (!settings.any()) throw ServiceException.invalid("set", "name at least one setting to change: --rate-limit");
            return settings;
        }
    }

    @Command(name = "disable", mixinStandardHelpOptions = true, description = "Stop notifications to a callback and drop what is queued for it.")
    static final class Disable extends OneCallback {
        @Override
        Callback apply(Services s, long id) {
            return s.operatorCallbacks().disable(id);
        }
    }

    @Command(name = "enable", mixinStandardHelpOptions = true,
            description = "Enable a disabled callback again (no new verification); `deliveries recover` re-sends what it missed.")
    static final class Enable extends OneCallback {
        @Override
        Callback apply(Services s, long id) {
            return s.operatorCallbacks().enable(id);
        }
    }

    private static String line(Callback c) {
        return c.id() + "\t" + c.state().name().toLowerCase(java.util.Locale.ROOT) + "\taccount=" + c.accountId()
                + "\tapp=" + c.applicationId() + "\t" + c.event() + "\t" + c.uri()
                + (c.rateLimit() == null ? "" : "\trate-limit=" + c.rateLimit() + "/s");
    }
}
