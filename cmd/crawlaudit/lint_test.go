package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLintJSONAndDir: lint DIR lints every version of a robots.txt
// history (flat or per host) in order; --json prints one object per
// diagnostic with the file, line, severity, code and message.
func TestLintJSONAndDir(t *testing.T) {
	dir := t.TempDir()
	hist := filepath.Join(dir, "robots")
	os.MkdirAll(filepath.Join(hist, "www.example.com"), 0o755)
	os.MkdirAll(filepath.Join(hist, ".git"), 0o755)
	os.WriteFile(filepath.Join(hist, "www.example.com", "2026-10-01.txt"), []byte("User-agent: *\nDisalow: /x\n"), 0o644)
	os.WriteFile(filepath.Join(hist, "www.example.com", "2026-09-01.txt"), []byte("User-agent: *\nDisallow: /y\nCrawl-delay: abc\n"), 0o644)
	os.WriteFile(filepath.Join(hist, ".git", "HEAD.txt"), []byte("not robots\nfoo bar\n"), 0o644)

	code, out, stderr := runCLI(t, "", "lint", "--json", hist)
	if code != exitFound {
		t.Fatalf("exit %d (want 1, errors found): %s", code, stderr)
	}
	type diag struct {
		File, Severity, Code, Message string
		Line                          int
	}
	var got []diag
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var d diag
		dec := json.NewDecoder(strings.NewReader(l))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&d); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		got = append(got, d)
	}
	want := []diag{
		{File: filepath.Join(hist, "www.example.com", "2026-09-01.txt"), Line: 3, Severity: "error", Code: "invalid-crawl-delay"},
		{File: filepath.Join(hist, "www.example.com", "2026-10-01.txt"), Line: 2, Severity: "error", Code: "misspelled-key"},
	}
	if len(got) != len(want) {
		t.Fatalf("diagnostics %+v, want %d", got, len(want))
	}
	for i := range want {
		g := got[i]
		if g.File != want[i].File || g.Line != want[i].Line || g.Severity != want[i].Severity || g.Code != want[i].Code || g.Message == "" {
			t.Errorf("diagnostic %d = %+v, want %+v", i, g, want[i])
		}
	}

	// The sample history is clean; a directory without versions is a usage error.
	if code, out, stderr := runCLI(t, "", "lint", sampleRobots); code != exitOK || out != "" {
		t.Errorf("lint %s: exit %d, %q %q", sampleRobots, code, out, stderr)
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	if code, _, stderr := runCLI(t, "", "lint", empty); code != exitUsage || !strings.Contains(stderr, "no version file") {
		t.Errorf("lint of an empty directory: exit %d, %q", code, stderr)
	}
}
