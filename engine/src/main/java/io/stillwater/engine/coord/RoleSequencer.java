package io.stillwater.engine.coord;

import io.stillwater.engine.auth.LoginRole;
import io.stillwater.engine.auth.RoleDirectory;
import io.stillwater.engine.auth.ScramVerifier;
import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.ClusterDef;
import io.stillwater.engine.catalog.Clusters;
import io.stillwater.engine.catalog.ObjectAcl;
import io.stillwater.engine.catalog.ObjectAclCodec;
import io.stillwater.engine.catalog.ObjectKind;
import io.stillwater.engine.catalog.Privilege;
import io.stillwater.engine.catalog.RoleCodec;
import io.stillwater.engine.catalog.RoleDef;
import io.stillwater.engine.catalog.SecurityCatalog;
import io.stillwater.engine.catalog.ViewRules;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.AccessStatement;
import io.stillwater.engine.storage.LogRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Role DDL and privileges: CREATE/ALTER/DROP ROLE, GRANT/REVOKE, ALTER ... OWNER TO,
 * and the owner entry of every object a session creates ({@link #createRelation}). Like {@link CatalogSequencer},
 * each statement validates against the state current under the write lock ({@link
 * WritePipeline#sequenced}) and logs its records there, so what it checked is what its
 * records apply to. Who may do what follows PostgreSQL 15: superusers anything; roles
 * with CREATEROLE may create, alter and drop non-superuser roles; any role may change its
 * own password; only an object's owner (or a superuser) grants on it, alters or drops it.
 *
 * <p>Also the engine's {@link RoleDirectory}: {@link #find} reads the published state
 * without a lock (any thread); {@link #ensureForTrust} creates a missing role durably.
 */
public final class RoleSequencer implements RoleDirectory {
    private final WritePipeline pipeline;
    private final AppliedState state;

    RoleSequencer(WritePipeline pipeline, AppliedState state) {
        this.pipeline = pipeline;
        this.state = state;
    }

    /** The roles, owners and grants now (published; any thread). */
    public SecurityCatalog security() { return state.security(); }

    @Override
    public Optional<LoginRole> find(String name) { return state.security().role(name).map(RoleSequencer::loginRole); }

    @Override
    public LoginRole ensureForTrust(String name) {
        Optional<LoginRole> known = find(name);
        if (known.isPresent()) return known.get();
        return pipeline.sequenced(() -> {
            SecurityCatalog now = state.security();
            Optional<RoleDef> again = now.role(name);
            if (again.isPresent()) return loginRole(again.get());
            RoleDef role = new RoleDef(name, now.nextRoleOid(), true, false, false, true, null);
            logRole(role);
            return loginRole(role);
        });
    }

    private static LoginRole loginRole(RoleDef r) {
        ScramVerifier verifier = r.verifier() == null ? null : ScramVerifier.parse(r.verifier()).orElse(null);
        return new LoginRole(r.name(), r.login(), r.superuser(), verifier);
    }

    /**
     * Creates a relation (table, view, materialized view, index) owned by {@code owner}:
     * {@code create} runs a {@link CatalogSequencer} create and returns what it made
     * (empty: nothing, as with IF NOT EXISTS). The owner entry is logged first, for the id
     * the object will get (the catalog's next id, under the write lock), so no prefix of
     * the log holds the object without its owner (which would leave it {@link
     * ObjectAcl#UNOWNED}, usable by all). If nothing is created under that id (a failure,
     * IF NOT EXISTS, a view replaced in place) the entry is removed again.
     */
    public <T> Optional<T> createRelation(String owner, Supplier<Optional<T>> create, ToLongFunction<T> idOf) {
        return pipeline.sequenced(() -> createOwned(SecurityCatalog.relationKey(state.catalog().nextId()), owner, create,
                made -> SecurityCatalog.relationKey(idOf.applyAsLong(made))));
    }

    /** CREATE CLUSTER owned by {@code owner}, as {@link #createRelation}. */
    public ClusterDef createCluster(String owner, Supplier<ClusterDef> create) {
        return pipeline.sequenced(() -> createOwned(SecurityCatalog.clusterKey(state.clusters().newClusterId()), owner,
                () -> Optional.of(create.get()), c -> SecurityCatalog.clusterKey(c.id()))).orElseThrow();
    }

    /** Write lock held. */
    private <T> Optional<T> createOwned(String reserved, String owner, Supplier<Optional<T>> create, Function<T, String> keyOf) {
        logAcl(reserved, ObjectAcl.owner(owner));
        Optional<T> made;
        try {
            made = create.get();
        } catch (RuntimeException e) {
            try {
                forgetAcl(reserved);
            } catch (RuntimeException again) {
                e.addSuppressed(again);
            }
            throw e;
        }
        if (!made.map(keyOf).map(reserved::equals).orElse(false)) forgetAcl(reserved);
        return made;
    }

    private void forgetAcl(String key) {
        pipeline.submit(ts -> new LogRecord.CatalogRemoval(ObjectAclCodec.KIND, key));
    }

    /** Runs {@code s} as role {@code actor} (who may not drop itself). */
    public void execute(AccessStatement s, String actor) {
        pipeline.sequenced(() -> {
            switch (s) {
                case AccessStatement.CreateRole c -> createRole(c, actor);
                case AccessStatement.AlterRole a -> alterRole(a, actor);
                case AccessStatement.DropRole d -> dropRoles(d, actor);
                case AccessStatement.Grant g -> grant(g, actor);
                case AccessStatement.AlterOwner o -> alterOwner(o, actor);
            }
        });
    }

    // ---------------------------------------------------------------- roles

    private void createRole(AccessStatement.CreateRole c, String actor) {
        SecurityCatalog sec = state.security();
        AccessStatement.RoleOptions o = c.options();
        checkReservedName(c.name());
        boolean superuser = Boolean.TRUE.equals(o.superuser());
        if (superuser && !sec.isSuperuser(actor)) throw denied("must be superuser to create superusers");
        if (!sec.isSuperuser(actor) && !canCreateRole(sec, actor)) throw denied("permission denied to create role");
        if (sec.role(c.name()).isPresent()) {
            throw new SqlException(SqlState.DUPLICATE_OBJECT, "role \"" + c.name() + "\" already exists");
        }
        boolean login = o.login() != null ? o.login() : c.user();
        RoleDef role = new RoleDef(c.name(), sec.nextRoleOid(), login, superuser, Boolean.TRUE.equals(o.createRole()),
                o.inherit() == null || o.inherit(), verifierOf(o));
        logRole(role);
    }

    private void alterRole(AccessStatement.AlterRole a, String actor) {
        SecurityCatalog sec = state.security();
        RoleDef role = requireRole(sec, a.name());
        AccessStatement.RoleOptions o = a.options();
        boolean actorSuper = sec.isSuperuser(actor);
        if ((role.superuser() || o.superuser() != null) && !actorSuper) {
            throw denied("must be superuser to alter superuser roles or change superuser attribute");
        }
        boolean onlyOwnPassword = o.login() == null && o.superuser() == null && o.createRole() == null
                && o.inherit() == null && role.name().equals(actor);
        if (!actorSuper && !canCreateRole(sec, actor) && !onlyOwnPassword) throw denied("permission denied");
        if (role.name().equals(RoleDef.MZ_SYSTEM.name()) && (Boolean.FALSE.equals(o.superuser()) || Boolean.FALSE.equals(o.login()))) {
            throw denied("permission denied: bootstrap user must be superuser");
        }
        RoleDef next = new RoleDef(role.name(), role.oid(),
                o.login() != null ? o.login() : role.login(),
                o.superuser() != null ? o.superuser() : role.superuser(),
                o.createRole() != null ? o.createRole() : role.createRole(),
                o.inherit() != null ? o.inherit() : role.inherit(),
                o.setsPassword() ? verifierOf(o) : role.verifier());
        logRole(next);
    }

    private void dropRoles(AccessStatement.DropRole d, String actor) {
        SecurityCatalog sec = state.security();
        boolean actorSuper = sec.isSuperuser(actor);
        if (!actorSuper && !canCreateRole(sec, actor)) throw denied("permission denied to drop role");
        List<RoleDef> targets = new ArrayList<>();
        for (String n : d.names()) {
            Optional<RoleDef> r = sec.role(n);
            if (r.isEmpty()) {
                if (d.ifExists()) continue; // PostgreSQL's NOTICE "role ... does not exist, skipping"
                throw new SqlException(SqlState.UNDEFINED_OBJECT, "role \"" + n + "\" does not exist");
            }
            if (n.equals(RoleDef.MZ_SYSTEM.name())) {
                throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                        "cannot drop role " + n + " because it is required by the database system");
            }
            if (n.equals(actor)) throw new SqlException(SqlState.OBJECT_IN_USE, "current user cannot be dropped");
            if (r.get().superuser() && !actorSuper) throw denied("must be superuser to drop superusers");
            List<String> uses = dependencies(sec, n);
            if (!uses.isEmpty()) {
                throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                        "role \"" + n + "\" cannot be dropped because some objects depend on it", String.join("\n", uses),
                        "Drop or reassign the objects (ALTER ... OWNER TO) and REVOKE the privileges first.");
            }
            targets.add(r.get());
        }
        for (RoleDef r : targets) pipeline.submit(ts -> new LogRecord.CatalogRemoval(RoleCodec.KIND, r.name()));
    }

    /** PostgreSQL's DETAIL lines for a role in use: {@code owner of table t}, {@code privileges for view v}. */
    private List<String> dependencies(SecurityCatalog sec, String role) {
        List<String> owner = new ArrayList<>();
        List<String> privileges = new ArrayList<>();
        for (var e : sec.acls().entrySet()) {
            Optional<String> what = describe(e.getKey());
            if (what.isEmpty()) continue; // a dropped object's entry
            if (e.getValue().owner().equals(role)) owner.add("owner of " + what.get());
            if (!e.getValue().grantedTo(role).isEmpty()) privileges.add("privileges for " + what.get());
        }
        owner.addAll(privileges);
        return owner;
    }

    /** {@code table t}, {@code cluster c}: the object an ACL key names, if it still exists. */
    private Optional<String> describe(String key) {
        Catalog catalog = state.catalog();
        if (key.startsWith("relation:")) {
            long id = Long.parseLong(key.substring("relation:".length()));
            return catalog.nameOf(id).map(n -> catalog.kindOf(n).orElseThrow().word() + " " + n);
        }
        String clusterId = key.substring("cluster:".length());
        ClusterDef c = state.clusters().byId().get(clusterId);
        return c == null ? Optional.empty() : Optional.of("cluster " + c.name());
    }

    private static boolean canCreateRole(SecurityCatalog sec, String actor) {
        return sec.role(actor).map(r -> r.createRole() || r.superuser()).orElse(false);
    }

    private static RoleDef requireRole(SecurityCatalog sec, String name) {
        return sec.role(name).orElseThrow(() -> new SqlException(SqlState.UNDEFINED_OBJECT, "role \"" + name + "\" does not exist"));
    }

    /** PostgreSQL reserves {@code public} and {@code pg_*}; Materialize {@code mz_*} as well. */
    private static void checkReservedName(String name) {
        if (name.equals(RoleDef.PUBLIC) || name.equals("none")) {
            throw new SqlException(SqlState.RESERVED_NAME, "role name \"" + name + "\" is reserved");
        }
        for (String prefix : List.of("pg_", "mz_")) {
            if (name.startsWith(prefix)) {
                throw new SqlException(SqlState.RESERVED_NAME, "role name \"" + name + "\" is reserved",
                        "Role names starting with \"" + prefix + "\" are reserved.", null);
            }
        }
    }

    /**
     * The verifier text to store for the options' PASSWORD: null for PASSWORD NULL or an
     * empty password (PostgreSQL clears it then); a SCRAM verifier text as given (as
     * PostgreSQL stores one); otherwise the password's SCRAM-SHA-256 verifier.
     */
    private static String verifierOf(AccessStatement.RoleOptions o) {
        if (o.passwordNull() || o.password() == null || o.password().isEmpty()) return null;
        if (ScramVerifier.isVerifierText(o.password())) return o.password();
        if (o.password().startsWith("md5") && o.password().length() == 35) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "MD5 password verifiers are not supported",
                    null, "Give the password itself, or a SCRAM-SHA-256 verifier.");
        }
        return ScramVerifier.derive(o.password()).text();
    }

    private void logRole(RoleDef role) {
        byte[] payload = RoleCodec.encode(role);
        pipeline.submit(ts -> new LogRecord.CatalogEntry(RoleCodec.KIND, role.name(), payload));
    }

    private void logAcl(String key, ObjectAcl acl) {
        byte[] payload = ObjectAclCodec.encode(acl);
        pipeline.submit(ts -> new LogRecord.CatalogEntry(ObjectAclCodec.KIND, key, payload));
    }

    // ---------------------------------------------------------------- privileges and owners

    /** An object GRANT, REVOKE or OWNER TO names: its ACL key, its kind word and name. */
    private record Target(String key, String kind, String name) {}

    private void grant(AccessStatement.Grant g, String actor) {
        SecurityCatalog sec = state.security();
        for (String grantee : g.grantees()) {
            if (!grantee.equals(RoleDef.PUBLIC)) requireRole(sec, grantee);
        }
        List<Target> targets = new ArrayList<>();
        switch (g.objectClass()) {
            case CLUSTER -> g.objects().forEach(n -> targets.add(cluster(n)));
            case RELATION -> g.objects().forEach(n -> targets.add(relation(n, g.kindWord())));
            case ALL_TABLES_IN_PUBLIC -> {
                Catalog catalog = state.catalog();
                catalog.tables().forEach(t -> targets.add(relation(t.name(), "table")));
                catalog.views().forEach(v -> targets.add(relation(v.name(), "view")));
                catalog.materializedViews().forEach(m -> targets.add(relation(m.name(), "materialized view")));
            }
        }
        for (Target t : targets) {
            Set<Privilege> applicable = Privilege.applicableTo(t.kind());
            Set<Privilege> privileges = g.privileges().isEmpty() ? applicable : g.privileges();
            for (Privilege p : privileges) {
                if (!applicable.contains(p)) {
                    throw new SqlException(SqlState.INVALID_GRANT_OPERATION,
                            "invalid privilege type " + p.keyword() + " for " + t.kind(), null,
                            t.kind() + " privileges are " + applicable.stream().map(Privilege::keyword).sorted().toList() + ".");
                }
            }
            ObjectAcl acl = acl(sec, t);
            if (!sec.isSuperuser(actor) && !acl.ownedBy(actor)) throw denied("permission denied for " + t.kind() + " " + t.name());
            ObjectAcl next = acl;
            for (String grantee : g.grantees()) next = next.with(grantee, privileges, g.grant());
            if (!next.equals(acl) || !sec.hasAcl(t.key())) logAcl(t.key(), next);
        }
    }

    private void alterOwner(AccessStatement.AlterOwner o, String actor) {
        SecurityCatalog sec = state.security();
        Target t = o.kindWord().equals("cluster") ? cluster(o.name()) : relation(o.name(), o.kindWord());
        ObjectAcl acl = acl(sec, t);
        boolean actorSuper = sec.isSuperuser(actor);
        if (!actorSuper && !acl.ownedBy(actor)) throw denied("must be owner of " + t.kind() + " " + t.name());
        requireRole(sec, o.newOwner());
        if (!actorSuper && !o.newOwner().equals(actor)) throw denied("must be member of role \"" + o.newOwner() + "\"");
        if (!acl.owner().equals(o.newOwner()) || !sec.hasAcl(t.key())) logAcl(t.key(), acl.withOwner(o.newOwner()));
    }

    private ObjectAcl acl(SecurityCatalog sec, Target t) {
        return t.key().startsWith("cluster:") ? sec.clusterAcl(t.key().substring("cluster:".length()))
                : sec.relationAcl(Long.parseLong(t.key().substring("relation:".length())));
    }

    private Target cluster(String name) {
        ClusterDef c = state.clusters().byName(name).orElseThrow(() -> Clusters.unknownCluster(name));
        return new Target(SecurityCatalog.clusterKey(c.id()), "cluster", name);
    }

    /** The relation {@code name}; {@code kindWord} (table, view, ...; null: any but index) must be its kind. */
    private Target relation(String name, String kindWord) {
        Catalog catalog = state.catalog();
        ObjectKind kind = catalog.kindOf(name).orElseThrow(
                () -> new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist"));
        boolean fits = kindWord == null ? kind != ObjectKind.INDEX
                : kind.word().equals(kindWord) || kindWord.equals("table") && kind != ObjectKind.INDEX;
        if (!fits) {
            ObjectKind wanted = kindWord == null ? ObjectKind.TABLE
                    : ObjectKind.valueOf(kindWord.toUpperCase(Locale.ROOT).replace(' ', '_'));
            throw ViewRules.wrongKind(name, wanted, kind);
        }
        return new Target(SecurityCatalog.relationKey(catalog.idOf(name)), kind.word(), name);
    }

    private static SqlException denied(String message) {
        return new SqlException(SqlState.INSUFFICIENT_PRIVILEGE, message);
    }
}
