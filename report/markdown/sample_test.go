//go:build duckdb_arrow

package markdown_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/report/markdown"
	"github.com/crawlaudit/crawlaudit/robots"
)

var update = flag.Bool("update", false, "rewrite testdata/sample.md")

// TestSampleGolden renders report.md of the sample month and compares it
// with testdata/sample.md (-update rewrites it).
func TestSampleGolden(t *testing.T) {
	profile, err := robots.ParseProfile("rfc9309")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := audit.Run(ctx, audit.Config{Robots: "../../testdata/sample/robots", Profile: profile, Grace: 24 * time.Hour},
		[]string{"../../testdata/sample/access-2026-10.log.gz"})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	f, err := res.Findings(ctx, audit.BlockPolicy{}, audit.ReportOptions{Tool: "crawlaudit (test)",
		BlockFiles: []string{"blocklist.txt"}, Now: time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := markdown.Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	const golden = "testdata/sample.md"
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("report.md of the sample differs from %s (run with -update if intended):\n%s", golden, firstDiff(string(want), buf.String()))
	}
	markdown.CheckTables(t, buf.String())
}

// firstDiff returns the first line that differs.
func firstDiff(a, b string) string {
	al, bl := bytes.Split([]byte(a), []byte("\n")), bytes.Split([]byte(b), []byte("\n"))
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y []byte
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if !bytes.Equal(x, y) {
			return "line " + strconv.Itoa(i+1) + ":\n- " + string(x) + "\n+ " + string(y)
		}
	}
	return ""
}
