package io.stillwater.engine.session;

import io.stillwater.engine.copy.CopyLoader;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.memory.QueryMemory;
import io.stillwater.engine.storage.LogRecord.TableChange;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * One {@code COPY t FROM STDIN} in progress: the client's bytes go to a {@link
 * CopyLoader} (rows reserved against {@code memory}, the statement's {@code
 * max_query_memory} budget); at the end every row is handed to {@code write} at once (a
 * single atomic table write, or the transaction's buffered writes inside BEGIN).
 *
 * <p>Session thread only. After the first failure the COPY is over: its memory is
 * released and {@code failed} (the session's statement boundary, which fails an explicit
 * transaction) gives the error to throw.
 */
final class CopyFromStdin implements CopyInTarget {
    private final CopyLoader loader;
    private final QueryMemory memory;
    private final ToIntFunction<List<TableChange>> write;
    private final Function<Throwable, RuntimeException> failed;
    private boolean over;

    CopyFromStdin(CopyLoader loader, QueryMemory memory, ToIntFunction<List<TableChange>> write,
                  Function<Throwable, RuntimeException> failed) {
        this.loader = loader;
        this.memory = memory;
        this.write = write;
        this.failed = failed;
    }

    @Override
    public void data(byte[] bytes) {
        if (over) return;
        try {
            loader.accept(bytes);
        } catch (Throwable e) {
            throw end(e);
        }
    }

    @Override
    public ExecutionResult.Command done() {
        if (over) throw new IllegalStateException("COPY already ended");
        try {
            int n = write.applyAsInt(loader.finish());
            over = true;
            memory.close();
            return new ExecutionResult.Command("COPY " + n);
        } catch (Throwable e) {
            throw end(e);
        }
    }

    @Override
    public void fail(SqlException reason) {
        if (!over) end(reason);
    }

    private RuntimeException end(Throwable e) {
        over = true;
        memory.close();
        return failed.apply(e);
    }
}
