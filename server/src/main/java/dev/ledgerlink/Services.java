package dev.ledgerlink;

import dev.ledgerlink.accounts.AccountService;
import dev.ledgerlink.accounts.ApplicationService;
import dev.ledgerlink.accounts.UserService;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.delivery.DeliveryService;
import dev.ledgerlink.events.EventPublisher;
import dev.ledgerlink.secrets.SecretBox;
import dev.ledgerlink.secrets.SecretKeys;
import dev.ledgerlink.store.Database;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;

/** Every capability service of one process, built once by {@link #create}; shared by the web layer and the CLI. */
public record Services(
        Settings settings,
        Clock clock,
        Database database,
        PrometheusMeterRegistry metrics,
        UserService users,
        AccountService accounts,
        ApplicationService applications,
        SecretBox secretBox,
        DeliveryService deliveries,
        EventPublisher events) {

    public static Services create(Settings settings, Clock clock, Database database, PrometheusMeterRegistry metrics) {
        boolean devMode = settings.flag(Setting.DEV);
        var jdbi = database.jdbi();
        var deliveries = new DeliveryService(jdbi, clock);
        return new Services(settings, clock, database, metrics,
                new UserService(jdbi, clock),
                new AccountService(jdbi, clock),
                new ApplicationService(jdbi, clock, devMode),
                SecretKeys.load(settings),
                deliveries,
                new EventPublisher(jdbi, clock, deliveries));
    }
}
