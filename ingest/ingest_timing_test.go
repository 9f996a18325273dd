package ingest

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/klauspost/compress/gzip"

	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
	"github.com/crawlaudit/crawlaudit/internal/loggen"
)

// Benchmarks of the stream layer with the real combined parser, on a
// month-like log from internal/loggen:
//
//	go test -run '^$' -bench . -benchtime 5x ./ingest/
//	go test -run '^$' -bench StreamLarge -ingest.stream-bytes 10737418240 ./ingest/   # 10 GB

var streamBytes = flag.Int64("ingest.stream-bytes", 1<<30, "bytes streamed by BenchmarkStreamLarge")

var bench struct {
	once  sync.Once
	plain []byte // combined log
	lines int
	gz    string // path of the gzipped log
	dir   string
}

func benchData(b testing.TB) {
	bench.once.Do(func() {
		cfg := loggen.SampleConfig()
		cfg.Lines = 200_000
		var buf bytes.Buffer
		w, err := loggen.NewWriter(&buf, "combined")
		if err != nil {
			panic(err)
		}
		if err := loggen.Generate(cfg, w.Write); err != nil {
			panic(err)
		}
		w.Close()
		bench.plain = buf.Bytes()
		bench.lines = cfg.Lines
		dir, err := os.MkdirTemp("", "ingest-bench")
		if err != nil {
			panic(err)
		}
		bench.dir = dir
		var z bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&z, gzip.DefaultCompression)
		zw.Write(bench.plain)
		zw.Close()
		bench.gz = filepath.Join(dir, "access.log.gz")
		if err := os.WriteFile(bench.gz, z.Bytes(), 0o644); err != nil {
			panic(err)
		}
	})
	if bench.plain == nil {
		b.Fatal("no benchmark data")
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bench.dir != "" {
		os.RemoveAll(bench.dir)
	}
	os.Exit(code)
}

func discard(arrow.RecordBatch) error { return nil }

// BenchmarkCombined: a combined log in memory, end to end into Arrow
// batches (detection, line blocks, parsing, UTF-8 checks, builders).
func BenchmarkCombined(b *testing.B) {
	benchData(b)
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			b.SetBytes(int64(len(bench.plain)))
			b.ReportAllocs()
			start := time.Now()
			for b.Loop() {
				acc, err := Run(context.Background(), []string{"-"}, Options{Stdin: bytes.NewReader(bench.plain), Workers: workers}, discard)
				if err != nil || acc.Parsed != int64(bench.lines) || acc.PerFile[0].Format != "combined" {
					b.Fatalf("%v %+v", err, acc)
				}
			}
			b.ReportMetric(float64(bench.lines)*float64(b.N)/time.Since(start).Seconds(), "lines/s")
		})
	}
}

// BenchmarkGzip compares ingesting a gzip file with decompressing it alone,
// in Go and with the gzip command (the target: ingest <= 1.1x gzip -dc).
func BenchmarkGzip(b *testing.B) {
	benchData(b)
	st, _ := os.Stat(bench.gz)
	b.Run("ingest", func(b *testing.B) {
		b.SetBytes(int64(len(bench.plain)))
		b.ReportAllocs()
		for b.Loop() {
			acc, err := Run(context.Background(), []string{bench.gz}, Options{}, discard)
			if err != nil || acc.Parsed != int64(bench.lines) {
				b.Fatalf("%v %+v", err, acc)
			}
		}
		b.ReportMetric(float64(st.Size()), "gz-bytes")
	})
	b.Run("decompress-only", func(b *testing.B) {
		b.SetBytes(int64(len(bench.plain)))
		for b.Loop() {
			f, _ := os.Open(bench.gz)
			zr, _ := gzip.NewReader(f)
			if _, err := io.Copy(io.Discard, zr); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
	})
	b.Run("gzip-dc", func(b *testing.B) {
		if _, err := exec.LookPath("gzip"); err != nil {
			b.Skip("no gzip command")
		}
		b.SetBytes(int64(len(bench.plain)))
		for b.Loop() {
			cmd := exec.Command("gzip", "-dc", bench.gz)
			cmd.Stdout = io.Discard
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

var realistic struct {
	once  sync.Once
	plain []byte // combined log of loggen.RealisticConfig
	lines int
}

// BenchmarkRealistic ingests the benchmarks' realistic month
// (loggen.RealisticConfig: ~104 distinct paths per 1,000 lines, 271
// User-Agents, 30 % crawlers), 300,000 lines in memory: "all-rows" builds
// every row, as `crawlaudit ingest` does; "bots-only" keeps the crawlers'
// rows only, as the audit does with its RowFilter (here a cache of
// bots.Identify by User-Agent, like the audit's filter), so that the
// rows of browsers are parsed, validated and counted but never built;
// "bots-only-skip" besides leaves out the columns the audit never reads
// (Options.Skip), as the audit does.
//
//	go test -run '^$' -bench Realistic -benchtime 3x -count 6 ./ingest/
func BenchmarkRealistic(b *testing.B) {
	realistic.once.Do(func() {
		cfg := loggen.RealisticConfig(300_000)
		var buf bytes.Buffer
		w, err := loggen.NewWriter(&buf, "combined")
		if err != nil {
			panic(err)
		}
		if err := loggen.Generate(cfg, w.Write); err != nil {
			panic(err)
		}
		w.Close()
		realistic.plain, realistic.lines = buf.Bytes(), cfg.Lines
	})
	botFilter := func() func(*logfmt.Row) bool {
		isBot := map[string]bool{}
		return func(r *logfmt.Row) bool {
			bot, ok := isBot[string(r.UserAgent)]
			if !ok {
				bot = bots.Identify(string(r.UserAgent)).IsBot
				isBot[string(r.UserAgent)] = bot
			}
			return bot
		}
	}
	for _, tc := range []struct {
		name   string
		filter func() func(*logfmt.Row) bool
		skip   []int
	}{{"all-rows", nil, nil}, {"bots-only", botFilter, nil}, {"bots-only-skip", botFilter, []int{ColProtocol, ColReferer, ColForwardedFor}}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(realistic.plain)))
			b.ReportAllocs()
			start, cpu0 := time.Now(), cpuSeconds()
			for b.Loop() {
				acc, err := Run(context.Background(), []string{"-"}, Options{Stdin: bytes.NewReader(realistic.plain), RowFilter: tc.filter, Skip: tc.skip}, discard)
				if err != nil || acc.Parsed != int64(realistic.lines) {
					b.Fatalf("%v %+v", err, acc)
				}
			}
			b.ReportMetric(float64(realistic.lines)*float64(b.N)/time.Since(start).Seconds(), "lines/s")
			// On a shared machine the wall clock counts other processes'
			// time too; this counts only the CPU time of this one, all
			// workers together.
			if cpu := cpuSeconds() - cpu0; cpu > 0 {
				b.ReportMetric(float64(realistic.lines)*float64(b.N)/cpu, "cpu-lines/s")
			}
		})
	}
}

// cycleReader yields n bytes by repeating data (whole lines), without
// storing them.
type cycleReader struct {
	data []byte
	off  int
	n    int64
}

func (r *cycleReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	total := 0
	for len(p) > 0 && r.n > 0 {
		k := copy(p[:min(int64(len(p)), r.n)], r.data[r.off:])
		r.off = (r.off + k) % len(r.data)
		r.n -= int64(k)
		p = p[k:]
		total += k
	}
	return total, nil
}

// peakMemory samples the heap in use until stop is called, and returns the
// peak heap and the process's peak RSS (VmHWM, Linux only; 0 elsewhere).
func peakMemory() (stop func() (heap, rss uint64)) {
	var peak atomic.Uint64
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() (uint64, uint64) {
		close(done)
		<-exited
		var rss uint64
		if s, err := os.ReadFile("/proc/self/status"); err == nil {
			for _, l := range strings.Split(string(s), "\n") {
				if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
					kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
					rss = kb << 10
				}
			}
		}
		return peak.Load(), rss
	}
}

// BenchmarkStreamLarge streams -ingest.stream-bytes (default 1 GiB) of
// combined lines through an io.Reader that generates them, and reports the
// peak heap and peak RSS: memory is bounded by the blocks and batches in
// flight, not by the input.
func BenchmarkStreamLarge(b *testing.B) {
	benchData(b)
	n := *streamBytes
	b.SetBytes(n)
	runtime.GC()
	stop := peakMemory()
	for b.Loop() {
		acc, err := Run(context.Background(), []string{"-"}, Options{Stdin: &cycleReader{data: bench.plain, n: n}}, discard)
		if err != nil || acc.Lines == 0 || acc.Parsed+acc.Rejected != acc.Lines {
			b.Fatalf("%v %+v", err, acc)
		}
	}
	heap, rss := stop()
	b.ReportMetric(float64(heap)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(rss)/(1<<20), "peak-rss-MiB")
}

// TestBoundedMemory streams 512 MiB, cycling over 4 MiB of lines: the peak
// heap (live data plus garbage not yet collected) stays far below the input.
func TestBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 512 MiB")
	}
	benchData(t)
	const n = 512 << 20
	data := bench.plain[:bytes.LastIndexByte(bench.plain[:4<<20], '\n')+1]
	runtime.GC()
	stop := peakMemory()
	acc, err := Run(context.Background(), []string{"-"}, Options{Stdin: &cycleReader{data: data, n: n}}, discard)
	heap, _ := stop()
	if err != nil {
		t.Fatal(err)
	}
	// The stream ends in the middle of a line: that line is rejected.
	if acc.Parsed < n/400 || acc.Rejected > 1 {
		t.Errorf("parsed %d of %d lines", acc.Parsed, acc.Lines)
	}
	// The benchmark data (about 50 MB) stays on the heap; the garbage
	// collector lets the heap grow to about twice the live data.
	if limit := uint64(len(bench.plain)) + 200<<20; heap > limit {
		t.Errorf("peak heap %d MiB, want < %d MiB", heap>>20, limit>>20)
	}
	t.Logf("streamed %d MiB, %d lines; peak heap %d MiB (of which benchmark data %d MiB)", n>>20, acc.Lines, heap>>20, len(bench.plain)>>20)
}
