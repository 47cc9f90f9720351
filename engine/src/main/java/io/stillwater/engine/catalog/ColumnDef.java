package io.stillwater.engine.catalog;

import io.stillwater.engine.types.SqlType;

/**
 * A table column. {@code defaultValue} is the DEFAULT constant already coerced to
 * {@code type} (null when the column has no default, which means DEFAULT NULL).
 */
public record ColumnDef(String name, SqlType type, boolean notNull, Object defaultValue) {}
