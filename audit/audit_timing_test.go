//go:build duckdb_arrow

package audit

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/crawlaudit/crawlaudit/internal/loggen"
)

// monthLines is the size of the months of BenchmarkAuditMonth: a busy
// site's month, 1 M combined lines, about 250 MB.
const monthLines = 1_000_000

// benchMonth writes the generator's default month of monthLines lines
// (combined, Europe/Berlin offsets, the generator's 60-rule robots.txt
// history of three versions) and its gzip copy into dir, and returns their
// paths and the history's directory.
func benchMonth(b *testing.B, dir string) (plain, gz, robotsDir string) {
	cfg := loggen.SampleConfig()
	cfg.Lines = monthLines
	return benchMonthOf(b, dir, cfg)
}

// benchMonthOf writes the generated month of cfg (combined, Europe/Berlin
// offsets, its robots.txt history) and its gzip copy into dir, and returns
// their paths and the history's directory.
func benchMonthOf(b *testing.B, dir string, cfg loggen.Config) (plain, gz, robotsDir string) {
	b.Helper()
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
	vs, err := loggen.RobotsHistory(loggen.DefaultHost, cfg.RobotsRules)
	if err != nil {
		b.Fatal(err)
	}
	for _, v := range vs {
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
// lines, plain and gzipped, as `crawlaudit audit` runs it when it prints
// only the summary (Config.Lean), on two months:
// the generator's default one ("plain", "gzip": about 11,700 distinct
// paths, 46 User-Agents, 40 % crawlers) and the realistic one
// ("realistic", "realistic-gzip": loggen.RealisticConfig, about 104,000
// distinct paths with a Zipf law, 271 User-Agents, 30 % crawlers, the
// 60-rule robots.txt). It reports lines per second; for a gzip file the
// ratio of the audit's time to `gzip -dc` alone on the same file (best of
// three, when the gzip command is installed); for a plain file, when the
// goaccess command is installed, the ratio of GoAccess's time for a full
// report of the same file to the audit's (x-goaccess; see goaccessRun); and
// the peak RSS of this process (generation included, an upper bound).
// scripts/bench-realistic.sh measures the same with each command's own peak
// RSS (a child started from Go inherits its parent's high-water mark of
// memory: Linux accounts the address space it shared until exec).
//
//	go test -tags duckdb_arrow -run '^$' -bench AuditMonth -benchtime 3x ./audit/
//	go test -tags duckdb_arrow -run '^$' -bench 'AuditMonth/realistic$' -benchtime 3x ./audit/
func BenchmarkAuditMonth(b *testing.B) {
	type month struct {
		once                 sync.Once
		plain, gz, robotsDir string
	}
	months := map[string]*month{"default": {}, "realistic": {}}
	parent := b // the months live until the last sub-benchmark is done
	get := func(b *testing.B, name string) *month {
		m := months[name]
		m.once.Do(func() {
			cfg := loggen.SampleConfig()
			cfg.Lines = monthLines
			if name == "realistic" {
				cfg = loggen.RealisticConfig(monthLines)
			}
			dir, err := os.MkdirTemp("", "bench-month-"+name)
			if err != nil {
				b.Fatal(err)
			}
			parent.Cleanup(func() { os.RemoveAll(dir) })
			m.plain, m.gz, m.robotsDir = benchMonthOf(b, dir, cfg)
		})
		if m.plain == "" {
			b.Fatal("no month generated")
		}
		return m
	}
	for _, in := range []struct {
		name, month string
		gzip        bool
	}{{"plain", "default", false}, {"gzip", "default", true}, {"realistic", "realistic", false}, {"realistic-gzip", "realistic", true}} {
		b.Run(in.name, func(b *testing.B) {
			m := get(b, in.month)
			path := m.plain
			if in.gzip {
				path = m.gz
			}
			st, err := os.Stat(m.plain)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(st.Size()) // the log's bytes, also for the gzip file
			start := time.Now()
			for b.Loop() {
				// Lean, as `crawlaudit audit` runs when it prints only the summary.
				res, err := Run(context.Background(), Config{Robots: m.robotsDir, Grace: 24 * time.Hour, Lean: true}, []string{path})
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
			if in.gzip {
				if d, ok := gzipDC(path); ok {
					b.ReportMetric(perOp/d.Seconds(), "x-gzip-dc")
				}
			} else if d, ok := goaccessRun(b, path); ok {
				b.ReportMetric(d.Seconds()/perOp, "x-goaccess")
			}
			var ru syscall.Rusage
			if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
				b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB")
			}
		})
	}
}

// goaccessArgs is the GoAccess invocation measured against the audit: a
// full report of every panel as CSV, the fastest of the outputs that make
// one (CSV, JSON and HTML measured alternately on the realistic month),
// without the progress display or the system's configuration file.
var goaccessArgs = []string{"--log-format=COMBINED", "--no-global-config", "--no-progress", "-o"}

// goaccessRun runs GoAccess (when installed) on the plain log path, writing
// its report into a temporary directory, and returns its wall time. It
// fails the benchmark when GoAccess runs but fails, or writes no report.
func goaccessRun(b *testing.B, path string) (time.Duration, bool) {
	bin, err := exec.LookPath("goaccess")
	if err != nil {
		return 0, false
	}
	out := filepath.Join(b.TempDir(), "goaccess.csv")
	cmd := exec.Command(bin, append([]string{path}, append(goaccessArgs, out)...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v: %s", cmd, err, stderr.Bytes())
	}
	d := time.Since(start)
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		b.Fatalf("%s wrote no report: %v", cmd, err)
	}
	return d, true
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
