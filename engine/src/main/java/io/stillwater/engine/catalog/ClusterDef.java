package io.stillwater.engine.catalog;

import java.util.List;
import java.util.Optional;

/**
 * A cluster and its replicas. One value (and one log record) holds both, so a cluster
 * and its replica set change atomically: adding or dropping a replica logs the whole
 * cluster again (the last entry wins).
 *
 * @param id                Materialize-style cluster id ({@code u1}, ...), never reused
 * @param name              unique among clusters
 * @param managed           managed (SIZE + REPLICATION FACTOR; replicas named r1..rn by the
 *                          system) or unmanaged (replicas created and dropped by the user)
 * @param size              the replicas' size for a managed cluster; null for unmanaged
 * @param replicationFactor the replica count of a managed cluster; for an unmanaged one,
 *                          the number of replicas it has
 * @param replicas          in creation order; the first live one serves reads by default
 */
public record ClusterDef(String id, String name, boolean managed, ClusterSize size, int replicationFactor,
                         List<ReplicaDef> replicas) {
    public ClusterDef {
        replicas = List.copyOf(replicas);
        if (managed && size == null) throw new IllegalArgumentException("a managed cluster has a size");
    }

    public Optional<ReplicaDef> replica(String replicaName) {
        return replicas.stream().filter(r -> r.name().equals(replicaName)).findFirst();
    }

    /** This cluster with {@code replicas} instead of its own. */
    public ClusterDef withReplicas(List<ReplicaDef> replicas) {
        return new ClusterDef(id, name, managed, size, managed ? replicationFactor : replicas.size(), replicas);
    }
}
