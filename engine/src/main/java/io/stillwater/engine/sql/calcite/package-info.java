/**
 * The SQL front end over Apache Calcite: PostgreSQL-flavoured parsing, validation and
 * planning of SELECT / VALUES / WITH / TABLE and INSERT / UPDATE / DELETE into the
 * engine's plan IR ({@link io.stillwater.engine.plan.PlanNode}, {@link io.stillwater.engine.expr.Expr}).
 *
 * <p>Pipeline ({@link io.stillwater.engine.sql.calcite.CalciteFrontEnd}): {@code PgTokens} (token-level
 * respellings Babel can parse: {@code type 'string'} literals as casts, {@code ::interval},
 * {@code LIMIT $n}, {@code SET c = DEFAULT}, date/time/timestamp as column names) → Babel parser
 * (lower-cased unquoted identifiers, {@code ::} casts) → {@code PgSqlRewriter} ({@code $n}
 * parameters, PostgreSQL default column names, {@code ::} precedence, generate_series and
 * VALUES aliases) → {@code PgValidator} (Calcite's validator; untyped parameters fall back
 * to the client's hint, else text) → SqlToRelConverter (expand=false) → subquery removal
 * and {@code RelDecorrelator} (only when the plan has subqueries) → a small Hep cleanup
 * (filter into join, merges) → {@code JoinOrder} (inner-join trees ordered along their
 * equality predicates, so no join is a cross product when a connected order exists; outer
 * and semi joins are not moved) → {@code RelToPlan}/{@code RexToExpr}.
 *
 * <p>Decisions and known gaps:
 * <ul>
 *   <li>Parameter types: a client hint (non-null, not UNKNOWN) is the parameter's type, as
 *       in PostgreSQL's Parse message, and the context casts it if needed; without a hint
 *       the validator infers the type from the context; with neither it is text.
 *   <li>Unquoted literal strings compared with or assigned to typed values are coerced at
 *       plan time (INSERT/UPDATE cast untyped literals, NULL and parameters to the column
 *       type); in output they are text. Bare NULL columns are UNKNOWN.
 *   <li>Implicit coercion between strings and other types only applies to untyped values
 *       (literals, NULL, parameters), as in PostgreSQL ({@code PgTypeCoercion}); {@code text = int},
 *       {@code sum(text)}, {@code length(int)} are 42883. CASE/COALESCE/UNION branch unification
 *       is still Calcite's (more lenient: UNION of int and text plans with a cast).
 *   <li>Types: see {@link io.stillwater.engine.sql.calcite.TypeMapping} (interval is Calcite's
 *       DAY TO SECOND, unconstrained numeric is DECIMAL(1000, 500), varchar casts of literals
 *       report text). extract is numeric (rewritten to an own function), date_part double precision.
 *       current_timestamp is planned as now() (timestamptz, as in PostgreSQL).
 *   <li>Casts of untyped string literals are never folded by Calcite ({@code PgRexBuilder}); the
 *       engine's input functions read them ({@code '\\x00ff'::bytea}, {@code interval '1 day 2 hours'}),
 *       folded to constants at plan time except for timestamptz and 'now'/'today'-style inputs.
 *   <li>Window functions: {@code WindowToPlan} turns a projection's RexOvers into
 *       {@code PlanNode.Window} nodes; {@code DistinctOn} rewrites DISTINCT ON into QUALIFY.
 *   <li>LATERAL: a lateral subquery is a Correlate that the decorrelator turns into joins
 *       ({@code LateralJoins} first makes a grouping-free aggregate a LEFT correlation);
 *       {@code LateralCalls} runs a remaining correlated generate_series as
 *       {@code PlanNode.LateralSeries}. {@code SingleValueKeys} limits a scalar subquery's
 *       SINGLE_VALUE aggregate to the keys of outer rows that reach it (21000 only for them).
 *   <li>Not supported (0A000 or a syntax error): some LATERAL shapes (see docs/sql.md),
 *       {@code LIMIT $1} in subqueries (the outermost query's is bound at execution),
 *       set-returning functions in the select list, WHERE without FROM, RETURNING.
 * </ul>
 *
 * <p>Dependencies: sql (the statement model it produces), sql.parse (its lexer and
 * tokens), catalog (the {@code CatalogView} it validates against), plan, expr, types,
 * data, error, and Calcite. Not sql.planner.
 */
package io.stillwater.engine.sql.calcite;
