package io.locusdb.jdbc;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The LocusDB JDBC driver: {@code jdbc:locusdb://host[:port][/database][?user=&password=&token=&ssl=...]}
 * (default port 5499). Registered with DriverManager through {@code META-INF/services/java.sql.Driver} and when
 * this class loads. Plain blocking sockets, no dependencies: see client-java's section of the README.
 */
public final class LocusDriver implements Driver {
    public static final int MAJOR_VERSION = 0;
    public static final int MINOR_VERSION = 1;
    public static final String VERSION = MAJOR_VERSION + "." + MINOR_VERSION + ".0";
    public static final String NAME = "LocusDB JDBC Driver";

    static {
        try {
            DriverManager.registerDriver(new LocusDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null; // the DriverManager contract: another driver's URL
        }
        return LocusConnection.open(ConnectionConfig.parse(url, info));
    }

    @Override
    public boolean acceptsURL(String url) {
        return ConnectionConfig.accepts(url);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        return ConnectionConfig.propertyInfo(url, info);
    }

    @Override
    public int getMajorVersion() {
        return MAJOR_VERSION;
    }

    @Override
    public int getMinorVersion() {
        return MINOR_VERSION;
    }

    /** Not JDBC compliant: no transactions, single-table SELECT only (the compliance tests need far more SQL). */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw Errors.unsupported("java.util.logging");
    }
}
