package report

import (
	"io"
	"testing"
	"time"
)

// BenchmarkCSVWriter writes violations.csv-like rows: a time, a host, an
// address, a bot, a method, a URL, a status, a rule, its line and a version.
func BenchmarkCSVWriter(b *testing.B) {
	ts := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	urls := []string{"/private/report.pdf?id=123", "/search?q=%3Dcmd", "=HYPERLINK(\"x\")", "/a\x1b[2Jb"}
	cw := &countWriter{}
	c := NewCSVWriter(cw)
	b.ReportAllocs()
	rows := 0
	for b.Loop() {
		c.Time(ts)
		c.Text("example.com")
		c.Text("203.0.113.7")
		c.Text("GPTBot")
		c.Text("GET")
		c.Text(urls[rows&3])
		c.Int(200)
		c.Text("Disallow: /private/")
		c.Int(12)
		c.Text("2026-10-01T00:00:00Z.txt")
		if err := c.EndRow(); err != nil {
			b.Fatal(err)
		}
		rows++
	}
	if err := c.Flush(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(cw.n / int64(rows))
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkSafeCellClean(b *testing.B) {
	s := "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)"
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		_ = SafeCell(s)
	}
}

type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)
