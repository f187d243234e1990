package io.locusdb.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;
import org.junit.jupiter.api.Test;

class JoinProjectionPullUpTest {
    private final RelBuilder b = builder();

    @Test
    void projectionsBetweenInnerJoinsEndUpAboveTheWholeChainWithTheConditionsOverTheScans() {
        // a's projection is narrower than a (one column of two) and a second projection sits on the first join.
        RelNode first = b.scan("a").project(b.alias(b.call(SqlStdOperatorTable.PLUS, b.field("y"), b.literal(1)), "y1"))
                .scan("b")
                .join(JoinRelType.INNER, b.equals(b.field(2, 0, 0), b.field(2, 1, 0)))
                .build();
        RelNode stacked = LogicalProject.create(first, List.of(),
                List.of(b.getRexBuilder().makeInputRef(first, 1), b.getRexBuilder().makeInputRef(first, 0)),
                List.of("z", "y1"), Set.of());
        RelNode plan = b.push(stacked).scan("c").project(b.field("w"))
                .join(JoinRelType.INNER, b.equals(b.field(2, 0, 0), b.field(2, 1, 0)))
                .build();

        RelNode pulled = JoinProjectionPullUp.pull(plan);

        assertThat(pulled).isInstanceOf(Project.class);
        Join top = (Join) ((Project) pulled).getInput();
        assertThat(top.getRight()).isInstanceOf(TableScan.class);
        Join below = (Join) top.getLeft();
        assertThat(below.getLeft()).isInstanceOf(TableScan.class);
        assertThat(below.getRight()).isInstanceOf(TableScan.class);
        assertThat(below.getCondition()).as("the computed column is computed in the condition")
                .hasToString("=(+($1, 1), $2)");
        assertThat(top.getCondition()).as("c's w is after a's two columns and b's one").hasToString("=($2, $4)");
        assertThat(((Project) pulled).getProjects()).as("the two stacked projections as one")
                .hasToString("[$2, +($1, 1), $4]");
        assertThat(pulled.getRowType().getFieldNames()).isEqualTo(plan.getRowType().getFieldNames());
    }

    @Test
    void theSideOfAnOuterJoinThatGeneratesNullsKeepsItsProjectionAndItsColumnsStayNullable() {
        RelNode left = b.scan("a").project(b.field("y"), b.field("x"))
                .scan("b").project(b.field("z"), b.literal(7))
                .join(JoinRelType.LEFT, b.equals(b.field(2, 0, 0), b.field(2, 1, 0)))
                .build();
        Project pulled = (Project) JoinProjectionPullUp.pull(left);
        Join join = (Join) pulled.getInput();
        assertThat(join.getLeft()).as("the preserved side's projection is pulled").isInstanceOf(TableScan.class);
        assertThat(join.getRight()).as("a constant there must turn NULL with the row").isInstanceOf(Project.class);
        assertThat(pulled.getProjects().get(2).getType().isNullable()).as("b's z read from the outer join").isTrue();
        assertThat(pulled.getProjects().get(3).getType().isNullable()).isTrue();

        RelNode right = b.scan("a").project(b.field("y"), b.literal(7))
                .scan("b").project(b.field("z"), b.field("z"))
                .join(JoinRelType.RIGHT, b.equals(b.field(2, 0, 0), b.field(2, 1, 0)))
                .build();
        Join rightJoin = (Join) ((Project) JoinProjectionPullUp.pull(right)).getInput();
        assertThat(rightJoin.getLeft()).isInstanceOf(Project.class);
        assertThat(rightJoin.getRight()).isInstanceOf(TableScan.class);
    }

    @Test
    void semiJoinsAndWindowsKeepTheirProjections() {
        RelNode semi = b.scan("a").project(b.field("x"))
                .scan("b").project(b.field("z"))
                .join(JoinRelType.SEMI, b.equals(b.field(2, 0, 0), b.field(2, 1, 0)))
                .build();
        assertThat(JoinProjectionPullUp.pull(semi)).isSameAs(semi);

        RelNode window = b.scan("a").project(b.field("x"), b.aggregateCall(SqlStdOperatorTable.COUNT).over().toRex())
                .scan("b")
                .join(JoinRelType.INNER, b.equals(b.field(2, 0, 0), b.field(2, 1, 0)))
                .build();
        assertThat(JoinProjectionPullUp.pull(window)).isSameAs(window);
    }

    private static RelBuilder builder() {
        SchemaPlus root = Frameworks.createRootSchema(true);
        root.add("a", table("x", "y"));
        root.add("b", table("z"));
        root.add("c", table("v", "w"));
        return RelBuilder.create(Frameworks.newConfigBuilder().defaultSchema(root).build());
    }

    private static AbstractTable table(String... columns) {
        return new AbstractTable() {
            @Override
            public RelDataType getRowType(RelDataTypeFactory types) {
                RelDataTypeFactory.Builder row = types.builder();
                for (String c : List.of(columns)) {
                    row.add(c, SqlTypeName.INTEGER);
                }
                return row.build();
            }
        };
    }
}
