package io.stillwater.engine.params;

import java.util.Locale;

/** When a system parameter's value is read. */
public enum Scope {
    /** Read whenever it is used: a change takes effect for the next use. */
    ENVIRONMENT,
    /**
     * Read when a replica is provisioned (created): a change affects only replicas
     * created afterwards; existing replicas keep the value they were created with.
     */
    REPLICA_PROVISIONING;

    /** Lower case with spaces, as docs and SHOW output spell it. */
    public String word() { return name().toLowerCase(Locale.ROOT).replace('_', ' '); }
}
