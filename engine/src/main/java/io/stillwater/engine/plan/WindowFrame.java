package io.stillwater.engine.plan;

/**
 * A window frame: which rows of the partition, relative to the current row, a frame-reading
 * window function sees. PostgreSQL's default is {@link #DEFAULT_WITH_ORDER} when the window
 * has an ORDER BY (the current row's peers included) and {@link #WHOLE_PARTITION} otherwise.
 *
 * <p>Offsets: for ROWS and GROUPS a non-negative count of rows / peer groups; for RANGE a
 * non-negative value added to or subtracted from the (single) ORDER BY column.
 */
public record WindowFrame(Unit unit, Bound start, Bound end, Exclusion exclusion) {
    public enum Unit { ROWS, RANGE, GROUPS }

    public enum BoundKind { UNBOUNDED_PRECEDING, PRECEDING, CURRENT_ROW, FOLLOWING, UNBOUNDED_FOLLOWING }

    /** {@code EXCLUDE NO OTHERS | CURRENT ROW | GROUP | TIES}. */
    public enum Exclusion { NO_OTHERS, CURRENT_ROW, GROUP, TIES }

    /** One end of the frame; {@code offset} is non-null exactly for PRECEDING and FOLLOWING. */
    public record Bound(BoundKind kind, Object offset) {
        public static final Bound UNBOUNDED_PRECEDING = new Bound(BoundKind.UNBOUNDED_PRECEDING, null);
        public static final Bound CURRENT_ROW = new Bound(BoundKind.CURRENT_ROW, null);
        public static final Bound UNBOUNDED_FOLLOWING = new Bound(BoundKind.UNBOUNDED_FOLLOWING, null);

        @Override
        public String toString() {
            return switch (kind) {
                case UNBOUNDED_PRECEDING -> "unbounded preceding";
                case PRECEDING -> offset + " preceding";
                case CURRENT_ROW -> "current row";
                case FOLLOWING -> offset + " following";
                case UNBOUNDED_FOLLOWING -> "unbounded following";
            };
        }
    }

    public static final WindowFrame DEFAULT_WITH_ORDER =
            new WindowFrame(Unit.RANGE, Bound.UNBOUNDED_PRECEDING, Bound.CURRENT_ROW, Exclusion.NO_OTHERS);
    public static final WindowFrame WHOLE_PARTITION =
            new WindowFrame(Unit.ROWS, Bound.UNBOUNDED_PRECEDING, Bound.UNBOUNDED_FOLLOWING, Exclusion.NO_OTHERS);

    @Override
    public String toString() {
        return unit.name().toLowerCase(java.util.Locale.ROOT) + " between " + start + " and " + end
                + (exclusion == Exclusion.NO_OTHERS ? "" : " exclude " + exclusion.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
    }
}
