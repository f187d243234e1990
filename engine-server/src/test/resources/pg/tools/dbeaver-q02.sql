select * from pg_catalog.pg_settings where name='standard_conforming_strings'
