SHOW search_path
