SELECT * FROM pg_catalog.pg_enum
