SELECT db.datname FROM pg_catalog.pg_database db WHERE datistemplate
