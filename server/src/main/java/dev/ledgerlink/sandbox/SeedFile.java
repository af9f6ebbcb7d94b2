package dev.ledgerlink.sandbox;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.ledgerlink.errors.ServiceException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * A seed file (YAML, or JSON): what a sandbox should contain. Every entry has a natural key, so
 * applying the same file again finds everything in place: users by e-mail, accounts by account_id,
 * memberships by (account, user), applications by client_id (or by name when none is fixed),
 * callbacks by (account, event, uri).
 *
 * <pre>
 * users:
 *   - {email: ana@example.com, password: "correct horse battery", first_name: Ana, last_name: Lima}
 * accounts:
 *   - account_id: ANA01
 *     name: Ana's Books
 *     timezone: America/Toronto
 *     members: [{user: ana@example.com, role: owner}]
 * applications:
 *   - {name: Sync, client_id: synctest01, client_secret: sync-secret-for-tests,
 *      redirect_uris: ["http://localhost:8000/callback"], scopes: [user:profile:read, user:invoices:read]}
 * callbacks:
 *   - {account: ANA01, user: ana@example.com, application: synctest01, event: invoice.create, uri: "http://127.0.0.1:9000/hooks"}
 * </pre>
 */
public record SeedFile(List<User> users, List<Account> accounts, List<Application> applications, List<Callback> callbacks) {
    private static final ObjectMapper YAML = configure(new ObjectMapper(new YAMLFactory()));
    private static final ObjectMapper JSON = configure(new ObjectMapper());

    public SeedFile {
        users = users == null ? List.of() : users;
        accounts = accounts == null ? List.of() : accounts;
        applications = applications == null ? List.of() : applications;
        callbacks = callbacks == null ? List.of() : callbacks;
    }

    public record User(String email, String password, @JsonProperty("first_name") String firstName,
                       @JsonProperty("last_name") String lastName) {}

    public record Account(@JsonProperty("account_id") String accountId, String name, String timezone, List<Member> members) {
        public Account {
            members = members == null ? List.of() : members;
        }
    }

    /** {@code user}: an e-mail address of the seed or of the database; role defaults to owner. */
    public record Member(String user, String role) {}

    public record Application(String name, @JsonProperty("client_id") String clientId, @JsonProperty("client_secret") String clientSecret,
                              @JsonProperty("redirect_uris") List<String> redirectUris, List<String> scopes) {}

    /** Registered as {@code user} through {@code application} (a client_id), like an API call with such a token. */
    public record Callback(String account, String user, String application, String event, String uri) {}

    private static ObjectMapper configure(ObjectMapper m) {
        return m.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    }

    /** A .json file is read as JSON, anything else as YAML. Unknown keys are errors (a typo must not pass silently). */
    public static SeedFile read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw ServiceException.badRequest("seed file " + file + " does not exist");
        } catch (IOException e) {
            throw ServiceException.badRequest("seed file " + file + " cannot be read: " + e.getMessage());
        }
        return parse(text, file.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".json"), file.toString());
    }

    public static SeedFile parse(String text, boolean json, String source) {
        if (text.isBlank()) return new SeedFile(null, null, null, null);
        try {
            SeedFile seed = (json ? JSON : YAML).readValue(text, SeedFile.class);
            return seed == null ? new SeedFile(null, null, null, null) : seed;
        } catch (UnrecognizedPropertyException e) {
            throw ServiceException.badRequest("seed file " + source + ": unknown key \"" + e.getPropertyName() + "\" at "
                    + e.getPathReference() + "; known: " + e.getKnownPropertyIds());
        } catch (JsonProcessingException e) {
            throw ServiceException.badRequest("seed file " + source + ": " + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")"));
        }
    }
}
