package io.stillwater.engine.compute;

/** Creates a replica's compute from its spec (the coordinator calls it when a replica is created). */
@FunctionalInterface
public interface ReplicaProvisioner {
    ComputeController provision(ReplicaSpec spec);
}
