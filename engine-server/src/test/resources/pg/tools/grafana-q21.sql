SELECT schema_name FROM information_schema.schemata
    WHERE schema_name NOT IN ('information_schema', 'pg_catalog', 'pg_toast',
                              '_timescaledb_cache', '_timescaledb_catalog',
                              '_timescaledb_internal', '_timescaledb_config',
                              'timescaledb_information', 'timescaledb_experimental')
    ORDER BY schema_name
