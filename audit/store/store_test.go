//go:build duckdb_arrow

package store

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestStoreInsertValues: rows go in many per statement, across statement
// boundaries, with their values in place.
func TestStoreInsertValues(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var rows [][]any
	for i := range 1234 {
		rows = append(rows, []any{fmt.Sprintf("h%d.example", i), int64(i), int64(2 * i)})
	}
	if err := s.InsertValues(ctx, "traffic", rows); err != nil {
		t.Fatal(err)
	}
	if err := s.InsertValues(ctx, "traffic", nil); err != nil {
		t.Fatal(err)
	}
	var n, bad int64
	err = s.Each(ctx, "SELECT count(*), count(*) FILTER (WHERE host <> 'h' || humans || '.example' OR bots <> 2 * humans) FROM traffic", nil, func(v []any) error {
		n, bad = v[0].(int64), v[1].(int64)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 1234 || bad != 0 {
		t.Errorf("%d rows, %d wrong; want 1234 rows, none wrong", n, bad)
	}
}

// TestStoreEachLarge: EachLarge gives the rows of Each, in the query's
// order (here one DuckDB's hash aggregate does not keep), through chunk
// boundaries, with parameters, the columns once, and nothing for an empty
// result; its temporary table is gone afterwards.
func TestStoreEachLarge(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	old := largeChunkRows
	largeChunkRows = 1000
	defer func() { largeChunkRows = old }()
	const query = `SELECT i % 997 AS k, count(*) AS n, string_agg(i::VARCHAR, ',' ORDER BY i) AS s
FROM range(0, 200000) t(i) WHERE i % $1 <> 0 GROUP BY k ORDER BY n DESC, k DESC;`
	collect := func(each func(context.Context, string, func([]string) error, func([]any) error, ...any) error, q string) (heads [][]string, rows []string) {
		t.Helper()
		err := each(ctx, q, func(cols []string) error {
			heads = append(heads, cols)
			return nil
		}, func(v []any) error {
			rows = append(rows, fmt.Sprint(v...))
			return nil
		}, 3)
		if err != nil {
			t.Fatal(err)
		}
		return heads, rows
	}
	wantHeads, want := collect(s.Each, query)
	gotHeads, got := collect(s.EachLarge, query)
	if len(want) != 997 {
		t.Fatalf("Each: %d rows, want 997", len(want))
	}
	if fmt.Sprint(gotHeads) != fmt.Sprint(wantHeads) || len(gotHeads) != 1 {
		t.Errorf("columns %v, want %v once", gotHeads, wantHeads)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("EachLarge's %d rows differ from Each's %d", len(got), len(want))
	}
	// Sorted in a step of its own: the same rows in the same order, from
	// a query whose last line is its order; a query whose order is not a
	// plain last line is run as it is.
	sortApart := func(ctx context.Context, q string, head func([]string) error, row func([]any) error, args ...any) error {
		return s.eachLarge(ctx, strings.ReplaceAll(q, "$1", "3"), true, head, row)
	}
	split := strings.Replace(query, " ORDER BY n DESC", "\nORDER BY n DESC", 1)
	if _, order, ok := splitFinalOrder(strings.TrimRight(split, ";")); !ok || order != "ORDER BY n DESC, k DESC" {
		t.Fatalf("splitFinalOrder: %q, %v", order, ok)
	}
	for _, q := range []string{split, query} {
		gotHeads, got = collect(sortApart, q)
		if fmt.Sprint(gotHeads) != fmt.Sprint(wantHeads) || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("sorted apart (%.40q…): %d rows, columns %v, differ from Each's", q, len(got), gotHeads)
		}
	}
	for _, q := range []string{"SELECT 1\nORDER BY count(*)", "SELECT 1 ORDER BY a", "SELECT 1\nORDER BY a LIMIT 3"} {
		if _, _, ok := splitFinalOrder(q); ok {
			t.Errorf("splitFinalOrder(%q) split it", q)
		}
	}
	gotHeads, got = collect(s.EachLarge, "SELECT 1 AS a WHERE $1 = 0")
	if len(got) != 0 || fmt.Sprint(gotHeads) != "[[a]]" {
		t.Errorf("empty result: rows %q, columns %v", got, gotHeads)
	}
	var tables int64
	if err := s.Each(ctx, "SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE 'each_large_%'", nil, func(v []any) error {
		tables = v[0].(int64)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if tables != 0 {
		t.Errorf("%d temporary tables left", tables)
	}
}

// TestStoreChunkRowsLongStrings: once Insert has seen long strings,
// EachLarge reads fewer rows at a time, so that a chunk of them stays near
// largeChunkBytes, and still gives every row; fitLongStrings then raises
// DuckDB's memory limit to hold vectors of them, on one thread, and has
// its allocator return freed memory at once.
func TestStoreChunkRowsLongStrings(t *testing.T) {
	ctx := context.Background()
	s, err := OpenWith(ctx, "", Options{NoTables: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.chunkRows(); got != int64(largeChunkRows) {
		t.Fatalf("before any insert: %d rows a chunk, want %d", got, largeChunkRows)
	}
	const rows, pathBytes = 700, 60000
	if err := s.Exec(ctx, "CREATE TABLE paths (path VARCHAR)"); err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.NewGoAllocator(), arrow.NewSchema([]arrow.Field{{Name: "path", Type: arrow.BinaryTypes.String}}, nil))
	defer b.Release()
	for i := range rows {
		b.Field(0).(*array.StringBuilder).Append(fmt.Sprintf("/%d/", i) + strings.Repeat("a", pathBytes-10))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	if err := s.Insert(ctx, "paths", rec); err != nil {
		t.Fatal(err)
	}
	if got := s.Longest(); got < pathBytes-10 {
		t.Fatalf("longest string noted %d, want at least %d", got, pathBytes-10)
	}
	if n := s.chunkRows(); n*pathBytes > 2*largeChunkBytes || n >= rows {
		t.Errorf("EachLarge reads %d rows of %d bytes at a time", n, pathBytes)
	}
	var got int
	if err := s.EachLarge(ctx, "SELECT path FROM paths ORDER BY path", nil, func(v []any) error {
		if len(v[0].(string)) >= pathBytes-10 {
			got++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got != rows {
		t.Errorf("EachLarge gave %d long rows, want %d", got, rows)
	}
	flush := func() (string, string) {
		var a, b string
		if err := s.Each(ctx, "SELECT current_setting('allocator_flush_threshold')::VARCHAR, current_setting('allocator_bulk_deallocation_flush_threshold')::VARCHAR", nil, func(v []any) error {
			a, b = v[0].(string), v[1].(string)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return a, b
	}
	// A limit with room for the vectors changes nothing.
	if err := s.fitLongStrings(ctx, parseBytes("10GB")); err != nil {
		t.Fatal(err)
	}
	if a, b := flush(); parseBytes(a) == 0 || parseBytes(b) == 0 {
		t.Errorf("with room for the vectors: allocator flush thresholds %s and %s, want DuckDB's defaults", a, b)
	}
	if err := s.fitLongStrings(ctx, parseBytes("32MB")); err != nil {
		t.Fatal(err)
	}
	var threads int64
	var limit string
	if err := s.Each(ctx, "SELECT current_setting('threads'), current_setting('memory_limit')", nil, func(v []any) error {
		threads, limit = v[0].(int64), v[1].(string)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if threads != 1 || parseBytes(limit) < 3*vectorRows*(pathBytes-10) {
		t.Errorf("after fitLongStrings: threads %d, memory_limit %s; want 1 and room for three vectors of %d bytes", threads, limit, pathBytes)
	}
	// The allocator then returns what a task freed at once.
	if a, b := flush(); parseBytes(a) != 0 || parseBytes(b) != 0 {
		t.Errorf("after fitLongStrings: allocator flush thresholds %s and %s, want 0", a, b)
	}
}

// TestParseBytesQuote: DuckDB's memory sizes as DuckDB writes them and as
// users do, and SQL string literals with quotes inside.
func TestParseBytesQuote(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"320MB", 320e6}, {"1GB", 1e9}, {"512MiB", 512 << 20}, {"1.5 GB", 1.5e9},
		{" 2 gib ", 2 << 30}, {"100B", 100}, {"", 0}, {"lots", 0}, {"-1MB", 0}, {"MB", 0},
	} {
		if got := parseBytes(tc.in); got != tc.want {
			t.Errorf("parseBytes(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
	for in, want := range map[string]string{"a": "'a'", "it's": "'it''s'", "": "''", "''": "''''''"} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}
