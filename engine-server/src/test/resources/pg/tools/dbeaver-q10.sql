SELECT current_schema(),session_user
