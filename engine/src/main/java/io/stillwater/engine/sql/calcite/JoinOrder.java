package io.stillwater.engine.sql.calcite;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Orders the inputs of inner-join trees along their equality predicates, so that no join
 * is a cross product when a connected order exists.
 *
 * <p>Calcite keeps the join tree of the FROM clause as written: {@code FROM t1, t3, t2
 * WHERE t1.a = t2.a AND t2.a = t3.a} joins t1 with t3 first, a cross product, although
 * t1, t2, t3 is connected. Over a chain of 20 tables listed odd before even, that is
 * 10^10 intermediate rows for a 10-row answer.
 *
 * <p>A <em>join tree</em> here is a maximal tree of inner {@link LogicalJoin}s without
 * correlation; its <em>factors</em> are the inputs that are not such joins (scans,
 * projects, aggregates, outer or semi joins), themselves reordered recursively. Outer,
 * semi and anti joins are never moved: they are factors, so their semantics are kept.
 * The factors are ordered greedily, starting with the first one written: the next is the
 * earliest-written factor with an equality (column = column) to one already joined, and
 * only when there is none (the equality graph is disconnected) the earliest-written
 * remaining one, a cross product that no order avoids. The count of cross products that
 * way is the number of connected components less one, the least possible, so the tree is
 * rebuilt only when the written tree has more; a tree already free of needless cross
 * products keeps its shape (and its EXPLAIN). A rebuilt tree is left-deep, each
 * predicate sits at the lowest join that sees all the factors it reads, and a
 * {@link LogicalProject} on top restores the written column order.
 *
 * <p>Stateless; used by one planning thread at a time per tree.
 */
final class JoinOrder {
    private JoinOrder() {}

    /** {@code rel} with every join tree in it ordered along its equalities. */
    static RelNode apply(RelNode rel) {
        if (isInnerJoin(rel)) return new Tree((LogicalJoin) rel).ordered();
        List<RelNode> inputs = rel.getInputs();
        List<RelNode> out = new ArrayList<>(inputs.size());
        boolean changed = false;
        for (RelNode in : inputs) {
            RelNode r = apply(in);
            changed |= r != in;
            out.add(r);
        }
        return changed ? rel.copy(rel.getTraitSet(), out) : rel;
    }

    private static boolean isInnerJoin(RelNode rel) {
        return rel instanceof LogicalJoin j && j.getJoinType() == JoinRelType.INNER && j.getVariablesSet().isEmpty();
    }

    /** One input of a join tree: its fields are {@code [offset, offset + width)} of the tree's row. */
    private record Factor(RelNode rel, int offset, int width) {}

    /** A join of the written tree: its left side is factors {@code [lo, mid)}, its right side {@code [mid, hi)}. */
    private record WrittenJoin(int lo, int mid, int hi) {}

    /** A predicate of the tree over the tree's row, and the factors it reads. */
    private record Conjunct(RexNode condition, BitSet factors) {}

    /** One join tree, flattened: factors in written order and all its predicates. */
    private static final class Tree {
        private final LogicalJoin root;
        private final RexBuilder rexBuilder;
        private final List<Factor> factors = new ArrayList<>();
        private final List<WrittenJoin> writtenJoins = new ArrayList<>();
        private final List<RexNode> predicates = new ArrayList<>();
        private final List<Conjunct> conjuncts = new ArrayList<>();
        /** adjacency[f]: the factors that f has a column equality with. */
        private final BitSet[] adjacency;

        Tree(LogicalJoin root) {
            this.root = root;
            this.rexBuilder = root.getCluster().getRexBuilder();
            flatten(root, 0);
            int[] factorOfField = new int[root.getRowType().getFieldCount()];
            for (int f = 0; f < factors.size(); f++) {
                Factor factor = factors.get(f);
                for (int i = 0; i < factor.width; i++) factorOfField[factor.offset + i] = f;
            }
            adjacency = new BitSet[factors.size()];
            for (int f = 0; f < factors.size(); f++) adjacency[f] = new BitSet();
            for (RexNode p : predicates) {
                BitSet read = new BitSet();
                for (int field : RelOptUtil.InputFinder.bits(p)) read.set(factorOfField[field]);
                conjuncts.add(new Conjunct(p, read));
                if (p.getKind() == SqlKind.EQUALS && p instanceof RexCall call
                        && call.getOperands().get(0) instanceof RexInputRef a
                        && call.getOperands().get(1) instanceof RexInputRef b) {
                    int fa = factorOfField[a.getIndex()];
                    int fb = factorOfField[b.getIndex()];
                    if (fa != fb) {
                        adjacency[fa].set(fb);
                        adjacency[fb].set(fa);
                    }
                }
            }
        }

        /** Collects factors and predicates (shifted to the tree's row) of the subtree at {@code offset}. */
        private void flatten(RelNode rel, int offset) {
            if (!isInnerJoin(rel)) {
                factors.add(new Factor(rel, offset, rel.getRowType().getFieldCount()));
                return;
            }
            LogicalJoin join = (LogicalJoin) rel;
            int lo = factors.size();
            flatten(join.getLeft(), offset);
            int mid = factors.size();
            flatten(join.getRight(), offset + join.getLeft().getRowType().getFieldCount());
            writtenJoins.add(new WrittenJoin(lo, mid, factors.size()));
            for (RexNode c : RelOptUtil.conjunctions(join.getCondition())) {
                if (!c.isAlwaysTrue()) predicates.add(RexUtil.shift(c, offset));
            }
        }

        RelNode ordered() {
            int[] order = connectedOrder();
            if (crossProducts(order) >= writtenCrossProducts()) return keepShape(root);
            return rebuild(order);
        }

        /** Greedy order: the earliest-written factor joined by an equality, else the earliest remaining. */
        private int[] connectedOrder() {
            int n = factors.size();
            int[] order = new int[n];
            BitSet joined = new BitSet();
            joined.set(0);
            BitSet reachable = (BitSet) adjacency[0].clone();
            for (int step = 1; step < n; step++) {
                int next = -1;
                for (int f = reachable.nextSetBit(0); f >= 0; f = reachable.nextSetBit(f + 1)) {
                    if (!joined.get(f)) {
                        next = f;
                        break;
                    }
                }
                if (next < 0) next = joined.nextClearBit(0);
                order[step] = next;
                joined.set(next);
                reachable.or(adjacency[next]);
            }
            return order;
        }

        /** Joins of the left-deep tree in {@code order} with no equality between their sides. */
        private int crossProducts(int[] order) {
            BitSet joined = new BitSet();
            joined.set(order[0]);
            int count = 0;
            for (int step = 1; step < order.length; step++) {
                if (!adjacency[order[step]].intersects(joined)) count++;
                joined.set(order[step]);
            }
            return count;
        }

        private int writtenCrossProducts() {
            int count = 0;
            for (WrittenJoin j : writtenJoins) {
                boolean connected = false;
                for (int f = j.lo; f < j.mid && !connected; f++) {
                    int g = adjacency[f].nextSetBit(j.mid);
                    connected = g >= 0 && g < j.hi;
                }
                if (!connected) count++;
            }
            return count;
        }

        /** The written tree with its factors' own join trees ordered. */
        private RelNode keepShape(RelNode rel) {
            if (!isInnerJoin(rel)) return apply(rel);
            RelNode left = keepShape(((LogicalJoin) rel).getLeft());
            RelNode right = keepShape(((LogicalJoin) rel).getRight());
            if (left == ((LogicalJoin) rel).getLeft() && right == ((LogicalJoin) rel).getRight()) return rel;
            return rel.copy(rel.getTraitSet(), List.of(left, right));
        }

        private RelNode rebuild(int[] order) {
            int width = root.getRowType().getFieldCount();
            // newPosition[i]: where field i of the written row is in the rebuilt join's row.
            int[] newPosition = new int[width];
            RexShuttle remap = new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef ref) {
                    return new RexInputRef(newPosition[ref.getIndex()], ref.getType());
                }
            };
            boolean[] placed = new boolean[conjuncts.size()];
            BitSet joined = new BitSet();
            RelNode tree = null;
            int treeWidth = 0;
            for (int f : order) {
                Factor factor = factors.get(f);
                for (int i = 0; i < factor.width; i++) newPosition[factor.offset + i] = treeWidth + i;
                treeWidth += factor.width;
                joined.set(f);
                RelNode input = apply(factor.rel);
                if (tree == null) {
                    tree = input;
                    continue;
                }
                List<RexNode> condition = new ArrayList<>();
                for (int c = 0; c < conjuncts.size(); c++) {
                    if (placed[c]) continue;
                    BitSet rest = (BitSet) conjuncts.get(c).factors.clone();
                    rest.andNot(joined);
                    if (rest.isEmpty()) {
                        placed[c] = true;
                        condition.add(conjuncts.get(c).condition.accept(remap));
                    }
                }
                tree = LogicalJoin.create(tree, input, List.of(), RexUtil.composeConjunction(rexBuilder, condition),
                        Set.of(), JoinRelType.INNER);
            }
            List<RexNode> columns = new ArrayList<>(width);
            var fields = root.getRowType().getFieldList();
            for (int i = 0; i < width; i++) columns.add(new RexInputRef(newPosition[i], fields.get(i).getType()));
            return LogicalProject.create(tree, List.of(), columns, root.getRowType().getFieldNames(), Set.of());
        }
    }
}
