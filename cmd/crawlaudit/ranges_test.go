package main

import (
	"encoding/json"
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
	list := `{"creationTime": "2026-10-01T00:00:00.000000", "prefixes": [{"ipv4Prefix": "203.0.114.0/24"}]}`
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

	// An audit with the directory: bingbot from 203.0.114.9, outside the
	// built-in bingbot list, is verified by
	// the downloaded list, where the snapshot's would call it spoofed.
	logDir := t.TempDir()
	robotsFile := filepath.Join(logDir, "robots.txt")
	logFile := filepath.Join(logDir, "access.log")
	os.WriteFile(robotsFile, []byte("User-agent: *\nDisallow: /private/\n"), 0o644)
	os.WriteFile(logFile, []byte(`203.0.114.9 - - [15/Oct/2026:10:00:00 +0000] "GET /private/x HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"`+"\n"), 0o644)
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
	for _, want := range []string{"IP range snapshot made 2026-", "google-common-crawlers", "Google", "41 versions 2021-11-10", "bingbot",
		"2 versions 2026-04-12 … 2026-08-21 (and 1 refused as implausible)"} {
		if !strings.Contains(out, want) {
			t.Errorf("version lacks %q:\n%s", want, out)
		}
	}
}

// identitySummary is what TestRangesRefusedListAudit reads of summary.json.
type identitySummary struct {
	Bots []struct {
		Bot      string `json:"bot"`
		Identity string `json:"identity"`
		Requests int64  `json:"requests"`
	} `json:"bots"`
	Verification struct {
		Sources []struct {
			Name    string `json:"name"`
			Refused []struct {
				File    string   `json:"file"`
				Reasons []string `json:"reasons"`
			} `json:"refused"`
		} `json:"sources"`
	} `json:"verification"`
}

// googlebot returns the Googlebot requests of s per identity.
func (s *identitySummary) googlebot() map[string]int64 {
	m := map[string]int64{}
	for _, b := range s.Bots {
		if b.Bot == "Googlebot" {
			m[b.Identity] += b.Requests
		}
	}
	return m
}

// TestRangesRefusedListAudit audits the demo month with a --ranges
// directory whose Google list, dated before the month, is empty or holds
// the default route: the list is refused with a message naming it, every
// real Googlebot request stays verified, none is spoofed, and no impostor
// is verified.
func TestRangesRefusedListAudit(t *testing.T) {
	audit := func(args ...string) (identitySummary, string) {
		t.Helper()
		code, out, stderr := runCLI(t, "", append(append([]string{"audit", "--json", "--robots", sampleRobots}, args...), sampleLog)...)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var s identitySummary
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatal(err)
		}
		return s, stderr
	}
	base, _ := audit()
	want := base.googlebot()
	if want["verified"] == 0 || want["spoofed"] == 0 {
		t.Fatalf("the demo month has no verified and spoofed Googlebot requests: %v", want)
	}
	for _, tc := range []struct{ name, prefixes, reason string }{
		{"empty", ``, "it holds no prefix"},
		{"default_route", `{"ipv4Prefix": "0.0.0.0/0"}, {"ipv6Prefix": "::/0"}`, "the default route"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "google-common-crawlers", "2026-09-30T00:00:00Z.json")
			os.MkdirAll(filepath.Dir(file), 0o755)
			os.WriteFile(file, []byte(`{"creationTime": "2026-09-30T00:00:00.000000", "prefixes": [`+tc.prefixes+`]}`), 0o644)
			s, stderr := audit("--ranges", dir)
			got := s.googlebot()
			if got["spoofed"] != 0 || got["verified"] != want["verified"] || got["unverified"] != want["unverified"]+want["spoofed"] {
				t.Errorf("Googlebot requests %v; want %d verified as without --ranges, none spoofed (without: %v)", got, want["verified"], want)
			}
			if !strings.Contains(stderr, file+": list refused: ") || !strings.Contains(stderr, tc.reason) {
				t.Errorf("stderr does not name the refused file and why:\n%s", stderr)
			}
			var refused []string
			for _, src := range s.Verification.Sources {
				if src.Name != "google-common-crawlers" {
					continue // the snapshot's own refused lists
				}
				for _, r := range src.Refused {
					refused = append(refused, src.Name+" "+r.File+" "+strings.Join(r.Reasons, "; "))
				}
			}
			if len(refused) != 1 || !strings.HasPrefix(refused[0], "google-common-crawlers "+file+" ") || !strings.Contains(refused[0], tc.reason) {
				t.Errorf("summary.json verification refused %q", refused)
			}
		})
	}
}

// TestRangesUpdateRefuses: `ranges update` refuses an empty download with
// exit 2 and a message, and stores nothing.
func TestRangesUpdateRefuses(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"creationTime": "2026-10-01T00:00:00.000000", "prefixes": []}`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	code, out, stderr := runCLI(t, "", "ranges", "update", "--dir", dir, "--sources", "bingbot", "--base-url", srv.URL)
	if code != exitUsage || !strings.Contains(stderr, "bingbot") || !strings.Contains(stderr, "refused: ") ||
		!strings.Contains(stderr, "it holds no prefix") || !strings.Contains(stderr, "nothing was stored") {
		t.Errorf("exit %d, stdout %s, stderr %s", code, out, stderr)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "bingbot")); len(entries) != 0 {
		t.Errorf("stored %v", entries)
	}
}
