package io.locusdb.core.exec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A DAG of tasks with a single root, as in the task-scheduling paper: the root is queued by priority until a
 * worker starts it; every other node becomes ready when all of its predecessors finished and then goes to the task
 * pool of its preferred node. A node can only name earlier nodes as predecessors, so a graph is acyclic by
 * construction. A graph is submitted once.
 */
public final class TaskGraph {
    /** Preferred node of a task that reads no node-bound data: any worker may run it, and it is never stolen. */
    public static final int ANY_NODE = -1;

    private final String name;
    private final List<Node> nodes = new ArrayList<>();
    private boolean submitted;

    public TaskGraph(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    /** A graph of one task. */
    public static TaskGraph single(String name, TaskClass taskClass, int preferredNode, TaskBody body) {
        TaskGraph graph = new TaskGraph(name);
        graph.root(taskClass, preferredNode, body);
        return graph;
    }

    /** The root; it must be the first node added. */
    public Node root(TaskClass taskClass, int preferredNode, TaskBody body) {
        if (!nodes.isEmpty()) {
            throw new IllegalStateException("graph '" + name + "' already has a root");
        }
        return add(taskClass, preferredNode, null, body, List.of());
    }

    /** A node that runs after all of {@code predecessors} (at least one, all of this graph). */
    public Node node(TaskClass taskClass, int preferredNode, TaskBody body, Node... predecessors) {
        if (predecessors.length == 0) {
            throw new IllegalArgumentException("graph '" + name + "' may only have one root; give this node a"
                    + " predecessor");
        }
        return add(taskClass, preferredNode, null, body, List.of(predecessors));
    }

    /**
     * A node whose run on {@code preferredNode} is accounted to {@code target} (the table part it reads), so the
     * placer sees what each part asks of its node.
     */
    public Node node(TaskClass taskClass, int preferredNode, UtilizationTarget target, TaskBody body,
                     Node... predecessors) {
        if (predecessors.length == 0) {
            throw new IllegalArgumentException("graph '" + name + "' may only have one root; give this node a"
                    + " predecessor");
        }
        return add(taskClass, preferredNode, target, body, List.of(predecessors));
    }

    private Node add(TaskClass taskClass, int preferredNode, UtilizationTarget target, TaskBody body,
                     List<Node> predecessors) {
        checkNotSubmitted();
        Objects.requireNonNull(taskClass, "taskClass");
        Objects.requireNonNull(body, "body");
        if (preferredNode < ANY_NODE) {
            throw new IllegalArgumentException("preferred node " + preferredNode + " (use TaskGraph.ANY_NODE for none)");
        }
        int depth = 0;
        for (Node p : predecessors) {
            if (p.graph != this) {
                throw new IllegalArgumentException("node " + p + " belongs to another graph");
            }
            depth = Math.max(depth, p.depth + 1);
        }
        Node node = new Node(this, nodes.size(), taskClass, preferredNode, target, body, depth, predecessors);
        for (Node p : predecessors) {
            p.successors.add(node);
        }
        nodes.add(node);
        return node;
    }

    public String name() {
        return name;
    }

    public List<Node> nodes() {
        return Collections.unmodifiableList(nodes);
    }

    public int size() {
        return nodes.size();
    }

    Node rootNode() {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("graph '" + name + "' has no tasks");
        }
        return nodes.getFirst();
    }

    void markSubmitted() {
        checkNotSubmitted();
        rootNode();
        submitted = true;
    }

    private void checkNotSubmitted() {
        if (submitted) {
            throw new IllegalStateException("graph '" + name + "' was already submitted");
        }
    }

    @Override
    public String toString() {
        return "graph '" + name + "' (" + nodes.size() + " tasks)";
    }

    /** One node of the graph, as built; the executor makes a {@link Task} of it on submission. */
    public static final class Node {
        final TaskGraph graph;
        final int index;
        final TaskClass taskClass;
        final int preferredNode;
        /** Where the task's run on its preferred node is accounted, or null. */
        final UtilizationTarget target;
        final TaskBody body;
        final int depth;
        final List<Node> predecessors;
        final List<Node> successors = new ArrayList<>(2);

        private Node(TaskGraph graph, int index, TaskClass taskClass, int preferredNode, UtilizationTarget target,
                     TaskBody body, int depth, List<Node> predecessors) {
            this.graph = graph;
            this.index = index;
            this.taskClass = taskClass;
            this.preferredNode = preferredNode;
            this.target = target;
            this.body = body;
            this.depth = depth;
            this.predecessors = List.copyOf(predecessors);
        }

        /** A node added while the graph runs; it has no predecessors or successors of its own. */
        static Node dynamic(TaskGraph graph, TaskClass taskClass, int preferredNode, UtilizationTarget target,
                            TaskBody body, int depth) {
            if (preferredNode < ANY_NODE) {
                throw new IllegalArgumentException("preferred node " + preferredNode);
            }
            return new Node(graph, -1, taskClass, preferredNode, target, body, depth, List.of());
        }

        public int depth() {
            return depth;
        }

        public TaskClass taskClass() {
            return taskClass;
        }

        public int preferredNode() {
            return preferredNode;
        }

        @Override
        public String toString() {
            return graph.name + "#" + index + "[" + taskClass + (preferredNode >= 0 ? "@" + preferredNode : "")
                    + "]";
        }
    }
}
