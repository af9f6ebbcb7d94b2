package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.accounts.Account;
import dev.ledgerlink.accounts.AccountService;
import dev.ledgerlink.accounts.AccountsJson;
import dev.ledgerlink.accounts.Membership;
import dev.ledgerlink.accounts.User;
import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.paging.Paging;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "accounts", mixinStandardHelpOptions = true, description = "Accounts (businesses) and their members.",
        subcommands = {AccountsCommand.Create.class, AccountsCommand.AddMember.class, AccountsCommand.ListAccounts.class,
                AccountsCommand.Members.class})
final class AccountsCommand {

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create an account; prints its account_id.")
    static final class Create extends ServiceCommand {
        @Option(names = "--name", required = true, description = "Business name.")
        String name;

        @Option(names = "--timezone", defaultValue = "UTC", description = "IANA time zone (default: ${DEFAULT-VALUE}).")
        String timezone;

        @Override
        void run(Services s) {
            Account a = s.accounts().create(name, timezone);
            print(accountJson(a), "account " + a.accountId() + " created (" + a.name() + ")");
        }
    }

    @Command(name = "add-member", mixinStandardHelpOptions = true, description = "Make a user a member of an account.")
    static final class AddMember extends ServiceCommand {
        @Option(names = "--account", required = true, description = "The account_id.")
        String account;

        @Option(names = "--user", required = true, description = "The user's id or e-mail.")
        String user;

        @Option(names = "--role", defaultValue = "owner", description = "owner, admin, manager, employee, accountant or contractor (default: ${DEFAULT-VALUE}).")
        String role;

        @Override
        void run(Services s) {
            long userId = resolveUser(s, user);
            Membership m = s.accounts().addMember(account, userId, role);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("membership_id", m.id());
            out.put("account_id", m.account().accountId());
            out.put("user_id", userId);
            out.put("role", m.role());
            print(out, "user " + userId + " is now " + m.role() + " of account " + m.account().accountId());
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Accounts in the order they were created.")
    static final class ListAccounts extends ServiceCommand {
        @Mixin
        PageOptions pages;

        @Override
        void run(Services s) {
            Paging.Page<Account> p = s.accounts().page(pages.paging());
            StringBuilder human = new StringBuilder();
            for (Account a : p.items()) human.append(a.accountId()).append('\t').append(a.name()).append('\t').append(a.timezone()).append('\n');
            print(p.json("accounts", AccountsJson::account), human + PageOptions.footer(p, "accounts"));
        }
    }

    @Command(name = "members", mixinStandardHelpOptions = true, description = "Memberships of an account, of a user, or all.")
    static final class Members extends ServiceCommand {
        @Option(names = "--account", description = "The account_id.")
        String account;

        @Option(names = "--user", description = "The user's id or e-mail.")
        String user;

        @Mixin
        PageOptions pages;

        @Override
        void run(Services s) {
            Long userId = user == null ? null : resolveUser(s, user);
            Paging.Page<AccountService.Member> p = s.accounts().members(account, userId, pages.paging());
            StringBuilder human = new StringBuilder();
            for (AccountService.Member m : p.items()) {
                human.append(m.accountId()).append("\tuser=").append(m.userId()).append('\t').append(m.role()).append('\n');
            }
            print(p.json("memberships", AccountsJson::membership), human + PageOptions.footer(p, "memberships"));
        }
    }

    static long resolveUser(Services s, String idOrEmail) {
        if (idOrEmail.matches("\\d{1,18}")) {
            return s.users().find(Long.parseLong(idOrEmail)).map(User::id)
                    .orElseThrow(() -> ServiceException.invalid("user", "is not known: no user has the id " + idOrEmail));
        }
        return s.users().findByEmail(idOrEmail).map(User::id)
                .orElseThrow(() -> ServiceException.invalid("user", "is not known: no user has the e-mail " + idOrEmail));
    }

    static Map<String, Object> accountJson(Account a) {
        return AccountsJson.account(a);
    }
}
