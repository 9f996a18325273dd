//go:build duckdb_arrow

package store_test

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/audit/store"
)

// BenchmarkStoreInsert measures judged rows per second into DuckDB through
// the Arrow bridge (Store.InsertRequests: INSERT INTO requests_store SELECT * FROM view).
func BenchmarkStoreInsert(b *testing.B) {
	ctx := context.Background()
	s, err := store.Open(ctx, "")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	bld := array.NewRecordBuilder(memory.NewGoAllocator(), audit.RequestsSchema)
	defer bld.Release()
	const rows = 1 << 16
	for i := 0; i < rows; i++ {
		appendCanaryRow(bld, audit.RequestsSchema, i)
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()
	b.ResetTimer()
	for b.Loop() {
		if err := s.InsertRequests(ctx, rec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
