package io.stillwater.slt;

/** Where a record starts: the file as given on the command line and its 1-based line number. */
public record Location(String file, int line) {
    @Override
    public String toString() {
        return file + ":" + line;
    }
}
