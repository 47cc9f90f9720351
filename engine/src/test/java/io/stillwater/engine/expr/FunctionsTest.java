package io.stillwater.engine.expr;

import static io.stillwater.engine.expr.Func.*;
import static io.stillwater.engine.expr.ExprBuilder.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each case pairs an expression with PostgreSQL 15's output for the SQL in the
 * description (checked against a real server).
 */
class FunctionsTest {

    private static Arguments c(String sql, Expr e, String expected) { return Arguments.of(sql, e, expected); }

    static Stream<Arguments> arithmetic() {
        return Stream.of(
                c("7 / 2", call(DIVIDE, INT, i(7), i(2)), "3"),
                c("-7 / 2", call(DIVIDE, INT, i(-7), i(2)), "-3"),
                c("7 / -2", call(DIVIDE, INT, i(7), i(-2)), "-3"),
                c("-7 % 3", call(MOD, INT, i(-7), i(3)), "-1"),
                c("7 % -3", call(MOD, INT, i(7), i(-3)), "1"),
                c("32767::int2 + 0::int2", call(PLUS, SMALL, sm(32767), sm(0)), "32767"),
                c("-9223372036854775808 % -1", call(MOD, BIG, l(Long.MIN_VALUE), l(-1)), "0"),
                c("1::numeric / 3", call(DIVIDE, NUM, n("1"), n("3")), "0.33333333333333333333"),
                c("2::numeric / 3", call(DIVIDE, NUM, n("2"), n("3")), "0.66666666666666666667"),
                c("10::numeric / 4", call(DIVIDE, NUM, n("10"), n("4")), "2.5000000000000000"),
                c("1.0 / 7", call(DIVIDE, NUM, n("1.0"), n("7")), "0.14285714285714285714"),
                c("100000::numeric / 3", call(DIVIDE, NUM, n("100000"), n("3")), "33333.333333333333"),
                c("1::numeric / 30000", call(DIVIDE, NUM, n("1"), n("30000")), "0.000033333333333333333333"),
                c("12345.678 / 0.001", call(DIVIDE, NUM, n("12345.678"), n("0.001")), "12345678.000000000000"),
                c("1.0 * 2.50", call(TIMES, NUM, n("1.0"), n("2.50")), "2.500"),
                c("5.5 % 2", call(MOD, NUM, n("5.5"), n("2")), "1.5"),
                c("mod(-7.5, 2)", call(MOD, NUM, n("-7.5"), n("2")), "-1.5"),
                c("1.5 + 1 (int promoted)", call(PLUS, NUM, n("1.5"), i(1)), "2.5"),
                c("0.1::float8 + 0.2::float8", call(PLUS, F8, f8(0.1), f8(0.2)), "0.30000000000000004"),
                c("3::float8 / 2", call(DIVIDE, F8, f8(3), f8(2)), "1.5"),
                c("-(1 day 01:00)", call(NEGATE, IV, lit(IV, "1 day 01:00")), "-1 days -01:00:00"),
                c("abs(-1.50)", call(ABS, NUM, n("-1.50")), "1.50"),
                c("2 ^ 3 (float8)", call(POWER, F8, f8(2), f8(3)), "8"),
                c("2::numeric ^ 3", call(POWER, NUM, n("2"), n("3")), "8.0000000000000000"),
                c("10::numeric ^ 20", call(POWER, NUM, n("10"), n("20")), "100000000000000000000.0000000000000000"),
                c("2::numeric ^ 0.5", call(POWER, NUM, n("2"), n("0.5")), "1.4142135623730950"),
                c("1.5 ^ 2.5", call(POWER, NUM, n("1.5"), n("2.5")), "2.7556759606310754"),
                c("1000::numeric ^ 1.5", call(POWER, NUM, n("1000"), n("1.5")), "31622.776601683793"),
                c("0.11 ^ 10", call(POWER, NUM, n("0.11"), n("10")), "0.0000000002593742"),
                c("10::numeric ^ (-2)", call(POWER, NUM, n("10"), n("-2")), "0.0100000000000000"),
                c("sqrt(2::numeric)", call(SQRT, NUM, n("2")), "1.414213562373095"),
                c("sqrt(10000::numeric)", call(SQRT, NUM, n("10000")), "100.0000000000000"),
                c("sqrt(0.5::numeric)", call(SQRT, NUM, n("0.5")), "0.70710678118654752"),
                c("sqrt(123.456::numeric)", call(SQRT, NUM, n("123.456")), "11.111075555498666"),
                c("ln(2::numeric)", call(LN, NUM, n("2")), "0.6931471805599453"),
                c("ln(1000::numeric)", call(LN, NUM, n("1000")), "6.9077552789821371"),
                c("ln(1.01)", call(LN, NUM, n("1.01")), "0.009950330853168083"),
                c("exp(1::numeric)", call(EXP, NUM, n("1")), "2.7182818284590452"),
                c("exp(10::numeric)", call(EXP, NUM, n("10")), "22026.465794806717"),
                c("exp(-10::numeric)", call(EXP, NUM, n("-10")), "0.00004539992976248485"),
                c("exp(50::numeric)", call(EXP, NUM, n("50")), "5184705528587072464087"),
                c("log(100::numeric)", call(LOG10, NUM, n("100")), "2.0000000000000000"),
                c("log(1000000::numeric)", call(LOG, NUM, n("1000000")), "6.000000000000000"),
                c("log(2::numeric, 8::numeric)", call(LOG, NUM, n("2"), n("8")), "3.0000000000000000"),
                c("round(2.5::numeric)", call(ROUND, NUM, n("2.5")), "3"),
                c("round(-2.5::numeric)", call(ROUND, NUM, n("-2.5")), "-3"),
                c("round(2.5::float8)", call(ROUND, F8, f8(2.5)), "2"),
                c("round(3.5::float8)", call(ROUND, F8, f8(3.5)), "4"),
                c("round(-2.5::float8)", call(ROUND, F8, f8(-2.5)), "-2"),
                c("round(1234.567, -2)", call(ROUND, NUM, n("1234.567"), i(-2)), "1200"),
                c("round(1.55, 1)", call(ROUND, NUM, n("1.55"), i(1)), "1.6"),
                c("trunc(-1.57, 1)", call(TRUNC, NUM, n("-1.57"), i(1)), "-1.5"),
                c("ceil(-0.5::float8)", call(CEIL, F8, f8(-0.5)), "-0"),
                c("floor(-0.5)", call(FLOOR, NUM, n("-0.5")), "-1"),
                c("sign(-8.4)", call(SIGN, NUM, n("-8.4")), "-1"),
                c("sign(-3)", call(SIGN, INT, i(-3)), "-1"),
                c("sign(0::int8)", call(SIGN, BIG, l(0)), "0"),
                c("sign(32000::int2)", call(SIGN, SMALL, sm(32000)), "1"),
                c("sign(-2.5::float8)", call(SIGN, F8, f8(-2.5)), "-1"),
                c("5 & 3", call(BIT_AND, INT, i(5), i(3)), "1"),
                c("1 << 4", call(SHIFT_LEFT, INT, i(1), i(4)), "16"),
                c("~5", call(BIT_NOT, INT, i(5)), "-6"));
    }

    static Stream<Arguments> comparisonsAndLogic() {
        Expr nb = nul(BOOL);
        return Stream.of(
                c("true AND NULL", call(AND, BOOL, b(true), nb), "NULL"),
                c("false AND NULL", call(AND, BOOL, b(false), nb), "f"),
                c("NULL AND false", call(AND, BOOL, nb, b(false)), "f"),
                c("true OR NULL", call(OR, BOOL, b(true), nb), "t"),
                c("false OR NULL", call(OR, BOOL, b(false), nb), "NULL"),
                c("NOT NULL", call(NOT, BOOL, nb), "NULL"),
                c("NULL IS TRUE", call(IS_TRUE, BOOL, nb), "f"),
                c("NULL IS NOT FALSE", call(IS_NOT_FALSE, BOOL, nb), "t"),
                c("NULL IS NULL", call(IS_NULL, BOOL, nb), "t"),
                c("NULL = NULL", call(EQ, BOOL, nul(INT), nul(INT)), "NULL"),
                c("NULL IS NOT DISTINCT FROM NULL", call(IS_NOT_DISTINCT_FROM, BOOL, nul(INT), nul(INT)), "t"),
                c("1 IS DISTINCT FROM NULL", call(IS_DISTINCT_FROM, BOOL, i(1), nul(INT)), "t"),
                c("1 = 1::bigint", call(EQ, BOOL, i(1), l(1)), "t"),
                c("1.50 = 1.5", call(EQ, BOOL, n("1.50"), n("1.5")), "t"),
                c("'NaN' = 'NaN' (float8)", call(EQ, BOOL, f8(Double.NaN), f8(Double.NaN)), "t"),
                c("'NaN' > 'Infinity'", call(GT, BOOL, f8(Double.NaN), f8(Double.POSITIVE_INFINITY)), "t"),
                c("'-0'::float8 = 0", call(EQ, BOOL, f8(-0.0), f8(0.0)), "t"),
                c("'ab '::char(3) = 'ab'::char(2)", call(EQ, BOOL, new Expr.Literal("ab ", SqlType.character(3)),
                        new Expr.Literal("ab", SqlType.character(2))), "t"),
                c("'a' < 'b'", call(LT, BOOL, s("a"), s("b")), "t"),
                c("'Z' < 'a' (C collation)", call(LT, BOOL, s("Z"), s("a")), "t"),
                c("interval '1 mon' = '30 days'", call(EQ, BOOL, lit(IV, "1 mon"), lit(IV, "30 days")), "t"),
                c("date '2024-01-31' < timestamp '2024-01-31 00:00:01'", call(LT, BOOL, lit(DATE, "2024-01-31"),
                        lit(TS, "2024-01-31 00:00:01")), "t"),
                c("2 IN (1, NULL)", call(IN, BOOL, i(2), i(1), nul(INT)), "NULL"),
                c("2 IN (2, NULL)", call(IN, BOOL, i(2), i(2), nul(INT)), "t"),
                c("NULL IN (1)", call(IN, BOOL, nul(INT), i(1)), "NULL"),
                c("2 IN (1, 3)", call(IN, BOOL, i(2), i(1), i(3)), "f"),
                c("3 BETWEEN 1 AND NULL", call(BETWEEN, BOOL, i(3), i(1), nul(INT)), "NULL"),
                c("0 BETWEEN 1 AND NULL", call(BETWEEN, BOOL, i(0), i(1), nul(INT)), "f"),
                c("2 BETWEEN 1 AND 3", call(BETWEEN, BOOL, i(2), i(1), i(3)), "t"),
                c("greatest(1, NULL, 3)", call(GREATEST, INT, i(1), nul(INT), i(3)), "3"),
                c("least(NULL, NULL)", call(LEAST, INT, nul(INT), nul(INT)), "NULL"),
                c("least(2, 1)", call(LEAST, INT, i(2), i(1)), "1"),
                c("coalesce(NULL, 2, 3)", call(COALESCE, INT, nul(INT), i(2), i(3)), "2"),
                c("nullif(1, 1)", call(NULLIF, INT, i(1), i(1)), "NULL"),
                c("nullif(1, 2)", call(NULLIF, INT, i(1), i(2)), "1"),
                c("nullif(1, NULL)", call(NULLIF, INT, i(1), nul(INT)), "1"));
    }

    static Stream<Arguments> strings() {
        return Stream.of(
                c("'abc' LIKE 'a%'", call(LIKE, BOOL, s("abc"), s("a%")), "t"),
                c("'abc' LIKE 'A%'", call(LIKE, BOOL, s("abc"), s("A%")), "f"),
                c("'abc' ILIKE 'A%'", call(ILIKE, BOOL, s("abc"), s("A%")), "t"),
                c("'a_c' LIKE 'a\\_c'", call(LIKE, BOOL, s("a_c"), s("a\\_c")), "t"),
                c("'abc' LIKE 'a\\_c'", call(LIKE, BOOL, s("abc"), s("a\\_c")), "f"),
                c("'a.c' LIKE 'a.c'", call(LIKE, BOOL, s("abc"), s("a.c")), "f"),
                c("'abc' NOT LIKE '_b_'", call(NOT_LIKE, BOOL, s("abc"), s("_b_")), "f"),
                c("'a%c' LIKE 'a#%c' ESCAPE '#'", call(LIKE, BOOL, s("a%c"), s("a#%c"), s("#")), "t"),
                c("NULL LIKE 'a'", call(LIKE, BOOL, nul(TEXT), s("a")), "NULL"),
                c("'abc' ~ 'b'", call(REGEXP_MATCH_OP, BOOL, s("abc"), s("b")), "t"),
                c("'ab1' ~ '^[[:alpha:]]+[[:digit:]]$'", call(REGEXP_MATCH_OP, BOOL, s("ab1"), s("^[[:alpha:]]+[[:digit:]]$")), "t"),
                c("'a cat' ~ '\\mcat\\M'", call(REGEXP_MATCH_OP, BOOL, s("a cat"), s("\\mcat\\M")), "t"),
                c("'concat' ~ '\\mcat'", call(REGEXP_MATCH_OP, BOOL, s("concat"), s("\\mcat")), "f"),
                c("'abc' ~ '^b'", call(REGEXP_MATCH_OP, BOOL, s("abc"), s("^b")), "f"),
                c("'abc' SIMILAR TO '(a|x)%'", call(SIMILAR_TO, BOOL, s("abc"), s("(a|x)%")), "t"),
                c("'abc' SIMILAR TO 'a.c'", call(SIMILAR_TO, BOOL, s("abc"), s("a.c")), "f"),
                c("'a.c' SIMILAR TO 'a.c'", call(SIMILAR_TO, BOOL, s("a.c"), s("a.c")), "t"),
                c("'abc' SIMILAR TO 'ab'", call(SIMILAR_TO, BOOL, s("abc"), s("ab")), "f"),
                c("'abc' SIMILAR TO '%(b|d)%'", call(SIMILAR_TO, BOOL, s("abc"), s("%(b|d)%")), "t"),
                c("'ab' SIMILAR TO 'a{1,2}b'", call(SIMILAR_TO, BOOL, s("ab"), s("a{1,2}b")), "t"),
                c("'a' SIMILAR TO '[a-c]'", call(SIMILAR_TO, BOOL, s("a"), s("[a-c]")), "t"),
                c("'x^' SIMILAR TO 'x^'", call(SIMILAR_TO, BOOL, s("x^"), s("x^")), "t"),
                c("substring('foobar' similar '%#\"o_b#\"%' escape '#')",
                        call(SUBSTRING, TEXT, s("foobar"), s("%#\"o_b#\"%"), s("#")), "oob"),
                c("length('héllo')", call(LENGTH, INT, s("héllo")), "5"),
                c("length('😀x')", call(LENGTH, INT, s("😀x")), "2"),
                c("octet_length('héllo')", call(OCTET_LENGTH, INT, s("héllo")), "6"),
                c("bit_length('a')", call(BIT_LENGTH, INT, s("a")), "8"),
                c("length('ab   '::char(5))", call(LENGTH, INT, new Expr.Literal("ab   ", SqlType.character(5))), "2"),
                c("substring('hello', 2, 3)", call(SUBSTRING, TEXT, s("hello"), i(2), i(3)), "ell"),
                c("substring('hello', -1, 3)", call(SUBSTRING, TEXT, s("hello"), i(-1), i(3)), "h"),
                c("substring('hello', 0)", call(SUBSTRING, TEXT, s("hello"), i(0)), "hello"),
                c("substring('hello', 9)", call(SUBSTRING, TEXT, s("hello"), i(9)), ""),
                c("substring('😀bc', 2)", call(SUBSTRING, TEXT, s("😀bc"), i(2)), "bc"),
                c("substring('hello' from 'l+')", call(SUBSTRING, TEXT, s("hello"), s("l+")), "ll"),
                c("substring('hello' from 'h(e)l')", call(SUBSTRING, TEXT, s("hello"), s("h(e)l")), "e"),
                c("substring('hello' from 'z')", call(SUBSTRING, TEXT, s("hello"), s("z")), "NULL"),
                c("position('' in 'abc')", call(POSITION, INT, s(""), s("abc")), "1"),
                c("position('c' in 'abc')", call(POSITION, INT, s("c"), s("abc")), "3"),
                c("strpos('é😀c', 'c')", call(STRPOS, INT, s("é😀c"), s("c")), "3"),
                c("btrim('xxhixx', 'x')", call(BTRIM, TEXT, s("xxhixx"), s("x")), "hi"),
                c("ltrim('  hi ')", call(LTRIM, TEXT, s("  hi ")), "hi "),
                c("rtrim('hi  ')", call(RTRIM, TEXT, s("hi  ")), "hi"),
                c("initcap('hELLO wORLD-foo bar_baz 1st')", call(INITCAP, TEXT, s("hELLO wORLD-foo bar_baz 1st")),
                        "Hello World-Foo Bar_Baz 1st"),
                c("lpad('hi', 5, 'xy')", call(LPAD, TEXT, s("hi"), i(5), s("xy")), "xyxhi"),
                c("lpad('hello', 3)", call(LPAD, TEXT, s("hello"), i(3)), "hel"),
                c("rpad('hi', 5, 'xy')", call(RPAD, TEXT, s("hi"), i(5), s("xy")), "hixyx"),
                c("split_part('a,b,c', ',', -1)", call(SPLIT_PART, TEXT, s("a,b,c"), s(","), i(-1)), "c"),
                c("split_part('a,b,c', ',', 2)", call(SPLIT_PART, TEXT, s("a,b,c"), s(","), i(2)), "b"),
                c("split_part('a,b,c', ',', 5)", call(SPLIT_PART, TEXT, s("a,b,c"), s(","), i(5)), ""),
                c("translate('12345', '143', 'ax')", call(TRANSLATE, TEXT, s("12345"), s("143"), s("ax")), "a2x5"),
                c("replace('abcabc', 'b', 'X')", call(REPLACE, TEXT, s("abcabc"), s("b"), s("X")), "aXcaXc"),
                c("reverse('abc')", call(REVERSE, TEXT, s("abc")), "cba"),
                c("repeat('ab', 3)", call(REPEAT, TEXT, s("ab"), i(3)), "ababab"),
                c("repeat('ab', -1)", call(REPEAT, TEXT, s("ab"), i(-1)), ""),
                c("left('hello', -2)", call(LEFT, TEXT, s("hello"), i(-2)), "hel"),
                c("right('hello', -2)", call(RIGHT, TEXT, s("hello"), i(-2)), "llo"),
                c("right('hello', 2)", call(RIGHT, TEXT, s("hello"), i(2)), "lo"),
                c("md5('abc')", call(MD5, TEXT, s("abc")), "900150983cd24fb0d6963f7d28e17f72"),
                c("to_hex(-1)", call(TO_HEX, TEXT, i(-1)), "ffffffff"),
                c("to_hex(-1::bigint)", call(TO_HEX, TEXT, l(-1)), "ffffffffffffffff"),
                c("chr(65)", call(CHR, TEXT, i(65)), "A"),
                c("ascii('')", call(ASCII, INT, s("")), "0"),
                c("ascii('é')", call(ASCII, INT, s("é")), "233"),
                c("upper('straße')", call(UPPER, TEXT, s("straße")), "STRAßE"),
                c("lower('ÀB')", call(LOWER, TEXT, s("ÀB")), "àb"),
                c("initcap('éCOLE')", call(INITCAP, TEXT, s("éCOLE")), "École"),
                c("lpad('é', 3, '😀')", call(LPAD, TEXT, s("é"), i(3), s("😀")), "😀😀é"),
                c("ltrim('xxabc', 'xa')", call(LTRIM, TEXT, s("xxabc"), s("xa")), "bc"),
                c("translate('abc', 'ab', '')", call(TRANSLATE, TEXT, s("abc"), s("ab"), s("")), "c"),
                c("position('😀' in 'a😀')", call(POSITION, INT, s("😀"), s("a😀")), "2"),
                c("reverse('a😀b')", call(REVERSE, TEXT, s("a😀b")), "b😀a"),
                c("'abc' || 1::smallint", call(CONCAT_OP, TEXT, s("abc"), sm(1)), "abc1"),
                c("starts_with('alphabet', 'alph')", call(STARTS_WITH, BOOL, s("alphabet"), s("alph")), "t"),
                c("quote_ident('Foo')", call(QUOTE_IDENT, TEXT, s("Foo")), "\"Foo\""),
                c("quote_ident('foo')", call(QUOTE_IDENT, TEXT, s("foo")), "foo"),
                c("quote_ident('select')", call(QUOTE_IDENT, TEXT, s("select")), "\"select\""),
                c("quote_literal(E'it''s\\\\x')", call(QUOTE_LITERAL, TEXT, s("it's\\x")), "E'it''s\\\\x'"),
                c("'a' || true", call(CONCAT_OP, TEXT, s("a"), b(true)), "atrue"),
                c("'a' || NULL", call(CONCAT_OP, TEXT, s("a"), nul(TEXT)), "NULL"),
                c("'abc'::char(5) || '|'", call(CONCAT_OP, TEXT, new Expr.Literal("abc  ", SqlType.character(5)), s("|")), "abc|"),
                c("'x' || 1.50", call(CONCAT_OP, TEXT, s("x"), n("1.50")), "x1.50"),
                c("concat('a', NULL, 1)", call(CONCAT, TEXT, s("a"), nul(TEXT), i(1)), "a1"),
                c("concat('a', true)", call(CONCAT, TEXT, s("a"), b(true)), "at"),
                c("'\\x01'::bytea || '\\x02'::bytea", call(CONCAT_OP, BYTEA, lit(BYTEA, "\\x01"), lit(BYTEA, "\\x02")), "\\x0102"),
                c("encode('hello'::bytea, 'base64')", call(ENCODE, TEXT, lit(BYTEA, "hello"), s("base64")), "aGVsbG8="),
                c("encode('\\x00ff5c'::bytea, 'escape')", call(ENCODE, TEXT, lit(BYTEA, "\\x00615c"), s("escape")), "\\000a\\\\"),
                c("decode('aGk=', 'base64')", call(DECODE, BYTEA, s("aGk="), s("base64")), "\\x6869"),
                c("decode('0102', 'hex')", call(DECODE, BYTEA, s("0102"), s("hex")), "\\x0102"),
                c("get_byte('\\x0102'::bytea, 1)", call(GET_BYTE, INT, lit(BYTEA, "\\x0102"), i(1)), "2"),
                c("length('\\x0102'::bytea)", call(LENGTH, INT, lit(BYTEA, "\\x0102")), "2"));
    }

    static Stream<Arguments> dateTime() {
        return Stream.of(
                c("date '2024-01-31' + interval '1 month'", call(PLUS, TS, lit(DATE, "2024-01-31"), lit(IV, "1 month")),
                        "2024-02-29 00:00:00"),
                c("date '2024-03-31' - interval '1 month'", call(MINUS, TS, lit(DATE, "2024-03-31"), lit(IV, "1 month")),
                        "2024-02-29 00:00:00"),
                c("date '2024-03-01' - date '2024-02-01'", call(MINUS, INT, lit(DATE, "2024-03-01"), lit(DATE, "2024-02-01")), "29"),
                c("date '2024-02-28' + 1", call(PLUS, DATE, lit(DATE, "2024-02-28"), i(1)), "2024-02-29"),
                c("1 + date '2024-02-28'", call(PLUS, DATE, i(1), lit(DATE, "2024-02-28")), "2024-02-29"),
                c("date '2024-03-01' - 1", call(MINUS, DATE, lit(DATE, "2024-03-01"), i(1)), "2024-02-29"),
                c("timestamp '2024-01-31 10:00' + interval '1 month 1 day 1 hour'",
                        call(PLUS, TS, lit(TS, "2024-01-31 10:00"), lit(IV, "1 month 1 day 1 hour")), "2024-03-01 11:00:00"),
                c("timestamp '2023-01-31' + interval '1 month'", call(PLUS, TS, lit(TS, "2023-01-31"), lit(IV, "1 month")),
                        "2023-02-28 00:00:00"),
                c("interval '1 day' + timestamp '2024-01-31'", call(PLUS, TS, lit(IV, "1 day"), lit(TS, "2024-01-31")),
                        "2024-02-01 00:00:00"),
                c("timestamptz '2024-01-31 13:00+00' + interval '1 day'",
                        call(PLUS, TSTZ, lit(TSTZ, "2024-01-31 13:00+00"), lit(IV, "1 day")), "2024-02-01 13:00:00+00"),
                c("time '23:00' + interval '2 hours'", call(PLUS, TIME, lit(TIME, "23:00"), lit(IV, "2 hours")), "01:00:00"),
                c("date '2024-01-31' + time '13:04'", call(PLUS, TS, lit(DATE, "2024-01-31"), lit(TIME, "13:04")),
                        "2024-01-31 13:04:00"),
                c("interval '1 day' - interval '1 hour'", call(MINUS, IV, lit(IV, "1 day"), lit(IV, "1 hour")), "1 day -01:00:00"),
                c("interval '1 year' + interval '-1 day'", call(PLUS, IV, lit(IV, "1 year"), lit(IV, "-1 day")), "1 year -1 days"),
                c("timestamp '2024-03-01' - timestamp '2024-01-01 01:00'",
                        call(MINUS, IV, lit(TS, "2024-03-01"), lit(TS, "2024-01-01 01:00")), "59 days 23:00:00"),
                c("time '10:00' - time '08:30'", call(MINUS, IV, lit(TIME, "10:00"), lit(TIME, "08:30")), "01:30:00"),
                c("interval '1 month' * 1.5", call(TIMES, IV, lit(IV, "1 month"), f8(1.5)), "1 mon 15 days"),
                c("interval '1 day' * 0.3", call(TIMES, IV, lit(IV, "1 day"), f8(0.3)), "07:12:00"),
                c("2 * interval '1 hour'", call(TIMES, IV, i(2), lit(IV, "1 hour")), "02:00:00"),
                c("interval '1 hour' / 7", call(DIVIDE, IV, lit(IV, "1 hour"), i(7)), "00:08:34.285714"),
                c("age(timestamp '2024-03-31', timestamp '2024-01-31 12:00')",
                        call(AGE, IV, lit(TS, "2024-03-31"), lit(TS, "2024-01-31 12:00")), "1 mon 30 days 12:00:00"),
                c("age(timestamp '2024-01-31', timestamp '2024-03-01')",
                        call(AGE, IV, lit(TS, "2024-01-31"), lit(TS, "2024-03-01")), "-1 mons -1 days"),
                c("justify_days(interval '35 days')", call(JUSTIFY_DAYS, IV, lit(IV, "35 days")), "1 mon 5 days"),
                c("justify_hours(interval '27 hours')", call(JUSTIFY_HOURS, IV, lit(IV, "27 hours")), "1 day 03:00:00"),
                c("justify_interval(interval '1 mon -1 hour')", call(JUSTIFY_INTERVAL, IV, lit(IV, "1 mon -1 hour")),
                        "29 days 23:00:00"),
                c("make_date(2024, 2, 29)", call(MAKE_DATE, DATE, i(2024), i(2), i(29)), "2024-02-29"),
                c("make_timestamp(2024, 1, 31, 13, 4, 5.5)",
                        call(MAKE_TIMESTAMP, TS, i(2024), i(1), i(31), i(13), i(4), f8(5.5)), "2024-01-31 13:04:05.5"),
                c("to_timestamp(0)", call(TO_TIMESTAMP, TSTZ, f8(0)), "1970-01-01 00:00:00+00"),
                c("to_timestamp(1706706245.5)", call(TO_TIMESTAMP, TSTZ, f8(1706706245.5)), "2024-01-31 13:04:05.5+00"),
                c("to_timestamp('2024-01-31 13:04', 'YYYY-MM-DD HH24:MI')",
                        call(TO_TIMESTAMP, TSTZ, s("2024-01-31 13:04"), s("YYYY-MM-DD HH24:MI")), "2024-01-31 13:04:00+00"),
                c("date_part('dow', date '2024-01-07')", call(DATE_PART, F8, s("dow"), lit(DATE, "2024-01-07")), "0"),
                c("date_part('hour', date '2024-01-31')", call(DATE_PART, F8, s("hour"), lit(DATE, "2024-01-31")), "0"),
                c("date_part('epoch', interval '1 day 1 second')", call(DATE_PART, F8, s("epoch"), lit(IV, "1 day 1 second")), "86401"),
                c("extract(epoch from date '2024-01-31')", call(EXTRACT, NUM, s("epoch"), lit(DATE, "2024-01-31")), "1706659200"),
                c("extract(second from timestamp '2024-01-31 13:04:05.5')",
                        call(EXTRACT, NUM, s("second"), lit(TS, "2024-01-31 13:04:05.5")), "5.500000"),
                c("extract(epoch from timestamp '2024-01-31 13:04:05.5')",
                        call(EXTRACT, NUM, s("epoch"), lit(TS, "2024-01-31 13:04:05.5")), "1706706245.500000"),
                c("extract(milliseconds from time '13:04:05.5')",
                        call(EXTRACT, NUM, s("milliseconds"), lit(TIME, "13:04:05.5")), "5500.000"),
                c("extract(epoch from interval '1 year 1 day')", call(EXTRACT, NUM, s("epoch"), lit(IV, "1 year 1 day")),
                        "31644000.000000"),
                c("extract(week from date '2024-01-01')", call(EXTRACT, NUM, s("week"), lit(DATE, "2024-01-01")), "1"),
                c("extract(isodow from date '2024-01-07')", call(EXTRACT, NUM, s("isodow"), lit(DATE, "2024-01-07")), "7"),
                c("extract(quarter from date '2024-05-01')", call(EXTRACT, NUM, s("quarter"), lit(DATE, "2024-05-01")), "2"),
                c("extract(century from date '2024-05-01')", call(EXTRACT, NUM, s("century"), lit(DATE, "2024-05-01")), "21"),
                c("extract(julian from date '2024-05-01')", call(EXTRACT, NUM, s("julian"), lit(DATE, "2024-05-01")), "2460432"),
                c("extract(doy from timestamp '2024-12-31 10:00')", call(EXTRACT, NUM, s("doy"), lit(TS, "2024-12-31 10:00")), "366"),
                c("extract(year from interval '14 months')", call(EXTRACT, NUM, s("year"), lit(IV, "14 months")), "1"),
                c("extract(epoch from time '01:00:00.5')", call(EXTRACT, NUM, s("epoch"), lit(TIME, "01:00:00.5")), "3600.500000"),
                c("extract(julian from timestamp '2024-05-01 12:00')",
                        call(EXTRACT, NUM, s("julian"), lit(TS, "2024-05-01 12:00")), "2460432.50000000000000000000"),
                c("extract(julian from timestamp '2024-05-01 08:00')",
                        call(EXTRACT, NUM, s("julian"), lit(TS, "2024-05-01 08:00")), "2460432.33333333333333333333"),
                c("date_part('julian', timestamp '2024-05-01 08:00')",
                        call(DATE_PART, F8, s("julian"), lit(TS, "2024-05-01 08:00")), "2460432.3333333335"),
                c("extract(millennium from timestamp '2024-05-01')", call(EXTRACT, NUM, s("millennium"), lit(TS, "2024-05-01")), "3"),
                c("extract(decade from date '2024-05-01')", call(EXTRACT, NUM, s("decade"), lit(DATE, "2024-05-01")), "202"),
                c("extract(isoyear from date '2021-01-01')", call(EXTRACT, NUM, s("isoyear"), lit(DATE, "2021-01-01")), "2020"),
                c("extract(microseconds from interval '1 min 2.5 sec')",
                        call(EXTRACT, NUM, s("microseconds"), lit(IV, "1 min 2.5 sec")), "2500000"),
                c("extract(epoch from interval '-1 mon')", call(EXTRACT, NUM, s("epoch"), lit(IV, "-1 mon")), "-2592000.000000"),
                c("extract(quarter from interval '5 months')", call(EXTRACT, NUM, s("quarter"), lit(IV, "5 months")), "2"),
                c("date_part('second', interval '1 min 2.5 sec')", call(DATE_PART, F8, s("second"), lit(IV, "1 min 2.5 sec")), "2.5"),
                c("extract(YEARS from timestamp '2024-01-31')", call(EXTRACT, NUM, s("YEARS"), lit(TS, "2024-01-31")), "2024"),
                c("date_trunc('month', date '2024-01-15')", call(DATE_TRUNC, TSTZ, s("month"), lit(DATE, "2024-01-15")),
                        "2024-01-01 00:00:00+00"),
                c("date_trunc('week', timestamp '2024-01-31 13:04:05')",
                        call(DATE_TRUNC, TS, s("week"), lit(TS, "2024-01-31 13:04:05")), "2024-01-29 00:00:00"),
                c("date_trunc('quarter', timestamp '2024-05-31 13:04:05')",
                        call(DATE_TRUNC, TS, s("quarter"), lit(TS, "2024-05-31 13:04:05")), "2024-04-01 00:00:00"),
                c("date_trunc('hour', interval '1 day 13:04:05')", call(DATE_TRUNC, IV, s("hour"), lit(IV, "1 day 13:04:05")),
                        "1 day 13:00:00"),
                c("date_trunc('day', timestamptz '2024-01-31 13:04:05+00')",
                        call(DATE_TRUNC, TSTZ, s("day"), lit(TSTZ, "2024-01-31 13:04:05+00")), "2024-01-31 00:00:00+00"),
                c("to_char(timestamp, many patterns)", call(TO_CHAR, TEXT, lit(TS, "2024-01-05 13:04:05.123456"),
                        s("YYYY-MM-DD HH24:MI:SS.MS.US Mon MON mon Month Day Dy DD D DDD Q HH12 HH AM pm WW IW YY FMMonth FMDD")),
                        "2024-01-05 13:04:05.123.123456 Jan JAN jan January   Friday    Fri 05 6 005 1 01 01 PM pm 01 01 24 January 5"),
                c("to_char(date '2024-01-05', 'YYYY/MM/DD')", call(TO_CHAR, TEXT, lit(DATE, "2024-01-05"), s("YYYY/MM/DD")),
                        "2024/01/05"),
                c("to_char(interval '1 day 02:03:04', 'HH24:MI:SS DD')",
                        call(TO_CHAR, TEXT, lit(IV, "1 day 02:03:04"), s("HH24:MI:SS DD")), "02:03:04 01"),
                c("to_char(1234.5, '9999.99')", call(TO_CHAR, TEXT, n("1234.5"), s("9999.99")), " 1234.50"),
                c("to_char(1234.5, 'FM9,999.00')", call(TO_CHAR, TEXT, n("1234.5"), s("FM9,999.00")), "1,234.50"),
                c("to_char(-5, '999')", call(TO_CHAR, TEXT, i(-5), s("999")), "  -5"),
                c("to_char(0.5, '9.99')", call(TO_CHAR, TEXT, n("0.5"), s("9.99")), "  .50"),
                c("to_char(0, '999')", call(TO_CHAR, TEXT, i(0), s("999")), "   0"),
                c("to_char(-1234.567, '9,999.99')", call(TO_CHAR, TEXT, n("-1234.567"), s("9,999.99")), "-1,234.57"),
                c("to_char(12345, '999')", call(TO_CHAR, TEXT, i(12345), s("999")), " ###"),
                c("to_char(5, '0009')", call(TO_CHAR, TEXT, i(5), s("0009")), " 0005"),
                c("to_char(1.5::float8, '99.9')", call(TO_CHAR, TEXT, f8(1.5), s("99.9")), "  1.5"),
                c("to_char(-0.5, 'FM9.99')", call(TO_CHAR, TEXT, n("-0.5"), s("FM9.99")), "-.5"),
                c("to_char(12, 'S999')", call(TO_CHAR, TEXT, i(12), s("S999")), " +12"),
                c("to_char(12, '999MI')", call(TO_CHAR, TEXT, i(12), s("999MI")), " 12 "),
                c("to_char(-12, '999MI')", call(TO_CHAR, TEXT, i(-12), s("999MI")), " 12-"));
    }

    static Stream<Arguments> session() {
        return Stream.of(
                c("now()", call(NOW, TSTZ), "2024-01-31 13:04:05.123456+00"),
                c("current_date", call(CURRENT_DATE, DATE), "2024-01-31"),
                c("localtimestamp", call(LOCALTIMESTAMP, TS), "2024-01-31 13:04:05.123456"),
                c("current_time", call(CURRENT_TIME, TIME), "13:04:05.123456"),
                c("pg_typeof(1)", call(PG_TYPEOF, TEXT, i(1)), "integer"),
                c("pg_typeof(1.5)", call(PG_TYPEOF, TEXT, n("1.5")), "numeric"),
                c("pg_typeof(1.5::float8)", call(PG_TYPEOF, TEXT, f8(1.5)), "double precision"),
                c("pg_typeof(NULL::text)", call(PG_TYPEOF, TEXT, nul(TEXT)), "text"),
                c("pg_typeof(now())", call(PG_TYPEOF, TEXT, call(NOW, TSTZ)), "timestamp with time zone"),
                c("'now'::timestamptz", cast(new Expr.Literal("now", SqlType.UNKNOWN), TSTZ), "2024-01-31 13:04:05.123456+00"),
                c("'today'::timestamp", cast(new Expr.Literal("today", SqlType.UNKNOWN), TS), "2024-01-31 00:00:00"),
                c("'tomorrow'::date", cast(new Expr.Literal("tomorrow", SqlType.UNKNOWN), DATE), "2024-02-01"),
                c("'yesterday'::date", cast(new Expr.Literal(" Yesterday ", SqlType.UNKNOWN), DATE), "2024-01-30"),
                c("'allballs'::time", cast(new Expr.Literal("allballs", SqlType.UNKNOWN), TIME), "00:00:00"),
                c("current_user", call(CURRENT_USER, TEXT), "alice"),
                c("current_database()", call(CURRENT_DATABASE, TEXT), "shop"),
                c("current_schema", call(CURRENT_SCHEMA, TEXT), "public"));
    }

    @ParameterizedTest(name = "{0} = {2}")
    @MethodSource({"arithmetic", "comparisonsAndLogic", "strings", "dateTime", "session"})
    void matchesPostgres(String sql, Expr e, String expected) {
        assertThat(out(e)).isEqualTo(expected);
    }

    private static Arguments e(String sql, Expr e, SqlState state, String message) {
        return Arguments.of(sql, e, state, message);
    }

    static Stream<Arguments> errors() {
        SqlState range = SqlState.NUMERIC_VALUE_OUT_OF_RANGE;
        return Stream.of(
                e("2147483647 + 1", call(PLUS, INT, i(Integer.MAX_VALUE), i(1)), range, "integer out of range"),
                e("-2147483648 * -1", call(TIMES, INT, i(Integer.MIN_VALUE), i(-1)), range, "integer out of range"),
                e("-2147483648 / -1", call(DIVIDE, INT, i(Integer.MIN_VALUE), i(-1)), range, "integer out of range"),
                e("abs(-2147483648)", call(ABS, INT, i(Integer.MIN_VALUE)), range, "integer out of range"),
                e("-(-32768::int2)", call(NEGATE, SMALL, sm(-32768)), range, "smallint out of range"),
                e("32767::int2 + 1::int2", call(PLUS, SMALL, sm(32767), sm(1)), range, "smallint out of range"),
                e("9223372036854775807 + 1", call(PLUS, BIG, l(Long.MAX_VALUE), l(1)), range, "bigint out of range"),
                e("-9223372036854775808 / -1", call(DIVIDE, BIG, l(Long.MIN_VALUE), l(-1)), range, "bigint out of range"),
                e("1 / 0", call(DIVIDE, INT, i(1), i(0)), SqlState.DIVISION_BY_ZERO, "division by zero"),
                e("5 % 0", call(MOD, INT, i(5), i(0)), SqlState.DIVISION_BY_ZERO, "division by zero"),
                e("1.0 / 0", call(DIVIDE, NUM, n("1.0"), n("0")), SqlState.DIVISION_BY_ZERO, "division by zero"),
                e("mod(1.5, 0)", call(MOD, NUM, n("1.5"), n("0")), SqlState.DIVISION_BY_ZERO, "division by zero"),
                e("1::float8 / 0", call(DIVIDE, F8, f8(1), f8(0)), SqlState.DIVISION_BY_ZERO, "division by zero"),
                e("1e308::float8 * 10", call(TIMES, F8, f8(1e308), f8(10)), range, "value out of range: overflow"),
                e("exp(1000::float8)", call(EXP, F8, f8(1000)), range, "value out of range: overflow"),
                e("0::float8 ^ -1", call(POWER, F8, f8(0), f8(-1)), SqlState.INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                        "zero raised to a negative power is undefined"),
                e("(-8)::float8 ^ (1/3)", call(POWER, F8, f8(-8), f8(1.0 / 3)), SqlState.INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                        "a negative number raised to a non-integer power yields a complex result"),
                e("sqrt(-1::numeric)", call(SQRT, NUM, n("-1")), SqlState.INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                        "cannot take square root of a negative number"),
                e("sqrt(-1::float8)", call(SQRT, F8, f8(-1)), SqlState.INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                        "cannot take square root of a negative number"),
                e("ln(0::numeric)", call(LN, NUM, n("0")), SqlState.INVALID_ARGUMENT_FOR_LOGARITHM, "cannot take logarithm of zero"),
                e("ln(-1::float8)", call(LN, F8, f8(-1)), SqlState.INVALID_ARGUMENT_FOR_LOGARITHM,
                        "cannot take logarithm of a negative number"),
                e("substring('hello', 2, -1)", call(SUBSTRING, TEXT, s("hello"), i(2), i(-1)), SqlState.SUBSTRING_ERROR,
                        "negative substring length not allowed"),
                e("chr(0)", call(CHR, TEXT, i(0)), SqlState.PROGRAM_LIMIT_EXCEEDED, "null character not permitted"),
                e("split_part('a', ',', 0)", call(SPLIT_PART, TEXT, s("a"), s(","), i(0)), SqlState.INVALID_PARAMETER_VALUE,
                        "field position must not be zero"),
                e("get_byte('\\x0102', 5)", call(GET_BYTE, INT, lit(BYTEA, "\\x0102"), i(5)), SqlState.ARRAY_SUBSCRIPT_ERROR,
                        "index 5 out of valid range, 0..1"),
                e("'abc' LIKE 'a\\'", call(LIKE, BOOL, s("abc"), s("a\\")), SqlState.INVALID_ESCAPE_SEQUENCE,
                        "LIKE pattern must not end with escape character"),
                e("make_date(2023, 2, 29)", call(MAKE_DATE, DATE, i(2023), i(2), i(29)), SqlState.DATETIME_FIELD_OVERFLOW,
                        "date field value out of range: 2023-02-29"),
                e("date_part('fortnight', timestamp)", call(DATE_PART, F8, s("fortnight"), lit(TS, "2024-01-01")),
                        SqlState.INVALID_PARAMETER_VALUE, "unit \"fortnight\" not recognized for type timestamp without time zone"),
                e("extract(hour from date)", call(EXTRACT, NUM, s("hour"), lit(DATE, "2024-01-01")),
                        SqlState.FEATURE_NOT_SUPPORTED, "unit \"hour\" not supported for type date"),
                e("'abc'::int", cast(new Expr.Literal("abc", SqlType.UNKNOWN), INT), SqlState.INVALID_TEXT_REPRESENTATION,
                        "invalid input syntax for type integer: \"abc\""),
                e("'a' ~ '('", call(REGEXP_MATCH_OP, BOOL, s("a"), s("(")), SqlState.INVALID_REGULAR_EXPRESSION, null));
    }

    @ParameterizedTest(name = "{0} fails with {2}")
    @MethodSource("errors")
    void failsLikePostgres(String sql, Expr e, SqlState state, String message) {
        assertThatThrownBy(() -> eval(e)).isInstanceOfSatisfying(SqlException.class, x -> {
            assertThat(x.state()).isEqualTo(state);
            if (message != null) assertThat(x.getMessage()).isEqualTo(message);
        });
    }

    @Test
    void timestamptzArithmeticAndFieldsUseTheSessionZone() {
        // PostgreSQL with SET timezone = 'America/New_York', across the 2024-03-10 DST change.
        ZoneId ny = ZoneId.of("America/New_York");
        EvalContext ctx = new EvalContext(CTX.statementTime(), ny, "alice", "shop");
        Function<Expr, String> run = ex -> DatumText.format(
                ex.type(), ExprCompiler.compile(ex, ctx).eval(Row.EMPTY), ny);
        Expr sat = new Expr.Literal(DatumText.parse(TSTZ, "2024-03-09 12:00-05"), TSTZ);
        Expr sunUtc = lit(TSTZ, "2024-03-10 12:00+00");
        assertThat(run.apply(call(PLUS, TSTZ, sat, lit(IV, "1 day")))).isEqualTo("2024-03-10 12:00:00-04");
        assertThat(run.apply(call(PLUS, TSTZ, sat, lit(IV, "24 hours")))).isEqualTo("2024-03-10 13:00:00-04");
        assertThat(run.apply(call(DATE_TRUNC, TSTZ, s("day"), lit(TSTZ, "2024-03-10 16:00+00")))).isEqualTo("2024-03-10 00:00:00-05");
        assertThat(run.apply(call(EXTRACT, NUM, s("hour"), sunUtc))).isEqualTo("8");
        assertThat(run.apply(call(EXTRACT, NUM, s("timezone"), sunUtc))).isEqualTo("-14400");
        assertThat(run.apply(call(TO_CHAR, TEXT, sunUtc, s("YYYY-MM-DD HH24:MI TZ OF")))).isEqualTo("2024-03-10 08:00 EDT -04");
        assertThat(run.apply(call(MINUS, IV, lit(TSTZ, "2024-07-01 16:00+00"), lit(TSTZ, "2024-01-01 17:00+00"))))
                .isEqualTo("181 days 23:00:00");
        assertThat(run.apply(cast(lit(DATE, "2024-03-10"), TSTZ))).isEqualTo("2024-03-10 00:00:00-05");
        assertThat(run.apply(cast(sunUtc, DATE))).isEqualTo("2024-03-10");
        assertThat(run.apply(call(CURRENT_DATE, DATE))).isEqualTo("2024-01-31");
    }

    @Test
    void strictFunctionsDoNotEvaluateTheirBodyOnNull() {
        assertThat(eval(call(DIVIDE, INT, nul(INT), i(0)))).isNull();
        assertThat(eval(call(SUBSTRING, TEXT, nul(TEXT), i(2), i(-1)))).isNull();
    }

    @Test
    void coalesceAndCaseAreLazy() {
        Expr boom = call(DIVIDE, INT, i(1), i(0));
        assertThat(eval(call(COALESCE, INT, i(1), boom))).isEqualTo(1);
        Expr kase = new Expr.Case(List.of(b(false)), List.of(cast(new Expr.Literal("x", SqlType.UNKNOWN), INT)),
                i(2), INT);
        assertThat(eval(kase)).isEqualTo(2);
    }

    @Test
    void resultsUseTheResultTypesJavaClass() {
        assertThat(eval(call(PLUS, SMALL, sm(1), sm(2)))).isEqualTo((short) 3);
        assertThat(eval(call(PLUS, INT, i(1), i(2)))).isEqualTo(3);
        assertThat(eval(call(PLUS, BIG, l(1), l(2)))).isEqualTo(3L);
        assertThat(eval(call(PLUS, F4, new Expr.Literal(1.5f, F4), new Expr.Literal(1f, F4)))).isEqualTo(2.5f);
        assertThat(eval(call(PLUS, BIG, i(1), l(2)))).isEqualTo(3L);
        assertThat(eval(call(DATE_PART, F8, s("year"), lit(DATE, "2024-01-01")))).isEqualTo(2024.0);
    }

    @Test
    void nonLiteralPatternsAreMatchedPerRow() {
        Expr like = call(LIKE, BOOL, col(0, TEXT), col(1, TEXT));
        Evaluator ev = ExprCompiler.compile(like, CTX);
        assertThat(ev.eval(Row.of("abc", "a%"))).isEqualTo(true);
        assertThat(ev.eval(Row.of("abc", "b%"))).isEqualTo(false);
        assertThat(ev.eval(Row.of("b", "b%"))).isEqualTo(true);
        assertThat(ev.eval(Row.of("b", null))).isNull();
    }

    @Test
    void randomIsInTheUnitInterval() {
        Evaluator r = ExprCompiler.compile(call(RANDOM, F8), CTX);
        for (int k = 0; k < 100; k++) {
            assertThat((Double) r.eval(Row.EMPTY)).isGreaterThanOrEqualTo(0.0).isLessThan(1.0);
        }
    }

    @Test
    void versionLooksLikePostgres() {
        assertThat((String) eval(call(VERSION, TEXT))).startsWith("PostgreSQL 15");
    }

    @Test
    void zeroArgumentFunctionsEvaluateToAValue() {
        // Func dispatch is an exhaustive switch (the compiler rejects a forgotten constant);
        // this checks the argument-less ones produce a value of their declared type's class.
        Map<Func, Class<?>> expected = Map.ofEntries(
                Map.entry(NOW, Instant.class), Map.entry(CURRENT_TIMESTAMP, Instant.class),
                Map.entry(CURRENT_DATE, LocalDate.class), Map.entry(CURRENT_TIME, LocalTime.class),
                Map.entry(LOCALTIMESTAMP, LocalDateTime.class), Map.entry(PI, Double.class),
                Map.entry(RANDOM, Double.class), Map.entry(VERSION, String.class),
                Map.entry(CURRENT_USER, String.class), Map.entry(CURRENT_DATABASE, String.class),
                Map.entry(CURRENT_SCHEMA, String.class));
        Map<Class<?>, SqlType> types = Map.of(Instant.class, TSTZ, LocalDate.class, DATE,
                LocalTime.class, TIME, LocalDateTime.class, TS, Double.class, F8, String.class, TEXT);
        expected.forEach((f, cls) -> assertThat(eval(new Expr.Call(f, List.of(), types.get(cls))))
                .as(f.name()).isInstanceOf(cls));
    }

}
