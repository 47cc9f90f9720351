package io.stillwater.engine.types;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.storage.BinaryReader;
import io.stillwater.engine.storage.BinaryWriter;
import io.stillwater.engine.storage.RowCodec;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

/**
 * jsonb: the canonical text reads back to an equal document with the same text
 * (parse(print(x)) == x), the durable codec round-trips, the order agrees with equality
 * and hashing (numbers of different scales are equal), and a few exact outputs of
 * PostgreSQL 15.
 */
class JsonbPropertiesTest {

    @Provide
    Arbitrary<Jsonb> documents() {
        return node(3).map(Jsonb::of);
    }

    private Arbitrary<Object> node(int depth) {
        Arbitrary<Object> scalar = Arbitraries.oneOf(
                Arbitraries.just(Jsonb.NULL),
                Arbitraries.of(true, false).map(b -> (Object) b),
                Arbitraries.integers().between(-1000, 1000).flatMap(v -> Arbitraries.integers().between(0, 3)
                        .map(s -> (Object) new BigDecimal(v).movePointLeft(s))),
                Arbitraries.strings().ofMaxLength(5).map(s -> (Object) s.replace('\0', ' ')),
                Arbitraries.of("", "a\"b", "back\\slash", "tab\t", "\u0001", "é", "😀").map(s -> (Object) s));
        if (depth == 0) return scalar;
        Arbitrary<Object> array = node(depth - 1).list().ofMaxSize(3).map(l -> (Object) Jsonb.array(l));
        Arbitrary<Object> object = Arbitraries.maps(Arbitraries.strings().alpha().ofMaxLength(3), node(depth - 1))
                .ofMaxSize(3).map(m -> (Object) Jsonb.object(m));
        return Arbitraries.frequencyOf(Tuple.of(3, scalar), Tuple.of(1, array), Tuple.of(1, object));
    }

    @Property(tries = 300)
    void textReadsBackToTheSameDocument(@ForAll("documents") Jsonb j) {
        String text = JsonbText.format(j);
        Jsonb back = JsonbText.parse(text);
        assertThat(back).as(text).isEqualTo(j);
        assertThat(JsonbText.format(back)).isEqualTo(text);
        assertThat(DatumText.parse(SqlType.JSONB, text)).isEqualTo(j);
    }

    @Property(tries = 300)
    void durableCodecRoundTrips(@ForAll("documents") Jsonb j) {
        BinaryWriter w = new BinaryWriter(64);
        RowCodec.writeDatum(w, j);
        Object back = RowCodec.readDatum(new BinaryReader(w.toByteArray()));
        assertThat(back).isEqualTo(j);
        assertThat(back.toString()).isEqualTo(j.toString());
    }

    @Property(tries = 300)
    void orderAgreesWithEqualsAndHash(@ForAll("documents") Jsonb a, @ForAll("documents") Jsonb b) {
        int c = Datums.compare(a, b);
        assertThat(c == 0).isEqualTo(a.equals(b));
        assertThat(Integer.signum(Datums.compare(b, a))).isEqualTo(-Integer.signum(c));
        if (c == 0) assertThat(a.hashCode()).isEqualTo(b.hashCode());
    }

    @Test
    void numbersOfDifferentScalesAreEqualWithEqualHashes() {
        Jsonb x = JsonbText.parse("{\"a\": [1, 2.50]}"), y = JsonbText.parse("{\"a\": [1.000, 2.5]}");
        assertThat(x).isEqualTo(y);
        assertThat(x.hashCode()).isEqualTo(y.hashCode());
        assertThat(x.toString()).isEqualTo("{\"a\": [1, 2.50]}");
    }

    @Test
    void postgresqlCanonicalText() {
        assertThat(JsonbText.parse("{\"bb\":1,\"a\":2,\"c\":3,\"a\":4}").toString()).isEqualTo("{\"a\": 4, \"c\": 3, \"bb\": 1}");
        assertThat(JsonbText.parse("1e3").toString()).isEqualTo("1000");
        assertThat(JsonbText.parse("[\"\\u0001\\n\"]").toString()).isEqualTo("[\"\\u0001\\n\"]");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("k", Jsonb.array(List.of(Jsonb.NULL, true)));
        assertThat(Jsonb.of(Jsonb.object(m)).toString()).isEqualTo("{\"k\": [null, true]}");
    }

    @Test
    void typeOrderIsPostgresqls() {
        List<String> ascending = List.of("null", "\"z\"", "-5", "10", "false", "true", "[]", "[1, 2]", "{}", "{\"a\": 1}");
        for (int i = 0; i + 1 < ascending.size(); i++) {
            assertThat(JsonbText.parse(ascending.get(i)).compareTo(JsonbText.parse(ascending.get(i + 1))))
                    .as("%s < %s", ascending.get(i), ascending.get(i + 1)).isNegative();
        }
    }
}
