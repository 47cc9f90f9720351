package io.stillwater.bench.feature.scenario;

import java.util.Optional;

/**
 * One statement of a {@link Body.Script} (or of an init/before script).
 *
 * @param sql the statement as sent to the target (comments kept, no trailing {@code ;})
 * @param startsTimer carries {@code /* A *}{@code /}
 * @param stopsTimer carries {@code /* B *}{@code /}
 * @param expected the text of a {@code /* expect: V *}{@code /} comment, when present: the result
 *     must be exactly one row whose columns, rendered as text and joined by one space, equal V
 *     (a cheap guard against timing a wrong answer, e.g. a count over an unhydrated view)
 */
public record ScriptStatement(String sql, boolean startsTimer, boolean stopsTimer, String expectedOrNull) {

    public Optional<String> expected() {
        return Optional.ofNullable(expectedOrNull);
    }
}
