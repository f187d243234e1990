"""PostgreSQL clients from PyPI against a LocusDB server: python_clients.py PORT CHECK...; prints 'ok CHECK' per check."""
import asyncio
import datetime
import decimal
import sys

port = int(sys.argv[1])
checks = sys.argv[2:]
dsn = f"postgresql://tester@127.0.0.1:{port}/locus"


def psycopg_text_and_binary():
    import psycopg
    with psycopg.connect(dsn, autocommit=True) as c:
        for binary in (False, True):
            cur = c.cursor(binary=binary)
            cur.execute("SELECT n_nationkey, n_name FROM nation WHERE n_nationkey < %s ORDER BY 1", (3,))
            assert cur.fetchall() == [(0, "ALGERIA"), (1, "ARGENTINA"), (2, "BRAZIL")]
            cur.execute("SELECT CAST(1.5 AS DECIMAL(10,2)) AS d, DATE '2024-01-02' AS dt, 2.5e0 AS f, true AS b,"
                        " CAST(NULL AS VARCHAR) AS n, %s::int8 AS p", (-7,))
            assert cur.fetchone() == (decimal.Decimal("1.50"), datetime.date(2024, 1, 2), 2.5, True, None, -7)
            assert [d.name for d in cur.description] == ["d", "dt", "f", "b", "n", "p"]
        with c.transaction():
            c.execute("INSERT INTO py_notes VALUES (%s, %s)", (1, "from psycopg"))
        assert c.execute("SELECT body FROM py_notes WHERE id = 1").fetchone() == ("from psycopg",)


def asyncpg_pool():
    import asyncpg

    async def main():
        pool = await asyncpg.create_pool(dsn, min_size=1, max_size=2)
        async with pool.acquire() as con:
            rows = await con.fetch("SELECT n_name FROM nation WHERE n_regionkey = $1 ORDER BY 1", 1)
            assert [r[0] for r in rows] == ["ARGENTINA", "BRAZIL", "CANADA", "PERU", "UNITED STATES"]
        # Released (asyncpg resets the connection) and acquired again.
        async with pool.acquire() as con:
            assert await con.fetchval("SELECT count(*) FROM region") == 5
            assert await con.fetchval("SELECT $1::float8 * 2", 1.25) == 2.5
        await pool.close()

    asyncio.run(main())


def sqlalchemy_inspector():
    import sqlalchemy
    engine = sqlalchemy.create_engine(f"postgresql+psycopg://tester@127.0.0.1:{port}/locus")
    names = sqlalchemy.inspect(engine).get_table_names()
    assert {"lineitem", "nation", "py_notes"} <= set(names), names


def pandas_read_sql_q1():
    import pandas
    import sqlalchemy
    engine = sqlalchemy.create_engine(f"postgresql+psycopg://tester@127.0.0.1:{port}/locus")
    q1 = open(sys.argv[0].replace("python_clients.py", "q1.sql")).read()
    df = pandas.read_sql(q1, engine)
    assert df.shape == (4, 10), df.shape
    assert list(df.columns)[:3] == ["l_returnflag", "l_linestatus", "sum_qty"], list(df.columns)
    assert df["count_order"].sum() > 0


for check in checks:
    globals()[check]()
    print("ok", check, flush=True)
