package io.stillwater.testkit;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hang guard's time limits. One setting serves both test engines: JUnit Jupiter's {@value
 * #DEFAULT_PROPERTY} (the poms pass it as a system property; Jupiter enforces it itself, with
 * {@code @Timeout} on a class or method overriding it), which the jqwik hook reads too, in the
 * same format ("5 m", "90 s", "500 ms"); a jqwik method overrides it with {@link PropertyTimeout}.
 */
final class Timeouts {
    static final String DEFAULT_PROPERTY = "junit.jupiter.execution.timeout.default";
    /** When nothing is configured (an IDE run without the poms' settings). */
    static final Duration FALLBACK = Duration.ofMinutes(5);

    private static final Pattern FORMAT = Pattern.compile("([1-9]\\d*)\\s*(ns|μs|ms|s|m|h|d)?", Pattern.CASE_INSENSITIVE);

    private Timeouts() {}

    /** The configured default per test method (and lifecycle method). */
    static Duration defaultTimeout() {
        String configured = System.getProperty(DEFAULT_PROPERTY);
        return configured == null ? FALLBACK : parse(configured);
    }

    /** The limit for a jqwik method: its own {@link PropertyTimeout}, else its class's, else the default. */
    static Duration forMethod(Optional<PropertyTimeout> onMethod, Optional<PropertyTimeout> onClass) {
        return onMethod.or(() -> onClass).map(t -> Duration.of(t.value(), t.unit().toChronoUnit()))
                .orElseGet(Timeouts::defaultTimeout);
    }

    /** Parses JUnit's duration format: a positive number and an optional unit (seconds if none). */
    static Duration parse(String text) {
        Matcher m = FORMAT.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a timeout (e.g. '5 m', '90 s'): '" + text + "'");
        }
        long value = Long.parseLong(m.group(1));
        TimeUnit unit = switch (m.group(2) == null ? "s" : m.group(2).toLowerCase(Locale.ROOT)) {
            case "ns" -> TimeUnit.NANOSECONDS;
            case "μs" -> TimeUnit.MICROSECONDS;
            case "ms" -> TimeUnit.MILLISECONDS;
            case "m" -> TimeUnit.MINUTES;
            case "h" -> TimeUnit.HOURS;
            case "d" -> TimeUnit.DAYS;
            default -> TimeUnit.SECONDS;
        };
        return Duration.of(value, unit.toChronoUnit());
    }
}
