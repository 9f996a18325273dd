package firewall

import (
	"bytes"
	"flag"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fixtureTime is the fixed instant of the fixture's header and seen times.
var fixtureTime = time.Date(2026, 10, 31, 23, 59, 0, 0, time.UTC)

// fixtureEntries is the qualifying set the golden files are made from:
// IPv4 and IPv6 addresses, an IPv4-mapped IPv6 address, four adjacent
// addresses that merge into a /30, two adjacent IPv6 addresses that merge
// into a /127, and bot names as hostile as a User-Agent can make them.
func fixtureEntries() []Entry {
	t0 := time.Date(2026, 10, 1, 8, 0, 0, 0, time.UTC)
	e := func(addr string, counts map[Kind]int64, claims ...Claim) Entry {
		var c [NumKinds]int64
		for k, n := range counts {
			c[k] = n
		}
		return Entry{Addr: netip.MustParseAddr(addr), Counts: c, Claims: claims, FirstSeen: t0, LastSeen: t0.Add(72 * time.Hour)}
	}
	spoofedGoogle := Claim{Bot: "Googlebot", Identity: "spoofed"}
	return []Entry{
		e("192.0.2.10", map[Kind]int64{Disallowed: 64, Spoofed: 64}, spoofedGoogle),
		e("198.51.100.4", map[Kind]int64{Disallowed: 3}, Claim{Bot: "evil\"bot;\n} flush ruleset #", Identity: "unverified"}),
		e("198.51.100.5", map[Kind]int64{CrawlDelay: 12}, Claim{Bot: "=cmd|' /C calc'!A0", Identity: "unverified"}),
		e("198.51.100.6", map[Kind]int64{Disallowed: 1}, Claim{Bot: "<script>alert(1)</script>", Identity: "unverified"}),
		e("198.51.100.7", map[Kind]int64{Disallowed: 2, RequestRate: 5}, Claim{Bot: "AhrefsBot", Identity: "unverified"}, Claim{Bot: "SemrushBot", Identity: "unverified"}),
		e("::ffff:203.0.113.9", map[Kind]int64{Spoofed: 7}, Claim{Bot: "bingbot", Identity: "spoofed"}),
		e("2001:db8:bad:1::90", map[Kind]int64{Spoofed: 5, Disallowed: 5}, Claim{Bot: "GPTBot", Identity: "spoofed"}),
		e("2001:db8:bad:1::91", map[Kind]int64{Spoofed: 2}, Claim{Bot: "GPTBot", Identity: "spoofed"}),
		e("2001:db8:cafe::1", map[Kind]int64{VisitTime: 9}, Claim{Bot: "Bytespider\u2028`$(reboot)`", Identity: "unverified"}),
	}
}

// fixtureList is the list the golden files are written from.
func fixtureList(t testing.TB) *List {
	t.Helper()
	meta := Meta{
		Tool: "crawlaudit test", Made: fixtureTime,
		From: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), To: fixtureTime,
		Logs: []string{"access.log", "access.log.1.gz"}, Robots: "robots.txt", Spec: "rfc9309",
		Kinds: []Kind{Disallowed, Spoofed, CrawlDelay}, Min: 1, TTL: 720 * time.Hour,
	}
	l, st := Build(fixtureEntries(), Options{}, meta)
	if st.Listed != 9 {
		t.Fatalf("fixture: %d addresses listed, want 9 (%+v)", st.Listed, st)
	}
	return l
}

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n%s", name, got)
	}
}

// writeFile runs the file of format named file on l.
func writeFile(t testing.TB, format, file string, l *List) []byte {
	t.Helper()
	fs, err := ParseFormats(format)
	if err != nil || len(fs) != 1 {
		t.Fatalf("ParseFormats(%q) = %v, %v", format, fs, err)
	}
	for _, f := range fs[0].Files {
		if f.Name == file {
			var b bytes.Buffer
			if err := f.Write(&b, l); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			return b.Bytes()
		}
	}
	t.Fatalf("format %s writes no file %s", format, file)
	return nil
}

// skipNoTool skips a test that needs a tool this machine lacks, with why;
// under CRAWLAUDIT_REQUIRE_TOOLS=1 (set by .ci/run, which installs them)
// it fails instead, so that CI never passes by skipping the real checks.
func skipNoTool(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CRAWLAUDIT_REQUIRE_TOOLS") != "" {
		t.Fatalf(format+" (CRAWLAUDIT_REQUIRE_TOOLS is set)", args...)
	}
	t.Skipf(format, args...)
}
