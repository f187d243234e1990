package io.locusdb.core.query.planner;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.LoptOptimizeJoinRule;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;

/**
 * Orders the inner joins of a multi-way join (Calcite's {@link MultiJoin}) by cost, over every bushy tree without
 * cross products, by dynamic programming over the subsets of its inputs. The cost of a tree is the sum of the rows of
 * its joins' results (C_out) plus the rows of the smaller input of each join, which the hash join builds its table
 * on (so that of two trees with the same intermediate results, the one with the smaller builds wins: TPC-H Q7 builds
 * on customers and their orders rather than on lineitem and then on orders again); rows come from {@link InputEstimate} (dictionary sizes as distinct counts, the share of
 * dictionary IDs a filter's ranges select) and, for a join, {@code |L| * |R|} divided, for each set of columns equated
 * across its sides, by the distinct values of all but the smallest of them.
 *
 * <p>Before ordering:
 * <ul>
 *   <li>Equalities of columns form classes (a = b and b = c imply a = c), so that a join may use any pair of a
 *       class; the plan equates each class once a join.</li>
 *   <li>A disjunction over several inputs whose every branch restricts one input, as TPC-H Q7's
 *       {@code (n1 = 'A' AND n2 = 'B') OR (n1 = 'B' AND n2 = 'A')}, also filters that input by the OR of its
 *       branches' restrictions ({@code n1 IN ('A', 'B')}) before any join; the disjunction itself stays.</li>
 * </ul>
 *
 * <p>Beyond {@value #MAX_EXHAUSTIVE} inputs the subsets are too many; the order is then greedy (greedy operator
 * ordering, as DuckDB does beyond its exhaustive search): of all pairs of subtrees a condition connects, join the
 * one with the fewest estimated rows, until one tree is left. That takes a few milliseconds for 64 inputs, where
 * Calcite's {@code LoptOptimizeJoinRule} took seconds. Multi-way joins with outer joins, or of more than
 * {@value #MAX_INPUTS} inputs, are left to that rule, which the program runs next.
 */
public final class JoinOrderRule extends RelRule<LoptOptimizeJoinRule.Config> {
    public static final JoinOrderRule INSTANCE = new JoinOrderRule();

    /** Up to this many inputs the order is searched exhaustively. */
    static final int MAX_EXHAUSTIVE = 12;
    /** Inputs are sets of bits in a long. */
    static final int MAX_INPUTS = Long.SIZE;

    private JoinOrderRule() {
        // Calcite's configuration of its own rule on a MultiJoin: the same operand, under our name.
        super(LoptOptimizeJoinRule.Config.DEFAULT.withDescription("LocusJoinOrder")
                .withOperandSupplier(b -> b.operand(MultiJoin.class).anyInputs())
                .as(LoptOptimizeJoinRule.Config.class));
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        MultiJoin multiJoin = call.rel(0);
        int n = multiJoin.getInputs().size();
        if (n > MAX_INPUTS || multiJoin.isFullOuterJoin() || multiJoin.getPostJoinFilter() != null
                || multiJoin.getJoinTypes().stream().anyMatch(t -> t != JoinRelType.INNER)) {
            return;
        }
        RelNode ordered = new Ordering(multiJoin, call.builder(), call.getMetadataQuery()).plan();
        if (ordered != null) {
            call.transformTo(ordered);
        }
    }

    /** One multi-way join being ordered: its inputs ("factors"), their fields and the conditions between them. */
    private static final class Ordering {
        private final MultiJoin multiJoin;
        private final RelBuilder builder;
        private final RelMetadataQuery mq;
        private final RexBuilder rex;
        private final int n;
        private final int[] start;
        private final int[] fieldCount;
        private final int[] factorOf;
        private final List<List<RexNode>> factorFilters = new ArrayList<>();
        /** Conditions over two or more factors that are not column equalities, with the factors they use. */
        private final List<RexNode> others = new ArrayList<>();
        private final List<Long> otherMasks = new ArrayList<>();
        /** Equivalence classes of fields (global field indexes) equated across factors. */
        private final List<int[]> classes = new ArrayList<>();
        /** Per class, the factors its fields belong to (bit f: factor f), so connectivity is a few mask tests. */
        private long[] classMasks = new long[0];
        private InputEstimate[] estimates;
        private double[] rows;
        private double[] cost;
        private int[] split;

        Ordering(MultiJoin multiJoin, RelBuilder builder, RelMetadataQuery mq) {
            this.multiJoin = multiJoin;
            this.builder = builder;
            this.mq = mq;
            this.rex = multiJoin.getCluster().getRexBuilder();
            this.n = multiJoin.getInputs().size();
            this.start = new int[n];
            this.fieldCount = new int[n];
            int total = 0;
            for (int f = 0; f < n; f++) {
                start[f] = total;
                fieldCount[f] = multiJoin.getInputs().get(f).getRowType().getFieldCount();
                total += fieldCount[f];
                factorFilters.add(new ArrayList<>());
            }
            factorOf = new int[total];
            for (int f = 0; f < n; f++) {
                Arrays.fill(factorOf, start[f], start[f] + fieldCount[f], f);
            }
        }

        RelNode plan() {
            classify(RelOptUtil.conjunctions(multiJoin.getJoinFilter()));
            List<RelNode> inputs = new ArrayList<>();
            estimates = new InputEstimate[n];
            for (int f = 0; f < n; f++) {
                RelNode input = multiJoin.getInputs().get(f);
                if (!factorFilters.get(f).isEmpty()) {
                    int shift = -start[f];
                    List<RexNode> local = factorFilters.get(f).stream()
                            .map(c -> RexUtil.shift(c, shift)).toList();
                    input = builder.push(input).filter(local).build();
                }
                inputs.add(input);
                estimates[f] = InputEstimate.of(input, mq);
            }
            Tree tree = n <= MAX_EXHAUSTIVE ? exhaustive(inputs) : greedy(inputs);
            return finish(tree);
        }

        /** The cheapest bushy tree without cross products, by dynamic programming over the subsets of inputs. */
        private Tree exhaustive(List<RelNode> inputs) {
            int full = (1 << n) - 1;
            rows = new double[full + 1];
            cost = new double[full + 1];
            split = new int[full + 1];
            Arrays.fill(cost, Double.NaN);
            for (int f = 0; f < n; f++) {
                cost[1 << f] = 0;
            }
            for (int f = 0; f < n; f++) {
                rows[1 << f] = estimates[f].rows();
            }
            for (int set = 1; set <= full; set++) {
                if (Integer.bitCount(set) < 2) {
                    continue;
                }
                int lowest = Integer.lowestOneBit(set);
                // Each split once: the part with the lowest factor on the left.
                for (int left = (set - 1) & set; left > 0; left = (left - 1) & set) {
                    int right = set & ~left;
                    if ((left & lowest) == 0 || Double.isNaN(cost[left]) || Double.isNaN(cost[right])
                            || !connected(left, right)) {
                        continue;
                    }
                    double joined = joinRows(left, right);
                    // Every join also builds a hash table on one side, about the smaller: each build row is
                    // inserted at a random place of a table larger than the caches, which costs more than a
                    // probe row that streams past.
                    double c = cost[left] + cost[right] + joined + Math.min(rows[left], rows[right]);
                    if (Double.isNaN(cost[set]) || c < cost[set]) {
                        cost[set] = c;
                        split[set] = left;
                        rows[set] = joined;
                    }
                }
            }
            Tree tree;
            if (!Double.isNaN(cost[full])) {
                tree = build(full, inputs);
            } else {
                tree = crossJoinComponents(inputs, full);
            }
            return tree;
        }

        /**
         * Greedy operator ordering: starting from the inputs, joins the two subtrees connected by a condition whose
         * join has the fewest estimated rows (ties: the smaller larger input), until no two are connected; what is
         * left (parts no condition connects) is cross-joined, largest first.
         */
        private Tree greedy(List<RelNode> inputs) {
            List<Plan> plans = new ArrayList<>();
            for (int f = 0; f < n; f++) {
                plans.add(new Plan(1L << f, estimates[f].rows(), null, null, f));
            }
            while (plans.size() > 1) {
                int bestLeft = -1;
                int bestRight = -1;
                double bestRows = Double.POSITIVE_INFINITY;
                double bestLarger = Double.POSITIVE_INFINITY;
                for (int i = 0; i < plans.size(); i++) {
                    Plan a = plans.get(i);
                    for (int j = i + 1; j < plans.size(); j++) {
                        Plan b = plans.get(j);
                        if (!connected(a.set(), b.set())) {
                            continue;
                        }
                        double joined = joinRows(a.set(), a.rows(), b.set(), b.rows());
                        double larger = Math.max(a.rows(), b.rows());
                        if (joined < bestRows || (joined == bestRows && larger < bestLarger)) {
                            bestRows = joined;
                            bestLarger = larger;
                            bestLeft = i;
                            bestRight = j;
                        }
                    }
                }
                if (bestLeft < 0) {
                    break;
                }
                Plan a = plans.get(bestLeft);
                Plan b = plans.get(bestRight);
                plans.remove(bestRight);
                plans.remove(bestLeft);
                // The larger side left: the physical planner builds the smaller one anyway, this only reads better.
                plans.add(a.rows() >= b.rows() ? new Plan(a.set() | b.set(), bestRows, a, b, -1)
                        : new Plan(a.set() | b.set(), bestRows, b, a, -1));
            }
            plans.sort((x, y) -> Double.compare(y.rows(), x.rows()));
            Tree tree = build(plans.getFirst(), inputs);
            for (int i = 1; i < plans.size(); i++) {
                tree = join(tree, build(plans.get(i), inputs));
            }
            return tree;
        }

        /** A subtree the greedy search chose: one input ({@code left} null) or the join of two subtrees. */
        private record Plan(long set, double rows, Plan left, Plan right, int factor) {
        }

        private Tree build(Plan plan, List<RelNode> inputs) {
            if (plan.left() == null) {
                return new Tree(inputs.get(plan.factor()), new int[] {plan.factor()});
            }
            return join(build(plan.left(), inputs), build(plan.right(), inputs));
        }

        /** Sorts the join condition's conjuncts into per-factor filters, equality classes and other conditions. */
        private void classify(List<RexNode> conjuncts) {
            int total = factorOf.length;
            int[] parent = new int[total];
            Arrays.setAll(parent, i -> i);
            List<RexNode> multi = new ArrayList<>();
            for (RexNode c : conjuncts) {
                if (c.isAlwaysTrue()) {
                    continue;
                }
                long mask = factors(c);
                if (Long.bitCount(mask) <= 1) {
                    factorFilters.get(mask == 0 ? 0 : Long.numberOfTrailingZeros(mask)).add(c);
                } else if (c.getKind() == SqlKind.EQUALS && ((RexCall) c).getOperands().get(0) instanceof RexInputRef a
                        && ((RexCall) c).getOperands().get(1) instanceof RexInputRef b
                        && a.getType().getSqlTypeName() == b.getType().getSqlTypeName()) {
                    union(parent, a.getIndex(), b.getIndex());
                } else {
                    multi.add(c);
                }
            }
            Map<Integer, List<Integer>> members = new LinkedHashMap<>();
            for (int field = 0; field < total; field++) {
                members.computeIfAbsent(find(parent, field), k -> new ArrayList<>()).add(field);
            }
            members.values().removeIf(fields -> fields.size() < 2);
            for (List<Integer> fields : members.values()) {
                int[] classFields = fields.stream().mapToInt(Integer::intValue).toArray();
                classes.add(classFields);
                // Columns of one factor in one class are equal before any join: a filter of that factor.
                for (int i = 1; i < classFields.length; i++) {
                    for (int j = 0; j < i; j++) {
                        if (factorOf[classFields[i]] == factorOf[classFields[j]]) {
                            factorFilters.get(factorOf[classFields[i]]).add(equal(classFields[j], classFields[i]));
                            break;
                        }
                    }
                }
            }
            classMasks = new long[classes.size()];
            for (int k = 0; k < classMasks.length; k++) {
                for (int field : classes.get(k)) {
                    classMasks[k] |= 1L << factorOf[field];
                }
            }
            for (RexNode c : multi) {
                others.add(c);
                otherMasks.add(factors(c));
                deriveFilters(c);
            }
        }

        /** For an OR whose every branch restricts factor f on its own, f is also filtered by those restrictions. */
        private void deriveFilters(RexNode condition) {
            if (condition.getKind() != SqlKind.OR) {
                return;
            }
            List<RexNode> branches = RelOptUtil.disjunctions(condition);
            for (int f = 0; f < n; f++) {
                List<RexNode> derived = new ArrayList<>();
                for (RexNode branch : branches) {
                    long only = 1L << f;
                    List<RexNode> own = RelOptUtil.conjunctions(branch).stream()
                            .filter(c -> factors(c) == only).toList();
                    if (own.isEmpty()) {
                        derived = null;
                        break;
                    }
                    derived.add(RexUtil.composeConjunction(rex, own));
                }
                if (derived != null) {
                    factorFilters.get(f).add(RexUtil.composeDisjunction(rex, derived));
                }
            }
        }

        private long factors(RexNode node) {
            long mask = 0;
            for (int field : RelOptUtil.InputFinder.bits(node)) {
                mask |= 1L << factorOf[field];
            }
            return mask;
        }

        private RexNode equal(int a, int b) {
            return rex.makeCall(SqlStdOperatorTable.EQUALS, field(a), field(b));
        }

        private RexInputRef field(int global) {
            return rex.makeInputRef(multiJoin.getInputs().get(factorOf[global]).getRowType().getFieldList()
                    .get(global - start[factorOf[global]]).getType(), global);
        }

        private static int find(int[] parent, int i) {
            while (parent[i] != i) {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            return i;
        }

        private static void union(int[] parent, int a, int b) {
            int ra = find(parent, a);
            int rb = find(parent, b);
            if (ra != rb) {
                parent[Math.max(ra, rb)] = Math.min(ra, rb);
            }
        }

        /** Whether a condition joins the two disjoint sets of factors. */
        private boolean connected(long left, long right) {
            for (long mask : classMasks) {
                if ((mask & left) != 0 && (mask & right) != 0) {
                    return true;
                }
            }
            for (long mask : otherMasks) {
                if ((mask & left) != 0 && (mask & right) != 0 && (mask & ~(left | right)) == 0) {
                    return true;
                }
            }
            return false;
        }

        /**
         * The estimated rows of joining two sets of factors, each already joined: {@code |L| * |R| / D} times Calcite's
         * guess for each other condition the join completes. For each equality class with columns on both sides, a
         * side's distinct values are its columns' smallest count (they are equal there), at most its rows; the class
         * divides by the larger side's count (the smaller side's values taken as contained in the larger's). D, the
         * product over the classes, is at most the larger side's rows: the columns of several classes together are
         * still at most one distinct tuple a row (a composite key such as partsupp's is not counted twice).
         */
        private double joinRows(int left, int right) {
            return joinRows(left, rows[left], right, rows[right]);
        }

        private double joinRows(long left, double leftRows, long right, double rightRows) {
            double divisor = 1;
            for (int[] c : classes) {
                double leftDistinct = Double.NaN;
                double rightDistinct = Double.NaN;
                for (int field : c) {
                    int f = factorOf[field];
                    double d = estimates[f].distinct()[field - start[f]];
                    if ((left & (1L << f)) != 0) {
                        leftDistinct = Double.isNaN(leftDistinct) ? d : Math.min(leftDistinct, d);
                    } else if ((right & (1L << f)) != 0) {
                        rightDistinct = Double.isNaN(rightDistinct) ? d : Math.min(rightDistinct, d);
                    }
                }
                if (!Double.isNaN(leftDistinct) && !Double.isNaN(rightDistinct)) {
                    divisor *= Math.max(1, Math.max(Math.min(leftDistinct, leftRows),
                            Math.min(rightDistinct, rightRows)));
                }
            }
            double result = leftRows * rightRows / Math.min(divisor, Math.max(leftRows, rightRows));
            long both = left | right;
            for (int i = 0; i < others.size(); i++) {
                long mask = otherMasks.get(i);
                if ((mask & ~both) == 0 && (mask & ~left) != 0 && (mask & ~right) != 0) {
                    result *= RelMdUtil.guessSelectivity(others.get(i));
                }
            }
            return Math.max(1, result);
        }

        /** A built subtree: its plan and the factors whose fields it outputs, in order. */
        private record Tree(RelNode rel, int[] factors) {
        }

        private Tree build(int set, List<RelNode> inputs) {
            if (Integer.bitCount(set) == 1) {
                int f = Integer.numberOfTrailingZeros(set);
                return new Tree(inputs.get(f), new int[] {f});
            }
            int left = split[set];
            Tree l = build(left, inputs);
            Tree r = build(set & ~left, inputs);
            // The larger side left: the physical planner builds the smaller one anyway, this only reads better.
            if (rows[left] < rows[set & ~left]) {
                Tree t = l;
                l = r;
                r = t;
            }
            return join(l, r);
        }

        private Tree join(Tree l, Tree r) {
            long leftSet = mask(l.factors);
            long rightSet = mask(r.factors);
            int[] order = new int[l.factors.length + r.factors.length];
            System.arraycopy(l.factors, 0, order, 0, l.factors.length);
            System.arraycopy(r.factors, 0, order, l.factors.length, r.factors.length);
            List<RexNode> conditions = new ArrayList<>();
            for (int[] c : classes) {
                int fromLeft = -1;
                int fromRight = -1;
                for (int field : c) {
                    long bit = 1L << factorOf[field];
                    if (fromLeft < 0 && (leftSet & bit) != 0) {
                        fromLeft = field;
                    } else if (fromRight < 0 && (rightSet & bit) != 0) {
                        fromRight = field;
                    }
                }
                if (fromLeft >= 0 && fromRight >= 0) {
                    conditions.add(equal(fromLeft, fromRight));
                }
            }
            long both = leftSet | rightSet;
            for (int i = 0; i < others.size(); i++) {
                long mask = otherMasks.get(i);
                if ((mask & ~both) == 0 && (mask & ~leftSet) != 0 && (mask & ~rightSet) != 0) {
                    conditions.add(others.get(i));
                }
            }
            RexNode condition = remap(RexUtil.composeConjunction(rex, conditions), order);
            RelNode joined = builder.push(l.rel).push(r.rel).join(JoinRelType.INNER, condition).build();
            return new Tree(joined, order);
        }

        /** Inputs the conditions do not connect: each connected part ordered, then the parts cross-joined. */
        private Tree crossJoinComponents(List<RelNode> inputs, int full) {
            List<Integer> components = new ArrayList<>();
            int left = full;
            while (left != 0) {
                int best = 0;
                for (int set = left; set > 0; set = (set - 1) & left) {
                    if (!Double.isNaN(cost[set]) && Integer.bitCount(set) > Integer.bitCount(best)
                            && (set & Integer.lowestOneBit(left)) != 0) {
                        best = set;
                    }
                }
                components.add(best);
                left &= ~best;
            }
            components.sort((a, b) -> Double.compare(rows[b], rows[a]));
            Tree tree = build(components.getFirst(), inputs);
            for (int i = 1; i < components.size(); i++) {
                tree = join(tree, build(components.get(i), inputs));
            }
            return tree;
        }

        /** The tree's fields back in the multi-way join's order, under the conditions no join used. */
        private RelNode finish(Tree tree) {
            int[] position = positions(tree.factors);
            builder.push(tree.rel);
            List<RexNode> fields = new ArrayList<>();
            for (int g = 0; g < factorOf.length; g++) {
                fields.add(builder.field(position[g]));
            }
            return builder.project(fields, multiJoin.getRowType().getFieldNames(), true).build();
        }

        private RexNode remap(RexNode condition, int[] order) {
            int[] position = positions(order);
            return condition.accept(new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef ref) {
                    return new RexInputRef(position[ref.getIndex()], ref.getType());
                }
            });
        }

        /** For each global field of the factors in {@code order}, its position in their concatenation. */
        private int[] positions(int[] order) {
            int[] position = new int[factorOf.length];
            Arrays.fill(position, -1);
            int at = 0;
            for (int f : order) {
                for (int i = 0; i < fieldCount[f]; i++) {
                    position[start[f] + i] = at++;
                }
            }
            return position;
        }

        private static long mask(int[] factors) {
            long mask = 0;
            for (int f : factors) {
                mask |= 1L << f;
            }
            return mask;
        }
    }
}
