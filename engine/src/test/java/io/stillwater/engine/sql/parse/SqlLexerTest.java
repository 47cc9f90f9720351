package io.stillwater.engine.sql.parse;

import static io.stillwater.engine.sql.parse.SqlErrors.assertSqlError;
import static io.stillwater.engine.sql.parse.SqlErrors.assertSqlErrorStartsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.stillwater.engine.error.SqlState;
import java.util.List;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class SqlLexerTest {
    private static List<Token> lex(String sql) {
        List<Token> tokens = SqlLexer.tokenize(sql);
        assertThat(tokens.getLast().kind()).isEqualTo(TokenKind.EOF);
        return tokens.subList(0, tokens.size() - 1);
    }

    private static List<String> texts(String sql) { return lex(sql).stream().map(Token::text).toList(); }

    private static List<TokenKind> kinds(String sql) { return lex(sql).stream().map(Token::kind).toList(); }

    private static Token single(String sql) {
        List<Token> tokens = lex(sql);
        assertThat(tokens).hasSize(1);
        return tokens.getFirst();
    }

    @Test
    void identifiersFoldUnlessQuoted() {
        assertThat(lex("Foo \"Foo\" BAR_1$x ÄbC")).extracting(Token::kind, Token::text).containsExactly(
                tuple(TokenKind.IDENTIFIER, "foo"),
                tuple(TokenKind.QUOTED_IDENTIFIER, "Foo"),
                tuple(TokenKind.IDENTIFIER, "bar_1$x"),
                // only ASCII letters fold, as PostgreSQL does in UTF-8
                tuple(TokenKind.IDENTIFIER, "Äbc"));
        assertThat(single("\"a\"\"b\"").text()).isEqualTo("a\"b");
        assertThat(single("\"a\"\"b\"").source()).isEqualTo("\"a\"\"b\"");
        assertThat(single("U&\"d\\0061t\\+000061\"").text()).isEqualTo("data");
        assertThat(single("u&\"d!0061t!+000061\" UESCAPE '!'").text()).isEqualTo("data");
    }

    @Test
    void reservedWordsAreKeywords() {
        assertThat(kinds("SELECT Table tables \"select\"")).containsExactly(
                TokenKind.KEYWORD, TokenKind.KEYWORD, TokenKind.IDENTIFIER, TokenKind.QUOTED_IDENTIFIER);
        assertThat(lex("SELECT").getFirst().isWord("select")).isTrue();
        assertThat(lex("\"select\"").getFirst().isWord("select")).isFalse();
    }

    @Test
    void numbers() {
        assertThat(lex("42 3.5 .5 5. 1e10 1.5E-3 2e+2 1_000 0x1F 0o17 0b101 99999999999999999999"))
                .extracting(Token::kind, Token::text).containsExactly(
                        tuple(TokenKind.INTEGER, "42"),
                        tuple(TokenKind.DECIMAL, "3.5"),
                        tuple(TokenKind.DECIMAL, ".5"),
                        tuple(TokenKind.DECIMAL, "5."),
                        tuple(TokenKind.DECIMAL, "1e10"),
                        tuple(TokenKind.DECIMAL, "1.5E-3"),
                        tuple(TokenKind.DECIMAL, "2e+2"),
                        tuple(TokenKind.INTEGER, "1000"),
                        tuple(TokenKind.INTEGER, "31"),
                        tuple(TokenKind.INTEGER, "15"),
                        tuple(TokenKind.INTEGER, "5"),
                        tuple(TokenKind.INTEGER, "99999999999999999999"));
        // a range "1..5" is 1, .., 5 and not 1. .5
        assertThat(texts("1..5")).containsExactly("1", "..", "5");
        // a sign is an operator, not part of the number
        assertThat(kinds("-1")).containsExactly(TokenKind.OPERATOR, TokenKind.INTEGER);
    }

    @Test
    void trailingJunkAfterNumbersIsAnError() {
        assertSqlError(() -> SqlLexer.tokenize("SELECT 123abc"), SqlState.SYNTAX_ERROR,
                "trailing junk after numeric literal at or near \"123abc\"");
        assertSqlError(() -> SqlLexer.tokenize("SELECT 1e"), SqlState.SYNTAX_ERROR,
                "trailing junk after numeric literal at or near \"1e\"");
        assertSqlError(() -> SqlLexer.tokenize("SELECT $1x"), SqlState.SYNTAX_ERROR,
                "trailing junk after parameter at or near \"$1x\"");
    }

    @Test
    void standardStringsKeepBackslashes() {
        Token t = single("'it''s \\n'");
        assertThat(t.kind()).isEqualTo(TokenKind.STRING);
        assertThat(t.text()).isEqualTo("it's \\n");
        assertThat(t.source()).isEqualTo("'it''s \\n'");
        assertThat(single("N'national'").text()).isEqualTo("national");
        assertThat(single("''").text()).isEmpty();
    }

    @Test
    void escapeStrings() {
        assertThat(single("E'a\\nb\\tc\\\\d\\'e''f'").text()).isEqualTo("a\nb\tc\\d'e'f");
        assertThat(single("e'\\b\\f\\r'").text()).isEqualTo("\b\f\r");
        assertThat(single("E'\\101\\x42\\u0043\\U00000044'").text()).isEqualTo("ABCD");
        assertThat(single("E'\\xC3\\xA9'").text()).isEqualTo("é"); // bytes forming one UTF-8 character
        assertThat(single("E'\\uD83D\\uDE00'").text()).isEqualTo("😀"); // surrogate pair
        assertThat(single("E'\\q'").text()).isEqualTo("q"); // unknown escapes stand for the character
        assertSqlErrorStartsWith(() -> SqlLexer.tokenize("E'\\u12'"), SqlState.SYNTAX_ERROR, "invalid Unicode escape");
        assertSqlError(() -> SqlLexer.tokenize("E'\\uD83D'"), SqlState.SYNTAX_ERROR, "invalid Unicode surrogate pair");
        assertSqlError(() -> SqlLexer.tokenize("E'\\0'"), SqlState.INVALID_TEXT_REPRESENTATION,
                "invalid byte sequence for encoding \"UTF8\": 0x00");
        assertSqlError(() -> SqlLexer.tokenize("E'\\xff'"), SqlState.INVALID_TEXT_REPRESENTATION,
                "invalid byte sequence for encoding \"UTF8\" in string constant");
    }

    @Test
    void unicodeStrings() {
        assertThat(single("U&'d\\0061t\\+000061'").text()).isEqualTo("data");
        assertThat(single("U&'d!0061t!!' UESCAPE '!'").text()).isEqualTo("dat!");
        assertThat(single("U&'\\\\'").text()).isEqualTo("\\");
        assertSqlErrorStartsWith(() -> SqlLexer.tokenize("U&'\\00'"), SqlState.SYNTAX_ERROR, "invalid Unicode escape");
        assertSqlError(() -> SqlLexer.tokenize("U&'x' UESCAPE 'a'"), SqlState.SYNTAX_ERROR,
                "invalid Unicode escape character");
    }

    @Test
    void stringsSeparatedByANewlineAreOneConstant() {
        assertThat(single("'foo'\n  'bar'").text()).isEqualTo("foobar");
        assertThat(single("'foo' -- a comment before the newline\n'bar'").text())
                .isEqualTo("foobar");
        assertThat(single("'a'\n-- comment\n'b'").text()).isEqualTo("ab");
        // without a newline they are two constants (a syntax error in the grammar)
        assertThat(texts("'foo' 'bar'")).containsExactly("foo", "bar");
    }

    @Test
    void dollarQuotedStrings() {
        assertThat(single("$$it's; \\n$$").text()).isEqualTo("it's; \\n");
        assertThat(single("$fn$ a $$ b $fn$").text()).isEqualTo(" a $$ b ");
        assertThat(single("$_x1$body$_x1$").text()).isEqualTo("body");
        // $ inside an identifier is part of it, not a dollar quote
        assertThat(texts("a$b$ c")).containsExactly("a$b$", "c");
        assertSqlError(() -> SqlLexer.tokenize("SELECT $q$abc"), SqlState.SYNTAX_ERROR,
                "unterminated dollar-quoted string at or near \"$q$abc\"");
    }

    @Test
    void bitStrings() {
        assertThat(lex("B'0101' X'1f'")).extracting(Token::kind, Token::text).containsExactly(
                tuple(TokenKind.BIT_STRING, "b0101"),
                tuple(TokenKind.BIT_STRING, "x1f"));
        assertSqlError(() -> SqlLexer.tokenize("B'012'"), SqlState.SYNTAX_ERROR, "\"2\" is not a valid binary digit");
    }

    @Test
    void parameters() {
        Token t = single("$12");
        assertThat(t.kind()).isEqualTo(TokenKind.PARAMETER);
        assertThat(t.text()).isEqualTo("12");
        assertThat(t.source()).isEqualTo("$12");
    }

    @Test
    void operatorsAndPunctuation() {
        assertThat(lex("a<>b>=c!=d::int4,(x)[1];y.z:w:=v"))
                .filteredOn(t -> t.kind() == TokenKind.OPERATOR || t.kind() == TokenKind.PUNCTUATION)
                .extracting(Token::text)
                .containsExactly("<>", ">=", "!=", "::", ",", "(", ")", "[", "]", ";", ".", ":", ":=");
        // SQL compatibility: "=-1" is "=" then "-" 1, but "@-" keeps its minus
        assertThat(texts("a=-1")).containsExactly("a", "=", "-", "1");
        assertThat(texts("a@-1")).containsExactly("a", "@-", "1");
        // a comment start ends an operator
        assertThat(texts("a+--c\nb")).containsExactly("a", "+", "b");
        assertThat(texts("a*/*c*/b")).containsExactly("a", "*", "b");
        assertThat(kinds("\\ $")).containsExactly(TokenKind.OTHER, TokenKind.OTHER);
    }

    @Test
    void commentsAreSkippedAndNest() {
        assertThat(texts("a -- line ; comment\nb /* block /* nested */ still */ c")).containsExactly("a", "b", "c");
        assertThat(texts("-- only a comment")).isEmpty();
        assertThat(texts("/**/x")).containsExactly("x");
        assertSqlError(() -> SqlLexer.tokenize("a /* open /* nested */"), SqlState.SYNTAX_ERROR,
                "unterminated /* comment at or near \"/* open /* nested */\"");
    }

    @Test
    void tokensCarryTheirOffsets() {
        List<Token> tokens = lex("  CREATE\tTABLE \"T\" ('x')");
        assertThat(tokens).extracting(Token::offset).containsExactly(2, 9, 15, 19, 20, 23);
        assertThat(tokens.get(2).end()).isEqualTo(18);
        assertThat(SqlLexer.tokenize("ab ").getLast().offset()).isEqualTo(3);
    }

    @Test
    void unterminatedQuotesAreSyntaxErrorsAtTheirStart() {
        SqlSyntaxException e = (SqlSyntaxException) assertSqlError(() -> SqlLexer.tokenize("SELECT 'abc"),
                SqlState.SYNTAX_ERROR, "unterminated quoted string at or near \"'abc\"");
        assertThat(e.offset()).isEqualTo(7);
        assertThat(e.position()).isEqualTo(8);
        assertSqlError(() -> SqlLexer.tokenize("E'ab\\'"), SqlState.SYNTAX_ERROR,
                "unterminated quoted string at or near \"E'ab\\'\"");
        assertSqlError(() -> SqlLexer.tokenize("SELECT \"abc"), SqlState.SYNTAX_ERROR,
                "unterminated quoted identifier at or near \"\"abc\"");
        assertSqlError(() -> SqlLexer.tokenize("SELECT \"\""), SqlState.SYNTAX_ERROR,
                "zero-length delimited identifier at or near \"\"\"\"");
    }

    // ---- properties: quoting any text and lexing it gives the text back

    @Property
    void standardStringsRoundTrip(@ForAll @StringLength(max = 30) String s) {
        Assume.that(s.indexOf('\0') < 0);
        Token t = single("'" + s.replace("'", "''") + "'");
        assertThat(t.kind()).isEqualTo(TokenKind.STRING);
        assertThat(t.text()).isEqualTo(s);
    }

    @Property
    void escapeStringsRoundTrip(@ForAll @StringLength(max = 30) String s) {
        Assume.that(s.indexOf('\0') < 0 && s.chars().noneMatch(c -> Character.isSurrogate((char) c)));
        StringBuilder quoted = new StringBuilder("E'");
        for (char c : s.toCharArray()) {
            if (c == '\\' || c == '\'') quoted.append('\\').append(c);
            else if (c < 0x20) quoted.append(String.format("\\u%04X", (int) c));
            else quoted.append(c);
        }
        assertThat(single(quoted.append("'").toString()).text()).isEqualTo(s);
    }

    @Property
    void quotedIdentifiersAndDollarQuotesRoundTrip(@ForAll @StringLength(min = 1, max = 30) String s) {
        assertThat(single("\"" + s.replace("\"", "\"\"") + "\"").text()).isEqualTo(s);
        Assume.that(!s.contains("$q$") && !s.endsWith("$q") && !s.endsWith("$"));
        assertThat(single("$q$" + s + "$q$").text()).isEqualTo(s);
    }
}
