package io.stillwater.engine.storage;

/**
 * Bytes that passed their checksum but do not decode: a bug, or data written by a newer
 * version of Stillwater. Never a torn write (those fail the checksum first), so the log
 * reports it loudly instead of truncating anything.
 */
public final class CorruptDataException extends RuntimeException {
    public CorruptDataException(String message) { super(message); }
}
