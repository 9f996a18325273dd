//go:build duckdb_arrow

package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
// memory of the process does not grow with the logs.
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

// Open opens (or creates) the database at path, or an in-memory one when
// path is empty, and creates the tables of queries/schema.sql. An in-memory
// database spills into the system's temporary directory.
func Open(ctx context.Context, path string) (*Store, error) {
	return OpenWith(ctx, path, Options{})
}

// Options are the choices of OpenWith.
type Options struct {
	// SpillDir is the directory an in-memory database spills into (the
	// system's temporary directory when empty): the output's directory,
	// since /tmp is often a small RAM disk.
	SpillDir string
	// NoTables leaves the database empty, for a caller that creates its
	// own tables (a test of one query).
	NoTables bool
}

// OpenWith is Open with opts.
func OpenWith(ctx context.Context, path string, opts Options) (*Store, error) {
	return open(ctx, path, !opts.NoTables, "", opts.SpillDir)
}

// OpenReadOnly opens the kept audit at path so that no SQL run on it can
// change anything: the database is opened with DuckDB's access_mode
// READ_ONLY (INSERT, UPDATE, DELETE, DROP, CREATE fail), then external
// access is turned off (COPY … TO, reading or writing other files, ATTACH,
// INSTALL, LOAD fail) and the configuration is locked, so that a query
// cannot SET either back.
func OpenReadOnly(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("a read-only store needs a database file")
	}
	s, err := open(ctx, path, false, "READ_ONLY", "")
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

// open opens the database at path with DuckDB's access_mode mode ("" for
// the default, READ_WRITE for a file), creates the tables when schema is
// true, and has an in-memory database spill into spillDir (see bound).
func open(ctx context.Context, path string, schema bool, mode, spillDir string) (*Store, error) {
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
		if err := s.Exec(ctx, "SET temp_directory = "+Quote(s.tempDir)); err != nil {
			return err
		}
	}
	if MemoryLimit != "" {
		return s.Exec(ctx, "SET memory_limit = "+Quote(MemoryLimit))
	}
	return nil
}

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

// SetThreads sets the number of threads DuckDB runs the queries on from
// then on.
func (s *Store) SetThreads(ctx context.Context, n int) error {
	return s.Exec(ctx, fmt.Sprintf("SET threads = %d", n))
}

// QueryRow runs a query that returns at most one row, on the store's
// connection.
func (s *Store) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return s.conn.QueryRowContext(ctx, query, args...)
}

// QueryArrow runs query and returns its result as Arrow batches, for a
// caller that writes them on (the Parquet dataset). Read only tables and
// views made by SQL this way: see the type comment. The caller releases
// the reader.
func (s *Store) QueryArrow(ctx context.Context, query string) (array.RecordReader, error) {
	rr, err := s.arrow.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("DuckDB: %w\nin: %s", err, query)
	}
	return rr, nil
}

// TempName returns a table name made of prefix and a number no other call
// on s returns, for a temporary table or view of the caller's.
func (s *Store) TempName(prefix string) string {
	return fmt.Sprintf("%s_%d", prefix, s.views.Add(1))
}

// Longest is the length in bytes of the longest string stored through
// Insert so far: a caller that reads rows back bounds its batches by it.
func (s *Store) Longest() int64 { return s.longest }

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

// InsertRequests appends rec, a batch of the judge's requests schema, to the
// judged requests: table requests_store, seen through the view requests,
// holds rec's columns as the fields of one STRUCT column, r, in the order of
// queries/schema.sql, which the insert matches by position. rec is not
// released.
func (s *Store) InsertRequests(ctx context.Context, rec arrow.RecordBatch) error {
	packed, err := packRequests(rec)
	if err != nil {
		return err
	}
	defer packed.Release()
	return s.Insert(ctx, "requests_store", packed)
}

// InsertValues appends rows of parameters to table, up to 500 rows per
// INSERT statement: a statement per row costs far more than its values.
func (s *Store) InsertValues(ctx context.Context, table string, rows [][]any) error {
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

// firstLine is the first line of q that is not a comment, to name a
// statement in an error.
func firstLine(q string) string {
	q = strings.TrimSpace(q)
	for _, l := range strings.Split(q, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "--") {
			return l
		}
	}
	return q
}

// packRequests returns the rows of rec as a batch of one STRUCT column, r,
// whose fields are rec's columns, sharing rec's buffers. The caller releases
// both.
func packRequests(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	fields := rec.Schema().Fields()
	st, err := array.NewStructArrayWithFields(rec.Columns(), fields)
	if err != nil {
		return nil, fmt.Errorf("packing judged rows: %w", err)
	}
	defer st.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "r", Type: arrow.StructOf(fields...)}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{st}, rec.NumRows()), nil
}
