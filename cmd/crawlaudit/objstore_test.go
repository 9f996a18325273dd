package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/internal/fakes3"
	"github.com/crawlaudit/crawlaudit/report"
)

// s3Sample stores the sample month as one CloudFront-named gzip object per
// day under cf/ in a fake S3 bucket and as the same files in a directory.
func s3Sample(t *testing.T) (*fakes3.Server, string) {
	t.Helper()
	srv, dir, _ := fakes3.CloudFrontSample(t, sampleLog, "logs", "cf/", "E2SAMPLE")
	return srv, dir
}

// TestAuditS3LikeFiles: `audit s3://…/` of the sample month cut into
// CloudFront-named objects writes the summary.json of the same files
// audited from disk, the file names aside (a URL for a path); nothing it
// writes holds the credentials of the environment or the URL's query.
func TestAuditS3LikeFiles(t *testing.T) {
	srv, dir := s3Sample(t)
	code, fromFiles, stderr := runCLI(t, "", "audit", "--json", "--robots", sampleRobots, dir)
	if code != exitOK {
		t.Fatalf("files: exit %d: %s", code, stderr)
	}
	out := t.TempDir()
	// kmskeyid is a setting of s3blob for writes; here it stands for any
	// value of the query a user would not want printed.
	const querySecret = "arn-aws-kms-SECRET-key-id"
	url := srv.URL("cf/") + "&kmskeyid=" + querySecret
	code, fromS3, stderr := runCLI(t, "", "audit", "--json", "--out", out, "--robots", sampleRobots, url)
	if code != exitOK {
		t.Fatalf("s3: exit %d: %s", code, stderr)
	}
	want := strings.ReplaceAll(fromFiles, dir+string(filepath.Separator), "s3://logs/cf/")
	if fromS3 != want {
		t.Errorf("summary of the objects differs from the files':\n%s\nwant:\n%s", fromS3, want)
	}
	summary, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Input struct {
			Files int
			Lines int64
		}
	}
	if err := json.Unmarshal(summary, &s); err != nil || s.Input.Files != 31 || s.Input.Lines != 50000 {
		t.Errorf("summary.json input %+v, %v", s.Input, err)
	}
	// Every output, and the terminal, free of secrets and of the query.
	texts := map[string]string{"stdout": fromS3, "stderr": stderr}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(out, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		texts[e.Name()] = string(b)
	}
	code, table, stderr := runCLI(t, "", "audit", "--robots", sampleRobots, url)
	if code != exitOK {
		t.Fatalf("s3 table: exit %d: %s", code, stderr)
	}
	texts["table"], texts["table stderr"] = table, stderr
	for name, text := range texts {
		for _, secret := range []string{fakes3.SecretAccessKey, fakes3.SessionToken, fakes3.AccessKeyID, "endpoint=", srv.Endpoint, querySecret} {
			if strings.Contains(text, secret) {
				t.Errorf("%s holds %q", name, secret)
			}
		}
	}
	if !strings.Contains(texts["violations.csv"], "s3://logs/cf/E2SAMPLE.2026-10-") {
		t.Error("violations.csv does not name the objects as evidence")
	}
}

// TestAuditS3Period: with --from/--to, the objects a day or more outside
// the period are not read, summary.json lists them, the terminal says how
// many.
func TestAuditS3Period(t *testing.T) {
	srv, _ := s3Sample(t)
	args := []string{"audit", "--robots", sampleRobots, "--from", "2026-10-10", "--to", "2026-10-12", srv.URL("cf/")}
	code, out, stderr := runCLI(t, "", append([]string{args[0], "--json"}, args[1:]...)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var s struct {
		Input struct {
			Files   int
			Skipped []struct{ Name, Reason string }
		}
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	var days []string
	for _, f := range s.Input.Skipped {
		days = append(days, strings.TrimPrefix(f.Name, "s3://logs/cf/E2SAMPLE.2026-10-")[:2])
		if !strings.HasSuffix(f.Reason, "more than a day outside the audited period (--from/--to)") {
			t.Errorf("%s: %q", f.Name, f.Reason)
		}
	}
	want := []string{"01", "02", "03", "04", "05", "06", "07", "08", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31"}
	if s.Input.Files != 5 || !slices.Equal(days, want) {
		t.Errorf("read %d objects; skipped days %q, want %q", s.Input.Files, days, want)
	}
	// The terminal's summary (piped, the table is TSV without one).
	var sum report.Summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	if err := report.WriteTable(&table, &sum, report.TableOptions{Terminal: true, Width: 100}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(table.String()), " "), "26 objects not read: they are dated outside --from/--to by their key (summary.json input.skipped lists them).") {
		t.Errorf("the terminal does not say what was not read:\n%s", table.String())
	}
}

// TestAuditS3Damaged: a gzip object that fails its integrity check among
// the month's objects is left out as a damaged file is (the audit reads
// the prefix again without it), summary.json naming it by its URL.
func TestAuditS3Damaged(t *testing.T) {
	srv, _ := s3Sample(t)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	for i := range 200 {
		fmt.Fprintf(zw, "192.0.2.%d - - [15/Oct/2026:10:00:%02d +0000] \"GET /private/ HTTP/1.1\" 200 512 \"-\" \"GPTBot/1.2\"\n", i%250, i%60)
	}
	zw.Close()
	data := b.Bytes()
	data[len(data)-8] ^= 0xff // the first byte of the gzip CRC32 trailer
	srv.Put(t, "cf/E2SAMPLE.2026-10-15-10.damaged1.gz", data)
	code, out, stderr := runCLI(t, "", "audit", "--json", "--keep-going", "--robots", sampleRobots, srv.URL("cf/"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var s struct {
		Input struct {
			Files    int
			Lines    int64
			Excluded []struct {
				File  string
				Lines int64
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Input.Excluded) != 1 || s.Input.Excluded[0].File != "s3://logs/cf/E2SAMPLE.2026-10-15-10.damaged1.gz" || s.Input.Excluded[0].Lines != 200 || s.Input.Lines != 50000 {
		t.Errorf("input %+v", s.Input)
	}
	if !strings.Contains(stderr, "s3://logs/cf/E2SAMPLE.2026-10-15-10.damaged1.gz") || strings.Contains(stderr, "endpoint=") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// TestAuditS3Errors: a URL that names nothing, or that the bucket's opener
// refuses, ends the audit with a message naming the URL, never its query.
func TestAuditS3Errors(t *testing.T) {
	srv, _ := s3Sample(t)
	const secret = "SECRET-value-in-the-query"
	for _, tt := range []struct{ url, want string }{
		{srv.URL("nothing/") + "&kmskeyid=" + secret, "audit: s3://logs/nothing/: no object under this prefix"},
		{srv.URL("cf/") + "&role=" + secret, "audit: s3://logs/cf/: cannot open the bucket: open bucket s3://logs: invalid value for role: must be a valid ARN (starts with 'arn:'): REDACTED"},
	} {
		code, out, stderr := runCLI(t, "", "audit", "--robots", sampleRobots, tt.url)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, exitUsage, tt.want)
		}
		if strings.Contains(out+stderr, secret) || strings.Contains(out+stderr, "endpoint=") {
			t.Errorf("the output holds the query:\n%s%s", out, stderr)
		}
	}
}
