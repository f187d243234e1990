SELECT quote_ident(table_name) AS "table"
    FROM information_schema.tables
    WHERE quote_ident(table_schema) = quote_ident('public')
    ORDER BY 1
