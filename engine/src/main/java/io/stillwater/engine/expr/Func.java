package io.stillwater.engine.expr;

/**
 * Built-in scalar functions and operators. The SQL front end maps Calcite operators and
 * PostgreSQL function names onto these; {@link ExprCompiler} evaluates them.
 *
 * <p>Unless a constant's comment says otherwise, a function is strict: any NULL
 * argument gives NULL without evaluating the function.
 */
public enum Func {
    // arithmetic (numeric kinds; result type from the Call). Integer overflow -> 22003, /0 -> 22012
    PLUS, MINUS, TIMES, DIVIDE, MOD, NEGATE, ABS, POWER, SQRT, CBRT, EXP, LN, LOG10, LOG,
    CEIL, FLOOR, ROUND, TRUNC, SIGN, PI, RANDOM, DEGREES, RADIANS,
    SIN, COS, TAN, ASIN, ACOS, ATAN, ATAN2, COT,
    // bitwise on integers
    BIT_AND, BIT_OR, BIT_XOR, BIT_NOT, SHIFT_LEFT, SHIFT_RIGHT,
    // comparison (any comparable kind)
    EQ, NE, LT, LE, GT, GE,
    /** a IS DISTINCT FROM b; not strict. */
    IS_DISTINCT_FROM,
    /** a IS NOT DISTINCT FROM b; not strict. */
    IS_NOT_DISTINCT_FROM,
    // boolean logic, three-valued; not strict
    AND, OR, NOT,
    /** not strict */ IS_NULL,
    /** not strict */ IS_NOT_NULL,
    /** not strict */ IS_TRUE,
    /** not strict */ IS_NOT_TRUE,
    /** not strict */ IS_FALSE,
    /** not strict */ IS_NOT_FALSE,
    /** a BETWEEN b AND c (symmetric variants are rewritten by the front end). */
    BETWEEN,
    /** args[0] IN (args[1..]): three-valued, not strict in the list. */
    IN,
    /** COALESCE(args...): first non-null; lazy; not strict. */
    COALESCE,
    /** NULLIF(a, b); not strict in b. */
    NULLIF,
    /** GREATEST/LEAST ignore NULL arguments; not strict. */
    GREATEST, LEAST,
    // strings
    /** text || text (either side may be any type, rendered as text; NULL if either is NULL). */
    CONCAT_OP,
    /** concat(...) ignores NULLs; not strict. */
    CONCAT,
    LIKE, NOT_LIKE, ILIKE, NOT_ILIKE,
    /** args: string, pattern, [escape] */ SIMILAR_TO,
    REGEXP_MATCH_OP, // ~
    UPPER, LOWER, LENGTH, CHAR_LENGTH, OCTET_LENGTH, BIT_LENGTH,
    /** substring(s, from [, count]) */ SUBSTRING,
    /** position(needle IN haystack): args (needle, haystack) */ POSITION,
    /** strpos(haystack, needle) */ STRPOS,
    /** trim(both ' ' from s): args (s [, chars]) */ BTRIM, LTRIM, RTRIM,
    REPLACE, REVERSE, REPEAT, LEFT, RIGHT, LPAD, RPAD, INITCAP, SPLIT_PART, TRANSLATE,
    ASCII, CHR, MD5, TO_HEX, STARTS_WITH, QUOTE_IDENT, QUOTE_LITERAL,
    // date / time
    NOW, CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP, LOCALTIMESTAMP,
    /** date_part(field, source); field is a text literal */ DATE_PART,
    /** extract(field FROM source); same as DATE_PART but numeric result */ EXTRACT,
    /** date_trunc(field, source) */ DATE_TRUNC,
    AGE, MAKE_DATE, MAKE_TIMESTAMP, TO_TIMESTAMP, TO_CHAR, JUSTIFY_DAYS, JUSTIFY_HOURS, JUSTIFY_INTERVAL,
    // misc
    /** pg_typeof(x): the argument's SQL type name as text; not strict. */
    PG_TYPEOF,
    VERSION, CURRENT_USER, CURRENT_DATABASE, CURRENT_SCHEMA,
    ENCODE, DECODE, GET_BYTE,
    // arrays (ArrayFuncs)
    /** ARRAY[args...]; not strict: NULL arguments are NULL elements. */
    ARRAY,
    /** array[index], 1-based; NULL out of range. */
    ARRAY_SUBSCRIPT,
    /** args: comparison ('=', '<>', '<', ...) as a text literal, value, array: {@code value op ANY (array)}; not strict. */
    ANY_OP,
    /** {@code value op ALL (array)}, args as {@link #ANY_OP}; not strict. */
    ALL_OP,
    CARDINALITY, ARRAY_LENGTH, ARRAY_LOWER, ARRAY_UPPER, ARRAY_NDIMS, ARRAY_DIMS,
    /** array_to_string(array, sep [, null_string]); not strict in null_string. */
    ARRAY_TO_STRING,
    /** string_to_array(s, sep [, null_string]); a NULL sep splits into characters. */
    STRING_TO_ARRAY,
    /** array_position(array, value [, start]); finds NULL too (IS NOT DISTINCT FROM). */
    ARRAY_POSITION, ARRAY_POSITIONS,
    /** array_append/prepend/cat: a NULL array is the empty array; not strict. */
    ARRAY_APPEND, ARRAY_PREPEND, ARRAY_CAT,
    /** array_remove(array, value), array_replace(array, from, to): NULL values match NULL elements. */
    ARRAY_REMOVE, ARRAY_REPLACE,
    /** a @> b, a <@ b, a && b: containment and overlap, ignoring NULL elements and multiplicity. */
    ARRAY_CONTAINS, ARRAY_CONTAINED, ARRAY_OVERLAP,
    // jsonb (JsonbFuncs)
    /** j -> key (text) or j -> index (integer); ->> the same as text. */
    JSONB_GET, JSONB_GET_TEXT,
    /** j #> path (text[]), #>> as text; also jsonb_extract_path(_text)(j, keys...). */
    JSONB_PATH, JSONB_PATH_TEXT,
    /** @>, <@: containment. */
    JSONB_CONTAINS, JSONB_CONTAINED,
    /** ? key, ?| keys, ?& keys. */
    JSONB_EXISTS, JSONB_EXISTS_ANY, JSONB_EXISTS_ALL,
    /** j || j. */
    JSONB_CONCAT,
    /** j - key (text), j - index (integer), j - keys (text[]); j #- path. */
    JSONB_DELETE, JSONB_DELETE_PATH,
    /** jsonb_build_object(k, v, ...), jsonb_build_array(...); not strict. */
    JSONB_BUILD_OBJECT, JSONB_BUILD_ARRAY,
    TO_JSONB, JSONB_TYPEOF, JSONB_ARRAY_LENGTH,
    /** jsonb_extract_path(j, k1, k2, ...) and its text form. */
    JSONB_EXTRACT_PATH, JSONB_EXTRACT_PATH_TEXT,
    /** jsonb_set(target, path, value [, create_missing]). */
    JSONB_SET,
    JSONB_STRIP_NULLS, JSONB_PRETTY,
}
