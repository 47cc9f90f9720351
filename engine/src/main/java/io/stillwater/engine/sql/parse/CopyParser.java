package io.stillwater.engine.sql.parse;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.CopyOptions;
import io.stillwater.engine.sql.CopyOptions.Format;
import io.stillwater.engine.sql.CopyOptions.Header;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * COPY as PostgreSQL 15 reads it:
 * <pre>
 * COPY table [(column, ...)] FROM {STDIN | 'file' | PROGRAM 'cmd'} [[WITH] (option [value], ...)] [WHERE ...]
 * COPY {table [(column, ...)] | (query)} TO {STDOUT | 'file' | PROGRAM 'cmd'} [[WITH] (option [value], ...)]
 * </pre>
 * and the older option list psql's {@code \copy} passes on as written: {@code [WITH]
 * [BINARY] [DELIMITER [AS] 'c'] [NULL [AS] 's'] [CSV [HEADER] [QUOTE [AS] 'q'] [ESCAPE
 * [AS] 'e'] [FORCE QUOTE {cols | *}] [FORCE NOT NULL cols]]}, in any order.
 *
 * <p>Only the client's side of the connection is a source or destination (STDIN and
 * STDOUT, which PostgreSQL lets mean the same thing); a server file or program is 0A000,
 * and so is FORMAT binary and COPY FROM ... WHERE. Option errors carry PostgreSQL's
 * messages and SQLSTATEs. The result names the table (or the query's place in the text);
 * {@code sql.planner} resolves it against the catalog. Stateless.
 */
public final class CopyParser {
    private CopyParser() {}

    /**
     * A parsed COPY. Either {@code table} (with {@code columns}, empty for all) or a query
     * at {@code [queryStart, queryEnd)} of the statement's text (COPY TO only).
     */
    public record CopyCommand(String table, List<String> columns, int queryStart, int queryEnd, boolean from,
                              CopyOptions options) {
        public CopyCommand {
            columns = List.copyOf(columns);
        }

        public boolean ofQuery() { return table == null; }
    }

    /** Empty when {@code sql} is not a COPY statement. */
    public static Optional<CopyCommand> parse(String sql) {
        TokenCursor c = new TokenCursor(sql);
        while (c.acceptSymbol(";")) { }
        if (!c.acceptWord("copy")) return Optional.empty();
        if (c.atWord("binary")) throw binaryUnsupported();
        String table = null;
        List<String> columns = List.of();
        int queryStart = -1, queryEnd = -1;
        if (c.atSymbol("(")) {
            Token open = c.next();
            queryStart = open.end();
            int depth = 1;
            while (depth > 0) {
                Token t = c.next();
                if (t.kind() == TokenKind.EOF) throw SqlSyntaxException.at(t);
                if (t.isSymbol("(")) depth++;
                if (t.isSymbol(")")) depth--;
                queryEnd = t.offset();
            }
        } else {
            table = c.tableName();
            if (c.acceptSymbol("(")) columns = nameList(c);
        }
        boolean from;
        if (c.atWord("from")) {
            if (table == null) throw c.syntaxError(); // COPY (query) FROM: as PostgreSQL, at "from"
            c.next();
            from = true;
        } else if (c.acceptWord("to")) {
            from = false;
        } else {
            throw c.syntaxError();
        }
        if (c.atWord("program") || c.peek().kind() == TokenKind.STRING) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "COPY " + (from ? "from" : "to") + " a " + (c.atWord("program") ? "program" : "file")
                            + " is not supported",
                    null, "Use COPY ... " + (from ? "FROM STDIN" : "TO STDOUT")
                            + ": the client reads or writes the file (psql's \\copy, pgjdbc's CopyManager).");
        }
        if (!c.acceptWord("stdin") && !c.acceptWord("stdout")) throw c.syntaxError();
        Options options = new Options();
        if (c.atSymbol("(") || c.atWord("with") && c.peek(1).isSymbol("(")) {
            c.acceptWord("with");
            c.next(); // (
            do {
                genericOption(c, options);
            } while (c.acceptSymbol(","));
            c.expectSymbol(")");
        } else {
            c.acceptWord("with");
            while (legacyOption(c, options)) { }
        }
        if (c.atWord("where")) {
            if (!from) throw new SqlSyntaxException("WHERE clause not allowed with COPY TO", c.peek().offset());
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "COPY FROM ... WHERE is not supported", null,
                    "Copy into a staging table and INSERT ... SELECT ... WHERE from it.");
        }
        c.expectEnd();
        return Optional.of(new CopyCommand(table, columns, queryStart, queryEnd, from, options.build(from)));
    }

    // ---- options

    /** One {@code name [value]} of the parenthesised list. */
    private static void genericOption(TokenCursor c, Options o) {
        Token nameToken = c.next();
        if (nameToken.kind() != TokenKind.IDENTIFIER && nameToken.kind() != TokenKind.KEYWORD) {
            throw SqlSyntaxException.at(nameToken);
        }
        String name = nameToken.text();
        Token value = c.atSymbol(",") || c.atSymbol(")") ? null : c.peek();
        switch (name) {
            case "format" -> {
                String f = word(c, name);
                o.format(switch (f) {
                    case "text" -> Format.TEXT;
                    case "csv" -> Format.CSV;
                    case "binary" -> throw binaryUnsupported();
                    default -> throw new SqlException(SqlState.INVALID_PARAMETER_VALUE,
                            "COPY format \"" + f + "\" not recognized");
                }, nameToken);
            }
            case "freeze" -> o.freeze(value == null || bool(c, name), nameToken);
            case "delimiter" -> o.delimiter(string(c, name), nameToken);
            case "null" -> o.nullString(string(c, name), nameToken);
            case "header" -> o.header(value == null ? Header.PRESENT : header(c), nameToken);
            case "quote" -> o.quote(string(c, name), nameToken);
            case "escape" -> o.escape(string(c, name), nameToken);
            case "force_quote" -> {
                if (c.acceptSymbol("*")) {
                    o.forceQuoteAll(nameToken);
                } else {
                    c.expectSymbol("(");
                    o.forceQuote(nameList(c), nameToken);
                }
            }
            case "force_not_null" -> {
                c.expectSymbol("(");
                o.forceNotNull(nameList(c), nameToken);
            }
            case "force_null" -> {
                c.expectSymbol("(");
                o.forceNull(nameList(c), nameToken);
            }
            case "encoding" -> o.encoding(string(c, name), nameToken);
            default -> throw new SqlSyntaxException("option \"" + name + "\" not recognized", nameToken.offset());
        }
    }

    /** One option of the older unparenthesised syntax; false at the end of the list. */
    private static boolean legacyOption(TokenCursor c, Options o) {
        Token at = c.peek();
        if (c.acceptWord("binary")) throw binaryUnsupported();
        if (c.acceptWord("freeze")) {
            o.freeze(true, at);
        } else if (c.acceptWord("delimiter")) {
            c.acceptWord("as");
            o.delimiter(stringToken(c), at);
        } else if (c.acceptWord("null")) {
            c.acceptWord("as");
            o.nullString(stringToken(c), at);
        } else if (c.acceptWord("csv")) {
            o.format(Format.CSV, at);
        } else if (c.acceptWord("header")) {
            o.header(Header.PRESENT, at);
        } else if (c.acceptWord("quote")) {
            c.acceptWord("as");
            o.quote(stringToken(c), at);
        } else if (c.acceptWord("escape")) {
            c.acceptWord("as");
            o.escape(stringToken(c), at);
        } else if (c.acceptWords("force", "quote")) {
            if (c.acceptSymbol("*")) o.forceQuoteAll(at);
            else o.forceQuote(bareNameList(c), at);
        } else if (c.acceptWords("force", "not", "null")) {
            o.forceNotNull(bareNameList(c), at);
        } else if (c.acceptWord("encoding")) {
            o.encoding(stringToken(c), at);
        } else {
            return false;
        }
        return true;
    }

    /** {@code name, name ... )} after an opening parenthesis. */
    private static List<String> nameList(TokenCursor c) {
        List<String> names = new ArrayList<>();
        do {
            names.add(c.name());
        } while (c.acceptSymbol(","));
        c.expectSymbol(")");
        return names;
    }

    /** {@code name, name ...} without parentheses (the legacy FORCE options). */
    private static List<String> bareNameList(TokenCursor c) {
        List<String> names = new ArrayList<>();
        do {
            names.add(c.name());
        } while (c.acceptSymbol(","));
        return names;
    }

    private static String stringToken(TokenCursor c) {
        Token t = c.next();
        if (t.kind() != TokenKind.STRING) throw SqlSyntaxException.at(t);
        return t.text();
    }

    /** A value given as a string, a word or a number (PostgreSQL's defGetString). */
    private static String string(TokenCursor c, String option) {
        Token t = c.next();
        return switch (t.kind()) {
            case STRING, IDENTIFIER, KEYWORD, QUOTED_IDENTIFIER, INTEGER, DECIMAL -> t.text();
            case EOF -> throw new SqlException(SqlState.SYNTAX_ERROR, option + " requires a parameter");
            default -> throw SqlSyntaxException.at(t);
        };
    }

    private static String word(TokenCursor c, String option) { return string(c, option).toLowerCase(Locale.ROOT); }

    private static boolean bool(TokenCursor c, String option) {
        return switch (word(c, option)) {
            case "true", "on", "1", "t", "yes", "y" -> true;
            case "false", "off", "0", "f", "no", "n" -> false;
            default -> throw new SqlException(SqlState.SYNTAX_ERROR, option + " requires a Boolean value");
        };
    }

    private static Header header(TokenCursor c) {
        return switch (word(c, "header")) {
            case "true", "on", "1", "t", "yes", "y" -> Header.PRESENT;
            case "false", "off", "0", "f", "no", "n" -> Header.NONE;
            case "match" -> Header.MATCH;
            default -> throw new SqlException(SqlState.SYNTAX_ERROR, "header requires a Boolean value or \"match\"");
        };
    }

    private static SqlException binaryUnsupported() {
        return new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "COPY format binary is not supported", null,
                "Use FORMAT text or FORMAT csv.");
    }

    /**
     * The options as given, each at most once (PostgreSQL's "conflicting or redundant
     * options"), checked and defaulted by {@link #build} as PostgreSQL's ProcessCopyOptions does.
     */
    private static final class Options {
        private final Set<String> seen = new HashSet<>();
        private Format format = Format.TEXT;
        private String delimiter, nullString, quote, escape;
        private Header header = Header.NONE;
        private boolean forceQuoteAll, freeze;
        private List<String> forceQuote = List.of(), forceNotNull = List.of(), forceNull = List.of();

        private void once(String option, Token at) {
            if (!seen.add(option)) throw new SqlSyntaxException("conflicting or redundant options", at.offset());
        }

        void format(Format f, Token at) { once("format", at); format = f; }

        void freeze(boolean f, Token at) { once("freeze", at); freeze = f; }

        void delimiter(String d, Token at) { once("delimiter", at); delimiter = d; }

        void nullString(String n, Token at) { once("null", at); nullString = n; }

        void header(Header h, Token at) { once("header", at); header = h; }

        void quote(String q, Token at) { once("quote", at); quote = q; }

        void escape(String e, Token at) { once("escape", at); escape = e; }

        void forceQuoteAll(Token at) { once("force_quote", at); forceQuoteAll = true; }

        void forceQuote(List<String> cols, Token at) { once("force_quote", at); forceQuote = cols; }

        void forceNotNull(List<String> cols, Token at) { once("force_not_null", at); forceNotNull = cols; }

        void forceNull(List<String> cols, Token at) { once("force_null", at); forceNull = cols; }

        void encoding(String e, Token at) {
            once("encoding", at);
            String norm = e.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
            if (!norm.equals("utf8") && !norm.equals("unicode")) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "COPY encoding \"" + e + "\" is not supported",
                        null, "Stillwater reads and writes UTF8 only; convert the data to UTF-8 first.");
            }
        }

        CopyOptions build(boolean from) {
            boolean csv = format == Format.CSV;
            String delim = delimiter != null ? delimiter : csv ? "," : "\t";
            String nul = nullString != null ? nullString : csv ? "" : "\\N";
            if (delim.length() != 1 || delim.charAt(0) > 0x7F) {
                throw notSupported("COPY delimiter must be a single one-byte character");
            }
            if (delim.equals("\r") || delim.equals("\n")) {
                throw invalid("COPY delimiter cannot be newline or carriage return");
            }
            if (nul.indexOf('\r') >= 0 || nul.indexOf('\n') >= 0) {
                throw invalid("COPY null representation cannot use newline or carriage return");
            }
            if (!csv && "\\.abcdefghijklmnopqrstuvwxyz0123456789".indexOf(delim.charAt(0)) >= 0) {
                throw invalid("COPY delimiter cannot be \"" + delim + "\"");
            }
            if (!csv && quote != null) throw notSupported("COPY quote available only in CSV mode");
            String q = quote != null ? quote : "\"";
            if (csv && (q.length() != 1 || q.charAt(0) > 0x7F)) {
                throw notSupported("COPY quote must be a single one-byte character");
            }
            if (csv && delim.equals(q)) throw invalid("COPY delimiter and quote must be different");
            if (!csv && escape != null) throw notSupported("COPY escape available only in CSV mode");
            String e = escape != null ? escape : q;
            if (csv && (e.length() != 1 || e.charAt(0) > 0x7F)) {
                throw notSupported("COPY escape must be a single one-byte character");
            }
            if (!csv && (forceQuoteAll || !forceQuote.isEmpty())) {
                throw notSupported("COPY force quote available only in CSV mode");
            }
            if ((forceQuoteAll || !forceQuote.isEmpty()) && from) {
                throw notSupported("COPY force quote only available using COPY TO");
            }
            if (!csv && !forceNotNull.isEmpty()) throw notSupported("COPY force not null available only in CSV mode");
            if (!forceNotNull.isEmpty() && !from) throw notSupported("COPY force not null only available using COPY FROM");
            if (!csv && !forceNull.isEmpty()) throw notSupported("COPY force null available only in CSV mode");
            if (!forceNull.isEmpty() && !from) throw notSupported("COPY force null only available using COPY FROM");
            if (nul.indexOf(delim.charAt(0)) >= 0) {
                throw notSupported("COPY delimiter must not appear in the NULL specification");
            }
            if (csv && nul.indexOf(q.charAt(0)) >= 0) {
                throw notSupported("CSV quote character must not appear in the NULL specification");
            }
            if (header == Header.MATCH && !from) throw notSupported("cannot use \"match\" with HEADER in COPY TO");
            return new CopyOptions(format, delim.charAt(0), nul, header, q.charAt(0), e.charAt(0), forceQuoteAll,
                    forceQuote, forceNotNull, forceNull, freeze);
        }

        private static SqlException notSupported(String message) {
            return new SqlException(SqlState.FEATURE_NOT_SUPPORTED, message);
        }

        private static SqlException invalid(String message) {
            return new SqlException(SqlState.INVALID_PARAMETER_VALUE, message);
        }
    }
}
