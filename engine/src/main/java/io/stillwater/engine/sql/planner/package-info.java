/**
 * The SQL front end's entry point: {@link io.stillwater.engine.sql.planner.StatementPlanner}
 * turns SQL text into a {@link io.stillwater.engine.sql.Statement}, trying the utility
 * parser ({@code sql.parse}) first and Calcite ({@code sql.calcite}) for queries and DML,
 * and planning EXPLAIN; {@code SqliteExtensions} names SQLite-only syntax in errors.
 *
 * <p>Dependencies: sql, sql.parse, sql.calcite, catalog (the {@code CatalogView} it plans
 * against), types, error. Called by sessions and the coordinator; imports nothing of them.
 */
package io.stillwater.engine.sql.planner;
