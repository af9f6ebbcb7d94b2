package dev.ledgerlink.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** The resolved value of every {@link Setting}: defaults, then config file, then environment, then flags. */
public final class Settings {
    private final Map<Setting, String> values;

    private Settings(Map<Setting, String> values) {
        this.values = values;
    }

    public static Settings defaults() {
        return new Builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public String get(Setting s) {
        return values.get(s);
    }

    public boolean flag(Setting s) {
        return Boolean.parseBoolean(get(s).trim());
    }

    public int integer(Setting s) {
        try {
            return Integer.parseInt(get(s).trim());
        } catch (NumberFormatException e) {
            throw new ConfigurationException(s.key() + " must be a whole number, got '" + get(s) + "'");
        }
    }

    /** A comma-separated setting's entries, trimmed, empty ones left out. */
    public List<String> list(Setting s) {
        return java.util.Arrays.stream(get(s).split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList();
    }

    public Duration duration(Setting s) {
        return parseDuration(s, get(s).trim());
    }

    public List<Duration> durations(Setting s) {
        List<Duration> out = new ArrayList<>();
        for (String part : get(s).split(",")) {
            if (!part.isBlank()) out.add(parseDuration(s, part.trim()));
        }
        return List.copyOf(out);
    }

    private static Duration parseDuration(Setting s, String text) {
        try {
            Duration d = Duration.parse(text);
            if (d.isNegative()) throw new ConfigurationException(s.key() + " must not be negative");
            return d;
        } catch (DateTimeParseException e) {
            throw new ConfigurationException(s.key() + " must be an ISO-8601 duration such as PT30S, got '" + text + "'");
        }
    }

    /** A copy with one value replaced (used by tests and by the serve command). */
    public Settings with(Setting s, String value) {
        Map<Setting, String> copy = new EnumMap<>(values);
        copy.put(s, value);
        return new Settings(copy);
    }

    public static final class Builder {
        private final Map<Setting, String> values = new EnumMap<>(Setting.class);

        private Builder() {
            for (Setting s : Setting.values()) values.put(s, s.defaultValue());
        }

        /** Reads {@code key=value} lines; an unknown key is an error so typos do not pass silently. */
        public Builder file(Path path) {
            if (path == null) return this;
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
                p.load(r);
            } catch (IOException e) {
                throw new ConfigurationException("cannot read config file " + path + ": " + e.getMessage());
            }
            for (String key : p.stringPropertyNames()) {
                Setting s = Setting.byKey(key).orElseThrow(
                        () -> new ConfigurationException("unknown setting '" + key + "' in " + path));
                values.put(s, p.getProperty(key).trim());
            }
            return this;
        }

        public Builder environment(Map<String, String> env) {
            for (Setting s : Setting.values()) {
                String v = env.get(s.envName());
                if (v != null) values.put(s, v);
            }
            return this;
        }

        public Builder set(Setting s, String value) {
            if (value != null) values.put(s, value);
            return this;
        }

        /** A {@code key=value} pair from a generic flag such as {@code --set delivery.timeout=PT5S}. */
        public Builder set(String assignment) {
            int eq = assignment.indexOf('=');
            if (eq <= 0) throw new ConfigurationException("expected key=value, got '" + assignment + "'");
            String key = assignment.substring(0, eq).trim();
            Setting s = Setting.byKey(key).orElseThrow(() -> new ConfigurationException("unknown setting '" + key + "'"));
            values.put(s, assignment.substring(eq + 1).trim());
            return this;
        }

        public Settings build() {
            return new Settings(new EnumMap<>(values));
        }
    }
}
