//go:build duckdb_arrow

package store

import (
	"context"
	"fmt"
	"strings"
)

// largeChunkRows is the number of rows EachLarge reads back at a time (a
// variable for the tests), fewer when long strings are stored
// (chunkRows).
var largeChunkRows = 65536

// largeChunkBytes bounds the bytes of long strings EachLarge reads back at
// a time: the driver holds a chunk whole, outside DuckDB's memory limit.
const largeChunkBytes = 32 << 20

// chunkRows is the number of rows EachLarge reads at a time: largeChunkRows,
// or fewer when a row may carry the longest string stored, so that a chunk
// of such rows stays near largeChunkBytes.
func (s *Store) chunkRows() int64 {
	n := int64(largeChunkRows)
	if s.longest > 0 {
		n = min(n, max(16, largeChunkBytes/s.longest))
	}
	return n
}

// vectorRows is DuckDB's vector size: the rows an operator holds at once.
const vectorRows = 2048

// fitLongStrings, when vectors of the longest string stored would crowd
// DuckDB's memory limit, raises the limit to three vectors of them and runs
// the queries on one thread: DuckDB holds a vector of 2,048 values whole
// (it cannot spill part of one), and a query with a few long-string vectors
// in flight fails with "failed to pin block" (docs/performance.md).
// Insert notes the longest string, since a query could not read it back
// once the strings fill the limit. limit is the memory_limit in force, in
// bytes.
//
// It also has DuckDB's allocator give freed memory back to the system
// after every task (longStringAllocator).
func (s *Store) fitLongStrings(ctx context.Context, limit int64) error {
	need := 3 * vectorRows * s.longest
	if limit <= 0 || need <= limit {
		return nil
	}
	return s.Exec(ctx, fmt.Sprintf("SET threads = 1; SET memory_limit = '%dMiB'; %s", need>>20+1, longStringAllocator))
}

// longStringAllocator makes DuckDB's allocator return the memory freed by
// a task to the system at once. Vectors of long strings are allocated
// outside the buffer pool, and the allocator otherwise keeps what they
// freed for reuse: each step of Named copying 60 KB URLs left some 100 MB
// more resident, and --parquet peaked at 1.1 GiB with 340 MB in the pool;
// with it, 0.66 GiB. It is not set for ordinary logs: there it made the
// realistic month's --out --parquet 40% slower
// (docs/performance.md, Memory).
const longStringAllocator = "SET allocator_flush_threshold = '0MB'; SET allocator_bulk_deallocation_flush_threshold = '0MB'"

// LimitAfterRead sets DuckDB's memory limit for the queries that follow the
// reading of the logs: MemoryLimitAfterRead when it is set, raised when
// vectors of the longest strings stored need more (see fitLongStrings);
// and keeps each join's hash table on the side the query names second.
func (s *Store) LimitAfterRead(ctx context.Context) error {
	limit := MemoryLimit
	if MemoryLimitAfterRead != "" {
		if err := s.Exec(ctx, "SET memory_limit = "+Quote(MemoryLimitAfterRead)); err != nil {
			return err
		}
		limit = MemoryLimitAfterRead
	}
	// DuckDB builds a join's hash table on the side it estimates smaller;
	// under the view requests it chose the requests with their address
	// strings over claims (4 M rows of 3.1 M IPv6 addresses: 231 MB where
	// claims' ids take 57 MB) and ran out of the limit. The view's joined
	// tables are the small side by design (docs/performance.md, Memory).
	if err := s.Exec(ctx, "SET disabled_optimizers = 'build_side_probe_side'"); err != nil {
		return err
	}
	return s.fitLongStrings(ctx, parseBytes(limit))
}

// EachLarge is Each for a query whose result may be large (a row per
// request, per address, per bot name). DuckDB's driver materializes a
// query's whole result before the first row is read, and that copy is
// outside DuckDB's memory limit: here
// the result goes into a temporary table first, which spills like any
// other, and is read back largeChunkRows rows at a time in the query's
// order. query is one statement (a trailing semicolon is allowed).
func (s *Store) EachLarge(ctx context.Context, query string, head func(cols []string) error, row func(vals []any) error, args ...any) error {
	return s.eachLarge(ctx, query, false, head, row, args...)
}

// EachLargeSorted is EachLarge for one of the project's queries whose last
// line is its order ("ORDER BY ts, file, line"): see eachLarge.
func (s *Store) EachLargeSorted(ctx context.Context, query string, head func(cols []string) error, row func(vals []any) error, args ...any) error {
	return s.eachLarge(ctx, query, true, head, row, args...)
}

// eachLarge is EachLarge; with sortApart, for one of the project's
// queries whose last line is its order ("ORDER BY ts, file, line"), the
// rows are stored unsorted first, with preserve_insertion_order off, and
// sorted in a second step from that table. Sorting the output of a query
// of unions and joins in the same step fails under DuckDB's memory limit
// ("failed to pin block") where sorting a stored table spills
// (docs/performance.md).
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

// Release has DuckDB give back the memory its buffer pool holds (evicting
// to its spill files what it must keep) and its allocator keeps, before the
// program holds much memory of its own: the block list of a hostile log is
// hundreds of MB in Go while DuckDB keeps its limit's worth resident. The
// memory limit in force stays; the allocator keeps freed memory again
// afterwards (returning it at once slows the ordinary queries). It is best
// effort: DuckDB refuses to shrink when its pinned blocks do not fit, and
// the audit goes on as it was.
func (s *Store) Release(ctx context.Context) {
	var limit, flush, bulk string
	err := s.QueryRow(ctx, `SELECT current_setting('memory_limit'), current_setting('allocator_flush_threshold'),
		current_setting('allocator_bulk_deallocation_flush_threshold')`).Scan(&limit, &flush, &bulk)
	if err != nil {
		return
	}
	_ = s.Exec(ctx, longStringAllocator)
	_ = s.Exec(ctx, "SET memory_limit = '32MB'")
	_ = s.Exec(ctx, "SET memory_limit = "+Quote(limit))
	_ = s.Exec(ctx, "SET allocator_flush_threshold = "+Quote(flush)+"; SET allocator_bulk_deallocation_flush_threshold = "+Quote(bulk))
}
