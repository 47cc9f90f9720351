package io.stillwater.engine.params;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The registry: every system parameter Stillwater knows, with its type, default, scope
 * and description. To add one, declare a constant and list it in {@link #ALL}; docs and
 * {@code SHOW ALL} pick it up from here.
 */
public final class Params {
    private Params() {}

    private static final ParamType.BoolType BOOL = new ParamType.BoolType();
    private static final long MB = 1024L * 1024;

    public static final Param<Boolean> ENABLE_COMPUTE_INTERACTIVE_RUNTIME = new Param<>(
            "enable_compute_interactive_runtime", BOOL, true, Scope.REPLICA_PROVISIONING,
            "Provision new replicas with a maintenance and an interactive runtime (on) or one solo runtime (off).");

    public static final Param<Boolean> ENABLE_COMPUTE_INTERACTIVE_DATAFLOWS = new Param<>(
            "enable_compute_interactive_dataflows", BOOL, true, Scope.ENVIRONMENT,
            "Render peek dataflows on a two-runtime replica's interactive runtime (on) or its maintenance runtime (off).");

    public static final Param<Boolean> ENABLE_COMPUTE_INDEX_PEEK_OFFLOAD = new Param<>(
            "enable_compute_index_peek_offload", BOOL, true, Scope.ENVIRONMENT,
            "Move the rest of a fast-path walk past the inline budget to the bounded offload pool.");

    public static final Param<Integer> COMPUTE_INDEX_PEEK_INLINE_BUDGET = new Param<>(
            "compute_index_peek_inline_budget", new ParamType.IntType(0, Integer.MAX_VALUE), 1024, Scope.ENVIRONMENT,
            "Cursor positions a fast-path walk may take inline before it is offloaded.");

    public static final Param<Integer> COMPUTE_INDEX_PEEK_YIELD_GRANULARITY = new Param<>(
            "compute_index_peek_yield_granularity", new ParamType.IntType(1, Integer.MAX_VALUE), 10_000,
            Scope.ENVIRONMENT,
            "Cursor positions between a walk's checks for cancellation and timeout.");

    /** Minimum 1MB, as in Materialize. */
    public static final Param<Long> MAX_RESULT_SIZE = new Param<>(
            "max_result_size", new ParamType.ByteSizeType(MB, 1024 * 1024 * MB), 1024 * MB, Scope.ENVIRONMENT,
            "Largest result a query may return; larger results fail with 53200.");

    /** The system value is every session's default for the session variable of the same name. */
    public static final Param<Duration> STATEMENT_TIMEOUT = new Param<>(
            "statement_timeout", new ParamType.DurationType(Duration.ZERO, Duration.ofMillis(Integer.MAX_VALUE)),
            Duration.ZERO, Scope.ENVIRONMENT,
            "Default statement timeout of new sessions' statements; 0 turns it off.");

    public static final Param<Integer> MAX_CONNECTIONS = new Param<>(
            "max_connections", new ParamType.IntType(1, Integer.MAX_VALUE), 1000, Scope.ENVIRONMENT,
            "Most concurrent client sessions, mz_system's included.");

    // ---- Connection limits (pgwire, Engine.admit) ----

    /** As PostgreSQL's: slots of max_connections only the superuser may take. */
    public static final Param<Integer> SUPERUSER_RESERVED_CONNECTIONS = new Param<>(
            "superuser_reserved_connections", new ParamType.IntType(0, Integer.MAX_VALUE), 3, Scope.ENVIRONMENT,
            "Slots of max_connections reserved for mz_system; other users may open the rest (at least one).");

    // ---- write backpressure (coordinator write path)

    /**
     * Writes wait while some replica's maintenance is further behind than this (the age of
     * the oldest write handed to it that a worker has not processed); 0 admits every write.
     */
    public static final Param<Duration> MAX_MAINTENANCE_LAG = new Param<>(
            "max_maintenance_lag", new ParamType.DurationType(Duration.ZERO, Duration.ofHours(1)),
            Duration.ofSeconds(3), Scope.ENVIRONMENT,
            "Writes wait while a replica's maintenance backlog is older than this; 0 turns write backpressure off.");

    // ---------------------------------------------------------------- memory budgets of reads

    /**
     * The per-query memory budget (engine.memory.QueryMemory): 0, the default, means a
     * quarter of the maximum heap, so the default follows the JVM's -Xmx.
     */
    public static final Param<Long> MAX_QUERY_MEMORY = new Param<>(
            "max_query_memory", new ParamType.ByteSizeType(0, 1024 * 1024 * MB), 0L, Scope.ENVIRONMENT,
            "Most heap one query may hold (join hash tables, aggregation and top-k state, sort buffers, result rows);"
                    + " more fails with 53200. 0 means a quarter of the maximum heap.");

    // ---------------------------------------------------------------- planning

    /** The bound of the shared plan cache (sql.planner.PlanCache); 0 turns it off. */
    public static final Param<Integer> PLAN_CACHE_MAX_ENTRIES = new Param<>(
            "plan_cache_max_entries", new ParamType.IntType(0, 1_000_000), 4096, Scope.ENVIRONMENT,
            "Most planned statements the sessions share (least recently used go first); 0 plans every statement.");

    /** Whether sql.planner.FastPathPlanner plans point lookups, literal SELECTs and INSERTs without Calcite. */
    public static final Param<Boolean> ENABLE_FAST_PATH_PLANNING = new Param<>(
            "enable_fast_path_planning", BOOL, true, Scope.ENVIRONMENT,
            "Plan point lookups, SELECTs of literals and INSERTs of literal rows without the full SQL planner.");

    // ---- checkpoints (coord.Checkpointer)

    /** How often a checkpoint runs when something was written since the last one; 0 turns the timer off. */
    public static final Param<Duration> CHECKPOINT_INTERVAL = new Param<>(
            "checkpoint_interval", new ParamType.DurationType(Duration.ZERO, Duration.ofDays(1)),
            Duration.ofMinutes(5), Scope.ENVIRONMENT,
            "Write a checkpoint this long after the last one if anything was written since; 0 turns the timer off"
                    + " (both checkpoint parameters 0: no automatic checkpoints, not even at shutdown).");

    /** A checkpoint runs once this many bytes were logged since the last one; 0 turns the size trigger off. */
    public static final Param<Long> CHECKPOINT_WAL_SIZE = new Param<>(
            "checkpoint_wal_size", new ParamType.ByteSizeType(0, 1024 * 1024 * MB), 256 * MB, Scope.ENVIRONMENT,
            "Write a checkpoint once the write-ahead log grew this much since the last one; 0 turns the size trigger off.");

    /** Every parameter, in the order docs and SHOW ALL list them. */
    public static final List<Param<?>> ALL = List.of(
            ENABLE_COMPUTE_INTERACTIVE_RUNTIME,
            ENABLE_COMPUTE_INTERACTIVE_DATAFLOWS,
            ENABLE_COMPUTE_INDEX_PEEK_OFFLOAD,
            COMPUTE_INDEX_PEEK_INLINE_BUDGET,
            COMPUTE_INDEX_PEEK_YIELD_GRANULARITY,
            MAX_RESULT_SIZE,
            STATEMENT_TIMEOUT,
            MAX_CONNECTIONS,
            SUPERUSER_RESERVED_CONNECTIONS,
            MAX_MAINTENANCE_LAG,
            MAX_QUERY_MEMORY,
            PLAN_CACHE_MAX_ENTRIES,
            ENABLE_FAST_PATH_PLANNING,
            CHECKPOINT_INTERVAL,
            CHECKPOINT_WAL_SIZE);

    private static final Map<String, Param<?>> BY_NAME = new LinkedHashMap<>();

    static {
        for (Param<?> p : ALL) {
            if (BY_NAME.put(p.name(), p) != null) throw new ExceptionInInitializerError("duplicate parameter " + p.name());
        }
    }

    /** The parameter named {@code name} (any case), if there is one. */
    public static Optional<Param<?>> find(String name) {
        return Optional.ofNullable(BY_NAME.get(name.toLowerCase(Locale.ROOT)));
    }

    /**
     * The parameter named {@code name} (any case).
     *
     * @throws SqlException 42704 {@code unrecognized configuration parameter "name"}
     */
    public static Param<?> require(String name) {
        return find(name).orElseThrow(() -> new SqlException(SqlState.UNDEFINED_OBJECT,
                "unrecognized configuration parameter \"" + name + "\""));
    }
}
