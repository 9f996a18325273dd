package audit

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/audit/bots"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/internal/loggen"
	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/robots/history"
	"github.com/crawlaudit/crawlaudit/verify"
)

// BenchmarkJudge measures the vectorised matcher alone: ingest batches of a
// generated month (kept in memory) judged against its robots.txt history.
// It reports rows (all requests, human and bot) per second.
func BenchmarkJudge(b *testing.B) {
	cfg := loggen.SampleConfig()
	cfg.Lines = 200000
	var log bytes.Buffer
	w, err := loggen.NewWriter(&log, "combined")
	if err != nil {
		b.Fatal(err)
	}
	if err := loggen.Generate(cfg, w.Write); err != nil {
		b.Fatal(err)
	}
	w.Close()
	dir := b.TempDir()
	host := filepath.Join(dir, loggen.DefaultHost)
	if err := os.MkdirAll(host, 0o755); err != nil {
		b.Fatal(err)
	}
	for _, v := range loggen.Robots(loggen.DefaultHost) {
		if err := os.WriteFile(filepath.Join(host, v.FileName()), []byte(v.Text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	hist, err := history.Load(dir, history.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var batches []arrow.RecordBatch
	rows := 0
	_, err = ingest.Run(context.Background(), []string{"-"}, ingest.Options{Stdin: &log, Workers: 1, Allocator: memory.NewGoAllocator()},
		func(rec arrow.RecordBatch) error {
			rec.Retain()
			batches = append(batches, rec)
			rows += int(rec.NumRows())
			return nil
		})
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		for _, rec := range batches {
			rec.Release()
		}
	}()
	mem := ingest.NewPoolAllocator()
	ident := bots.NewIdentifier()
	ranges, err := verify.Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		j := newJudge(mem, hist, robots.RFC9309, ident, readyRanges(ranges))
		for _, rec := range batches {
			if err := j.add(rec); err != nil {
				b.Fatal(err)
			}
			if j.pending() >= flushRows {
				j.flush().Release()
			}
		}
		j.flush().Release()
		j.release()
	}
	b.ReportMetric(float64(rows)*float64(b.N)/time.Since(start).Seconds(), "rows/s")
}
