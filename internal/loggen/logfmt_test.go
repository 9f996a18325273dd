package loggen

import (
	"bufio"
	"bytes"
	"testing"

	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
)

// The project's own parsers (ingest/logfmt) read every format back as the
// rows the requests stand for, as the independent parsers of TestFormatsAgree do.
func TestFormatsAgreeWithLogfmt(t *testing.T) {
	cfg := SampleConfig()
	cfg.Lines = 20000
	cfg.Hosts = []string{"www.example.com", "shop.example.org"}
	cfg.Start = cfg.Start.AddDate(0, 0, 20) // over the DST change
	reqs := collect(t, cfg)
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			f, ok := logfmt.Lookup(format)
			if !ok {
				t.Fatalf("logfmt has no format %q", format)
			}
			p := f.New()
			sc := bufio.NewScanner(bytes.NewReader(render(t, cfg, format)))
			i := 0
			for sc.Scan() {
				var r logfmt.Row
				err := p.Parse(sc.Bytes(), &r)
				if err == logfmt.ErrDirective {
					continue
				}
				if err != nil {
					t.Fatalf("line %q: %v", sc.Text(), err)
				}
				if i == len(reqs) {
					t.Fatalf("more rows than the %d requests written", len(reqs))
				}
				got := row{Unix: r.Time / 1e6, Host: string(r.Host), IP: string(r.ClientIP), Method: string(r.Method),
					Target: string(r.Target), Protocol: string(r.Protocol), Status: int(r.Status), Bytes: r.Bytes,
					Referer: string(r.Referer), UserAgent: string(r.UserAgent)}
				if w := want(&reqs[i], format); got != w || r.Time%1e6 != 0 {
					t.Fatalf("row %d:\n got %+v (time %d µs)\nwant %+v", i, got, r.Time, w)
				}
				i++
			}
			if i != len(reqs) {
				t.Fatalf("read back %d rows, wrote %d", i, len(reqs))
			}
		})
	}
}
