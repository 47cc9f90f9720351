package io.stillwater.pgwire.types;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.PgArray;
import io.stillwater.engine.types.SqlType;
import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's binary array format ({@code array_send}/{@code array_recv}): int32 number
 * of dimensions, int32 flags (1 when some element is NULL), int32 element type OID, per
 * dimension int32 length and int32 lower bound (1), then each element of the flattened
 * array as int32 byte length (-1 for NULL) and its binary form.
 */
final class PgArrayBinary {
    private PgArrayBinary() {}

    static byte[] encode(SqlType element, PgArray array) {
        int[] dims = array.dimensions();
        List<Object> flat = array.flatten();
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 + 8 * dims.length + 8 * flat.size());
        writeInt(out, dims.length);
        writeInt(out, flat.contains(null) ? 1 : 0);
        writeInt(out, element.oid());
        for (int d : dims) {
            writeInt(out, d);
            writeInt(out, 1);
        }
        for (Object e : flat) {
            if (e == null) {
                writeInt(out, -1);
                continue;
            }
            byte[] b = PgBinaryCodec.encode(element, e);
            writeInt(out, b.length);
            out.writeBytes(b);
        }
        return out.toByteArray();
    }

    static PgArray decode(SqlType element, byte[] bytes) {
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            int ndim = b.getInt();
            int flags = b.getInt();
            b.getInt(); // element OID: the elements are read as the parameter's element type
            if (ndim < 0 || ndim > 6) throw invalid("invalid number of dimensions: " + ndim);
            if ((flags & ~1) != 0) throw invalid("invalid array flags");
            int[] dims = new int[ndim];
            long total = ndim == 0 ? 0 : 1;
            for (int i = 0; i < ndim; i++) {
                dims[i] = b.getInt();
                int lower = b.getInt();
                if (dims[i] < 0) throw invalid("invalid array dimension");
                if (lower != 1 && dims[i] > 0) {
                    throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                            "arrays with lower bounds other than 1 are not supported");
                }
                total *= dims[i];
                if (total > bytes.length) throw invalid("array size exceeds the data sent");
            }
            List<Object> flat = new ArrayList<>((int) total);
            for (long i = 0; i < total; i++) {
                int len = b.getInt();
                if (len == -1) {
                    flat.add(null);
                    continue;
                }
                if (len < 0 || len > b.remaining()) throw invalid("insufficient data left in message");
                byte[] e = new byte[len];
                b.get(e);
                flat.add(PgBinaryCodec.decode(element, e));
            }
            if (b.hasRemaining()) throw invalid("incorrect binary data format in array");
            return total == 0 ? PgArray.empty() : nest(flat, dims, 0, 0);
        } catch (BufferUnderflowException e) {
            throw invalid("insufficient data left in message");
        }
    }

    /** The sub-array of dimension {@code d} starting at flat index {@code from}. */
    private static PgArray nest(List<Object> flat, int[] dims, int d, int from) {
        if (d == dims.length - 1) return PgArray.of(flat.subList(from, from + dims[d]));
        int stride = 1;
        for (int i = d + 1; i < dims.length; i++) stride *= dims[i];
        List<Object> out = new ArrayList<>(dims[d]);
        for (int i = 0; i < dims[d]; i++) out.add(nest(flat, dims, d + 1, from + i * stride));
        return PgArray.of(out);
    }

    private static void writeInt(ByteArrayOutputStream out, int v) {
        out.write(v >>> 24);
        out.write(v >>> 16);
        out.write(v >>> 8);
        out.write(v);
    }

    private static SqlException invalid(String message) {
        return new SqlException(SqlState.INVALID_BINARY_REPRESENTATION, message);
    }
}
