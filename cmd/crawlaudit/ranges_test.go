package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRangesUpdateAndAudit: `ranges update` fetches a list from a local
// server in its operator's shape, stores it dated, a second run keeps it,
// and `audit --ranges DIR` verifies against it.
func TestRangesUpdateAndAudit(t *testing.T) {
	list := `{"creationTime": "2026-10-01T00:00:00.000000", "prefixes": [{"ipv4Prefix": "192.0.2.0/24"}]}`
	var hits int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		if r.URL.Path != "/toolbox/bingbot.json" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(list))
	}))
	defer srv.Close()
	dir := t.TempDir()
	code, out, stderr := runCLI(t, "", "ranges", "update", "--dir", dir, "--sources", "bingbot", "--base-url", srv.URL)
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	stored := filepath.Join(dir, "bingbot", "2026-10-01T00:00:00Z.json")
	b, err := os.ReadFile(stored)
	if err != nil || string(b) != list {
		t.Fatalf("stored %q (%v), want the list verbatim; stdout %s", b, err, out)
	}
	if !strings.Contains(out, "bingbot") || !strings.Contains(out, "1 prefixes") {
		t.Errorf("stdout: %s", out)
	}
	code, out, _ = runCLI(t, "", "ranges", "update", "--dir", dir, "--sources", "bingbot", "--base-url", srv.URL)
	if code != exitOK || !strings.Contains(out, "unchanged") || hits != 2 {
		t.Errorf("second run: exit %d, %d requests, %s", code, hits, out)
	}

	// An audit with the directory: bingbot from 192.0.2.9 is verified by
	// the downloaded list, where the snapshot's would call it spoofed.
	logDir := t.TempDir()
	robotsFile := filepath.Join(logDir, "robots.txt")
	logFile := filepath.Join(logDir, "access.log")
	os.WriteFile(robotsFile, []byte("User-agent: *\nDisallow: /private/\n"), 0o644)
	os.WriteFile(logFile, []byte(`192.0.2.9 - - [15/Oct/2026:10:00:00 +0000] "GET /private/x HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"`+"\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "\tspoofed\t"},
		{[]string{"--ranges", dir}, "\tverified\t"},
	} {
		args := append([]string{"audit", "--robots", robotsFile}, c.args...)
		code, out, stderr := runCLI(t, "", append(args, logFile)...)
		if code != exitOK || !strings.Contains(out, "bingbot\t\t"+strings.Trim(c.want, "\t")+"\t") {
			t.Errorf("audit %v: exit %d, want bingbot %s:\n%s%s", c.args, code, c.want, out, stderr)
		}
	}

	// A source the server does not have fails with exit 2, naming it.
	code, _, stderr = runCLI(t, "", "ranges", "update", "--dir", dir, "--sources", "openai-gptbot", "--base-url", srv.URL)
	if code != exitUsage || !strings.Contains(stderr, "openai-gptbot") {
		t.Errorf("missing list: exit %d, stderr %s", code, stderr)
	}
	// --ranges with a directory that is not one: a usage error naming it.
	bad := t.TempDir()
	os.MkdirAll(filepath.Join(bad, "no-such-source"), 0o755)
	code, _, stderr = runCLI(t, "", "audit", "--robots", robotsFile, "--ranges", bad, logFile)
	if code != exitUsage || !strings.Contains(stderr, "no-such-source") {
		t.Errorf("bad --ranges: exit %d, stderr %s", code, stderr)
	}
}

func TestVersionNamesSnapshot(t *testing.T) {
	code, out, stderr := runCLI(t, "", "version")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"IP range snapshot made 2026-", "google-common-crawlers", "Google", "41 versions 2021-11-10", "bingbot"} {
		if !strings.Contains(out, want) {
			t.Errorf("version lacks %q:\n%s", want, out)
		}
	}
}
