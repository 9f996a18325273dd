package audit

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/internal/hostilegen"
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

// judgeMonth is the realistic month (loggen.RealisticConfig) read
// through the ingest layer with the audit's human filter, as judgeInto
// reads it: the batches of bot rows the judge gets, kept in memory.
var judgeMonth struct {
	once    sync.Once
	log     []byte
	hist    *history.History
	batches []arrow.RecordBatch
	rows    int
	err     error
}

// realisticBatches returns the batches of judgeMonth (lines lines,
// generated once per process).
func realisticBatches(b *testing.B, lines int) ([]arrow.RecordBatch, *history.History, []byte) {
	judgeMonth.once.Do(func() {
		cfg := loggen.RealisticConfig(lines)
		var log bytes.Buffer
		w, err := loggen.NewWriter(&log, "combined")
		if err != nil {
			judgeMonth.err = err
			return
		}
		if err := loggen.Generate(cfg, w.Write); err != nil {
			judgeMonth.err = err
			return
		}
		w.Close()
		dir, err := os.MkdirTemp("", "judge-month")
		if err != nil {
			judgeMonth.err = err
			return
		}
		defer os.RemoveAll(dir)
		host := filepath.Join(dir, loggen.DefaultHost)
		vs, err := loggen.RobotsHistory(loggen.DefaultHost, cfg.RobotsRules)
		if err == nil {
			err = os.MkdirAll(host, 0o755)
		}
		for _, v := range vs {
			if err == nil {
				err = os.WriteFile(filepath.Join(host, v.FileName()), []byte(v.Text), 0o644)
			}
		}
		if err != nil {
			judgeMonth.err = err
			return
		}
		if judgeMonth.hist, err = history.Load(dir, history.Options{}); err != nil {
			judgeMonth.err = err
			return
		}
		judgeMonth.log = log.Bytes()
		filters := &humanFilters{ident: bots.NewIdentifier(), fromUS: -1 << 63, toUS: 1<<63 - 1}
		_, judgeMonth.err = ingest.Run(context.Background(), []string{"-"}, ingest.Options{Stdin: bytes.NewReader(judgeMonth.log), Allocator: memory.NewGoAllocator(), RowFilter: filters.newFilter},
			func(rec arrow.RecordBatch) error {
				rec.Retain()
				judgeMonth.batches = append(judgeMonth.batches, rec)
				judgeMonth.rows += int(rec.NumRows())
				return nil
			})
	})
	if judgeMonth.err != nil {
		b.Fatal(judgeMonth.err)
	}
	return judgeMonth.batches, judgeMonth.hist, judgeMonth.log
}

// BenchmarkJudgeRealistic measures the judge alone on the bot rows of
// the realistic month (1 M lines, about 300,000 bot rows, 104,000
// distinct paths, the 60-rule robots.txt), in the batches the audit's
// ingest hands it: what judgeInto does between ingest and DuckDB, on the
// one goroutine that judges. It reports bot rows per second and ns per bot
// row.
//
//	go test -run '^$' -bench JudgeRealistic -benchtime 5x -count 5 ./audit/
func BenchmarkJudgeRealistic(b *testing.B) {
	batches, hist, _ := realisticBatches(b, monthLinesJudge)
	benchJudge(b, batches, hist, func(j *judge) {
		for _, rec := range batches {
			if err := j.add(rec); err != nil {
				b.Fatal(err)
			}
			if j.pending() >= flushRows {
				j.flush().Release()
				for _, s := range j.spilled() {
					s.Release()
				}
			}
		}
		j.flush().Release()
	})
}

// benchJudge runs judgeAll on a new judge of hist (RFC 9309, 24 hours of
// grace, the built-in ranges) in each of b's iterations and reports what
// it cost per row of batches: bot rows per second, ns and CPU ns per row.
// On a shared machine the wall clock counts other processes' time too; the
// judge runs on one goroutine, so its CPU time is its own (the garbage
// collector's aside).
func benchJudge(b *testing.B, batches []arrow.RecordBatch, hist *history.History, judgeAll func(j *judge)) {
	mem := ingest.NewPoolAllocator()
	ident := bots.NewIdentifier()
	ranges, err := verify.Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	rows := 0
	for _, rec := range batches {
		rows += int(rec.NumRows())
	}
	b.ReportAllocs()
	start, cpu0 := time.Now(), cpuSeconds()
	for b.Loop() {
		j := newJudge(mem, hist, robots.RFC9309, ident, readyRanges(ranges))
		j.graceUS = (24 * time.Hour).Microseconds()
		j.spillWhileJudging()
		judgeAll(j)
		j.release()
	}
	d := time.Since(start).Seconds() / float64(b.N)
	b.ReportMetric(float64(rows)/d, "rows/s")
	b.ReportMetric(d*1e9/float64(rows), "ns/row")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(cpu*1e9/float64(b.N)/float64(rows), "cpu-ns/row")
	}
}

// monthLinesJudge is the size of BenchmarkJudgeRealistic's month.
const monthLinesJudge = 1_000_000

// BenchmarkIngestRealistic measures what runs before the judge on the
// realistic month (1 M lines, kept in memory): the ingest layer with
// the audit's human filter and the columns it skips, as judgeInto calls
// it. It reports lines per second and per CPU second (all parsing
// goroutines together).
//
//	go test -tags duckdb_arrow -run '^$' -bench IngestRealistic -benchtime 5x -count 5 ./audit/
func BenchmarkIngestRealistic(b *testing.B) {
	_, _, log := realisticBatches(b, monthLinesJudge)
	ident := bots.NewIdentifier()
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	start, cpu0 := time.Now(), cpuSeconds()
	lines := 0
	for b.Loop() {
		filters := &humanFilters{ident: ident, fromUS: -1 << 63, toUS: 1<<63 - 1}
		opts := ingest.Options{Stdin: bytes.NewReader(log), RowFilter: filters.newFilter,
			Skip: []int{ingest.ColProtocol, ingest.ColReferer, ingest.ColForwardedFor}}
		acc, err := ingest.Run(context.Background(), []string{"-"}, opts, func(arrow.RecordBatch) error { return nil })
		if err != nil {
			b.Fatal(err)
		}
		lines = int(acc.Lines)
	}
	b.ReportMetric(float64(lines)*float64(b.N)/time.Since(start).Seconds(), "lines/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(float64(lines)*float64(b.N)/cpu, "cpu-lines/s")
	}
}

// BenchmarkJudgeInto measures what judgeInto does but the DuckDB inserts:
// the ingest layer with the audit's human filter and skipped columns, and
// the judge of every batch, on two logs kept in memory: the
// realistic month (1 M lines) and a log of invented bot names (200,000
// lines of 80,000 distinct bot User-Agents from 40,000 addresses,
// internal/hostilegen), where identifying the User-Agents dominates. It
// reports lines per second and per CPU second (every goroutine together).
//
//	go test -tags duckdb_arrow -run '^$' -bench JudgeInto -benchtime 5x -count 5 ./audit/
func BenchmarkJudgeInto(b *testing.B) {
	for _, in := range []string{"realistic", "invented-bots"} {
		b.Run(in, func(b *testing.B) {
			var (
				log  []byte
				hist *history.History
			)
			if in == "realistic" {
				_, hist, log = realisticBatches(b, monthLinesJudge)
			} else {
				var buf bytes.Buffer
				if err := hostilegen.Write(&buf, hostilegen.Options{Lines: 200_000, Agents: 80_000, Addresses: 40_000}); err != nil {
					b.Fatal(err)
				}
				log = buf.Bytes()
				dir := b.TempDir()
				path := filepath.Join(dir, "robots.txt")
				if err := os.WriteFile(path, []byte(hostilegen.Robots), 0o644); err != nil {
					b.Fatal(err)
				}
				var err error
				if hist, err = history.Load(path, history.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			ranges, err := verify.Snapshot()
			if err != nil {
				b.Fatal(err)
			}
			mem := ingest.NewPoolAllocator()
			b.SetBytes(int64(len(log)))
			b.ReportAllocs()
			start, cpu0 := time.Now(), cpuSeconds()
			lines := 0
			for b.Loop() {
				// A new Identifier each time: an audit identifies every
				// User-Agent of its logs.
				j := newJudge(mem, hist, robots.RFC9309, bots.NewIdentifier(), readyRanges(ranges))
				j.graceUS = (24 * time.Hour).Microseconds()
				j.spillWhileJudging()
				filters := &humanFilters{ident: j.ident, fromUS: j.fromUS, toUS: j.toUS}
				j.handoff = &filters.handoff
				opts := ingest.Options{Stdin: bytes.NewReader(log), RowFilter: filters.newFilter,
					Skip: []int{ingest.ColProtocol, ingest.ColReferer, ingest.ColForwardedFor}}
				release := func(recs ...arrow.RecordBatch) {
					for _, rec := range recs {
						rec.Release()
					}
				}
				acc, err := ingest.Run(context.Background(), []string{"-"}, opts, func(rec arrow.RecordBatch) error {
					if err := j.add(rec); err != nil {
						return err
					}
					if j.pending() >= flushRows {
						release(j.flush())
						release(j.spilled()...)
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
				release(j.flush())
				release(j.spilled()...)
				filters.addTo(j)
				j.release()
				lines = int(acc.Lines)
			}
			b.ReportMetric(float64(lines)*float64(b.N)/time.Since(start).Seconds(), "lines/s")
			if cpu := cpuSeconds() - cpu0; cpu > 0 {
				b.ReportMetric(float64(lines)*float64(b.N)/cpu, "cpu-lines/s")
			}
		})
	}
}
