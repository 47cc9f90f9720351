package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.runtime.CalciteException;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Turns Calcite's exceptions into {@link SqlException}s with PostgreSQL's SQLSTATEs and
 * wording. Calcite reports validation errors as message text only, so the mapping
 * matches the messages of Calcite's resource bundle (CalciteResource.properties).
 */
final class CalciteErrors {
    private CalciteErrors() {}

    private record Rule(Pattern pattern, SqlState state, Function<Matcher, String> message) {}

    private static Rule rule(String regex, SqlState state, Function<Matcher, String> msg) {
        return new Rule(Pattern.compile(regex, Pattern.DOTALL), state, msg);
    }

    private static final List<Rule> RULES = List.of(
            rule("(?:Object|Table) '([^']*)' not found.*", SqlState.UNDEFINED_TABLE,
                    m -> "relation \"" + m.group(1) + "\" does not exist"),
            rule("Column '([^']*)' not found in any table.*", SqlState.UNDEFINED_COLUMN,
                    m -> "column \"" + m.group(1) + "\" does not exist"),
            rule("Column '([^']*)' not found in table '([^']*)'.*", SqlState.UNDEFINED_COLUMN,
                    m -> "column " + m.group(2) + "." + m.group(1) + " does not exist"),
            // Calcite reports unknown type names in casts this way.
            rule("Unknown identifier '([^']*)'.*", SqlState.UNDEFINED_OBJECT,
                    m -> "type \"" + m.group(1) + "\" does not exist"),
            rule("SELECT \\* requires a FROM clause.*", SqlState.SYNTAX_ERROR,
                    m -> "SELECT * with no tables specified is not valid"),
            rule("Cannot apply '\\$SCALAR_QUERY'.*", SqlState.SYNTAX_ERROR,
                    m -> "subquery must return only one column"),
            rule("Parameters must be of the same type.*", SqlState.DATATYPE_MISMATCH,
                    m -> "argument types cannot be matched"),
            rule("Unknown target column '([^']*)'.*", SqlState.UNDEFINED_COLUMN,
                    m -> "column \"" + m.group(1) + "\" does not exist"),
            rule("Column '([^']*)' is ambiguous.*", SqlState.AMBIGUOUS_COLUMN,
                    m -> "column reference \"" + m.group(1) + "\" is ambiguous"),
            rule("No match found for function signature ([^(]*)\\((.*)\\).*", SqlState.UNDEFINED_FUNCTION,
                    m -> "function " + m.group(1).toLowerCase(Locale.ROOT) + "(" + typeList(m.group(2)) + ") does not exist"),
            rule("Invalid number of arguments to function '([^']*)'.*", SqlState.UNDEFINED_FUNCTION,
                    m -> "function " + m.group(1).toLowerCase(Locale.ROOT) + " does not exist with this number of arguments"),
            rule("Cannot apply '([^']*)' to arguments of type '(.*)'\\. Supported form.*", SqlState.UNDEFINED_FUNCTION,
                    CalciteErrors::cannotApply),
            rule("Expression '(.*)' is not being grouped.*", SqlState.GROUPING_ERROR,
                    m -> "column \"" + unquote(m.group(1)) + "\" must appear in the GROUP BY clause or be used in an aggregate function"),
            rule("Aggregate expression is illegal in (\\w+) clause.*", SqlState.GROUPING_ERROR,
                    m -> "aggregate functions are not allowed in " + m.group(1)),
            rule("Windowed aggregate expression is illegal in ([\\w ]+?) clause.*", SqlState.WINDOWING_ERROR,
                    m -> "window functions are not allowed in " + m.group(1)),
            rule("ROWS value must be a non-negative integral constant.*", SqlState.INVALID_PRECEDING_OR_FOLLOWING_SIZE,
                    m -> "frame starting or ending offset must not be negative"),
            rule("Data type of ORDER BY prohibits use of RANGE clause.*", SqlState.FEATURE_NOT_SUPPORTED,
                    m -> "RANGE with offset PRECEDING/FOLLOWING is not supported for this column type"),
            rule("Aggregate expressions cannot be nested.*", SqlState.GROUPING_ERROR,
                    m -> "aggregate function calls cannot be nested"),
            rule("Aggregate expression is illegal in ORDER BY.*", SqlState.GROUPING_ERROR,
                    m -> "aggregate functions are not allowed in ORDER BY of a non-aggregating SELECT"),
            rule("Cast function cannot convert value of type (.*) to type (.*)", SqlState.CANNOT_COERCE,
                    m -> "cannot cast type " + pgType(m.group(1)) + " to " + pgType(m.group(2))),
            rule("Type mismatch in column (\\d+) of (\\w+).*", SqlState.DATATYPE_MISMATCH,
                    m -> m.group(2) + " types in column " + m.group(1) + " cannot be matched"),
            rule("Column count mismatch in (\\w+).*", SqlState.SYNTAX_ERROR,
                    m -> "each " + m.group(1) + " query must have the same number of columns"),
            rule("Illegal use of dynamic parameter.*", SqlState.INDETERMINATE_DATATYPE,
                    m -> "could not determine data type of parameter"),
            rule("Illegal use of 'NULL'.*", SqlState.INDETERMINATE_DATATYPE,
                    m -> "could not determine data type of NULL"),
            rule("Unknown datatype name '([^']*)'.*", SqlState.UNDEFINED_OBJECT,
                    m -> "type \"" + m.group(1).toLowerCase(Locale.ROOT) + "\" does not exist"),
            rule("Type '([^']*)' not found.*", SqlState.UNDEFINED_OBJECT,
                    m -> "type \"" + m.group(1).toLowerCase(Locale.ROOT) + "\" does not exist"),
            rule("Duplicate relation name '([^']*)' in FROM clause.*", SqlState.DUPLICATE_ALIAS,
                    m -> "table name \"" + m.group(1) + "\" specified more than once"),
            rule("(WHERE|HAVING) clause must be a condition.*", SqlState.DATATYPE_MISMATCH,
                    m -> "argument of " + m.group(1) + " must be type boolean"),
            rule(".*must be a condition.*|.*must be a boolean.*|.*Condition must be a boolean.*", SqlState.DATATYPE_MISMATCH,
                    m -> "argument of JOIN/ON must be type boolean"),
            rule("Expression '(.*)' is not in the select clause.*", SqlState.INVALID_COLUMN_REFERENCE,
                    m -> "for SELECT DISTINCT, ORDER BY expressions must appear in select list"),
            rule("Ordinal out of range.*", SqlState.INVALID_COLUMN_REFERENCE,
                    m -> "ORDER BY or GROUP BY position is not in select list"),
            rule("Illegal mixing of types in CASE or COALESCE statement.*", SqlState.DATATYPE_MISMATCH,
                    m -> "CASE/COALESCE types cannot be matched"),
            rule("Values passed to (\\w+) operator must have compatible types.*", SqlState.DATATYPE_MISMATCH,
                    m -> m.group(1) + " types cannot be matched"),
            rule("Values in expression list must have compatible types.*", SqlState.DATATYPE_MISMATCH,
                    m -> "IN list types cannot be matched"),
            rule("Numeric literal '([^']*)' out of range.*", SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    m -> "value \"" + m.group(1) + "\" is out of range"),
            rule("Illegal (\\w+) literal '([^']*)'.*", SqlState.INVALID_DATETIME_FORMAT,
                    m -> "invalid input syntax for type " + m.group(1).toLowerCase(Locale.ROOT) + ": \"" + m.group(2) + "\""),
            rule("Cannot assign to target field '([^']*)' of type (.*) from source field '([^']*)' of type (.*)",
                    SqlState.DATATYPE_MISMATCH,
                    m -> "column \"" + m.group(1) + "\" is of type " + pgType(m.group(2))
                            + " but expression is of type " + pgType(m.group(4))),
            rule("Number of INSERT target columns \\((\\d+)\\) does not equal number of source items \\((\\d+)\\).*",
                    SqlState.SYNTAX_ERROR,
                    m -> Integer.parseInt(m.group(1)) < Integer.parseInt(m.group(2))
                            ? "INSERT has more expressions than target columns"
                            : "INSERT has more target columns than expressions"),
            rule("Table '([^']*)' not found.*", SqlState.UNDEFINED_TABLE,
                    m -> "relation \"" + m.group(1) + "\" does not exist"),
            rule(".*(?:not supported|unsupported|Unsupported).*", SqlState.FEATURE_NOT_SUPPORTED,
                    m -> "not supported: " + m.group(0)));

    /** Maps any exception thrown while parsing, validating or converting. */
    static SqlException translate(Throwable e, String sql) {
        return translate(e, new PgTokens.Rewritten(sql, new int[0], sql, List.of()));
    }

    /**
     * Maps any exception thrown while parsing, validating or converting {@code text.sql()};
     * syntax error positions are reported in the client's text, {@code text.original()}.
     */
    static SqlException translate(Throwable e, PgTokens.Rewritten text) {
        if (e instanceof SqlException s) return s;
        if (e instanceof SqlParseException p) return syntax(p, text);
        Throwable t = e;
        while (t != null) {
            if (t instanceof SqlException s) return s;
            if (t instanceof SqlParseException p) return syntax(p, text);
            if (t instanceof CalciteContextException c && c.getCause() != null) {
                SqlException mapped = byMessage(c.getCause().getMessage(), e);
                if (mapped != null) return mapped;
            }
            t = t.getCause() == t ? null : t.getCause();
        }
        SqlException mapped = byMessage(e.getMessage(), e);
        if (mapped != null) return mapped;
        return unmapped(e);
    }

    /**
     * A failure no rule maps. Java's own exceptions (a NumberFormatException, an
     * ArithmeticException, an assertion in Calcite) are bugs or limits of ours, not the
     * client's SQL: they become XX000 with the Java text kept out of the message (the
     * wire layer logs the cause under an error id). A stack overflow is PostgreSQL's
     * 54001. Only an explicit "unsupported" is 0A000, and Calcite's own validation
     * messages stay 42601, as before.
     */
    private static SqlException unmapped(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof StackOverflowError) {
                return new SqlException(SqlState.STATEMENT_TOO_COMPLEX, "stack depth limit exceeded", null,
                        "the statement is nested too deeply; simplify it", e);
            }
        }
        String msg = userText(e.getMessage());
        if (!msg.isEmpty() && (e instanceof CalciteException || e instanceof CalciteContextException)) {
            return new SqlException(SqlState.SYNTAX_ERROR, stripContext(msg), null, null, e);
        }
        if (e instanceof UnsupportedOperationException) {
            return new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "this statement uses a feature that is not supported" + (msg.isEmpty() ? "" : ": " + firstLine(msg)),
                    null, null, e);
        }
        return new SqlException(SqlState.INTERNAL_ERROR, "internal error while planning the statement", null, null, e);
    }

    /** A message fit for a client: empty when absent or when it is Java's text (class names, exceptions). */
    private static String userText(String msg) {
        if (msg == null) return "";
        if (msg.contains("org.apache") || msg.contains("Exception") || msg.contains("java.")
                || msg.startsWith("For input string")) return "";
        return msg;
    }

    private static SqlException byMessage(String msg, Throwable cause) {
        if (msg == null) return null;
        msg = stripContext(msg);
        SqlException literal = illegalDatetimeLiteral(msg, cause);
        if (literal != null) return literal;
        for (Rule r : RULES) {
            Matcher m = r.pattern.matcher(msg);
            if (m.matches()) return new SqlException(r.state, r.message.apply(m), null, null, cause);
        }
        return null;
    }

    private static final Pattern ILLEGAL_DATETIME_LITERAL =
            Pattern.compile("Illegal (DATE|TIME|TIMESTAMP) literal '([^']*)'.*", Pattern.DOTALL);

    /**
     * Calcite rejects {@code DATE '2023-02-29'} without saying why; PostgreSQL distinguishes a
     * well-formed but impossible value (22008, field value out of range) from bad syntax
     * (22007). Re-parsing the text with the engine's own parser gives PostgreSQL's error.
     */
    private static SqlException illegalDatetimeLiteral(String msg, Throwable cause) {
        Matcher m = ILLEGAL_DATETIME_LITERAL.matcher(msg);
        if (!m.matches()) return null;
        SqlType type = switch (m.group(1)) {
            case "DATE" -> SqlType.DATE;
            case "TIME" -> SqlType.TIME;
            default -> SqlType.TIMESTAMP;
        };
        try {
            DatumText.parse(type, m.group(2));
        } catch (SqlException e) {
            return new SqlException(e.state(), e.getMessage(), null, null, cause);
        } catch (RuntimeException e) {
            return null;
        }
        return null;
    }

    private static final Pattern CONTEXT = Pattern.compile(
            "^(?:From line \\d+, column \\d+ to line \\d+, column \\d+|At line \\d+, column \\d+): ");

    private static String stripContext(String msg) { return CONTEXT.matcher(msg).replaceFirst(""); }

    private static String firstLine(String s) {
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i);
    }

    private static final Pattern ENCOUNTERED = Pattern.compile("Encountered \"(.*?)\" at line (\\d+), column (\\d+)", Pattern.DOTALL);

    static SqlException syntax(SqlParseException p, String sql) {
        return syntax(p, new PgTokens.Rewritten(sql, new int[0], sql, List.of()));
    }

    static SqlException syntax(SqlParseException p, PgTokens.Rewritten rewritten) {
        String msg = p.getMessage() == null ? "" : p.getMessage();
        SqlParserPos pos = p.getPos();
        String sql = rewritten.original();
        int at = pos == null || pos.getLineNum() <= 0 ? -1
                : rewritten.toOriginal(offset(rewritten.sql(), pos.getLineNum(), pos.getColumnNum()) - 1);
        String near;
        Matcher m = ENCOUNTERED.matcher(msg);
        Matcher kw = Pattern.compile("near the keyword '([^']*)'").matcher(msg);
        if (m.find()) {
            // JavaCC lists the tokens from the last good one to the failing one: report the last.
            String[] tokens = m.group(1).trim().split("\\s+");
            String last = tokens.length == 0 ? "" : tokens[tokens.length - 1];
            if (last.equals("<EOF>") || last.isEmpty()) {
                near = null;
                at = sql.length();
            } else {
                near = last;
                int found = at < 0 ? -1 : sql.toLowerCase(Locale.ROOT)
                        .indexOf(last.toLowerCase(Locale.ROOT), at);
                if (found >= 0) {
                    at = found;
                    near = sql.substring(found, found + last.length());
                }
            }
        } else if (kw.find()) {
            near = kw.group(1);
        } else {
            near = at >= 0 && at < sql.length() ? firstToken(sql, at) : null;
        }
        String position = at < 0 ? null : "at character " + (Math.min(at, sql.length()) + 1);
        String text = near == null ? "syntax error at end of input" : "syntax error at or near \"" + near + "\"";
        return new SqlException(SqlState.SYNTAX_ERROR, text, position, null, p);
    }

    /** The first token at the error position (PostgreSQL reports one token, Calcite a sequence). */
    private static String firstToken(String sql, int off) {
        int end = off;
        char c = sql.charAt(off);
        if (Character.isLetterOrDigit(c) || c == '_' || c == '$') {
            while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_'
                    || sql.charAt(end) == '$')) end++;
        } else if (c == '\'' || c == '"') {
            end = sql.indexOf(c, off + 1);
            end = end < 0 ? sql.length() : end + 1;
        } else {
            end = off + 1;
        }
        return sql.substring(off, end);
    }

    /** 1-based character offset of a 1-based (line, column). */
    static int offset(String sql, int line, int col) {
        int off = 0;
        for (int l = 1; l < line && off < sql.length(); l++) {
            int nl = sql.indexOf('\n', off);
            if (nl < 0) break;
            off = nl + 1;
        }
        return off + col;
    }

    private static String unquote(String s) { return s.replace("`", "").replace("\"", ""); }

    private static String cannotApply(Matcher m) {
        String op = m.group(1);
        String types = m.group(2);
        boolean symbolic = !op.isEmpty() && !Character.isLetter(op.charAt(0));
        if (symbolic || op.equals("AND") || op.equals("OR") || op.equals("NOT") || op.contains("LIKE")) {
            String rendered = types.replaceAll("<([^>]*)>", "$1");
            StringBuilder sb = new StringBuilder();
            for (String part : rendered.split(" ")) {
                if (sb.length() > 0) sb.append(' ');
                sb.append(part.equals(op) || !part.matches("[A-Z_()0-9, ]+") ? part : pgType(part));
            }
            return "operator does not exist: " + sb;
        }
        return "function " + op.toLowerCase(Locale.ROOT) + "(" + typeList(types.replaceAll("^" + Pattern.quote(op) + "\\(|\\)$", "")) + ") does not exist";
    }

    private static String typeList(String calciteTypes) {
        if (calciteTypes.isBlank()) return "";
        StringBuilder sb = new StringBuilder();
        for (String t : calciteTypes.split(",\\s*(?![^(]*\\))")) {
            if (sb.length() > 0) sb.append(", ");
            sb.append(pgType(t.trim().replace("<", "").replace(">", "")));
        }
        return sb.toString();
    }

    /** Calcite's type spelling to PostgreSQL's (best effort, for messages). */
    static String pgType(String calcite) {
        String t = calcite.trim().toUpperCase(Locale.ROOT).replace(" NOT NULL", "");
        String base = t.replaceAll("\\(.*\\)", "").trim();
        return switch (base) {
            case "INTEGER" -> "integer";
            case "BIGINT" -> "bigint";
            case "SMALLINT", "TINYINT" -> "smallint";
            case "DECIMAL", "NUMERIC", "EXACT_NUMERIC" -> "numeric";
            case "DOUBLE", "FLOAT" -> "double precision";
            case "REAL" -> "real";
            case "CHAR", "VARCHAR", "CHARACTER", "STRING" -> "text";
            case "BOOLEAN" -> "boolean";
            case "DATE" -> "date";
            case "TIME" -> "time without time zone";
            case "TIMESTAMP" -> "timestamp without time zone";
            case "TIMESTAMP WITH LOCAL TIME ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE" -> "timestamp with time zone";
            case "BINARY", "VARBINARY" -> "bytea";
            case "NULL" -> "unknown";
            default -> base.startsWith("INTERVAL") ? "interval" : base.toLowerCase(Locale.ROOT);
        };
    }
}
