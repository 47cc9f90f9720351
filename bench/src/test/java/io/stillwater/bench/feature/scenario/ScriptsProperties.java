package io.stillwater.bench.feature.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

class ScriptsProperties {

    /** Text that may hold anything troublesome: ; quotes of the other kinds, comment openers, dollars. */
    private static Arbitrary<String> noise() {
        return Arbitraries.strings().withChars("ab ;'\"$-/*\n").ofMaxLength(8);
    }

    /**
     * {@code s} with no comment opener or closer left: removing one can join its neighbours into
     * another ({@code "//**"} minus {@code "/*"} is {@code "/*"}), so remove until none is left.
     */
    private static String withoutCommentDelimiters(String s) {
        String t = s;
        while (t.contains("/*") || t.contains("*/")) {
            t = t.replace("/*", "").replace("*/", "");
        }
        return t;
    }

    /** One lexical piece of a statement, each hiding ; where it is not syntax. */
    @Provide
    Arbitrary<String> piece() {
        Arbitrary<String> word = Arbitraries.of("SELECT", "count(*)", "FROM", "t", "a", "1", "=", "$1", "x$y");
        Arbitrary<String> literal = noise().map(s -> "'" + s.replace("'", "''") + "'");
        Arbitrary<String> identifier = noise().map(s -> "\"" + s.replace("\"", "\"\"") + "\"");
        Arbitrary<String> dollar = Combinators.combine(Arbitraries.of("", "q", "tag_1"), noise())
                .as((tag, s) -> "$" + tag + "$" + s.replace("$", "") + "$" + tag + "$");
        Arbitrary<String> block = noise().map(s -> "/* " + withoutCommentDelimiters(s) + " */");
        Arbitrary<String> line = noise().map(s -> "-- " + s.replace("\n", "") + "\n");
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, word), net.jqwik.api.Tuple.of(2, literal),
                net.jqwik.api.Tuple.of(1, identifier), net.jqwik.api.Tuple.of(1, dollar),
                net.jqwik.api.Tuple.of(1, block), net.jqwik.api.Tuple.of(1, line));
    }

    @Provide
    Arbitrary<String> statement() {
        // starts with a word so the statement has content; pieces separated by a space
        return piece().list().ofMaxSize(6).map(p -> "SELECT " + String.join(" ", p));
    }

    @Property(tries = 500)
    void statementsJoinedBySemicolonsSplitBackIntoThemselves(
            @ForAll @Size(min = 1, max = 6) List<@net.jqwik.api.From("statement") String> statements,
            @ForAll @Size(min = 7, max = 7) List<@net.jqwik.api.From("gap") String> gaps) {
        StringBuilder script = new StringBuilder(gaps.get(0));
        for (int i = 0; i < statements.size(); i++) {
            script.append(statements.get(i)).append(gaps.get(i + 1)).append(';').append(gaps.get(i + 1));
        }
        assertThat(Scripts.parse(script.toString())).extracting(ScriptStatement::sql)
                .containsExactlyElementsOf(statements.stream().map(String::strip).toList());
    }

    /** What may separate statements: whitespace and empty statements. */
    @Provide
    Arbitrary<String> gap() {
        return Arbitraries.of("", " ", "\n", "\t ;  ", ";\n;");
    }

    @Property(tries = 300)
    void normalisingIgnoresCommentsCaseAndLayout(@ForAll @Size(max = 6) List<@net.jqwik.api.From("piece") String> pieces) {
        String plain = "SELECT " + String.join(" ", pieces);
        String relaidOut = "  select\n\t" + String.join("\n\t  /* c; */ ", pieces) + " /* A */ ;; -- trailing\n";
        assertThat(Scripts.normalize(relaidOut)).isEqualTo(Scripts.normalize(plain));
        assertThat(Scripts.normalize(plain)).doesNotEndWith(" ").doesNotStartWith(" ");
    }
}
