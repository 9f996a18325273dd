package ingest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/internal/shareddata"
)

// truncatedLines counts the lines of the shared data cut inside a quoted
// field: line 8899 of the elastic log ends inside its user agent ("Mozilla/5.0
// (compatible; Googlebot/2.1; +http://www.google.com/bot.html", no closing
// quote), a truncated line rather than a Googlebot request: a cut line
// proves nothing about who sent it.
var truncatedLines = map[string]int64{"apache_logs.gz": 1}

// TestSharedData reads the real logs and format samples beside the
// repository with the real parsers: every file's format is detected as
// documented in ../shared/data/README.md, the accounting adds up, and the
// real Apache/nginx logs parse completely.
func TestSharedData(t *testing.T) {
	samples := shareddata.Path(t, "format-samples")
	real := shareddata.Path(t, "real-logs")
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rows := int64(0)
	acc, err := Run(context.Background(), []string{samples, real}, Options{Allocator: mem, BatchRows: 1000},
		func(rec arrow.RecordBatch) error { rows += rec.NumRows(); return nil })
	// Two samples are in no supported format (IIS as Windows event XML, Envoy).
	if err == nil || !strings.Contains(err.Error(), "crowdsec-iis-xml-logs.log: cannot detect") || !strings.Contains(err.Error(), "envoy") {
		t.Errorf("error %v", err)
	}
	if rows != acc.Parsed {
		t.Errorf("%d rows in batches, %d parsed", rows, acc.Parsed)
	}
	want := map[string]struct {
		format   string
		complete bool // every line parsed, but for the cut lines below
	}{
		"crowdsec-aws-alb-logs.log":                 {"alb", true},
		"crowdsec-aws-cloudfront-logs.log":          {"cloudfront", true},
		"lnav-logfile_caddy_log.1.log":              {"jsonl", true},
		"lnav-logfile_cloudflare.json":              {"jsonl", true},
		"lnav-logfile_w3c_big.0.log":                {"w3c", true},
		"lnav-logfile_w3c.0.log":                    {"w3c", true},
		"lnav-logfile_haproxy.log":                  {"haproxy", false},
		"crowdsec-traefik_clf.log":                  {"traefik", true},
		"crowdsec-traefik_json.log":                 {"jsonl", false},
		"crowdsec-nginx_http-logs.log":              {"combined", false},
		"access.log.gz":                             {"combined", true}, // almhuette-raith
		"apache_logs.gz":                            {"combined", true}, // elastic
		"crowdsec-iis-xml-logs.log":                 {"", false},
		"crowdsec-envoy-http-crawl-non_statics.log": {"", false},
	}
	seen := 0
	for _, f := range acc.PerFile {
		if f.Parsed+f.Rejected != f.Lines {
			t.Errorf("%s: parsed %d + rejected %d != lines %d", f.Name, f.Parsed, f.Rejected, f.Lines)
		}
		w, ok := want[filepath.Base(f.Name)]
		if !ok {
			continue
		}
		seen++
		cut := truncatedLines[filepath.Base(f.Name)]
		if got := f.RejectedReasons[string(ErrTruncatedLine)]; got != cut {
			t.Errorf("%s: %d truncated lines, want %d", f.Name, got, cut)
		}
		if f.Format != w.format || (w.complete && (f.Rejected != cut || f.Lines == 0)) {
			t.Errorf("%s: format %q, %d of %d lines parsed (%v); want %q, complete %v", f.Name, f.Format, f.Parsed, f.Lines, f.RejectedReasons, w.format, w.complete)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d expected files", seen, len(want))
	}
	if acc.Parsed < 21000 {
		t.Errorf("parsed %d", acc.Parsed)
	}
}
