package io.locusdb.core.workload;

import io.trino.tpch.Distribution;
import io.trino.tpch.Distributions;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The TPC-H queries that LocusDB runs without subqueries in expressions, as templates with the specification's
 * substitution parameters (TPC-H 2.18, clause 2.4): each query can be written with the validation defaults or with
 * parameters drawn by the specification's rules. The value lists (segments, regions, nations, colours, types, ship
 * modes) come from {@code io.trino.tpch}'s distributions, the ones the data was generated from.
 *
 * <p>Two deliberate departures from the specification's text, both for comparison with DuckDB:
 * <ul>
 *   <li>Q8 and Q14 divide two sums cast to DOUBLE: {@code DECIMAL / DECIMAL} is exact to 6 fraction digits in
 *       LocusDB and DOUBLE in DuckDB.</li>
 *   <li>Q10 orders by {@code revenue DESC, c_custkey}, so that ties (there are some at small scale) have one answer.
 *   </li>
 * </ul>
 */
public enum TpchQuery {
    Q1("""
            SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty, sum(l_extendedprice) AS sum_base_price,
                   sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
                   sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge, avg(l_quantity) AS avg_qty,
                   avg(l_extendedprice) AS avg_price, avg(l_discount) AS avg_disc, count(*) AS count_order
            FROM lineitem
            WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '[DELTA]' DAY
            GROUP BY l_returnflag, l_linestatus
            ORDER BY l_returnflag, l_linestatus""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("DELTA", "90");
        }

        @Override
        Map<String, String> draw(Random random) {
            return Map.of("DELTA", Integer.toString(between(random, 60, 120)));
        }
    },
    Q3("""
            SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue, o_orderdate, o_shippriority
            FROM customer, orders, lineitem
            WHERE c_mktsegment = '[SEGMENT]' AND c_custkey = o_custkey AND l_orderkey = o_orderkey
              AND o_orderdate < DATE '[DATE]' AND l_shipdate > DATE '[DATE]'
            GROUP BY l_orderkey, o_orderdate, o_shippriority
            ORDER BY revenue DESC, o_orderdate, l_orderkey
            LIMIT 10""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("SEGMENT", "BUILDING", "DATE", "1995-03-15");
        }

        @Override
        Map<String, String> draw(Random random) {
            return Map.of("SEGMENT", pick(random, DISTRIBUTIONS.getMarketSegments()),
                    "DATE", LocalDate.of(1995, 3, between(random, 1, 31)).toString());
        }
    },
    Q5("""
            SELECT n_name, sum(l_extendedprice * (1 - l_discount)) AS revenue
            FROM customer, orders, lineitem, supplier, nation, region
            WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND l_suppkey = s_suppkey
              AND c_nationkey = s_nationkey AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey
              AND r_name = '[REGION]' AND o_orderdate >= DATE '[DATE]'
              AND o_orderdate < DATE '[DATE]' + INTERVAL '1' YEAR
            GROUP BY n_name
            ORDER BY revenue DESC""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("REGION", "ASIA", "DATE", "1994-01-01");
        }

        @Override
        Map<String, String> draw(Random random) {
            return Map.of("REGION", pick(random, DISTRIBUTIONS.getRegions()), "DATE", firstOfYear(random));
        }
    },
    Q6("""
            SELECT sum(l_extendedprice * l_discount) AS revenue
            FROM lineitem
            WHERE l_shipdate >= DATE '[DATE]' AND l_shipdate < DATE '[DATE]' + INTERVAL '1' YEAR
              AND l_discount BETWEEN [DISCOUNT] - 0.01 AND [DISCOUNT] + 0.01 AND l_quantity < [QUANTITY]""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("DATE", "1994-01-01", "DISCOUNT", "0.06", "QUANTITY", "24");
        }

        @Override
        Map<String, String> draw(Random random) {
            return Map.of("DATE", firstOfYear(random), "DISCOUNT", "0.0" + between(random, 2, 9),
                    "QUANTITY", Integer.toString(between(random, 24, 25)));
        }
    },
    Q7("""
            SELECT supp_nation, cust_nation, l_year, sum(volume) AS revenue
            FROM (
              SELECT n1.n_name AS supp_nation, n2.n_name AS cust_nation, extract(year FROM l_shipdate) AS l_year,
                     l_extendedprice * (1 - l_discount) AS volume
              FROM supplier, lineitem, orders, customer, nation n1, nation n2
              WHERE s_suppkey = l_suppkey AND o_orderkey = l_orderkey AND c_custkey = o_custkey
                AND s_nationkey = n1.n_nationkey AND c_nationkey = n2.n_nationkey
                AND ((n1.n_name = '[NATION1]' AND n2.n_name = '[NATION2]')
                  OR (n1.n_name = '[NATION2]' AND n2.n_name = '[NATION1]'))
                AND l_shipdate BETWEEN DATE '1995-01-01' AND DATE '1996-12-31'
            ) AS shipping
            GROUP BY supp_nation, cust_nation, l_year
            ORDER BY supp_nation, cust_nation, l_year""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("NATION1", "FRANCE", "NATION2", "GERMANY");
        }

        @Override
        Map<String, String> draw(Random random) {
            Distribution nations = DISTRIBUTIONS.getNations();
            int first = random.nextInt(nations.size());
            int second = (first + 1 + random.nextInt(nations.size() - 1)) % nations.size();
            return Map.of("NATION1", nations.getValue(first), "NATION2", nations.getValue(second));
        }
    },
    Q8("""
            SELECT o_year, CAST(sum(CASE WHEN nation = '[NATION]' THEN volume ELSE 0 END) AS DOUBLE)
                   / CAST(sum(volume) AS DOUBLE) AS mkt_share
            FROM (
              SELECT extract(year FROM o_orderdate) AS o_year, l_extendedprice * (1 - l_discount) AS volume,
                     n2.n_name AS nation
              FROM part, supplier, lineitem, orders, customer, nation n1, nation n2, region
              WHERE p_partkey = l_partkey AND s_suppkey = l_suppkey AND l_orderkey = o_orderkey
                AND o_custkey = c_custkey AND c_nationkey = n1.n_nationkey AND n1.n_regionkey = r_regionkey
                AND r_name = '[REGION]' AND s_nationkey = n2.n_nationkey
                AND o_orderdate BETWEEN DATE '1995-01-01' AND DATE '1996-12-31'
                AND p_type = '[TYPE]'
            ) AS all_nations
            GROUP BY o_year
            ORDER BY o_year""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("NATION", "BRAZIL", "REGION", "AMERICA", "TYPE", "ECONOMY ANODIZED STEEL");
        }

        @Override
        Map<String, String> draw(Random random) {
            Distribution nations = DISTRIBUTIONS.getNations();
            int nation = random.nextInt(nations.size());
            // A nation's weight in the distribution is its region key (dists.dss).
            String region = DISTRIBUTIONS.getRegions().getValue(nations.getWeight(nation));
            return Map.of("NATION", nations.getValue(nation), "REGION", region,
                    "TYPE", pick(random, DISTRIBUTIONS.getPartTypes()));
        }
    },
    Q9("""
            SELECT nation, o_year, sum(amount) AS sum_profit
            FROM (
              SELECT n_name AS nation, extract(year FROM o_orderdate) AS o_year,
                     l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity AS amount
              FROM part, supplier, lineitem, partsupp, orders, nation
              WHERE s_suppkey = l_suppkey AND ps_suppkey = l_suppkey AND ps_partkey = l_partkey
                AND p_partkey = l_partkey AND o_orderkey = l_orderkey AND s_nationkey = n_nationkey
                AND p_name LIKE '%[COLOR]%'
            ) AS profit
            GROUP BY nation, o_year
            ORDER BY nation, o_year DESC""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("COLOR", "green");
        }

        @Override
        Map<String, String> draw(Random random) {
            return Map.of("COLOR", pick(random, DISTRIBUTIONS.getPartColors()));
        }
    },
    Q10("""
            SELECT c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) AS revenue, c_acctbal, n_name,
                   c_address, c_phone, c_comment
            FROM customer, orders, lineitem, nation
            WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND o_orderdate >= DATE '[DATE]'
              AND o_orderdate < DATE '[DATE]' + INTERVAL '3' MONTH AND l_returnflag = 'R'
              AND c_nationkey = n_nationkey
            GROUP BY c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment
            ORDER BY revenue DESC, c_custkey
            LIMIT 20""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("DATE", "1993-10-01");
        }

        @Override
        Map<String, String> draw(Random random) {
            // The first day of a month from February 1993 to January 1995.
            return Map.of("DATE", LocalDate.of(1993, 2, 1).plusMonths(random.nextInt(24)).toString());
        }
    },
    Q12("""
            SELECT l_shipmode,
                   sum(CASE WHEN o_orderpriority = '1-URGENT' OR o_orderpriority = '2-HIGH' THEN 1 ELSE 0 END)
                     AS high_line_count,
                   sum(CASE WHEN o_orderpriority <> '1-URGENT' AND o_orderpriority <> '2-HIGH' THEN 1 ELSE 0 END)
                     AS low_line_count
            FROM orders, lineitem
            WHERE o_orderkey = l_orderkey AND l_shipmode IN ('[SHIPMODE1]', '[SHIPMODE2]')
              AND l_commitdate < l_receiptdate AND l_shipdate < l_commitdate
              AND l_receiptdate >= DATE '[DATE]' AND l_receiptdate < DATE '[DATE]' + INTERVAL '1' YEAR
            GROUP BY l_shipmode
            ORDER BY l_shipmode""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("SHIPMODE1", "MAIL", "SHIPMODE2", "SHIP", "DATE", "1994-01-01");
        }

        @Override
        Map<String, String> draw(Random random) {
            Distribution modes = DISTRIBUTIONS.getShipModes();
            int first = random.nextInt(modes.size());
            int second = (first + 1 + random.nextInt(modes.size() - 1)) % modes.size();
            return Map.of("SHIPMODE1", modes.getValue(first), "SHIPMODE2", modes.getValue(second),
                    "DATE", firstOfYear(random));
        }
    },
    Q14("""
            SELECT 100.00 * CAST(sum(CASE WHEN p_type LIKE 'PROMO%' THEN l_extendedprice * (1 - l_discount)
                                          ELSE 0 END) AS DOUBLE)
                   / CAST(sum(l_extendedprice * (1 - l_discount)) AS DOUBLE) AS promo_revenue
            FROM lineitem, part
            WHERE l_partkey = p_partkey AND l_shipdate >= DATE '[DATE]'
              AND l_shipdate < DATE '[DATE]' + INTERVAL '1' MONTH""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("DATE", "1995-09-01");
        }

        @Override
        Map<String, String> draw(Random random) {
            return Map.of("DATE", LocalDate.of(between(random, 1993, 1997), between(random, 1, 12), 1).toString());
        }
    },
    Q19("""
            SELECT sum(l_extendedprice * (1 - l_discount)) AS revenue
            FROM lineitem, part
            WHERE (p_partkey = l_partkey AND p_brand = '[BRAND1]'
                   AND p_container IN ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG') AND l_quantity >= [QUANTITY1]
                   AND l_quantity <= [QUANTITY1] + 10 AND p_size BETWEEN 1 AND 5
                   AND l_shipmode IN ('AIR', 'AIR REG') AND l_shipinstruct = 'DELIVER IN PERSON')
               OR (p_partkey = l_partkey AND p_brand = '[BRAND2]'
                   AND p_container IN ('MED BAG', 'MED BOX', 'MED PKG', 'MED PACK') AND l_quantity >= [QUANTITY2]
                   AND l_quantity <= [QUANTITY2] + 10 AND p_size BETWEEN 1 AND 10
                   AND l_shipmode IN ('AIR', 'AIR REG') AND l_shipinstruct = 'DELIVER IN PERSON')
               OR (p_partkey = l_partkey AND p_brand = '[BRAND3]'
                   AND p_container IN ('LG CASE', 'LG BOX', 'LG PACK', 'LG PKG') AND l_quantity >= [QUANTITY3]
                   AND l_quantity <= [QUANTITY3] + 10 AND p_size BETWEEN 1 AND 15
                   AND l_shipmode IN ('AIR', 'AIR REG') AND l_shipinstruct = 'DELIVER IN PERSON')""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("BRAND1", "Brand#12", "BRAND2", "Brand#23", "BRAND3", "Brand#34",
                    "QUANTITY1", "1", "QUANTITY2", "10", "QUANTITY3", "20");
        }

        @Override
        Map<String, String> draw(Random random) {
            return Map.of("BRAND1", brand(random), "BRAND2", brand(random), "BRAND3", brand(random),
                    "QUANTITY1", Integer.toString(between(random, 1, 10)),
                    "QUANTITY2", Integer.toString(between(random, 10, 20)),
                    "QUANTITY3", Integer.toString(between(random, 20, 30)));
        }
    };

    private static final Distributions DISTRIBUTIONS = Distributions.getDefaultDistributions();
    private static final Pattern PARAMETER = Pattern.compile("\\[([A-Z0-9]+)]");

    private final String template;

    TpchQuery(String template) {
        this.template = template;
    }

    /** The queries that join tables (all but Q1 and Q6), in number order. */
    public static List<TpchQuery> joins() {
        return Arrays.stream(values()).filter(q -> q != Q1 && q != Q6).toList();
    }

    /** The query's text with named parameters in brackets, as {@code [DATE]}. */
    public String template() {
        return template;
    }

    /** The query with the specification's validation parameters. */
    public TpchQueryText withDefaults() {
        return substitute(defaults());
    }

    /** The query with parameters drawn by the specification's rules from {@code random}. */
    public TpchQueryText withRandomParameters(Random random) {
        return substitute(draw(random));
    }

    /** The query with the given parameters, each named in the template and none left out. */
    public TpchQueryText substitute(Map<String, String> parameters) {
        Matcher m = PARAMETER.matcher(template);
        StringBuilder sql = new StringBuilder();
        Map<String, String> used = new LinkedHashMap<>();
        while (m.find()) {
            String name = m.group(1);
            String value = parameters.get(name);
            if (value == null) {
                throw new IllegalArgumentException(name() + ": no value for parameter " + name);
            }
            if (value.indexOf('\'') >= 0) {
                throw new IllegalArgumentException(name() + ": parameter " + name + " contains a quote: " + value);
            }
            used.put(name, value);
            m.appendReplacement(sql, Matcher.quoteReplacement(value));
        }
        m.appendTail(sql);
        if (!used.keySet().equals(parameters.keySet())) {
            throw new IllegalArgumentException(name() + ": parameters " + parameters.keySet()
                    + " do not match the template's " + used.keySet());
        }
        return new TpchQueryText(this, used, sql.toString());
    }

    abstract Map<String, String> defaults();

    abstract Map<String, String> draw(Random random);

    private static int between(Random random, int low, int high) {
        return low + random.nextInt(high - low + 1);
    }

    private static String pick(Random random, Distribution values) {
        return values.getValue(random.nextInt(values.size()));
    }

    private static String firstOfYear(Random random) {
        return LocalDate.of(between(random, 1993, 1997), 1, 1).toString();
    }

    private static String brand(Random random) {
        return "Brand#" + between(random, 1, 5) + between(random, 1, 5);
    }
}
