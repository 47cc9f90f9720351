/**
 * Our own SQL text handling: the PostgreSQL lexer ({@link
 * io.stillwater.engine.sql.parse.SqlLexer}), the statement splitter for simple-protocol
 * strings ({@link io.stillwater.engine.sql.parse.SqlSplitter}), and the parser of utility
 * statements Calcite does not handle ({@link io.stillwater.engine.sql.parse.UtilityParser},
 * which hands each kind of statement to a parser of its own: CREATE TABLE, other object
 * DDL, cluster DDL, transactions, settings and ALTER SYSTEM).
 *
 * <p>Dependencies: sql (the statement model it produces), catalog (column definitions and
 * object kinds), types, error. Not sql.calcite or sql.planner.
 */
package io.stillwater.engine.sql.parse;
