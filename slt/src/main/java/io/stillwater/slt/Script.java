package io.stillwater.slt;

import java.util.List;

/**
 * A parsed script: its records in file order, and the file's lines (without line terminators)
 * so that {@code --rewrite-results} can splice new expected output into them.
 */
public record Script(String file, List<String> lines, boolean endsWithNewline, List<Record> records) {
    public Script {
        lines = List.copyOf(lines);
        records = List.copyOf(records);
    }
}
