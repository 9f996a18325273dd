package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/crawlaudit/crawlaudit/ingest"
)

// ingestFixtures is the directory of the ingest command's test logs: a
// combined log with malformed lines, invalid UTF-8, CRLF and empty lines; a
// W3C log whose #Fields change; a gzipped JSON-lines log; a truncated gzip
// file; and a README.txt that the directory expansion skips.
const ingestFixtures = "../../ingest/testdata/cli"

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// TestIngestJSONGolden compares the JSON account of the fixtures with
// ingest/testdata/cli.golden.json (-update rewrites it).
func TestIngestJSONGolden(t *testing.T) {
	code, out, stderr := runCLI(t, "", "ingest", "--json", ingestFixtures)
	if code != exitUsage {
		t.Errorf("exit %d, want 2 for the truncated gzip file; stderr %q", code, stderr)
	}
	if !strings.Contains(stderr, "old.log.gz: at byte offset 400: truncated or corrupt gzip stream") {
		t.Errorf("stderr %q does not name the truncated file and offset", stderr)
	}
	golden := "../../ingest/testdata/cli.golden.json"
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if out != string(want) {
		t.Errorf("JSON account differs from %s (run with -update after checking):\n%s", golden, out)
	}
	var acc ingest.Accounting
	if err := json.Unmarshal([]byte(out), &acc); err != nil {
		t.Fatal(err)
	}
	if acc.Parsed+acc.Rejected != acc.Lines {
		t.Errorf("parsed %d + rejected %d != lines %d", acc.Parsed, acc.Rejected, acc.Lines)
	}
	formats := map[string]string{}
	for _, f := range acc.PerFile {
		formats[filepath.Base(f.Name)] = f.Format
	}
	for name, want := range map[string]string{"access.log": "combined", "iis.log": "w3c", "app.jsonl.gz": "jsonl", "old.log.gz": "combined"} {
		if formats[name] != want {
			t.Errorf("%s detected as %q, want %q", name, formats[name], want)
		}
	}
}

func TestIngestTableAndKeepGoing(t *testing.T) {
	code, out, stderr := runCLI(t, "", "ingest", "--keep-going", "--quiet", ingestFixtures)
	if code != exitOK {
		t.Errorf("--keep-going: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"combined (detected)", "w3c (detected)", "gzip", "total (4 files)", "Rejected lines by reason:", "README.txt (not a log file (.txt))", "Input errors:", `\x16\x03`} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(stderr, "warning") {
		t.Errorf("stderr %q", stderr)
	}
}

func TestIngestUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ingest", "--format", "nope", "x.log"}, `unknown log format "nope"`},
		{[]string{"ingest", "--log-format", "%q", "x.log"}, "ingest:"},
		{[]string{"ingest", "--json-fields", "nonsense", "x.log"}, "cannot parse JSON field mapping"},
		{[]string{"ingest", "--workers", "-1", "x.log"}, "must not be negative"},
		{[]string{"ingest"}, "ingest: no LOG given"},
		{[]string{"ingest", "/nonexistent/x.log"}, "/nonexistent/x.log: stat: no such file or directory"},
	} {
		code, _, stderr := runCLI(t, "", tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d stderr %q, want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	code, out, _ := runCLI(t, "", "ingest", "--help")
	if code != exitOK || !strings.Contains(out, "crawlaudit ingest /var/log/nginx/access.log*") || !strings.Contains(out, "Exit status") {
		t.Errorf("--help: exit %d\n%s", code, out)
	}
}

func TestIngestStdinAndFormat(t *testing.T) {
	log := `192.0.2.1 - - [01/Oct/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "curl/8"` + "\n"
	code, out, stderr := runCLI(t, log+log, "ingest", "--json", "--format", "combined", "-")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var acc ingest.Accounting
	if err := json.Unmarshal([]byte(out), &acc); err != nil {
		t.Fatal(err)
	}
	if acc.Parsed != 2 || acc.PerFile[0].Name != ingest.StdinName || acc.PerFile[0].Detected {
		t.Errorf("account %+v", acc)
	}
}

func TestIngestParquet(t *testing.T) {
	dir := t.TempDir()
	pq := filepath.Join(dir, "out.parquet")
	code, _, stderr := runCLI(t, "", "ingest", "--keep-going", "--batch-rows", "3", "--parquet", pq, ingestFixtures)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(pq)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rdr, err := file.NewParquetReader(f)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	_, out, _ := runCLI(t, "", "ingest", "--json", ingestFixtures)
	var acc ingest.Accounting
	if err := json.Unmarshal([]byte(out), &acc); err != nil {
		t.Fatal(err)
	}
	if tbl.NumRows() != acc.Parsed {
		t.Errorf("parquet has %d rows, the account %d parsed", tbl.NumRows(), acc.Parsed)
	}
	for i, f := range ingest.Schema.Fields() {
		g := tbl.Schema().Field(i)
		if g.Name != f.Name || !arrow.TypeEqual(g.Type, f.Type) {
			t.Errorf("parquet column %d is %s %s, want %s %s", i, g.Name, g.Type, f.Name, f.Type)
		}
	}
	// The user agent column keeps its values (dictionary-encoded).
	ua := tbl.Column(ingest.ColUserAgent).Data().Chunk(0).(*array.Dictionary)
	if ua.Len() == 0 {
		t.Fatal("empty user_agent column")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}
