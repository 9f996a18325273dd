//go:build duckdb_arrow

package audit

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/crawlaudit/crawlaudit/internal/loggen"
)

// monthLines is the size of the month of BenchmarkAuditMonth (issue 4's
// target: 1 M combined lines, about 250 MB).
const monthLines = 1_000_000

// benchMonth writes the generated month (combined, Europe/Berlin offsets,
// the generator's 60-rule robots.txt history of three versions) and its
// gzip copy into dir, and returns their paths and the history's directory.
func benchMonth(b *testing.B, dir string) (plain, gz, robotsDir string) {
	b.Helper()
	cfg := loggen.SampleConfig()
	cfg.Lines = monthLines
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		b.Skipf("no time zone data: %v", err)
	}
	cfg.Location = loc
	robotsDir = filepath.Join(dir, "robots")
	hostDir := filepath.Join(robotsDir, loggen.DefaultHost)
	if err := os.MkdirAll(hostDir, 0o755); err != nil {
		b.Fatal(err)
	}
	for _, v := range loggen.Robots(loggen.DefaultHost) {
		if err := os.WriteFile(filepath.Join(hostDir, v.FileName()), []byte(v.Text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	plain = filepath.Join(dir, "access-2026-10.log")
	gz = plain + ".gz"
	pf, err := os.Create(plain)
	if err != nil {
		b.Fatal(err)
	}
	gf, err := os.Create(gz)
	if err != nil {
		b.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(gf, gzip.DefaultCompression)
	w, err := loggen.NewWriter(io.MultiWriter(pf, zw), "combined")
	if err != nil {
		b.Fatal(err)
	}
	if err := loggen.Generate(cfg, w.Write); err != nil {
		b.Fatal(err)
	}
	for _, err := range []error{w.Close(), zw.Close(), pf.Close(), gf.Close()} {
		if err != nil {
			b.Fatal(err)
		}
	}
	return plain, gz, robotsDir
}

// BenchmarkAuditMonth measures the whole audit (history, ingest, judge,
// DuckDB inserts, the summary's SQL) over a generated month of 1 M combined
// lines, plain and gzipped, as `crawlaudit audit` runs it. It reports lines
// per second and, for the gzip file, the ratio of the audit's time to
// `gzip -dc` alone on the same file (when the gzip command is installed),
// and the peak RSS of the process (generation included, an upper bound).
//
//	go test -tags duckdb_arrow -run '^$' -bench AuditMonth -benchtime 5x ./audit/
func BenchmarkAuditMonth(b *testing.B) {
	dir := b.TempDir()
	plain, gz, robotsDir := benchMonth(b, dir)
	for _, in := range []struct{ name, path string }{{"plain", plain}, {"gzip", gz}} {
		b.Run(in.name, func(b *testing.B) {
			st, err := os.Stat(plain)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(st.Size()) // the log's bytes, also for the gzip file
			start := time.Now()
			for b.Loop() {
				res, err := Run(context.Background(), Config{Robots: robotsDir, Grace: 24 * time.Hour}, []string{in.path})
				if err != nil {
					b.Fatal(err)
				}
				if res.Summary.Input.Parsed != monthLines {
					b.Fatalf("parsed %d lines, want %d", res.Summary.Input.Parsed, monthLines)
				}
				res.Close()
			}
			perOp := time.Since(start).Seconds() / float64(b.N)
			b.ReportMetric(monthLines/perOp, "lines/s")
			if in.name == "gzip" {
				if d, ok := gzipDC(in.path); ok {
					b.ReportMetric(perOp/d.Seconds(), "x-gzip-dc")
				}
			}
			var ru syscall.Rusage
			if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
				b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB")
			}
		})
	}
}

// gzipDC returns the best of three runs of `gzip -dc path > /dev/null`.
func gzipDC(path string) (time.Duration, bool) {
	if _, err := exec.LookPath("gzip"); err != nil {
		return 0, false
	}
	best := time.Duration(1<<63 - 1)
	for range 3 {
		cmd := exec.Command("gzip", "-dc", path)
		start := time.Now()
		if err := cmd.Run(); err != nil {
			return 0, false
		}
		best = min(best, time.Since(start))
	}
	return best, true
}
