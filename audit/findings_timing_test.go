//go:build duckdb_arrow

package audit

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/report/markdown"
	"github.com/crawlaudit/crawlaudit/report/page"
	"github.com/crawlaudit/crawlaudit/robots"
)

// BenchmarkReportMonth measures what the reports a person reads add to an
// audit of the generated month of 1 M combined lines (the target: under
// 1 s; docs/performance.md has the figures):
// the queries of Result.Findings and the rendering of report.html and
// report.md. The audit itself runs once, outside the timing; so does the
// view judged and its measures (materialize), which --out needs anyway for
// violations.csv and breaches.csv, reported on its own as materialize-ms.
//
//	go test -tags duckdb_arrow -run '^$' -bench ReportMonth -benchtime 5x ./audit/
func BenchmarkReportMonth(b *testing.B) {
	dir := b.TempDir()
	plain, _, robotsDir := benchMonth(b, dir)
	profile, err := robots.ParseProfile("rfc9309")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	res, err := Run(ctx, Config{Robots: robotsDir, Profile: profile, Grace: 24 * time.Hour}, []string{plain})
	if err != nil {
		b.Fatal(err)
	}
	defer res.Close()
	start := time.Now()
	if err := res.materialize(ctx); err != nil {
		b.Fatal(err)
	}
	materialize := time.Since(start)
	var html, md bytes.Buffer
	b.ResetTimer()
	for b.Loop() {
		html.Reset()
		md.Reset()
		f, err := res.Findings(ctx, BlockPolicy{}, ReportOptions{Tool: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		if err := page.Write(&html, f); err != nil {
			b.Fatal(err)
		}
		if err := markdown.Write(&md, f); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/report")
	b.ReportMetric(float64(materialize.Milliseconds()), "materialize-ms")
	b.ReportMetric(float64(html.Len()), "html-bytes")
	b.ReportMetric(float64(md.Len()), "md-bytes")
}
