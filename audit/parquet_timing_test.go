//go:build duckdb_arrow

package audit

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/robots"
)

// BenchmarkParquetMonth measures what --parquet adds to an audit: the view
// judged and its measures (materialize, which --out needs too, reported
// once as materialize-ms), then the whole dataset written, per iteration.
// It audits the log CRAWLAUDIT_BENCH_LOG with the history
// CRAWLAUDIT_BENCH_ROBOTS (the generated month: crawlaudit gen --lines
// 1000000 --robots-dir R -o F), and skips without them.
//
//	CRAWLAUDIT_BENCH_LOG=F CRAWLAUDIT_BENCH_ROBOTS=R go test -tags duckdb_arrow -run '^$' -bench ParquetMonth -benchtime 3x ./audit/
func BenchmarkParquetMonth(b *testing.B) {
	log, robotsDir := os.Getenv("CRAWLAUDIT_BENCH_LOG"), os.Getenv("CRAWLAUDIT_BENCH_ROBOTS")
	if log == "" || robotsDir == "" {
		b.Skip("set CRAWLAUDIT_BENCH_LOG and CRAWLAUDIT_BENCH_ROBOTS to a generated month and its robots.txt history")
	}
	ctx := context.Background()
	res, err := Run(ctx, Config{Robots: robotsDir, Profile: robots.RFC9309, Grace: 24 * time.Hour}, []string{log})
	if err != nil {
		b.Fatal(err)
	}
	defer res.Close()
	start := time.Now()
	if err := res.materialize(ctx); err != nil {
		b.Fatal(err)
	}
	materialize := time.Since(start)
	dir := filepath.Join(b.TempDir(), "ds")
	var st ParquetStats
	b.ResetTimer()
	for b.Loop() {
		if st, err = res.WriteParquet(ctx, dir); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/dataset")
	b.ReportMetric(float64(materialize.Milliseconds()), "materialize-ms")
	b.ReportMetric(float64(st.Rows), "rows")
	b.ReportMetric(float64(st.Bytes), "bytes")
}
