package io.stillwater.engine.params;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.Locale;
import java.util.Objects;

/**
 * One system parameter's definition: name (lower case), type, default, scope and a
 * one-line description (shown by {@code SHOW ALL} and in the docs). Values are read
 * through {@link SystemParameters#get(Param)}.
 */
public record Param<T>(String name, ParamType<T> type, T defaultValue, Scope scope, String description) {
    public Param {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(scope, "scope");
        if (!name.equals(name.toLowerCase(Locale.ROOT))) throw new IllegalArgumentException("names are lower case: " + name);
        type.check(defaultValue);
    }

    /**
     * Parses a setting's text.
     *
     * @throws SqlException 22023 {@code invalid value for parameter "name": "text"}, with
     *     what is wrong as DETAIL and what the type accepts as HINT
     */
    public T parse(String text) {
        try {
            return type.parse(text);
        } catch (IllegalArgumentException e) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE,
                    "invalid value for parameter \"" + name + "\": \"" + text + "\"", e.getMessage() + ".",
                    type.accepted());
        }
    }

    /** The canonical text of {@code value}, which must be of this parameter's type. */
    @SuppressWarnings("unchecked")
    public String format(Object value) { return type.format((T) value); }

    /** The canonical text of the default. */
    public String defaultText() { return type.format(defaultValue); }
}
