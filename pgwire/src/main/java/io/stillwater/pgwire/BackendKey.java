package io.stillwater.pgwire;

/** The (process id, secret key) pair a client needs to cancel its connection's query. */
public record BackendKey(int processId, int secretKey) {}
