SELECT * FROM pg_catalog.pg_enum WHERE 1<>1 LIMIT 1
