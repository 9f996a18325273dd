//go:build duckdb_arrow

package audit

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
	"github.com/crawlaudit/crawlaudit/queries"
)

// Store is the audit's DuckDB database: in memory, or in a file kept for
// `crawlaudit query`. Batches of judged bot requests go in through the Arrow
// bridge without copying rows in Go.
//
// The driver version in use (duckdb-go v2.10505.0) has a defect: a query over
// a view made by RegisterView that selects only some columns can return the
// wrong columns or crash, and aggregates over it can be wrong. Only
// "INSERT INTO t SELECT * FROM view" is reliable, so Insert copies every
// batch into the table that way and nothing else ever reads a view.
//
// DuckDB holds its tables in its buffer pool, bounded by MemoryLimit, and
// writes what does not fit to a temporary directory (see Store.bound): an
// audit in memory spills to disk as one kept in a --db file does, and the
// memory of the process does not grow with the logs (issue 12).
//
// A Store is not safe for concurrent use: an Arrow connection is not.
type Store struct {
	db    *sql.DB
	conn  *sql.Conn
	arrow *duckdb.Arrow
	views atomic.Int64
	// tempDir is DuckDB's temp_directory of an in-memory store (a
	// tracked temporary name of package atomicfile); "" for a file.
	tempDir string
	// longest is the length in bytes of the longest string stored
	// through Insert (noteLongest).
	longest int64
}

// MemoryLimit is DuckDB's memory_limit for the stores opened from then on:
// the most its buffer pool holds before it spills to its temporary
// directory (DuckDB's own default is 80% of the machine's memory). A few
// operators (a hash table being built, a sort's run) may briefly exceed it.
// 320 MB keeps the process under 1 GiB with Go's share (cmd sets Go's
// soft limit to 384 MiB while the logs are read, 256 MiB after) and
// DuckDB's memory outside its buffer pool (which in these runs was as
// large again): 5 M lines with 1.8 M invented bot names peaked at 854-896
// MB, 1,023 MiB with --out (982 MB and 1,237 MiB with 512 and 384 MB
// here; a 4 GB log at 1,136 MiB with 1 GB).
var MemoryLimit = func() string {
	if v := os.Getenv("CRAWLAUDIT_DUCKDB_MEMORY"); v != "" {
		return v
	}
	return "320MB"
}()

// MemoryLimitAfterRead is DuckDB's memory_limit once the logs are read
// (runOnce), when CRAWLAUDIT_DUCKDB_MEMORY does not set MemoryLimit: the
// queries afterwards go one join or aggregate a step and spill, and the
// files of --out need Go's share (the block list of a hostile log holds
// its addresses in Go). 5 M lines of 1.8 M invented bot names with --out:
// 935 MiB at peak with 256 MB, 1,023-1,128 MiB with 320 MB.
var MemoryLimitAfterRead = func() string {
	if os.Getenv("CRAWLAUDIT_DUCKDB_MEMORY") != "" {
		return ""
	}
	return "256MB"
}()

// OpenStore opens (or creates) the database at path, or an in-memory one
// when path is empty, and creates the tables of queries/schema.sql.
func OpenStore(ctx context.Context, path string) (*Store, error) {
	return openStore(ctx, path, true)
}

// openStoreSpilling is OpenStore for an in-memory database that spills
// into a temporary directory inside spillDir (the system's temporary
// directory when empty).
func openStoreSpilling(ctx context.Context, path, spillDir string) (*Store, error) {
	return openStoreFull(ctx, path, true, "", spillDir)
}

// OpenStoreReadOnly opens the kept audit at path so that no SQL run on it
// can change anything (contract §9): the database is opened with DuckDB's
// access_mode READ_ONLY (INSERT, UPDATE, DELETE, DROP, CREATE fail), then
// external access is turned off (COPY … TO, reading or writing other files,
// ATTACH, INSTALL, LOAD fail) and the configuration is locked, so that a
// query cannot SET either back.
func OpenStoreReadOnly(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("a read-only store needs a database file")
	}
	s, err := openStoreMode(ctx, path, false, "READ_ONLY")
	if err != nil {
		return nil, err
	}
	for _, q := range []string{"SET enable_external_access = false", "SET lock_configuration = true"} {
		if err := s.Exec(ctx, q); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// openStore opens the database at path, and creates the tables when schema
// is true.
func openStore(ctx context.Context, path string, schema bool) (*Store, error) {
	return openStoreMode(ctx, path, schema, "")
}

// openStoreMode opens the database at path with DuckDB's access_mode mode
// ("" for the default, READ_WRITE for a file).
func openStoreMode(ctx context.Context, path string, schema bool, mode string) (*Store, error) {
	return openStoreFull(ctx, path, schema, mode, "")
}

// openStoreFull is openStoreMode with the directory an in-memory database
// spills into (see bound).
func openStoreFull(ctx context.Context, path string, schema bool, mode, spillDir string) (*Store, error) {
	dsn := path
	if mode != "" {
		dsn += "?access_mode=" + mode
	}
	connector, err := duckdb.NewConnector(dsn, nil)
	if err != nil {
		return nil, fmt.Errorf("cannot open DuckDB database %q: %w", path, err)
	}
	db := sql.OpenDB(connector)
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("cannot connect to DuckDB database %q: %w", path, err)
	}
	s := &Store{db: db, conn: conn}
	if err := s.bound(ctx, path, spillDir); err != nil {
		s.Close()
		return nil, err
	}
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(driver.Conn)
		if !ok {
			return errors.New("not a driver connection")
		}
		s.arrow, err = duckdb.NewArrowFromConn(c)
		return err
	})
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("cannot open the Arrow interface of DuckDB: %w", err)
	}
	if !schema {
		return s, nil
	}
	if err := s.Exec(ctx, queries.SQL("schema.sql")); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// bound sets DuckDB's memory_limit (MemoryLimit) and, for an in-memory
// database, its temp_directory: a temporary name of package atomicfile in
// spillDir, or os.TempDir() when it is empty
// (".crawlaudit-duckdb.tmp-PID-RANDOM"), which DuckDB makes when it first
// spills, Close removes, and atomicfile.RemoveTemporary or SweepStale
// remove after an interrupted or killed run. spillDir is the output's
// directory: what the audit writes lands on that disk, and /tmp is often
// a small RAM disk. A database file spills to DuckDB's default, FILE.tmp
// beside it, which DuckDB removes when it closes and atomicfile knows as a
// companion of the file.
func (s *Store) bound(ctx context.Context, path, spillDir string) error {
	if path == "" {
		if spillDir == "" {
			spillDir = os.TempDir()
		}
		atomicfile.SweepStaleOf(spillDir, "crawlaudit-duckdb") // what killed runs left
		s.tempDir = atomicfile.TempPath(filepath.Join(spillDir, "crawlaudit-duckdb"))
		if err := s.Exec(ctx, "SET temp_directory = "+sqlString(s.tempDir)); err != nil {
			return err
		}
	}
	if MemoryLimit != "" {
		return s.Exec(ctx, "SET memory_limit = "+sqlString(MemoryLimit))
	}
	return nil
}

// sqlString quotes s as an SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// Exec runs SQL statements that return no rows.
func (s *Store) Exec(ctx context.Context, query string, args ...any) error {
	if _, err := s.conn.ExecContext(ctx, query, args...); err != nil {
		return fmt.Errorf("DuckDB: %w\nin: %s", err, firstLine(query))
	}
	return nil
}

// Query runs a query on the store's connection.
func (s *Store) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	rows, err := s.conn.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("DuckDB: %w\nin: %s", err, firstLine(query))
	}
	return rows, nil
}

// Each runs query, calls head with the column names (when head is not nil),
// then row with the values of each row, scanned as database/sql gives them
// (nil for NULL). vals is reused for the next row.
func (s *Store) Each(ctx context.Context, query string, head func(cols []string) error, row func(vals []any) error, args ...any) error {
	rows, err := s.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	if head != nil {
		if err := head(cols); err != nil {
			return err
		}
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if err := row(vals); err != nil {
			return err
		}
	}
	return rows.Err()
}

// largeChunkRows is the number of rows EachLarge reads back at a time (a
// variable for the tests), fewer when long strings are stored
// (chunkRows).
var largeChunkRows = 65536

// largeChunkBytes bounds the bytes of long strings EachLarge reads back at
// a time: the driver holds a chunk whole, outside DuckDB's memory limit.
const largeChunkBytes = 32 << 20

// chunkRows is the number of rows EachLarge reads at a time: largeChunkRows,
// or fewer when a row may carry the longest string stored (60 KB URLs:
// 546 rows, 33 MB, where 65,536 rows would be 4 GB).
func (s *Store) chunkRows() int64 {
	n := int64(largeChunkRows)
	if s.longest > 0 {
		n = min(n, max(16, largeChunkBytes/s.longest))
	}
	return n
}

// vectorRows is DuckDB's vector size: the rows an operator holds at once.
const vectorRows = 2048

// fitLongStrings, once the longest string stored is known (Insert notes
// it: a query cannot read it back, since the strings may fill the memory
// limit already), and when vectors of such strings would crowd DuckDB's
// memory limit, raises the limit to three vectors of them and runs the
// queries on one thread (two failed; four cost 200 MB more at peak with
// --parquet). DuckDB holds a
// vector of 2,048 values whole in memory (it cannot spill part of one): a
// log of 60 KB URLs makes vectors of 120 MB, and a query with a few of them
// in flight failed with "failed to pin block" under a 256 MB limit. The
// process's memory then grows by what the strings need, not by the log's
// size. limit is the memory_limit in force, in bytes.
func (s *Store) fitLongStrings(ctx context.Context, limit int64) error {
	need := 3 * vectorRows * s.longest
	if limit <= 0 || need <= limit {
		return nil
	}
	return s.Exec(ctx, fmt.Sprintf("SET threads = 1; SET memory_limit = '%dMiB'", need>>20+1))
}

// EachLarge is Each for a query whose result may be large (a row per
// request, per address, per bot name). DuckDB's driver materializes a
// query's whole result before the first row is read, and that copy is
// outside DuckDB's memory limit (5 M rows of four columns: 400 MB): here
// the result goes into a temporary table first, which spills like any
// other, and is read back largeChunkRows rows at a time in the query's
// order. query is one statement (a trailing semicolon is allowed).
func (s *Store) EachLarge(ctx context.Context, query string, head func(cols []string) error, row func(vals []any) error, args ...any) error {
	return s.eachLarge(ctx, query, false, head, row, args...)
}

// eachLarge is EachLarge; with sortApart, for one of the project's
// queries whose last line is its order ("ORDER BY ts, file, line"), the
// rows are stored unsorted first, with preserve_insertion_order off, and
// sorted in a second step from that table. Sorting the output of a query
// of unions and joins in the same step failed under DuckDB's memory limit
// ("failed to pin block") where sorting a stored table spills: breaches.csv
// of a month read three times (0.9 M breaches) under 256 MB.
func (s *Store) eachLarge(ctx context.Context, query string, sortApart bool, head func(cols []string) error, row func(vals []any) error, args ...any) error {
	name := fmt.Sprintf("each_large_%d", s.views.Add(1))
	query = strings.TrimRight(strings.TrimSpace(query), ";")
	defer s.conn.ExecContext(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS "+name+"; DROP TABLE IF EXISTS "+name+"_unsorted")
	if body, order, ok := splitFinalOrder(query); sortApart && ok {
		err := s.Exec(ctx, "SET preserve_insertion_order = false; CREATE TEMP TABLE "+name+"_unsorted AS\n"+body, args...)
		if rerr := s.Exec(context.WithoutCancel(ctx), "SET preserve_insertion_order = true"); err == nil {
			err = rerr
		}
		if err != nil {
			return err
		}
		query, args = "SELECT * FROM "+name+"_unsorted\n"+order, nil
	}
	// The table keeps the rows in the query's order: DuckDB preserves
	// insertion order (preserve_insertion_order, on by default), and
	// rowid counts the rows as they were inserted.
	if err := s.Exec(ctx, "CREATE TEMP TABLE "+name+" AS\n"+query, args...); err != nil {
		return err
	}
	s.conn.ExecContext(ctx, "DROP TABLE IF EXISTS "+name+"_unsorted")
	var n int64
	if err := s.conn.QueryRowContext(ctx, "SELECT count(*) FROM "+name).Scan(&n); err != nil {
		return fmt.Errorf("DuckDB: %w", err)
	}
	step := s.chunkRows()
	for from := int64(0); from == 0 || from < n; from += step {
		chunk := fmt.Sprintf("SELECT * FROM %s WHERE rowid >= %d AND rowid < %d ORDER BY rowid", name, from, from+step)
		if err := s.Each(ctx, chunk, head, row); err != nil {
			return err
		}
		head = nil
	}
	return nil
}

// splitFinalOrder splits query at its last line when that line is a
// plain ORDER BY of output columns ("ORDER BY ts, file, line": no
// parenthesis, no other clause after it); ok is false otherwise.
func splitFinalOrder(query string) (body, order string, ok bool) {
	i := strings.LastIndexByte(query, '\n')
	if i < 0 {
		return "", "", false
	}
	last := strings.TrimSpace(query[i+1:])
	if !strings.HasPrefix(last, "ORDER BY ") || strings.ContainsAny(last, "()'\"") ||
		strings.Contains(last, " LIMIT") || strings.Contains(last, "--") {
		return "", "", false
	}
	return query[:i], last, true
}

// Insert appends the rows of rec to table, whose columns must have the
// names, order and compatible types of rec's schema. rec is not released.
func (s *Store) Insert(ctx context.Context, table string, rec arrow.RecordBatch) error {
	if rec.NumRows() == 0 {
		return nil
	}
	reader, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
	if err != nil {
		return fmt.Errorf("cannot make an Arrow reader for %s: %w", table, err)
	}
	defer reader.Release()
	for _, col := range rec.Columns() {
		s.noteLongest(col)
	}
	view := fmt.Sprintf("crawlaudit_batch_%d", s.views.Add(1))
	release, err := s.arrow.RegisterView(reader, view)
	if err != nil {
		return fmt.Errorf("cannot hand a batch to DuckDB: %w", err)
	}
	defer release()
	// SELECT * only: see the type comment.
	if err := s.Exec(ctx, fmt.Sprintf("INSERT INTO %s SELECT * FROM %s", table, view)); err != nil {
		return err
	}
	return s.Exec(ctx, "DROP VIEW IF EXISTS "+view)
}

// noteLongest raises s.longest to the longest value of a string column
// (inside structs too), from its offsets: no string is read.
func (s *Store) noteLongest(a arrow.Array) {
	switch x := a.(type) {
	case *array.String:
		for i := 0; i < x.Len(); i++ {
			s.longest = max(s.longest, int64(x.ValueLen(i)))
		}
	case *array.LargeString:
		for i := 0; i < x.Len(); i++ {
			s.longest = max(s.longest, int64(x.ValueLen(i)))
		}
	case *array.Binary:
		for i := 0; i < x.Len(); i++ {
			s.longest = max(s.longest, int64(x.ValueLen(i)))
		}
	case *array.Struct:
		for i := 0; i < x.NumField(); i++ {
			s.noteLongest(x.Field(i))
		}
	}
}

// InsertRequests appends rec, a batch of RequestsSchema, to the judged
// requests (table requests_store, seen through the view requests). rec is
// not released.
func (s *Store) InsertRequests(ctx context.Context, rec arrow.RecordBatch) error {
	packed, err := storeBatch(rec)
	if err != nil {
		return err
	}
	defer packed.Release()
	return s.Insert(ctx, "requests_store", packed)
}

// insertValues appends rows of parameters to table, up to 500 rows per
// INSERT statement (a statement per row costs half a millisecond each).
func (s *Store) insertValues(ctx context.Context, table string, rows [][]any) error {
	const perStatement = 500
	for len(rows) > 0 {
		n := min(len(rows), perStatement)
		var q strings.Builder
		q.WriteString("INSERT INTO " + table + " VALUES ")
		var args []any
		for i, r := range rows[:n] {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(" + strings.Repeat("?, ", len(r)-1) + "?)")
			args = append(args, r...)
		}
		if err := s.Exec(ctx, q.String(), args...); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}

// Close closes the database; closing it again does nothing.
func (s *Store) Close() error {
	var errs []error
	if s.conn != nil {
		errs = append(errs, s.conn.Close())
		s.conn = nil
	}
	if s.db != nil {
		errs = append(errs, s.db.Close())
		s.db = nil
	}
	if s.tempDir != "" {
		errs = append(errs, atomicfile.Remove(s.tempDir))
		s.tempDir = ""
	}
	return errors.Join(errs...)
}

func firstLine(q string) string {
	q = strings.TrimSpace(q)
	for _, l := range strings.Split(q, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "--") {
			return l
		}
	}
	return q
}

// parseBytes parses a DuckDB memory size ("320MB", "1GB", "512MiB",
// "1.5 GB"), 0 when it is not one.
func parseBytes(v string) int64 {
	v = strings.ToUpper(strings.TrimSpace(v))
	units := []struct {
		suffix string
		mult   float64
	}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"TIB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(v, u.suffix); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			if err != nil || f < 0 {
				return 0
			}
			return int64(f * u.mult)
		}
	}
	return 0
}
