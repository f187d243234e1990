SELECT column_name, data_type, udt_name, numeric_precision, numeric_scale
		 FROM information_schema.columns
		 WHERE table_schema = 'public' AND table_name = 'nation'
		 ORDER BY ordinal_position
