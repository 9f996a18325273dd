//go:build duckdb_arrow

package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/audit/store"
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
	s, err := store.Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	b := array.NewRecordBuilder(mem, audit.RequestsSchema)
	defer b.Release()
	const n = 3000 // more than one DuckDB vector (2048 rows)
	for i := 0; i < n; i++ {
		appendCanaryRow(b, audit.RequestsSchema, i)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	for range 2 { // twice: views are registered and dropped per batch
		if err := s.InsertRequests(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}

	var names []string
	for _, f := range audit.RequestsSchema.Fields() {
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
		for c, f := range audit.RequestsSchema.Fields() {
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
