package loggen

import (
	"io"
	"testing"
	"time"
)

// countingWriter counts the bytes written through it.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// BenchmarkGenerate generates 200,000 requests of a month and writes them in
// each format to a discarding writer. MB/s and lines/s are of the log text.
func BenchmarkGenerate(b *testing.B) {
	const lines = 200000
	for _, format := range []string{"combined", "jsonl", "w3c", "combined+gzip"} {
		b.Run(format, func(b *testing.B) {
			cfg := SampleConfig()
			cfg.Lines = lines
			var total int64
			b.ReportAllocs()
			start := time.Now()
			for b.Loop() {
				cw := &countingWriter{}
				var w RequestWriter
				var err error
				if format == "combined+gzip" {
					w, err = NewGzipWriter(cw, "combined")
				} else {
					w, err = NewWriter(cw, format)
				}
				if err != nil {
					b.Fatal(err)
				}
				if err := Generate(cfg, w.Write); err != nil {
					b.Fatal(err)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
				total = cw.n
			}
			b.SetBytes(total) // output bytes (compressed for gzip)
			sec := time.Since(start).Seconds() / float64(b.N)
			b.ReportMetric(lines/sec, "lines/s")
		})
	}
}

var _ io.Writer = (*countingWriter)(nil)
