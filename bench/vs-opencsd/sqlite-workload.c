/*
 * The workload of the large-footprint benchmark inputs (bench/vs-opencsd/sqlite-input.sh): SQLite's
 * amalgamation, linked statically, runs a broad mix of SQL on an in-memory database so that much of
 * the library's code executes: parsing and planning of many statement kinds, B-tree inserts, splits
 * and deletes, indexes, joins, sorting, aggregates, window functions, common table expressions,
 * triggers, views, JSON, full-text search (FTS5), R-tree, date and printf functions, ANALYZE,
 * VACUUM and integrity checks. The tables are small (40 to 100 customers, 120 to 300 orders), so that
 * one round is a few million instructions and a trace holds many rounds. ROUNDS (argv[1], default 1)
 * repeats the mix with different data, so the trace grows without repeating itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include "sqlite3.h"

static unsigned long long checksum;

static int row(void *unused, int n, char **values, char **names) {
    (void) unused;
    (void) names;
    for (int i = 0; i < n; i++) {
        for (const char *p = values[i]; p && *p; p++) {
            checksum = checksum * 31 + (unsigned char) *p;
        }
    }
    return 0;
}

static void run(sqlite3 *db, const char *sql) {
    char *err = 0;
    if (sqlite3_exec(db, sql, row, 0, &err) != SQLITE_OK) {
        fprintf(stderr, "sqlite-workload: %s\n  in: %.200s\n", err, sql);
        sqlite3_free(err);
        exit(1);
    }
}

/* One round's SQL, on tables of CUSTOMERS customers and ORDERS orders. */
static char *round_sql(int round, int customers, int orders) {
    return sqlite3_mprintf(
        "CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, born TEXT, score REAL,"
        "  UNIQUE(name, city));"
        "CREATE TABLE orders(id INTEGER PRIMARY KEY AUTOINCREMENT, customer INTEGER REFERENCES customer(id),"
        "  item TEXT, qty INTEGER CHECK (qty > 0), price REAL, placed TEXT DEFAULT CURRENT_DATE);"
        "CREATE TABLE audit(at INTEGER, what TEXT);"
        "CREATE TABLE kv(k TEXT PRIMARY KEY, v BLOB) WITHOUT ROWID;"
        "CREATE INDEX orders_item ON orders(item, qty DESC);"
        "CREATE INDEX orders_customer ON orders(customer);"
        "CREATE INDEX customer_city ON customer(city) WHERE score > 10;"
        "CREATE TRIGGER order_audit AFTER INSERT ON orders BEGIN"
        "  INSERT INTO audit VALUES (new.id, printf('%%s x%%d', new.item, new.qty)); END;"
        "CREATE VIEW totals AS SELECT c.name, c.city, sum(o.qty * o.price) AS spent, count(*) AS n"
        "  FROM customer c JOIN orders o ON o.customer = c.id GROUP BY c.id;"
        "WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < %d)"
        "  INSERT INTO customer(name, city, born, score)"
        "  SELECT 'c' || hex(randomblob(3)) || (i * %d), char(65 + (i * 7 + %d) %% 23) || 'ville',"
        "    date('1950-01-01', '+' || ((i * 977 + %d) %% 20000) || ' days'), ((i * 37 + %d) %% 1000) / 7.0 FROM seq;"
        "WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < %d)"
        "  INSERT INTO orders(customer, item, qty, price, placed)"
        "  SELECT 1 + (i * 131 + %d) %% %d, 'item' || ((i * 17) %% 97), 1 + i %% 9, round(((i * 53) %% 1000) / 3.0, 2),"
        "    datetime('2020-01-01', '+' || (i * 3607 %% 31536000) || ' seconds') FROM seq;"
        "SELECT name, spent, n FROM totals ORDER BY spent DESC LIMIT 7;"
        "SELECT city, count(*), avg(score), max(born), min(born), group_concat(substr(name, 1, 3), '|') FROM customer"
        "  GROUP BY city HAVING count(*) > 2 ORDER BY 2 DESC, 1;"
        "SELECT item, qty, sum(price) OVER (PARTITION BY item ORDER BY qty ROWS BETWEEN 2 PRECEDING AND CURRENT ROW),"
        "  rank() OVER (PARTITION BY item ORDER BY price DESC), ntile(4) OVER (ORDER BY id),"
        "  lag(price, 1, 0) OVER (ORDER BY id), first_value(qty) OVER w FROM orders"
        "  WINDOW w AS (PARTITION BY qty ORDER BY id RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"
        "  ORDER BY id LIMIT 50;"
        "SELECT c.name FROM customer c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer = c.id AND o.qty > 7)"
        "  AND c.id IN (SELECT customer FROM orders GROUP BY customer HAVING sum(qty) > 20) ORDER BY c.name LIMIT 20;"
        "SELECT o.item, c.city, count(*) FROM orders o LEFT JOIN customer c ON c.id = o.customer"
        "  WHERE o.placed BETWEEN '2020-03-01' AND '2020-09-30' GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 10;"
        "SELECT strftime('%%Y-%%W', placed) AS wk, total(qty * price), upper(min(item)), lower(max(item))"
        "  FROM orders GROUP BY wk ORDER BY wk;"
        "SELECT count(*), sum(length(what)), instr(group_concat(what), 'x9') FROM audit;"
        "UPDATE customer SET score = score * 1.1 + length(name) WHERE city LIKE '%%ville' AND score < 50;"
        "UPDATE orders SET qty = qty + 1 WHERE id %% 5 = 0 AND item GLOB 'item[1-3]*';"
        "DELETE FROM orders WHERE id %% 7 = 3;"
        "INSERT INTO customer(name, city, score) VALUES ('dup', 'X', 1) ON CONFLICT(name, city) DO UPDATE SET score = score + 1;"
        "INSERT INTO customer(name, city, score) VALUES ('dup', 'X', 1) ON CONFLICT(name, city) DO UPDATE SET score = score + 1;"
        "REPLACE INTO kv SELECT 'k' || id, zeroblob(id %% 50) || randomblob(8) FROM customer;"
        "SELECT k, length(v), typeof(v) FROM kv WHERE k > 'k5' ORDER BY k DESC LIMIT 5;"
        "SELECT json_group_array(json_object('n', name, 's', round(score, 1), 'c', json_array(city, born)))"
        "  FROM (SELECT * FROM customer ORDER BY id LIMIT 40);"
        "SELECT value ->> '$.n', json_extract(value, '$.c[1]') FROM json_each("
        "  (SELECT json_group_array(json_object('n', name, 'c', json_array(city, born))) FROM customer WHERE id < 30));"
        "SELECT json_patch('{\"a\":1,\"b\":{\"c\":2}}', json_set('{}', '$.b.d', %d)), json_valid('[1,2'), json_type('{\"x\":[1]}', '$.x');"
        "CREATE VIRTUAL TABLE doc USING fts5(title, body, tokenize = 'porter unicode61');"
        "INSERT INTO doc SELECT name || ' ' || city, printf('order %%d of %%s: %%d %%s at %%.2f, placed %%s', o.id, c.name,"
        "  o.qty, o.item, o.price, o.placed) FROM orders o JOIN customer c ON c.id = o.customer;"
        "SELECT highlight(doc, 1, '[', ']') FROM doc WHERE doc MATCH 'item1* OR (placed NOT item4)' LIMIT 40;"
        "SELECT title, bm25(doc), snippet(doc, 1, '<', '>', '...', 6) FROM doc WHERE doc MATCH 'order AND item3*' ORDER BY rank LIMIT 5;"
        "CREATE VIRTUAL TABLE box USING rtree(id, x0, x1, y0, y1);"
        "INSERT INTO box SELECT id, score, score + qty_sum, id %% 100, id %% 100 + 5 FROM"
        "  (SELECT c.id, c.score, (SELECT total(qty) FROM orders WHERE customer = c.id) AS qty_sum FROM customer c);"
        "SELECT count(*) FROM box WHERE x0 < 60 AND x1 > 40 AND y0 < 50 AND y1 > 30;"
        "WITH RECURSIVE fib(a, b, n) AS (SELECT 0, 1, 0 UNION ALL SELECT b, a + b, n + 1 FROM fib WHERE n < 60)"
        "  SELECT max(a), sum(a %% 1000), sqrt(max(a)), ln(max(a) + 1), pow(2, 0.5) FROM fib;"
        "SELECT name, CASE WHEN score > 100 THEN 'high' WHEN score > 50 THEN 'mid' ELSE 'low' END,"
        "  coalesce(nullif(city, 'Aville'), '-'), iif(born < '1970', 'old', 'young'), trim(' ' || name || ' '),"
        "  replace(name, 'c', 'C'), quote(score), format('%%08.3f|%%-10s|%%x', score, city, id)"
        "  FROM customer WHERE id %% 13 = %d ORDER BY score DESC;"
        "SELECT a.city, b.city, count(*) FROM customer a CROSS JOIN customer b ON a.id + 1 = b.id"
        "  GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 5;"
        "SELECT item FROM orders WHERE qty > 5 UNION SELECT city FROM customer EXCEPT SELECT 'item1'"
        "  INTERSECT SELECT item FROM orders ORDER BY 1 LIMIT 10;"
        "ANALYZE;"
        "SELECT count(*) FROM orders INDEXED BY orders_item WHERE item = 'item5' AND qty > 3;"
        "BEGIN; SAVEPOINT s1; DELETE FROM audit WHERE at %% 2 = 0; ROLLBACK TO s1; RELEASE s1; COMMIT;"
        "ALTER TABLE customer ADD COLUMN note TEXT DEFAULT 'none';"
        "ALTER TABLE audit RENAME TO audit_log;"
        "UPDATE customer SET note = substr(hex(name), 1, 12) WHERE id %% 3 = 0;"
        "SELECT sum(pgsize) FROM dbstat;"
        "PRAGMA integrity_check;"
        "PRAGMA foreign_key_check;"
        "SELECT name, type FROM sqlite_schema ORDER BY name;"
        "ALTER TABLE customer RENAME COLUMN note TO remark;"
        "ALTER TABLE customer DROP COLUMN remark;"
        "CREATE TEMP TABLE hot AS SELECT item, sum(qty) AS q FROM orders GROUP BY item;"
        "UPDATE hot SET q = q + o.n FROM (SELECT item, count(*) AS n FROM orders GROUP BY item) AS o WHERE o.item = hot.item;"
        "DELETE FROM hot WHERE q %% 3 = 0 RETURNING item, q;"
        "ATTACH ':memory:' AS aux; CREATE TABLE aux.copy AS SELECT * FROM customer WHERE id %% 4 = 1;"
        "SELECT count(*), sum(c.score + m.score) FROM aux.copy c JOIN main.customer m USING (id); DETACH aux;"
        "SELECT fullkey, type, atom FROM json_tree('{\"a\":[1,2,{\"b\":null}],\"c\":\"x\"}');"
        "SELECT count(*) FILTER (WHERE qty > 4), sum(DISTINCT qty), avg(price) FILTER (WHERE item LIKE 'item1%%')"
        "  FROM orders;"
        "SELECT name COLLATE NOCASE, CAST(score AS INTEGER), CAST(id AS TEXT) || 'x', typeof(score / 2),"
        "  unicode(name), char(unicode(city)), ltrim(name, 'c'), substr(born, 6), julianday(born) - julianday('1950-01-01'),"
        "  unixepoch(born), time(score * 100, 'unixepoch'), abs(-score), sign(score - 50), round(score, -1)"
        "  FROM customer WHERE name LIKE 'C0%%' ESCAPE '!' OR id < 5 ORDER BY 1 LIMIT 10;"
        "EXPLAIN QUERY PLAN SELECT * FROM orders WHERE customer = 3 AND item > 'item5' ORDER BY qty;"
        "EXPLAIN SELECT max(price) FROM orders GROUP BY customer;"
        "SELECT sqlite_version() IS NOT NULL, total_changes() > 0, changes() >= 0, last_insert_rowid() >= 0;"
        "DROP VIEW totals; DROP TABLE doc; DROP TABLE box; DROP TABLE kv; DROP TABLE audit_log; DROP TABLE hot;"
        "DROP TABLE orders; DROP TABLE customer;"
        "VACUUM;",
        customers, round + 3, round, round * 11, round * 5,
        orders, round * 7, customers, round, round % 13);
}

static void round_of(sqlite3 *db, int round) {
    char *sql = round_sql(round, 40 + round * 37 % 60, 120 + round * 53 % 180);
    run(db, sql);
    sqlite3_free(sql);
}

/*
 * The same rounds one statement at a time, so that a program can interleave several copies of SQLite
 * (bench/vs-opencsd/sqlite-mix-input.sh links builds at several optimisation levels into one program):
 * each copy's first statements run before any copy's later ones, so a trace cut anywhere holds code of
 * every copy. Rounds use tables of 8 to 20 customers and 24 to 60 orders, a fifth of round_of's, so that
 * one round of every copy fits in a trace of a few megabytes.
 */
struct workload {
    sqlite3 *db;
    int round;
    char *sql;
    const char *next;
};

struct workload *workload_open(int first_round) {
    struct workload *w = calloc(1, sizeof *w);
    if (!w || sqlite3_open(":memory:", &w->db) != SQLITE_OK) {
        fprintf(stderr, "sqlite-workload: cannot open an in-memory database\n");
        exit(1);
    }
    run(w->db, "PRAGMA foreign_keys = ON;");
    w->round = first_round;
    return w;
}

/* Runs the next statement of the current round, starting the next round when one is done. */
void workload_step(struct workload *w) {
    if (!w->sql) {
        int r = w->round;
        w->sql = round_sql(r, 8 + r * 37 % 12, 24 + r * 53 % 36);
        w->next = w->sql;
    }
    sqlite3_stmt *stmt = 0;
    const char *tail = 0;
    if (sqlite3_prepare_v2(w->db, w->next, -1, &stmt, &tail) != SQLITE_OK) {
        fprintf(stderr, "sqlite-workload: %s\n  in: %.200s\n", sqlite3_errmsg(w->db), w->next);
        exit(1);
    }
    int rc = SQLITE_DONE;
    while (stmt && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(stmt); i++) {
            for (const unsigned char *p = sqlite3_column_text(stmt, i); p && *p; p++) {
                checksum = checksum * 31 + *p;
            }
        }
    }
    if (stmt && rc != SQLITE_DONE) {
        fprintf(stderr, "sqlite-workload: %s\n  in: %.200s\n", sqlite3_errmsg(w->db), w->next);
        exit(1);
    }
    sqlite3_finalize(stmt);
    w->next = tail;
    while (*w->next == ' ' || *w->next == '\n') {
        w->next++;
    }
    if (!*w->next) {
        sqlite3_free(w->sql);
        w->sql = 0;
        w->round++;
    }
}

unsigned long long workload_checksum(void) {
    return checksum;
}

#ifndef WORKLOAD_NO_MAIN
int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 1;
    sqlite3 *db;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
        fprintf(stderr, "sqlite-workload: cannot open an in-memory database\n");
        return 1;
    }
    run(db, "PRAGMA foreign_keys = ON;");
    for (int r = 0; r < rounds; r++) {
        round_of(db, r);
    }
    sqlite3_close(db);
    printf("%d rounds, checksum %llx\n", rounds, checksum);
    return 0;
}
#endif
