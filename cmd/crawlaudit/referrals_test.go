//go:build duckdb_arrow

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/report"
)

const referralsGolden = "testdata/referrals-realistic.json"

// TestReferralsRealisticGolden: the crawl-to-refer ratios of a realistic
// month (crawlaudit gen --realistic) in which 5 % of the visits land from
// an AI assistant: OpenAI by chatgpt.com and by ChatGPT's
// utm_source=chatgpt.com, Perplexity, Claude, Copilot and Gemini, beside
// Google's and Bing's search results. summary.json's referrals are the
// golden file (-update rewrites it); the reports show the same rows.
func TestReferralsRealisticGolden(t *testing.T) {
	dir := t.TempDir()
	log, robotsDir, out := filepath.Join(dir, "access.log"), filepath.Join(dir, "robots"), filepath.Join(dir, "out")
	if code, _, stderr := runCLI(t, "", "gen", "--realistic", "--lines", "100000", "--ai-referrals", "0.05",
		"--robots-dir", robotsDir, "-o", log); code != exitOK {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "audit", "--robots", robotsDir, "--out", out, log); code != exitOK {
		t.Fatalf("audit: exit %d: %s", code, stderr)
	}
	js, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s report.Summary
	if err := json.Unmarshal(js, &s); err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(s.Referrals, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		if err := os.WriteFile(referralsGolden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(referralsGolden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("referrals differ from %s (run with -update if intended):\n%s", referralsGolden, got)
	}
	byOp := map[string]report.Referral{}
	for _, r := range s.Referrals {
		byOp[r.Operator] = r
	}
	for _, op := range []string{"OpenAI", "Perplexity", "Google", "Microsoft", "Anthropic"} {
		if r := byOp[op]; r.Crawls == 0 || r.Referrals == 0 || r.Ratio == nil {
			t.Errorf("%s: %+v, want crawls, referrals and a ratio", op, r)
		}
	}
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range s.Referrals {
		row := "| " + r.Operator + " | " + r.Host + " | " + report.Thousands(r.Crawls) + " | " + report.Thousands(r.Referrals) + " | " + report.RatioText(r) + " |"
		if !strings.Contains(string(md), row) {
			t.Errorf("report.md lacks the row %q", row)
		}
		cell := `<th scope="row">` + r.Operator + `</th>`
		if !strings.Contains(string(page), cell) {
			t.Errorf("report.html lacks the row of %s", r.Operator)
		}
	}
	if !strings.Contains(string(page), `<section id="referrals">`) || !strings.Contains(string(page), `href="#referrals"`) {
		t.Error("report.html has no referrals section in its table of contents")
	}
}

// A log without a Referer field says so in every output instead of
// showing 0 referrals.
func TestReferralsNoReferer(t *testing.T) {
	dir := t.TempDir()
	log, robots, out := filepath.Join(dir, "access.log"), filepath.Join(dir, "robots.txt"), filepath.Join(dir, "out")
	lines := `66.249.66.1 - - [01/Oct/2026:10:00:00 +0000] "GET /a HTTP/1.1" 200 512
203.0.113.9 - - [01/Oct/2026:10:00:01 +0000] "GET /b?utm_source=chatgpt.com HTTP/1.1" 200 512
`
	if err := os.WriteFile(log, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(robots, []byte("User-agent: *\nDisallow: /private/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "", "audit", "--robots", robots, "--out", out, log); code != exitOK {
		t.Fatalf("audit: exit %d: %s", code, stderr)
	}
	for _, name := range []string{"report.html", "report.md"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "the log has no Referer field") {
			t.Errorf("%s does not say that the log has no Referer field", name)
		}
	}
	js, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"no_referer": true`) || strings.Contains(string(js), `"referrals"`) {
		t.Errorf("summary.json: want no_referer true and no referrals:\n%s", js)
	}
}
