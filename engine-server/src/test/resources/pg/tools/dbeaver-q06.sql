SELECT db.oid,db.* FROM pg_catalog.pg_database db WHERE datname='locus'
