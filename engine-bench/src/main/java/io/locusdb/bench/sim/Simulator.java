package io.locusdb.bench.sim;

import io.locusdb.core.exec.StealingPolicy;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskClasses;
import io.locusdb.core.exec.elastic.CoreAllocation;
import io.locusdb.core.exec.elastic.ElasticConfig;
import io.locusdb.core.exec.elastic.ElasticCoreController;
import io.locusdb.core.exec.stealing.StealingPolicies;
import io.locusdb.core.placer.AdaptiveDataPlacer;
import io.locusdb.core.placer.PlacementPolicy;
import io.locusdb.core.placer.PlacementUnit;
import io.locusdb.core.placer.PlacerDecision;
import io.locusdb.core.placer.PlacerParameters;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;

/**
 * A discrete-event simulation of LocusDB's executor and placer on a {@link MachineModel}, driving the engine's own
 * policies on simulated time: the {@link StealingPolicy} on every inter-node steal, {@link TaskClass} averages fed
 * with the simulated tasks' throughput, {@link io.locusdb.core.placer.UtilizationHistory utilization histories}
 * per table part sampled as the placer service samples them, and the {@link AdaptiveDataPlacer} deciding every
 * period, its moves and partitions taking the machine's µs per page one after another, its merges side by side.
 *
 * <p>Workers mirror the executor: one per hardware thread, a task queue per node, a free worker takes the oldest
 * task of its own node, else steals the oldest task the policy allows from the nearest node. A running task
 * advances at a speed set by its CPU time and the memory bandwidth it is granted; grants are recomputed every
 * tick by sharing each node's memory bandwidth and each path's bandwidth among the tasks reading over them
 * (proportional fair share, iterated), and task completions between ticks are exact events. Deterministic: the
 * same scenario, machine and seed give the same result.
 */
public final class Simulator {
    /**
     * @param tickMicros     how often bandwidth grants are recomputed
     * @param observeMicros  readings of the histories between samples
     * @param sampleMicros   the refreshers' sample period (100 ms in the paper)
     */
    public record Settings(long seed, TaskCosts costs, double tickMicros, long observeMicros, long sampleMicros) {
        public static Settings defaults(long seed) {
            return new Settings(seed, TaskCosts.defaults(), 1000, 10_000, 100_000);
        }

        public Settings withCosts(TaskCosts fitted) {
            return new Settings(seed, fitted, tickMicros, observeMicros, sampleMicros);
        }
    }

    private static final int GRANT_ITERATIONS = 8;
    /** Below this many groups a merge task takes the shares of several local tables (see {@link #mergeTasks}). */
    private static final double MIN_MERGE_GROUPS_PER_TASK = 4096;
    /** Grants count as settled when no controller or path is oversubscribed by more than this fraction. */
    private static final double SETTLED = 0.002;
    private static final double RESCHEDULE = 0.002;

    private final MachineModel m;
    private final Scenario scenario;
    private final Settings settings;
    /** The settings' costs with the scenario's own step costs. */
    private final TaskCosts costs;
    private final int nodes;
    private final int perNode;
    private final Random random;
    private final TaskClasses classes = TaskClasses.standalone(0.1);
    private final TaskClass ivScan;
    private final TaskClass materialize;
    private final TaskClass aggregate;
    private final TaskClass aggMerge;
    private final TaskClass joinProbe;
    private final TaskClass dispatch;
    private final StealingPolicy stealing;
    private final PlacementPolicy placer;
    private final PlacerParameters parameters;
    private final int[][] stealingOrder;
    private final Map<String, SimTable> tables = new LinkedHashMap<>();
    /** The tables of each table group, its first table leading (its parts' histories are the group's). */
    private final Map<String, List<SimTable>> groupTables = new LinkedHashMap<>();
    private final Map<String, Scenario.Template> templates = new LinkedHashMap<>();

    @SuppressWarnings("unchecked")
    private final ArrayDeque<SimTask>[][] queues;
    private final SimTask[] running;
    private final int[][] idle;
    private final int[] idleCount;
    private final List<SimTask> runningList = new ArrayList<>();
    private final PriorityQueue<Finish> finishes = new PriorityQueue<>();
    private long sequence;
    private long versions;
    private double now;

    /** Bytes per microsecond one thread of node a streams from node b, at [a * nodes + b]. */
    private final double[] threadCap;
    /** Bytes per microsecond the path from node a to node b carries, at [a * nodes + b]. */
    private final double[] pathCap;
    private final double[] nodeScale;
    private final double[] pathScale;
    private final double[] nodeDemand;
    private final double[] pathDemand;
    private final int[] nodeReaders;
    private final int[] pathReaders;
    /**
     * The paths some running task reads over, listed once each (a stamp per path marks the listed ones): a
     * 32-node machine has 1,024 paths and the grants are recomputed every tick, so only these are visited.
     */
    private final int[] activePaths;
    private final int[] pathStamp;
    private int activeCount;
    private int stamp;

    private final List<Client> clients = new ArrayList<>();
    private final int groups;
    private final double[][] completions;
    private final double[][] busy;
    private final double[][] own;
    private final double[][] bytesRead;
    private final double[] imbalance;
    private long tasksRun;
    private long tasksStolen;
    private double bytesTotal;
    private double bytesRemote;

    /** The elastic allocation (null: every hardware thread works); worker w is CPU w. */
    private final ElasticCoreController elastic;
    private final boolean[] parked;
    private final long[] activity;
    private double busyIntegral;
    private final double[] allocated;

    private final Set<String> inFlight = new HashSet<>();
    private final Set<String> partitionedByPlacer = new HashSet<>();
    private int movesInFlight;
    private double actuatorFreeAt;
    private final List<PendingAction> pendingActions = new ArrayList<>();
    private final List<SimEvent> events = new ArrayList<>();

    private record Finish(double time, int worker, long version) implements Comparable<Finish> {
        @Override
        public int compareTo(Finish o) {
            int c = Double.compare(time, o.time);
            return c != 0 ? c : Integer.compare(worker, o.worker);
        }
    }

    private record PendingAction(double done, PlacerDecision decision, double decided, double started) {
    }

    private final class Client {
        final int group;
        final int id;
        final Scenario.ClientSpec spec;
        final String table;
        final String joined;
        /** For a mix: its templates and their cumulative weights. */
        final List<Scenario.Template> mix;
        final double[] cumulative;

        Client(int group, int id, Scenario.ClientSpec spec, String table, String joined,
               List<Scenario.Template> mix) {
            this.group = group;
            this.id = id;
            this.spec = spec;
            this.table = table;
            this.joined = joined;
            this.mix = mix;
            this.cumulative = new double[mix.size()];
            double sum = 0;
            for (int k = 0; k < mix.size(); k++) {
                sum += mix.get(k).weight();
                cumulative[k] = sum;
            }
        }

        Scenario.Template draw() {
            double x = random.nextDouble() * cumulative[cumulative.length - 1];
            int k = 0;
            while (k < cumulative.length - 1 && cumulative[k] <= x) {
                k++;
            }
            return mix.get(k);
        }
    }

    public Simulator(MachineModel machine, Scenario scenario, Settings settings) {
        this.m = machine;
        this.scenario = scenario;
        this.settings = settings;
        TaskCosts effective = settings.costs();
        for (Scenario.StepCost cost : scenario.costs()) {
            effective = effective.with(cost);
        }
        this.costs = effective;
        this.nodes = machine.nodes();
        this.perNode = machine.threadsPerNode();
        this.random = new Random(settings.seed());
        this.ivScan = classes.of("iv-scan");
        this.materialize = classes.of("materialize");
        this.aggregate = classes.of("aggregate");
        this.aggMerge = classes.of("agg-merge");
        this.joinProbe = classes.of("join-probe");
        this.dispatch = classes.of("dispatch");
        this.stealing = switch (scenario.stealing()) {
            case "always" -> StealingPolicies.always();
            case "never" -> StealingPolicies.never();
            default -> StealingPolicies.adaptive(machine.stealingThreshold());
        };
        this.parameters = PlacerParameters.defaults(perNode, machine.localBandwidth(), machine.moveMicrosPerPage(),
                machine.partitionMicrosPerPage());
        this.placer = new AdaptiveDataPlacer(parameters);
        this.stealingOrder = new int[nodes][];
        for (int n = 0; n < nodes; n++) {
            stealingOrder[n] = machine.stealingOrder(n);
        }
        for (Scenario.TableSpec t : scenario.tables()) {
            for (int node : t.nodes()) {
                if (node >= nodes) {
                    throw new IllegalArgumentException("table " + t.name() + " is placed on node " + node + ", but "
                            + machine.name() + " has " + nodes + " nodes");
                }
            }
            if (t.threadsOn() >= nodes) {
                throw new IllegalArgumentException("table " + t.name() + " runs its tasks on node " + t.threadsOn()
                        + ", but " + machine.name() + " has " + nodes + " nodes");
            }
            Scenario.GroupSpec group = scenario.groupOf(t.name());
            SimTable table = new SimTable(t.name(), t.rows() > 0 ? t.rows() : scenario.rows(), t.rowBytes(),
                    group == null ? null : group.name(), t.nodes(), t.placerPartitioned(), t.threadsOn());
            tables.put(t.name(), table);
            if (t.placerPartitioned()) {
                partitionedByPlacer.add(table.ownerKey());
            }
        }
        for (Scenario.GroupSpec g : scenario.groups()) {
            List<SimTable> members = g.tables().stream().map(tables::get).toList();
            for (SimTable member : members) {
                member.shareHistoriesOf(members.getFirst());
            }
            groupTables.put(g.name(), members);
        }
        for (Scenario.Template t : scenario.templates()) {
            templates.put(t.name(), t);
        }
        int classCount = classes.size();
        this.queues = new ArrayDeque[nodes][classCount];
        for (int n = 0; n < nodes; n++) {
            for (int c = 0; c < classCount; c++) {
                queues[n][c] = new ArrayDeque<>();
            }
        }
        this.running = new SimTask[nodes * perNode];
        this.idle = new int[nodes][perNode];
        this.idleCount = new int[nodes];
        for (int n = 0; n < nodes; n++) {
            for (int k = 0; k < perNode; k++) {
                idle[n][k] = n * perNode + perNode - 1 - k;
            }
            idleCount[n] = perNode;
        }
        this.threadCap = new double[nodes * nodes];
        this.pathCap = new double[nodes * nodes];
        for (int a = 0; a < nodes; a++) {
            for (int b = 0; b < nodes; b++) {
                threadCap[a * nodes + b] = machine.threadBandwidth(a, b) / 1e6;
                pathCap[a * nodes + b] = machine.pathBandwidth(a, b) / 1e6;
            }
        }
        this.nodeScale = new double[nodes];
        this.pathScale = new double[nodes * nodes];
        this.nodeDemand = new double[nodes];
        this.pathDemand = new double[nodes * nodes];
        this.nodeReaders = new int[nodes];
        this.pathReaders = new int[nodes * nodes];
        this.activePaths = new int[nodes * nodes];
        this.pathStamp = new int[nodes * nodes];
        Arrays.fill(nodeScale, 1);
        Arrays.fill(pathScale, 1);
        int group = 0;
        for (Scenario.ClientSpec spec : scenario.clients()) {
            if (spec.query() == Scenario.ClientSpec.MIX) {
                List<Scenario.Template> mix = spec.templates().stream().map(templates::get).toList();
                for (int k = 0; k < spec.count(); k++) {
                    clients.add(new Client(group, clients.size(), spec, null, null, mix));
                }
                group++;
                continue;
            }
            List<String> names = spec.tables();
            for (int t = 0; t < names.size(); t++) {
                String joined = names.get((t + 1) % names.size());
                for (int k = 0; k < spec.count(); k++) {
                    clients.add(new Client(group, clients.size(), spec, names.get(t), joined, List.of()));
                }
            }
            group++;
        }
        this.groups = group;
        int seconds = (int) Math.ceil(scenario.seconds());
        this.completions = new double[seconds][groups];
        this.busy = new double[seconds][nodes];
        this.own = new double[seconds][nodes];
        this.bytesRead = new double[seconds][nodes];
        this.imbalance = new double[seconds];
        this.allocated = new double[seconds];
        this.parked = new boolean[nodes * perNode];
        this.activity = new long[nodes];
        if (scenario.cores().equals("all")) {
            this.elastic = null;
        } else {
            this.elastic = new ElasticCoreController(new CoreAllocation(machine.topology()),
                    ElasticConfig.of(ElasticConfig.mode(scenario.cores())));
            elastic.allocateInitial(activity);
            for (int n = 0; n < nodes; n++) {
                idleCount[n] = 0;
                for (int k = perNode - 1; k >= 0; k--) {
                    int worker = n * perNode + k;
                    if (elastic.allocation().isAllocated(worker)) {
                        idle[n][idleCount[n]++] = worker;
                    } else {
                        parked[worker] = true;
                    }
                }
            }
        }
    }

    public SimResult run(String label) {
        long wallStart = System.nanoTime();
        double end = scenario.seconds() * 1e6;
        double tick = settings.tickMicros();
        List<Client> waiting = new ArrayList<>(clients);
        waiting.sort((a, b) -> Double.compare(a.spec.from(), b.spec.from()));
        int nextClient = 0;
        long nextObserve = settings.observeMicros();
        long nextSample = settings.sampleMicros();
        long nextPlacer = parameters.periodMicros();
        long elasticPeriod = elastic == null ? Long.MAX_VALUE : elastic.config().period().toNanos() / 1000;
        long nextElastic = elasticPeriod;
        while (now < end) {
            double tickEnd = Math.min(now + tick, end);
            Finish f;
            while ((f = finishes.peek()) != null && f.time < tickEnd) {
                finishes.poll();
                SimTask task = running[f.worker];
                if (task == null || task.version != f.version) {
                    continue;
                }
                advanceTo(f.time);
                complete(task);
            }
            advanceTo(tickEnd);
            while (nextClient < waiting.size() && waiting.get(nextClient).spec.from() * 1e6 <= now) {
                issue(waiting.get(nextClient++));
            }
            while (!pendingActions.isEmpty() && pendingActions.getFirst().done <= now) {
                apply(pendingActions.removeFirst());
            }
            if (now >= nextObserve) {
                nextObserve += settings.observeMicros();
                boolean sample = now >= nextSample;
                if (sample) {
                    nextSample += settings.sampleMicros();
                }
                refreshHistories(sample);
            }
            if (now >= nextElastic) {
                nextElastic += elasticPeriod;
                elasticStep(elasticPeriod);
            }
            if (now >= nextPlacer) {
                nextPlacer += parameters.periodMicros();
                if (scenario.placerFrom() >= 0 && now >= scenario.placerFrom() * 1e6) {
                    placeOnce();
                }
            }
            recomputeGrants();
        }
        double stolen = tasksRun == 0 ? 0 : (double) tasksStolen / tasksRun;
        double[][] memory = new double[bytesRead.length][nodes];
        for (int s = 0; s < bytesRead.length; s++) {
            for (int n = 0; n < nodes; n++) {
                memory[s][n] = bytesRead[s][n] / 1e9;
            }
        }
        Map<String, Double> learnt = new LinkedHashMap<>();
        for (TaskClass c : classes.all()) {
            if (c.sampleCount() > 0) {
                learnt.put(c.name(), c.averageThroughput());
            }
        }
        return new SimResult(label, m, scenario, completions, busy, own, memory, imbalance, List.copyOf(events),
                stolen, bytesTotal == 0 ? 0 : bytesRemote / bytesTotal, allocated, learnt,
                (System.nanoTime() - wallStart) / 1e9, layout());
    }

    private Map<String, List<Integer>> layout() {
        Map<String, List<Integer>> out = new LinkedHashMap<>();
        for (SimTable table : tables.values()) {
            out.put(table.name, table.parts.stream().map(p -> p.node).toList());
        }
        return out;
    }

    /** Moves the clock to {@code t}, accounting busy threads per node over the interval. */
    private void advanceTo(double t) {
        if (t <= now) {
            return;
        }
        double from = now;
        while (from < t) {
            int second = (int) (from / 1e6);
            if (second >= busy.length) {
                break;
            }
            double until = Math.min(t, (second + 1) * 1e6);
            double share = (until - from) / 1e6;
            for (int n = 0; n < nodes; n++) {
                busy[second][n] += (perNode - idleCount[n] - parkedIdle(n)) * share;
            }
            allocated[second] += (elastic == null ? m.threads() : elastic.allocation().allocatedCount()) * share;
            busyIntegral += runningList.size() * (until - from);
            from = until;
        }
        now = t;
    }

    // ---------------------------------------------------------------------------------------------------- queries

    private void issue(Client client) {
        SimQuery query = new SimQuery(client.group, client.id, now);
        Scenario.Template template = client.mix.isEmpty() ? null : client.draw();
        SimTable table = tables.get(template == null ? client.table : template.steps().getFirst().table());
        double selectivity = client.spec.selectivity();
        TaskCosts c = costs;
        if (c.queryOverheadMicros() > 0) {
            // Planning, dispatch and results run on the client's or the session's thread, which the operating
            // system schedules on any core: charged to a random node, not to the data's.
            SimTable.Part first = table.parts.getFirst();
            query.phases.add(() -> List.of(new SimTask(dispatch, query, first, random.nextInt(nodes),
                    c.queryOverheadMicros(), 0, sequence++)));
        }
        switch (client.spec.query()) {
            case Scenario.ClientSpec.MIX -> {
                for (Scenario.Step step : template.steps()) {
                    query.phases.add(() -> stepTasks(query, step));
                }
            }
            case 'a' -> {
                int bits = SimTable.FIRST_BITCASE + random.nextInt(SimTable.COLUMNS);
                query.phases.add(() -> scanTasks(query, table, bits));
                query.phases.add(() -> perMatchTasks(query, table, selectivity, materialize,
                        c.materializeNanosPerRow(), c.materializeBytesPerRow()));
            }
            case 'b' -> {
                int bits = SimTable.FIRST_BITCASE + 1 + random.nextInt(SimTable.COLUMNS - 1);
                query.phases.add(() -> scanTasks(query, table, bits));
                query.phases.add(() -> perMatchTasks(query, table, selectivity, aggregate,
                        c.aggregateNanosPerRow(), c.aggregateBytesPerRow()));
                double domain = 1L << SimTable.FIRST_BITCASE;
                query.phases.add(() -> finalAggregationTasks(query, table, table.parts.stream()
                        .mapToDouble(p -> distinct(domain, Math.max(1, p.rows * selectivity))).toArray(),
                        distinct(domain, Math.max(1, table.rows * selectivity))));
            }
            case 'c' -> {
                int bits = SimTable.FIRST_BITCASE + random.nextInt(SimTable.COLUMNS);
                SimTable other = tables.get(client.joined);
                query.phases.add(() -> scanTasks(query, table, bits));
                query.phases.add(() -> perMatchTasks(query, other, selectivity * table.rows / other.rows,
                        joinProbe, c.probeNanosPerRow(), c.probeBytesPerRow()));
            }
            default -> throw new IllegalStateException("query type " + client.spec.query());
        }
        nextPhase(query);
    }

    /** One step of a template: a phase of tasks over every part of the step's table. */
    private List<SimTask> stepTasks(SimQuery query, Scenario.Step step) {
        SimTable table = tables.get(step.table());
        TaskCosts c = costs;
        return switch (step.kind()) {
            case "scan" -> scanTasks(query, table, step.amount());
            case "materialize" -> perMatchTasks(query, table, step.amount(), materialize, c.materializeNanosPerRow(),
                    c.materializeBytesPerRow());
            case "aggregate" -> perMatchTasks(query, table, step.amount(), aggregate, c.aggregateNanosPerRow(),
                    c.aggregateBytesPerRow());
            case "probe" -> perMatchTasks(query, table, step.amount(), joinProbe, c.probeNanosPerRow(),
                    c.probeBytesPerRow());
            case "merge" -> finalAggregationTasks(query, table,
                    table.parts.stream().mapToDouble(p -> step.amount()).toArray(), step.amount());
            default -> throw new IllegalStateException("step " + step.kind());
        };
    }

    private List<SimTask> scanTasks(SimQuery query, SimTable table, double bits) {
        List<SimTask> tasks = new ArrayList<>();
        long taskRows = costs.taskRows();
        for (SimTable.Part part : table.parts) {
            long pieces = Math.max(1, (part.rows + taskRows - 1) / taskRows);
            for (long k = 0; k < pieces; k++) {
                long rows = SimTable.share(part.rows, (int) k, (int) pieces);
                tasks.add(new SimTask(ivScan, query, part, home(table, part),
                        rows * costs.ivScanNanosPerRow() / 1000,
                        rows * bits / 8.0 * costs.ivScanByteFactor(), sequence++));
            }
        }
        return tasks;
    }

    /** Work per matching row, split into tasks of at most a tenth of a scan task's rows (parallel materialization). */
    private List<SimTask> perMatchTasks(SimQuery query, SimTable table, double selectivity, TaskClass taskClass,
                                        double nanosPerRow, double bytesPerRow) {
        List<SimTask> tasks = new ArrayList<>();
        long chunk = Math.max(1, costs.taskRows() / 10);
        for (SimTable.Part part : table.parts) {
            double matches = part.rows * selectivity;
            if (matches < 1) {
                matches = 1;
            }
            long pieces = Math.max(1, (long) Math.ceil(matches / chunk));
            double rows = matches / pieces;
            for (long k = 0; k < pieces; k++) {
                tasks.add(new SimTask(taskClass, query, part, home(table, part), rows * nanosPerRow / 1000,
                        rows * bytesPerRow, sequence++));
            }
        }
        return tasks;
    }

    /**
     * The aggregation's merge as the adaptive-placement paper's §4 describes it: the result is split into disjoint
     * tables, one per part and placed on that part's node; the task merging into result table r reads its share of
     * the groups from every part's local table, so with P parts it reads P-1 of its P shares from other nodes. A task
     * reads one node's memory here, so each result table's merge is a task per local table it reads, queued to the
     * result table's node and reading the local table's. Where those shares are small (fewer than 4,096 groups in
     * a task) the shares of neighbouring parts are merged by one task, starting with the result table's own part,
     * and read from that first part's node: a merge of four groups over 32 parts is then 32 local tasks, not a
     * thousand, and its few remote reads are left out (the paper: the merge's remote accesses grow with the groups).
     * The work is P × {@code groups} however it is bunched.
     */
    private List<SimTask> mergeTasks(SimQuery query, SimTable table, double groups) {
        List<SimTask> tasks = new ArrayList<>();
        List<SimTable.Part> parts = table.parts;
        int count = parts.size();
        double share = groups / count;
        int perTask = (int) Math.min(count, Math.max(1, Math.ceil(MIN_MERGE_GROUPS_PER_TASK / share)));
        for (int r = 0; r < count; r++) {
            int node = home(table, parts.get(r));
            for (int k = 0; k < count; k += perTask) {
                double work = share * Math.min(perTask, count - k);
                tasks.add(new SimTask(aggMerge, query, parts.get((r + k) % count), node,
                        work * costs.mergeNanosPerGroup() / 1000, work * costs.mergeBytesPerGroup(), sequence++));
            }
        }
        return tasks;
    }

    /**
     * The phase a partitioned aggregation adds (the paper's §4): the parts have dictionaries of their own, so the
     * group column's value IDs of each part's qualifying rows are matched into one global dictionary, which lies on
     * one of the parts' nodes (the first part's here) and which every part's task reads and extends. One task per
     * part, queued to the part's node, reading the global dictionary's node; {@code groupsPerPart} distinct values
     * per part, at the merge's cost per group. Nothing for an unpartitioned table. A template's {@code merge T G}
     * gives each part all G groups, which overstates the dictionary where the groups follow the partitioning key.
     */
    private List<SimTask> globalDictionaryTasks(SimQuery query, SimTable table, double[] groupsPerPart) {
        if (table.parts.size() < 2) {
            return List.of();
        }
        List<SimTask> tasks = new ArrayList<>();
        SimTable.Part dictionary = table.parts.getFirst();
        for (SimTable.Part part : table.parts) {
            double groups = groupsPerPart[part.index];
            tasks.add(new SimTask(aggMerge, query, dictionary, home(table, part),
                    groups * costs.mergeNanosPerGroup() / 1000, groups * costs.mergeBytesPerGroup(), sequence++));
        }
        return tasks;
    }

    /**
     * What an aggregation does after its part-local tables are filled: the global dictionary of a partitioned
     * table and the merge, in one phase (the simulator's throughput does not depend on their order).
     */
    private List<SimTask> finalAggregationTasks(SimQuery query, SimTable table, double[] groupsPerPart,
                                                double groups) {
        List<SimTask> tasks = new ArrayList<>(globalDictionaryTasks(query, table, groupsPerPart));
        tasks.addAll(mergeTasks(query, table, groups));
        return tasks;
    }

    /** Distinct values among {@code rows} rows drawn uniformly from a domain of {@code domain} values. */
    static double distinct(double domain, double rows) {
        return domain * -Math.expm1(-rows / domain);
    }

    /** The node whose queue gets a task of {@code part}: the part's own unless the table's layout says otherwise. */
    private int home(SimTable table, SimTable.Part part) {
        return switch (table.threadsOn) {
            case Scenario.TableSpec.DATA_NODE -> part.node;
            case Scenario.TableSpec.ANY_NODE -> random.nextInt(nodes);
            default -> table.threadsOn;
        };
    }

    private void nextPhase(SimQuery query) {
        while (true) {
            query.phase++;
            if (query.phase >= query.phases.size()) {
                finishQuery(query);
                return;
            }
            List<SimTask> tasks = query.phases.get(query.phase).get();
            if (tasks.isEmpty()) {
                continue;
            }
            query.pending = tasks.size();
            for (SimTask task : tasks) {
                enqueue(task);
            }
            return;
        }
    }

    private void finishQuery(SimQuery query) {
        int second = (int) (now / 1e6);
        if (second < completions.length) {
            completions[second][query.group]++;
        }
        Client client = clients.get(query.client);
        if (now < client.spec.to() * 1e6) {
            issue(client);
        }
    }

    // ---------------------------------------------------------------------------------------------------- workers

    private void enqueue(SimTask task) {
        int home = task.homeNode;
        if (idleCount[home] > 0) {
            start(task, idle[home][--idleCount[home]]);
            return;
        }
        for (int thief : stealingOrder[home]) {
            if (idleCount[thief] > 0 && stealing.maySteal(task.taskClass, home, thief)) {
                start(task, idle[thief][--idleCount[thief]]);
                return;
            }
        }
        queues[home][task.taskClass.id()].addLast(task);
    }

    private void start(SimTask task, int worker) {
        int node = worker / perNode;
        task.worker = worker;
        task.dataNode = task.part.node;
        task.local = node == task.dataNode;
        task.startedAt = now;
        task.updatedAt = now;
        running[worker] = task;
        task.slot = runningList.size();
        runningList.add(task);
        tasksRun++;
        if (node != task.homeNode) {
            tasksStolen++;
        }
        if (task.local) {
            task.trackedBytesPerSecond = (long) task.taskClass.averageThroughput();
            task.part.threads.add(1);
            task.part.memory.add(task.trackedBytesPerSecond);
        }
        double scale = Math.min(nodeScale[task.dataNode], task.local ? 1 : pathScale[node * nodes + task.dataNode]);
        task.grant = threadCap[node * nodes + task.dataNode] * Math.min(1, scale);
        task.speed = 1 / task.timeAt(task.grant);
        schedule(task);
    }

    private void schedule(SimTask task) {
        // Versions are global: a worker's next task must not match a stale finish of its previous one.
        task.version = ++versions;
        finishes.add(new Finish(now + task.remaining / task.speed, task.worker, task.version));
    }

    private void complete(SimTask task) {
        int worker = task.worker;
        running[worker] = null;
        SimTask last = runningList.removeLast();
        if (last != task) {
            runningList.set(task.slot, last);
            last.slot = task.slot;
        }
        if (task.local) {
            task.part.threads.add(-1);
            task.part.memory.add(-task.trackedBytesPerSecond);
            // As the executor does: only tasks on their own node teach the class its memory intensity.
            task.taskClass.recordThroughput((long) task.bytes, (long) ((now - task.startedAt) * 1000));
        }
        int second = (int) (now / 1e6);
        if (second < bytesRead.length) {
            bytesRead[second][task.dataNode] += task.bytes;
        }
        bytesTotal += task.bytes;
        if (!task.local) {
            bytesRemote += task.bytes;
        }
        activity[task.dataNode] += (long) task.bytes;
        SimQuery query = task.query;
        if (--query.pending == 0) {
            nextPhase(query);
        }
        if (elastic != null && !elastic.allocation().isAllocated(worker)) {
            // Its core was withdrawn while it ran: the worker parks after its task, as the executor's do.
            parked[worker] = true;
            return;
        }
        becomeFree(worker);
    }

    private void becomeFree(int worker) {
        SimTask next = next(worker / perNode);
        if (next != null) {
            start(next, worker);
        } else {
            int node = worker / perNode;
            idle[node][idleCount[node]++] = worker;
        }
    }

    /** Parked workers that are not running a task (they are neither idle nor busy). */
    private int parkedIdle(int node) {
        if (elastic == null) {
            return 0;
        }
        int count = 0;
        for (int k = 0; k < perNode; k++) {
            int worker = node * perNode + k;
            count += parked[worker] && running[worker] == null ? 1 : 0;
        }
        return count;
    }

    /**
     * One period of the elastic allocation: the load is the time-averaged share of the allocated cores running a
     * task; the engine's controller adds or withdraws a core; an added core's worker starts taking tasks, a
     * withdrawn idle one parks at once, a withdrawn busy one after its task.
     */
    private void elasticStep(long periodMicros) {
        double load = busyIntegral / (elastic.allocation().allocatedCount() * (double) periodMicros);
        busyIntegral = 0;
        ElasticCoreController.Step step = elastic.step(Math.min(1, load), activity.clone());
        Arrays.fill(activity, 0);
        if (step.withdrawnCpu() >= 0) {
            int worker = step.withdrawnCpu();
            int node = worker / perNode;
            for (int k = 0; k < idleCount[node]; k++) {
                if (idle[node][k] == worker) {
                    idle[node][k] = idle[node][--idleCount[node]];
                    parked[worker] = true;
                    break;
                }
            }
        }
        if (step.addedCpu() >= 0 && parked[step.addedCpu()]) {
            int worker = step.addedCpu();
            parked[worker] = false;
            if (running[worker] == null) {
                becomeFree(worker);
            }
        }
    }

    /** The oldest task of the node's own queues, else the oldest the policy lets it steal from the nearest node. */
    private SimTask next(int node) {
        SimTask own = oldest(node, node);
        if (own != null) {
            return own;
        }
        for (int victim : stealingOrder[node]) {
            SimTask stolen = oldest(victim, node);
            if (stolen != null) {
                return stolen;
            }
        }
        return null;
    }

    private SimTask oldest(int owner, int thief) {
        ArrayDeque<SimTask> best = null;
        for (ArrayDeque<SimTask> q : queues[owner]) {
            SimTask head = q.peekFirst();
            if (head == null || (owner != thief && !stealing.maySteal(head.taskClass, owner, thief))) {
                continue;
            }
            if (best == null || head.sequence < best.peekFirst().sequence) {
                best = q;
            }
        }
        return best == null ? null : best.pollFirst();
    }

    /**
     * Shares memory bandwidth: every running task asks for what its speed alone would read; a node's controller and
     * a path between two nodes scale down the grants of the tasks over them when asked for more than they carry,
     * and grants grow back (up to the thread's own bandwidth) where there is room. Then every task whose speed
     * changed gets a new finishing time.
     */
    private void recomputeGrants() {
        if (runningList.isEmpty()) {
            return;
        }
        // Paths read over at the last tick and not now carry nothing: a task starting over one gets its full share.
        for (int k = 0; k < activeCount; k++) {
            pathScale[activePaths[k]] = 1;
        }
        activeCount = 0;
        stamp++;
        for (SimTask t : runningList) {
            t.remaining = Math.max(0, t.remaining - t.speed * (now - t.updatedAt));
            t.updatedAt = now;
            t.cap = threadCap[(t.worker / perNode) * nodes + t.dataNode];
            t.path = t.local ? -1 : (t.worker / perNode) * nodes + t.dataNode;
            t.grant = t.cap;
            if (t.path >= 0 && pathStamp[t.path] != stamp) {
                pathStamp[t.path] = stamp;
                activePaths[activeCount++] = t.path;
            }
        }
        double local = m.localBandwidth() / 1e6;
        for (int it = 0; it < GRANT_ITERATIONS; it++) {
            Arrays.fill(nodeDemand, 0);
            for (int k = 0; k < activeCount; k++) {
                pathDemand[activePaths[k]] = 0;
            }
            for (SimTask t : runningList) {
                double demand = t.demandAt(t.grant);
                nodeDemand[t.dataNode] += demand;
                if (t.path >= 0) {
                    pathDemand[t.path] += demand;
                }
            }
            boolean settled = true;
            for (int n = 0; n < nodes; n++) {
                nodeScale[n] = nodeDemand[n] > 0 ? local / nodeDemand[n] : 1;
                settled &= nodeScale[n] >= 1 || nodeScale[n] > 1 - SETTLED;
            }
            for (int k = 0; k < activeCount; k++) {
                int p = activePaths[k];
                pathScale[p] = pathDemand[p] > 0 ? pathCap[p] / pathDemand[p] : 1;
                settled &= pathScale[p] >= 1 || pathScale[p] > 1 - SETTLED;
            }
            boolean last = settled || it == GRANT_ITERATIONS - 1;
            for (SimTask t : runningList) {
                double scale = nodeScale[t.dataNode];
                if (t.path >= 0) {
                    scale = Math.min(scale, pathScale[t.path]);
                }
                // The last round only scales down: what a task is granted never adds up past a controller or path.
                t.grant = Math.min(t.cap, t.grant * (last ? Math.min(1, scale) : scale));
            }
            if (last) {
                break;
            }
        }
        for (SimTask t : runningList) {
            double speed = 1 / t.timeAt(t.grant);
            // Small changes wait for a later tick: each reschedule costs a heap entry, and a task's speed that is off
            // by a fraction of a percent for a millisecond changes nothing the figures show.
            if (Math.abs(speed - t.speed) > RESCHEDULE * t.speed) {
                t.speed = speed;
                schedule(t);
            }
        }
        // What a task starting before the next tick gets: the share of its own bandwidth that the tasks already
        // reading over the same controller (and path) get now.
        Arrays.fill(nodeScale, 0);
        for (int k = 0; k < activeCount; k++) {
            pathScale[activePaths[k]] = 0;
            pathReaders[activePaths[k]] = 0;
        }
        Arrays.fill(nodeReaders, 0);
        for (SimTask t : runningList) {
            double share = t.grant / t.cap;
            nodeScale[t.dataNode] += share;
            nodeReaders[t.dataNode]++;
            if (t.path >= 0) {
                pathScale[t.path] += share;
                pathReaders[t.path]++;
            }
        }
        for (int n = 0; n < nodes; n++) {
            nodeScale[n] = nodeReaders[n] > 0 ? nodeScale[n] / nodeReaders[n] : 1;
        }
        for (int k = 0; k < activeCount; k++) {
            int p = activePaths[k];
            pathScale[p] = pathReaders[p] > 0 ? pathScale[p] / pathReaders[p] : 1;
        }
    }

    // ---------------------------------------------------------------------------------------------------- placer

    private void refreshHistories(boolean sample) {
        long micros = (long) now;
        int second = Math.min(own.length - 1, (int) (now / 1e6));
        double[] perNodeOwn = new double[nodes];
        List<SimTable.Part> unitParts = unitParts();
        for (SimTable.Part part : unitParts) {
            if (sample) {
                part.threads.sample(micros, parameters.periodMicros());
                part.memory.sample(micros, parameters.periodMicros());
            } else {
                part.threads.observe();
                part.memory.observe();
            }
            perNodeOwn[part.node] += part.threads.current();
        }
        double readings = 1e6 / settings.observeMicros();
        double max = 0;
        double min = Double.MAX_VALUE;
        for (int n = 0; n < nodes; n++) {
            own[second][n] += perNodeOwn[n] / readings;
        }
        if (sample) {
            double[] recent = new double[nodes];
            for (SimTable.Part part : unitParts) {
                recent[part.node] += part.threads.recentAverage();
            }
            for (double r : recent) {
                max = Math.max(max, r);
                min = Math.min(min, r);
            }
            imbalance[second] = Math.max(imbalance[second], max - min);
        }
    }

    /** One part per placement unit: a group's tables share their histories, which must be read once a period. */
    private List<SimTable.Part> unitParts() {
        List<SimTable.Part> out = new ArrayList<>();
        for (SimTable table : tables.values()) {
            if (table.group == null || groupTables.get(table.group).getFirst() == table) {
                out.addAll(table.parts);
            }
        }
        return out;
    }

    /**
     * Every placement unit, as the engine's tracker lists them: the parts of ungrouped tables, and the parts of table
     * groups (a group part is on its first table's part's node; its pages are the most of any of its tables' parts,
     * since they move in parallel).
     */
    private List<PlacementUnit> units() {
        List<PlacementUnit> out = new ArrayList<>();
        for (SimTable table : tables.values()) {
            if (table.group != null) {
                continue;
            }
            for (SimTable.Part part : table.parts) {
                out.add(new PlacementUnit(table.name, false, part.index, part.node, part.pages, table.parts.size(),
                        part.threads, part.memory));
            }
        }
        for (Map.Entry<String, List<SimTable>> g : groupTables.entrySet()) {
            List<SimTable> members = g.getValue();
            SimTable leader = members.getFirst();
            for (SimTable.Part part : leader.parts) {
                long pages = members.stream().mapToLong(t -> t.parts.get(part.index).pages).max().orElse(0);
                out.add(new PlacementUnit(g.getKey(), true, part.index, part.node, pages, leader.parts.size(),
                        part.threads, part.memory));
            }
        }
        return out;
    }

    /** The tables a decision changes: the owner's one table, or every table of its group. */
    private List<SimTable> tablesOf(String owner, boolean group) {
        return group ? groupTables.get(owner) : List.of(tables.get(owner));
    }

    /** Pages of an owner as its tables change in parallel: the most of any of its tables. */
    private long pagesOf(String owner, boolean group) {
        return tablesOf(owner, group).stream().mapToLong(SimTable::pages).max().orElse(0);
    }

    /** One placer period, with the placer service's rules (see {@code PlacerService.placeOnce}). */
    private void placeOnce() {
        if (movesInFlight > 0) {
            return;
        }
        for (PlacerDecision decision : placer.decide(units(), nodes, Set.copyOf(inFlight))) {
            String owner = switch (decision) {
                case PlacerDecision.Move mv -> mv.unit().ownerKey();
                case PlacerDecision.Partition p -> p.unit().ownerKey();
                case PlacerDecision.Merge mg -> (mg.group() ? "group " : "table ") + mg.owner();
            };
            if (decision instanceof PlacerDecision.Merge && !partitionedByPlacer.contains(owner)) {
                continue;
            }
            if (!inFlight.add(owner)) {
                continue;
            }
            if (!(decision instanceof PlacerDecision.Merge)) {
                movesInFlight++;
            }
            // As in the placer service: moves and partitions one after another on its actuator, merges at once and
            // side by side.
            boolean merge = decision instanceof PlacerDecision.Merge;
            double start = merge ? now : Math.max(now, actuatorFreeAt);
            double done = start + duration(decision);
            if (!merge) {
                actuatorFreeAt = done;
            }
            pendingActions.add(new PendingAction(done, decision, now, start));
            pendingActions.sort((a, b) -> Double.compare(a.done, b.done));
        }
    }

    private double duration(PlacerDecision decision) {
        return switch (decision) {
            case PlacerDecision.Move mv -> mv.unit().pages() * m.moveMicrosPerPage();
            case PlacerDecision.Partition p -> {
                long pages = pagesOf(p.unit().owner(), p.unit().group());
                yield pages * m.partitionMicrosPerPage() + pages / 2.0 / p.unit().parts() * m.moveMicrosPerPage();
            }
            case PlacerDecision.Merge mg -> {
                long pages = pagesOf(mg.owner(), mg.group());
                yield pages * (m.partitionMicrosPerPage() + m.moveMicrosPerPage());
            }
        };
    }

    private void apply(PendingAction action) {
        PlacerDecision decision = action.decision();
        String name;
        boolean group;
        switch (decision) {
            case PlacerDecision.Move mv -> {
                name = mv.unit().owner();
                group = mv.unit().group();
            }
            case PlacerDecision.Partition p -> {
                name = p.unit().owner();
                group = p.unit().group();
            }
            case PlacerDecision.Merge mg -> {
                name = mg.owner();
                group = mg.group();
            }
        }
        List<SimTable> changed = tablesOf(name, group);
        SimTable leader = changed.getFirst();
        int before = leader.parts.size();
        int from;
        int to;
        String label;
        String reason;
        switch (decision) {
            case PlacerDecision.Move mv -> {
                from = leader.parts.get(mv.unit().part()).node;
                to = mv.toNode();
                for (SimTable table : changed) {
                    table.parts.get(mv.unit().part()).node = to;
                }
                label = "move";
                reason = mv.reason().rule();
                movesInFlight--;
            }
            case PlacerDecision.Partition p -> {
                for (SimTable table : changed) {
                    List<SimTable.Part> split = new ArrayList<>();
                    for (SimTable.Part old : table.parts) {
                        for (int half = 0; half < 2; half++) {
                            long rows = SimTable.share(old.rows, half, 2);
                            int node = old.index == p.unit().part() && half == 1 ? p.toNode() : old.node;
                            split.add(table.newPart(split.size(), node, rows));
                        }
                    }
                    table.parts = split;
                }
                from = p.unit().node();
                to = p.toNode();
                label = "partition";
                reason = p.reason().rule();
                partitionedByPlacer.add(leader.ownerKey());
                movesInFlight--;
            }
            case PlacerDecision.Merge mg -> {
                from = -1;
                to = mg.toNode();
                for (SimTable table : changed) {
                    table.parts = new ArrayList<>(List.of(table.newPart(0, to, table.rows)));
                }
                label = "merge";
                reason = mg.reason().rule();
                partitionedByPlacer.remove(leader.ownerKey());
            }
        }
        if (!(decision instanceof PlacerDecision.Move)) {
            // New parts: part k of every table of a group is again one unit with one pair of histories.
            for (SimTable table : changed) {
                table.shareHistoriesOf(leader);
            }
        }
        inFlight.remove(leader.ownerKey());
        events.add(new SimEvent(action.decided() / 1e6, action.started() / 1e6, now / 1e6, label,
                group ? "group " + name : name, before, leader.parts.size(), from, to, reason));
    }

    /** The task classes the run used, with their learnt memory throughput. */
    public List<TaskClass> taskClasses() {
        return classes.all();
    }
}
