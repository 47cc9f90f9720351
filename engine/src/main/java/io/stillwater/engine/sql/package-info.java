/**
 * The statement model: {@link io.stillwater.engine.sql.Statement}, the sealed set of
 * statements the engine executes, as the SQL front end produces them. The front end itself
 * sits in subpackages, in one direction: {@code sql.parse} (our lexer, splitter and utility
 * statement parser) and {@code sql.calcite} (queries and DML through Calcite) both produce
 * {@code Statement}s; {@code sql.planner} ({@code StatementPlanner}) chooses between them
 * and is what sessions call.
 *
 * <p>Dependencies: catalog (definitions a statement names), plan (a query's plan), types.
 * Never its subpackages, and nothing above.
 */
package io.stillwater.engine.sql;
