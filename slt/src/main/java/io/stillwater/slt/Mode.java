package io.stillwater.slt;

/**
 * Materialize's {@code mode} directive. It changes both how expected output is read and how
 * values are rendered, for every following record of the file.
 */
public enum Mode {
    /** SQLite's layout: one value per line, reals as {@code %.3f}, control characters as {@code @}. */
    STANDARD,
    /**
     * CockroachDB's layout: one row per line, columns split on whitespace ({@code ␠} stands for a
     * literal space), reals and numerics keep their exact digits.
     */
    COCKROACH
}
