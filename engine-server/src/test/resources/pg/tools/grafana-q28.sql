SELECT 'n_name' AS col_name, "n_name"::text AS val FROM (SELECT DISTINCT "n_name" FROM "public"."nation" WHERE "n_name" IS NOT NULL ORDER BY "n_name" LIMIT 100) sub_0
