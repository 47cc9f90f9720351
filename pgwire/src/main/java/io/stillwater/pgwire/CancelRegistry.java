package io.stillwater.pgwire;

import io.stillwater.engine.session.Session;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Server-wide map from backend keys to live sessions, so a CancelRequest arriving on
 * another connection can find the session to cancel. Thread-safe.
 *
 * <p>Process ids are random positive ints, unique among live sessions; secrets are
 * random and compared in full, so guessing a pid alone cancels nothing.
 */
public final class CancelRegistry {
    /** {@code cancel} stops what the session's connection runs (its statement and the sending of its rows). */
    private record Entry(int secret, Session session, Runnable cancel) {}

    private final ConcurrentHashMap<Integer, Entry> sessions = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();

    /** Registers {@code session} under a fresh key; a cancel calls {@link Session#cancel}. */
    public BackendKey register(Session session) { return register(session, session::cancel); }

    /** Registers {@code session} under a fresh key; a cancel runs {@code cancel} (any thread). */
    BackendKey register(Session session, Runnable cancel) {
        int secret = random.nextInt();
        while (true) {
            int pid = 1 + random.nextInt(Integer.MAX_VALUE - 1);
            if (sessions.putIfAbsent(pid, new Entry(secret, session, cancel)) == null) return new BackendKey(pid, secret);
        }
    }

    public void unregister(BackendKey key) {
        sessions.computeIfPresent(key.processId(), (pid, e) -> e.secret() == key.secretKey() ? null : e);
    }

    /**
     * Cancels the running statement of the session registered under {@code key}; returns
     * whether a session matched. A wrong secret matches nothing.
     */
    public boolean cancel(BackendKey key) {
        Entry e = sessions.get(key.processId());
        if (e == null || e.secret() != key.secretKey()) return false;
        e.cancel().run();
        return true;
    }

    Optional<Session> lookup(BackendKey key) {
        Entry e = sessions.get(key.processId());
        return e != null && e.secret() == key.secretKey() ? Optional.of(e.session()) : Optional.empty();
    }

    /** Number of live registered sessions. */
    public int size() { return sessions.size(); }
}
