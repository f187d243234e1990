package io.locusdb.core.query.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.util.Pair;

/**
 * One node's text as {@code EXPLAIN} would print its line (its kind and attributes), with each input named by a
 * number instead of being printed again. Equal subtrees are those whose nodes have equal texts and equal input
 * numbers; numbering subtrees this way, bottom up, costs one line per node, where printing every subtree whole costs
 * as much as the subtree (a 64-table join printed 64 times over).
 */
final class NodeText implements RelWriter {
    private final ToIntFunction<RelNode> inputNumbers;
    private final List<Pair<String, Object>> values = new ArrayList<>();
    private final StringBuilder text = new StringBuilder();

    private NodeText(ToIntFunction<RelNode> inputNumbers) {
        this.inputNumbers = inputNumbers;
    }

    /** {@code node}'s text, its inputs given by {@code inputNumbers}. */
    static String of(RelNode node, ToIntFunction<RelNode> inputNumbers) {
        NodeText writer = new NodeText(inputNumbers);
        node.explain(writer);
        return writer.text.toString();
    }

    @Override
    public void explain(RelNode rel, List<Pair<String, Object>> valueList) {
        text.append(rel.getRelTypeName()).append('(');
        String separator = "";
        for (Pair<String, Object> value : valueList) {
            text.append(separator).append(value.left).append('=');
            if (value.right instanceof RelNode input) {
                text.append('#').append(inputNumbers.applyAsInt(input));
            } else {
                text.append('[').append(value.right).append(']');
            }
            separator = ", ";
        }
        text.append(')');
    }

    @Override
    public SqlExplainLevel getDetailLevel() {
        return SqlExplainLevel.DIGEST_ATTRIBUTES;
    }

    @Override
    public RelWriter item(String term, Object value) {
        values.add(Pair.of(term, value));
        return this;
    }

    @Override
    public RelWriter done(RelNode node) {
        explain(node, List.copyOf(values));
        values.clear();
        return this;
    }
}
