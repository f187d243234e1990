package io.locusdb.core.sql;

import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;

/**
 * Standard SQL as Calcite validates it, plus what PostgreSQL and DuckDB users write every day: {@code GROUP BY 1}
 * (ordinals of the select list), {@code a % b}, {@code GROUP BY} and {@code HAVING} on a select-list alias (a column of the same
 * name wins, as in PostgreSQL), and {@code ORDER BY} on ordinals and aliases.
 */
final class LocusConformance extends SqlDelegatingConformance {
    static final LocusConformance INSTANCE = new LocusConformance();

    private LocusConformance() {
        super(SqlConformanceEnum.DEFAULT);
    }

    /** {@code a != b} as PostgreSQL, DuckDB and most engines read it: {@code a <> b}. */
    @Override
    public boolean isBangEqualAllowed() {
        return true;
    }

    /** {@code a % b} as PostgreSQL and DuckDB write {@code mod(a, b)}. */
    @Override
    public boolean isPercentRemainderAllowed() {
        return true;
    }

    @Override
    public boolean isGroupByOrdinal() {
        return true;
    }

    @Override
    public boolean isGroupByAlias() {
        return true;
    }

    @Override
    public boolean isHavingAlias() {
        return true;
    }

    @Override
    public boolean isSortByOrdinal() {
        return true;
    }

    @Override
    public boolean isSortByAlias() {
        return true;
    }
}
