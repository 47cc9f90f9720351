package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.plan.AggCall;
import io.stillwater.engine.plan.AggFunc;
import io.stillwater.engine.types.Jsonb;
import io.stillwater.engine.types.JsonbValues;
import io.stillwater.engine.types.SqlType;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * jsonb_agg and jsonb_object_agg over {@link OrderedAggregate}: the values in the
 * aggregate's ORDER BY, converted as {@code to_jsonb} does (timestamps with time zone in
 * UTC: aggregates have no session); a NULL value is JSON null; in jsonb_object_agg a NULL
 * key is error 22023 and the last of duplicate keys wins.
 */
final class JsonbAggregates {
    private JsonbAggregates() {}

    static Supplier<Accumulator> factory(AggCall call, List<SqlType> inputTypes) {
        int value = call.args().get(call.func() == AggFunc.JSONB_AGG ? 0 : 1);
        JsonbValues.ToNode convert = JsonbValues.converter(inputTypes.get(value), ZoneOffset.UTC);
        if (call.func() == AggFunc.JSONB_AGG) {
            return () -> new OrderedAggregate(new int[] {value}, call.order(), -1, rows -> {
                List<Object> out = new ArrayList<>(rows.size());
                for (Row r : rows) out.add(node(r.get(0), convert));
                return Jsonb.of(Jsonb.array(out));
            });
        }
        int key = call.args().get(0);
        SqlType keyType = inputTypes.get(key);
        return () -> new OrderedAggregate(new int[] {key, value}, call.order(), -1, rows -> {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Row r : rows) {
                if (r.get(0) == null) throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "field name must not be null");
                out.put(JsonbValues.keyText(keyType, r.get(0), ZoneOffset.UTC), node(r.get(1), convert));
            }
            return Jsonb.of(Jsonb.object(out));
        });
    }

    private static Object node(Object v, JsonbValues.ToNode convert) {
        return v == null ? Jsonb.NULL : convert.apply(v);
    }
}
