package io.locusdb.core.workload;

import io.trino.tpch.Distribution;
import io.trino.tpch.Distributions;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The 22 TPC-H queries, as templates with the specification's
 * substitution parameters (TPC-H 2.18, clause 2.4): each query can be written with the validation defaults or with
 * parameters drawn by the specification's rules. The value lists (segments, regions, nations, colours, types, ship
 * modes) come from {@code io.trino.tpch}'s distributions, the ones the data was generated from.
 *
 * <p>Deliberate departures from the specification's text, all for comparison with DuckDB:
 * <ul>
 *   <li>Q8, Q14 and Q17 divide sums cast to DOUBLE: {@code DECIMAL / DECIMAL} is exact to 6 fraction digits in
 *       LocusDB and DOUBLE in DuckDB.</li>
 *   <li>Q10, Q11 and Q18 order by one more column (the key), so that ties (there are some at small scale) have one
 *       answer.</li>
 *   <li>Q15's view is a {@code WITH} clause used twice (as DuckDB's text has it); Q11's FRACTION stays 0.0001 at
 *       every scale.</li>
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
    },
    Q2("""
            SELECT s_acctbal, s_name, n_name, p_partkey, p_mfgr, s_address, s_phone, s_comment
            FROM part, supplier, partsupp, nation, region
            WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey AND p_size = [SIZE] AND p_type LIKE '%[TYPE]'
              AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey AND r_name = '[REGION]'
              AND ps_supplycost = (
                SELECT min(ps_supplycost)
                FROM partsupp, supplier, nation, region
                WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey AND s_nationkey = n_nationkey
                  AND n_regionkey = r_regionkey AND r_name = '[REGION]')
            ORDER BY s_acctbal DESC, n_name, s_name, p_partkey
            LIMIT 100""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("SIZE", "15", "TYPE", "BRASS", "REGION", "EUROPE");
        }

        @Override
        Map<String, String> draw(Random random) {
            String[] type = pick(random, DISTRIBUTIONS.getPartTypes()).split(" ");
            return Map.of("SIZE", Integer.toString(between(random, 1, 50)), "TYPE", type[type.length - 1],
                    "REGION", pick(random, DISTRIBUTIONS.getRegions()));
        }
    },
    Q4("""
            SELECT o_orderpriority, count(*) AS order_count
            FROM orders
            WHERE o_orderdate >= DATE '[DATE]' AND o_orderdate < DATE '[DATE]' + INTERVAL '3' MONTH
              AND EXISTS (SELECT * FROM lineitem WHERE l_orderkey = o_orderkey AND l_commitdate < l_receiptdate)
            GROUP BY o_orderpriority
            ORDER BY o_orderpriority""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("DATE", "1993-07-01");
        }

        @Override
        Map<String, String> draw(Random random) {
            return Map.of("DATE", firstOfMonth(random));
        }
    },
    Q11("""
            SELECT ps_partkey, sum(ps_supplycost * ps_availqty) AS value
            FROM partsupp, supplier, nation
            WHERE ps_suppkey = s_suppkey AND s_nationkey = n_nationkey AND n_name = '[NATION]'
            GROUP BY ps_partkey
            HAVING sum(ps_supplycost * ps_availqty) > (
              SELECT sum(ps_supplycost * ps_availqty) * [FRACTION]
              FROM partsupp, supplier, nation
              WHERE ps_suppkey = s_suppkey AND s_nationkey = n_nationkey AND n_name = '[NATION]')
            ORDER BY value DESC, ps_partkey""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("NATION", "GERMANY", "FRACTION", "0.0001");
        }

        @Override
        Map<String, String> draw(Random random) {
            return Map.of("NATION", pick(random, DISTRIBUTIONS.getNations()), "FRACTION", "0.0001");
        }
    },
    Q13("""
            SELECT c_count, count(*) AS custdist
            FROM (
              SELECT c_custkey, count(o_orderkey) AS c_count
              FROM customer LEFT OUTER JOIN orders
                ON c_custkey = o_custkey AND o_comment NOT LIKE '%[WORD1]%[WORD2]%'
              GROUP BY c_custkey
            ) AS c_orders
            GROUP BY c_count
            ORDER BY custdist DESC, c_count DESC""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("WORD1", "special", "WORD2", "requests");
        }

        @Override
        Map<String, String> draw(Random random) {
            String[] first = {"special", "pending", "unusual", "express"};
            String[] second = {"packages", "requests", "accounts", "deposits"};
            return Map.of("WORD1", first[random.nextInt(first.length)],
                    "WORD2", second[random.nextInt(second.length)]);
        }
    },
    Q15("""
            WITH revenue AS (
              SELECT l_suppkey AS supplier_no, sum(l_extendedprice * (1 - l_discount)) AS total_revenue
              FROM lineitem
              WHERE l_shipdate >= DATE '[DATE]' AND l_shipdate < DATE '[DATE]' + INTERVAL '3' MONTH
              GROUP BY l_suppkey)
            SELECT s_suppkey, s_name, s_address, s_phone, total_revenue
            FROM supplier, revenue
            WHERE s_suppkey = supplier_no AND total_revenue = (SELECT max(total_revenue) FROM revenue)
            ORDER BY s_suppkey""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("DATE", "1996-01-01");
        }

        @Override
        Map<String, String> draw(Random random) {
            return Map.of("DATE", firstOfMonth(random));
        }
    },
    Q16("""
            SELECT p_brand, p_type, p_size, count(DISTINCT ps_suppkey) AS supplier_cnt
            FROM partsupp, part
            WHERE p_partkey = ps_partkey AND p_brand <> '[BRAND]' AND p_type NOT LIKE '[TYPE]%'
              AND p_size IN ([SIZE1], [SIZE2], [SIZE3], [SIZE4], [SIZE5], [SIZE6], [SIZE7], [SIZE8])
              AND ps_suppkey NOT IN (SELECT s_suppkey FROM supplier WHERE s_comment LIKE '%Customer%Complaints%')
            GROUP BY p_brand, p_type, p_size
            ORDER BY supplier_cnt DESC, p_brand, p_type, p_size""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("BRAND", "Brand#45", "TYPE", "MEDIUM POLISHED", "SIZE1", "49", "SIZE2", "14",
                    "SIZE3", "23", "SIZE4", "45", "SIZE5", "19", "SIZE6", "3", "SIZE7", "36", "SIZE8", "9");
        }

        @Override
        Map<String, String> draw(Random random) {
            String[] type = pick(random, DISTRIBUTIONS.getPartTypes()).split(" ");
            Map<String, String> values = new LinkedHashMap<>();
            values.put("BRAND", brand(random));
            values.put("TYPE", type[0] + " " + type[1]);
            List<Integer> sizes = new ArrayList<>();
            for (int s = 1; s <= 50; s++) {
                sizes.add(s);
            }
            Collections.shuffle(sizes, random);
            for (int i = 0; i < 8; i++) {
                values.put("SIZE" + (i + 1), Integer.toString(sizes.get(i)));
            }
            return values;
        }
    },
    Q17("""
            SELECT CAST(sum(l_extendedprice) AS DOUBLE) / 7.0 AS avg_yearly
            FROM lineitem, part
            WHERE p_partkey = l_partkey AND p_brand = '[BRAND]' AND p_container = '[CONTAINER]'
              AND l_quantity < (SELECT 0.2 * avg(l_quantity) FROM lineitem WHERE l_partkey = p_partkey)""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("BRAND", "Brand#23", "CONTAINER", "MED BOX");
        }

        @Override
        Map<String, String> draw(Random random) {
            return Map.of("BRAND", brand(random), "CONTAINER", pick(random, DISTRIBUTIONS.getPartContainers()));
        }
    },
    Q18("""
            SELECT c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice, sum(l_quantity) AS sum_quantity
            FROM customer, orders, lineitem
            WHERE o_orderkey IN (SELECT l_orderkey FROM lineitem GROUP BY l_orderkey
                                 HAVING sum(l_quantity) > [QUANTITY])
              AND c_custkey = o_custkey AND o_orderkey = l_orderkey
            GROUP BY c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice
            ORDER BY o_totalprice DESC, o_orderdate, o_orderkey
            LIMIT 100""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("QUANTITY", "300");
        }

        @Override
        Map<String, String> draw(Random random) {
            return Map.of("QUANTITY", Integer.toString(between(random, 312, 315)));
        }
    },
    Q20("""
            SELECT s_name, s_address
            FROM supplier, nation
            WHERE s_suppkey IN (
                SELECT ps_suppkey FROM partsupp
                WHERE ps_partkey IN (SELECT p_partkey FROM part WHERE p_name LIKE '[COLOR]%')
                  AND ps_availqty > (
                    SELECT 0.5 * sum(l_quantity) FROM lineitem
                    WHERE l_partkey = ps_partkey AND l_suppkey = ps_suppkey AND l_shipdate >= DATE '[DATE]'
                      AND l_shipdate < DATE '[DATE]' + INTERVAL '1' YEAR))
              AND s_nationkey = n_nationkey AND n_name = '[NATION]'
            ORDER BY s_name""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("COLOR", "forest", "DATE", "1994-01-01", "NATION", "CANADA");
        }

        @Override
        Map<String, String> draw(Random random) {
            return Map.of("COLOR", pick(random, DISTRIBUTIONS.getPartColors()), "DATE", firstOfYear(random),
                    "NATION", pick(random, DISTRIBUTIONS.getNations()));
        }
    },
    Q21("""
            SELECT s_name, count(*) AS numwait
            FROM supplier, lineitem l1, orders, nation
            WHERE s_suppkey = l1.l_suppkey AND o_orderkey = l1.l_orderkey AND o_orderstatus = 'F'
              AND l1.l_receiptdate > l1.l_commitdate
              AND EXISTS (SELECT * FROM lineitem l2
                          WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey)
              AND NOT EXISTS (SELECT * FROM lineitem l3
                              WHERE l3.l_orderkey = l1.l_orderkey AND l3.l_suppkey <> l1.l_suppkey
                                AND l3.l_receiptdate > l3.l_commitdate)
              AND s_nationkey = n_nationkey AND n_name = '[NATION]'
            GROUP BY s_name
            ORDER BY numwait DESC, s_name
            LIMIT 100""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("NATION", "SAUDI ARABIA");
        }

        @Override
        Map<String, String> draw(Random random) {
            return Map.of("NATION", pick(random, DISTRIBUTIONS.getNations()));
        }
    },
    Q22("""
            SELECT cntrycode, count(*) AS numcust, sum(c_acctbal) AS totacctbal
            FROM (
              SELECT substring(c_phone FROM 1 FOR 2) AS cntrycode, c_acctbal
              FROM customer
              WHERE substring(c_phone FROM 1 FOR 2) IN ('[I1]', '[I2]', '[I3]', '[I4]', '[I5]', '[I6]', '[I7]')
                AND c_acctbal > (
                  SELECT avg(c_acctbal) FROM customer
                  WHERE c_acctbal > 0.00
                    AND substring(c_phone FROM 1 FOR 2) IN ('[I1]', '[I2]', '[I3]', '[I4]', '[I5]', '[I6]', '[I7]'))
                AND NOT EXISTS (SELECT * FROM orders WHERE o_custkey = c_custkey)
            ) AS custsale
            GROUP BY cntrycode
            ORDER BY cntrycode""") {
        @Override
        Map<String, String> defaults() {
            return Map.of("I1", "13", "I2", "31", "I3", "23", "I4", "29", "I5", "30", "I6", "18", "I7", "17");
        }

        @Override
        Map<String, String> draw(Random random) {
            List<Integer> codes = new ArrayList<>();
            for (int c = 10; c <= 34; c++) {
                codes.add(c);
            }
            Collections.shuffle(codes, random);
            Map<String, String> values = new LinkedHashMap<>();
            for (int i = 0; i < 7; i++) {
                values.put("I" + (i + 1), Integer.toString(codes.get(i)));
            }
            return values;
        }
    };

    private static final Distributions DISTRIBUTIONS = Distributions.getDefaultDistributions();
    private static final Pattern PARAMETER = Pattern.compile("\\[([A-Z0-9]+)]");

    private final String template;

    TpchQuery(String template) {
        this.template = template;
    }

    /** The queries that join tables without subqueries in expressions, in number order. */
    public static List<TpchQuery> joins() {
        return List.of(Q3, Q5, Q7, Q8, Q9, Q10, Q12, Q14, Q19);
    }

    /** The queries with subqueries (in expressions, or a WITH used twice), in number order. */
    public static List<TpchQuery> withSubqueries() {
        return List.of(Q2, Q4, Q11, Q13, Q15, Q16, Q17, Q18, Q20, Q21, Q22);
    }

    /** All 22 queries, in number order. */
    public static List<TpchQuery> all() {
        return Arrays.stream(values()).sorted(Comparator.comparingInt(q -> Integer.parseInt(
                q.name().substring(1)))).toList();
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

    /** The first of a month from January 1993 to October 1997 (Q4, Q15). */
    private static String firstOfMonth(Random random) {
        int month = random.nextInt(58);
        return LocalDate.of(1993 + month / 12, 1 + month % 12, 1).toString();
    }

    private static String firstOfYear(Random random) {
        return LocalDate.of(between(random, 1993, 1997), 1, 1).toString();
    }

    private static String brand(Random random) {
        return "Brand#" + between(random, 1, 5) + between(random, 1, 5);
    }
}
