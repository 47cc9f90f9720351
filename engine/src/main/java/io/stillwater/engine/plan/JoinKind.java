package io.stillwater.engine.plan;

/** Join kinds of {@link PlanNode.Join}. SEMI and ANTI output only left columns. */
public enum JoinKind { INNER, LEFT, RIGHT, FULL, SEMI, ANTI }
