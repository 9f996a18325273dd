//go:build duckdb_arrow

package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// canaryValue is the value of column c in row i of the canary batch: no two
// columns share a value, so a shifted or swapped column cannot go unnoticed.
// Nullable columns are null on every seventh row (shifted by the column).
// It returns nil for null.
func canaryValue(f arrow.Field, c, i int) any {
	if f.Nullable && (i+c)%7 == 0 {
		return nil
	}
	switch f.Type.ID() {
	case arrow.TIMESTAMP:
		return int64(1_790_000_000_000_000 + i*1_000_001)
	case arrow.INT32:
		return int64(c*1_000_000 + i)
	case arrow.INT64:
		if f.Name == "line" {
			return int64(i + 1) // the ORDER BY key
		}
		return int64(c*1_000_000 + i)
	case arrow.FLOAT64:
		return float64(c) + float64(i)/4
	case arrow.BOOL:
		return (i/(c+1))%2 == 0
	case arrow.STRING:
		return fmt.Sprintf("c%d-r%d", c, i)
	}
	panic(fmt.Sprintf("canary: no value for %s", f.Type))
}

func appendCanaryRow(b *array.RecordBuilder, s *arrow.Schema, i int) {
	for c, f := range s.Fields() {
		v := canaryValue(f, c, i)
		if v == nil {
			b.Field(c).AppendNull()
			continue
		}
		switch fb := b.Field(c).(type) {
		case *array.TimestampBuilder:
			fb.Append(arrow.Timestamp(v.(int64)))
		case *array.Int32Builder:
			fb.Append(int32(v.(int64)))
		case *array.Int64Builder:
			fb.Append(v.(int64))
		case *array.Float64Builder:
			fb.Append(v.(float64))
		case *array.BooleanBuilder:
			fb.Append(v.(bool))
		case *array.StringBuilder:
			fb.Append(v.(string))
		default:
			panic(fmt.Sprintf("canary: column %d: %T", c, fb))
		}
	}
}

// TestStoreInsertKeepsColumns guards against the driver defect described on
// Store: every column of a batch must land in the column of the same name,
// with its value and its nulls. Every column holds values no other column
// has, so a shifted or swapped column fails.
func TestStoreInsertKeepsColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	s, err := OpenStore(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	b := array.NewRecordBuilder(mem, RequestsSchema)
	defer b.Release()
	const n = 3000 // more than one DuckDB vector (2048 rows)
	for i := 0; i < n; i++ {
		appendCanaryRow(b, RequestsSchema, i)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	for range 2 { // twice: views are registered and dropped per batch
		if err := s.InsertRequests(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}

	var names []string
	for _, f := range RequestsSchema.Fields() {
		names = append(names, f.Name)
	}
	rows, err := s.Query(ctx, "SELECT "+strings.Join(names, ", ")+" FROM (SELECT rowid AS rid, unnest(r) FROM requests_store) ORDER BY line, rid")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	got := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		i := got / 2
		for c, f := range RequestsSchema.Fields() {
			want := canaryValue(f, c, i)
			v := vals[c]
			switch x := v.(type) {
			case time.Time:
				v = x.UnixMicro()
			case int32:
				v = int64(x)
			}
			if fmt.Sprint(v) != fmt.Sprint(want) {
				t.Fatalf("row %d column %s = %v (%T), want %v", got, f.Name, vals[c], vals[c], want)
			}
		}
		got++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if got != 2*n {
		t.Fatalf("got %d rows, want %d", got, 2*n)
	}
}

// TestStoreInsertValues: rows go in many per statement, across statement
// boundaries, with their values in place.
func TestStoreInsertValues(t *testing.T) {
	ctx := context.Background()
	s, err := OpenStore(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var rows [][]any
	for i := range 1234 {
		rows = append(rows, []any{fmt.Sprintf("h%d.example", i), int64(i), int64(2 * i)})
	}
	if err := s.insertValues(ctx, "traffic", rows); err != nil {
		t.Fatal(err)
	}
	if err := s.insertValues(ctx, "traffic", nil); err != nil {
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
	s, err := OpenStore(ctx, "")
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

// TestCheckSpillSpace: a disk with room says nothing; a log larger than the
// free space warns before the reading; standard input cannot be told.
func TestCheckSpillSpace(t *testing.T) {
	dir := t.TempDir()
	free, ok := freeSpace(dir)
	if !ok {
		t.Skip("this system does not tell free space")
	}
	small := filepath.Join(dir, "small.log")
	os.WriteFile(small, []byte("x\n"), 0o644)
	if w, err := CheckSpillSpace(dir, []string{small, "-"}); w != "" || err != nil {
		t.Errorf("a small log: %q, %v", w, err)
	}
	// A sparse file larger than the free space: nothing is written.
	big := filepath.Join(dir, "big.log.gz")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(int64(free/8 + 1<<30)); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	f.Close()
	w, err := CheckSpillSpace(dir, []string{big})
	if err != nil || !strings.Contains(w, "free on the disk of "+dir) {
		t.Errorf("a log larger than the disk: %q, %v", w, err)
	}
	if got := humanBytes(3 << 30); got != "3.0 GiB" {
		t.Errorf("humanBytes(3 GiB) = %q", got)
	}
}
