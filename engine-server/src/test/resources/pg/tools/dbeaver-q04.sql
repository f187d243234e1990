SELECT reltype FROM pg_catalog.pg_class WHERE 1<>1 LIMIT 1
