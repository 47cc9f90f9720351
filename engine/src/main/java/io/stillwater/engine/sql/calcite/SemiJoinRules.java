package io.stillwater.engine.sql.calcite;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.SemiJoinRule;

/**
 * Calcite's semi-join rules, restricted to aggregates that group by something.
 *
 * <p>{@link CoreRules#PROJECT_TO_SEMI_JOIN} and {@link CoreRules#JOIN_TO_SEMI_JOIN} turn
 * {@code left JOIN (SELECT keys FROM r GROUP BY keys)} into {@code left SEMI JOIN r}. They
 * also fire on an aggregate with no grouping keys, joined on {@code true}, and produce
 * {@code left SEMI JOIN r ON true}: but an aggregate without keys always has exactly one
 * row, so the join keeps every left row, while the semi-join drops all of them when
 * {@code r} is empty. Subquery removal makes exactly that shape for an {@code IN (subquery)}
 * that must know whether the subquery is empty (the {@code count(*)} beside it, for
 * three-valued logic under OR, NOT or CASE), so the unrestricted rules made
 * {@code WHERE x IN (SELECT ... empty) OR p} return no rows at all.
 */
final class SemiJoinRules {
    private SemiJoinRules() {}

    /** A {@code Project} over a join with a grouping aggregate on the right: a semi-join. */
    static final RelOptRule PROJECT_TO_SEMI_JOIN = CoreRules.PROJECT_TO_SEMI_JOIN.config
            .withOperandSupplier(b -> b.operand(Project.class).oneInput(b2 -> b2.operand(Join.class)
                    .predicate(SemiJoinRules::supported).inputs(
                            b3 -> b3.operand(RelNode.class).anyInputs(),
                            b4 -> b4.operand(Aggregate.class).predicate(SemiJoinRules::groups).anyInputs())))
            .as(SemiJoinRule.ProjectToSemiJoinRule.ProjectToSemiJoinRuleConfig.class)
            .toRule();

    /** A join with a grouping aggregate on the right whose columns nobody reads: a semi-join. */
    static final RelOptRule JOIN_TO_SEMI_JOIN = CoreRules.JOIN_TO_SEMI_JOIN.config
            .withOperandSupplier(b -> b.operand(Join.class)
                    .predicate(SemiJoinRules::supported).inputs(
                            b3 -> b3.operand(RelNode.class).anyInputs(),
                            b4 -> b4.operand(Aggregate.class).predicate(SemiJoinRules::groups).anyInputs()))
            .as(SemiJoinRule.JoinToSemiJoinRule.JoinToSemiJoinRuleConfig.class)
            .toRule();

    /** The join types Calcite's rule handles (its own predicate is private). */
    private static boolean supported(Join join) {
        return join.getJoinType() == JoinRelType.INNER || join.getJoinType() == JoinRelType.LEFT;
    }

    /** Only an aggregate with grouping keys can be empty when its input is: see the class comment. */
    private static boolean groups(Aggregate aggregate) {
        return aggregate.getGroupCount() > 0;
    }
}
