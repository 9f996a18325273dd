package main

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/verify"
)

// readAddrs reads blocklist.txt: the addresses, comments skipped.
func readAddrs(t *testing.T, path string) []netip.Addr {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var as []netip.Addr
	for _, l := range strings.Split(string(b), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		a, err := netip.ParseAddr(l)
		if err != nil {
			t.Fatalf("%s: %q: %v", path, l, err)
		}
		as = append(as, a)
	}
	return as
}

// readPrefixes reads blocklist.cidr.txt: the prefixes, comments skipped.
func readPrefixes(t *testing.T, path string) []netip.Prefix {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ps []netip.Prefix
	for _, l := range strings.Split(string(b), "\n") {
		l, _, _ = strings.Cut(l, "#")
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		p, err := netip.ParsePrefix(l)
		if err != nil {
			t.Fatalf("%s: %q: %v", path, l, err)
		}
		ps = append(ps, p)
	}
	return ps
}

// queryAddrs runs a one-column query on a kept audit.
func queryAddrs(t *testing.T, db, q string) []netip.Addr {
	t.Helper()
	code, out, stderr := runCLI(t, "", "query", "--db", db, "--csv", q)
	if code != exitOK {
		t.Fatalf("query exit %d: %s", code, stderr)
	}
	var as []netip.Addr
	for _, l := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		as = append(as, netip.MustParseAddr(l))
	}
	return as
}

// sampleClients returns every client address of the sample log.
func sampleClients(t *testing.T) []netip.Addr {
	t.Helper()
	f, err := os.Open(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[netip.Addr]bool{}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		ip, _, _ := strings.Cut(sc.Text(), " ")
		if a, err := netip.ParseAddr(ip); err == nil {
			seen[a.Unmap()] = true
		}
	}
	var as []netip.Addr
	for a := range seen {
		as = append(as, a)
	}
	return as
}

func covered(ps []netip.Prefix, a netip.Addr) bool {
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// TestAuditBlockSample: on the sample month, the spoofed Googlebots'
// addresses are blocked and the genuine Googlebot's never; an allow-listed
// CIDR never is; the aggregated prefixes cover no client address of the log
// that does not qualify; every format is written.
func TestAuditBlockSample(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	db := filepath.Join(dir, "audit.duckdb")
	allow := filepath.Join(dir, "allow.txt")
	// 185.220.101.34 is a spoofed Googlebot; the operator trusts its /24.
	os.WriteFile(allow, []byte("# partner network\n185.220.101.0/24\n"), 0o644)
	code, _, stderr := runCLI(t, "", "audit", "-q", "--out", out, "--db", db, "--block-format", "all",
		"--block-aggregate", "/24,/64", "--allow-list", allow, "--robots", sampleRobots, sampleLog)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range []string{"blocklist.txt", "blocklist.cidr.txt"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}
	listed := readAddrs(t, filepath.Join(out, "blocklist.txt"))
	prefixes := readPrefixes(t, filepath.Join(out, "blocklist.cidr.txt"))

	genuine := queryAddrs(t, db, "SELECT DISTINCT client_ip FROM judged WHERE bot = 'Googlebot' AND identity = 'verified' ORDER BY 1")
	spoofed := queryAddrs(t, db, "SELECT DISTINCT client_ip FROM judged WHERE bot = 'Googlebot' AND identity = 'spoofed' ORDER BY 1")
	if len(genuine) == 0 || len(spoofed) < 3 {
		t.Fatalf("sample: %d genuine and %d spoofed Googlebot addresses", len(genuine), len(spoofed))
	}
	for _, a := range genuine {
		if slices.Contains(listed, a) || covered(prefixes, a) {
			t.Errorf("the genuine Googlebot %v is blocked", a)
		}
	}
	trusted := netip.MustParsePrefix("185.220.101.0/24")
	for _, a := range spoofed {
		switch {
		case trusted.Contains(a):
			if slices.Contains(listed, a) || covered(prefixes, a) {
				t.Errorf("the allow-listed %v is blocked", a)
			}
		case !slices.Contains(listed, a) || !covered(prefixes, a):
			t.Errorf("the spoofed Googlebot %v is not blocked", a)
		}
	}
	for _, p := range prefixes {
		if p.Overlaps(trusted) {
			t.Errorf("prefix %v covers the allow list", p)
		}
	}
	// Widened to /24 and /64 at most, and never over a client that does
	// not qualify, human or bot.
	for _, a := range sampleClients(t) {
		if covered(prefixes, a) && !slices.Contains(listed, a) {
			t.Errorf("%v does not qualify but is covered", a)
		}
	}
	for _, p := range prefixes {
		if p.Addr().Is4() && p.Bits() < 24 || p.Addr().Is6() && p.Bits() < 64 {
			t.Errorf("prefix %v is wider than --block-aggregate /24,/64", p)
		}
	}
	for _, a := range listed {
		if !covered(prefixes, a) {
			t.Errorf("%v is listed but no prefix covers it", a)
		}
	}
}

// TestAuditBlockCrawlDelay: --block-on crawl-delay --block-min N lists
// exactly the addresses with at least N crawl-delay rows in breaches.csv
// that are not verified (in the sample: 35, 51, 208, 251 and 262 rows).
func TestAuditBlockCrawlDelay(t *testing.T) {
	for _, min := range []int{10, 100, 252} {
		dir := t.TempDir()
		code, _, stderr := runCLI(t, "", "audit", "-q", "--out", dir, "--block-on", "crawl-delay", "--block-min", strconv.Itoa(min),
			"--robots", sampleRobots, sampleLog)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		f, err := os.Open(filepath.Join(dir, "breaches.csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		col := map[string]int{}
		for i, c := range rows[0] {
			col[c] = i
		}
		delays := map[netip.Addr]int{}
		verified := map[netip.Addr]bool{}
		for _, r := range rows[1:] {
			a := netip.MustParseAddr(r[col["client_ip"]])
			if r[col["identity"]] == "verified" {
				verified[a] = true
			}
			if r[col["kind"]] == "crawl-delay" {
				delays[a]++
			}
		}
		var want []string
		for a, n := range delays {
			if n >= min && !verified[a] {
				want = append(want, a.String())
			}
		}
		var got []string
		for _, a := range readAddrs(t, filepath.Join(dir, "blocklist.txt")) {
			got = append(got, a.String())
		}
		slices.Sort(want)
		slices.Sort(got)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("--block-min %d: blocklist.txt = %v, want %v", min, got, want)
		}
		t.Logf("--block-min %d: %d of %d addresses with a crawl-delay breach", min, len(got), len(delays))
	}
}

// TestAuditBlockUsage: bad block-list flags fail before the audit, naming
// the flag, the file and the line.
func TestAuditBlockUsage(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "allow.txt")
	os.WriteFile(bad, []byte("192.0.2.1\n# ok\nnot-an-address\n"), 0o644)
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--block-format", "pf", "--out", dir}, `unknown format "pf"`},
		{[]string{"--block-format", "nftables"}, "give --out"},
		{[]string{"--block-aggregate", "/4"}, "between /8 and /32"},
		{[]string{"--block-aggregate", "/8", "--out", dir}, "/8 (up to 16,777,216 IPv4 addresses in one entry) is wider than /16"},
		{[]string{"--block-aggregate", "/24,/32", "--out", dir}, "give --block-aggregate-force"},
		{[]string{"--block-ttl", "-1h"}, "--block-ttl"},
		{[]string{"--allow-list", bad}, bad + ":3:"},
		{[]string{"--allow-list", filepath.Join(dir, "missing.txt")}, "--allow-list"},
		{[]string{"--block-on", "unreachble"}, `unknown kind "unreachble"`},
	} {
		args := append([]string{"audit", "-q", "--robots", sampleRobots}, tc.args...)
		code, _, stderr := runCLI(t, "", append(args, sampleLog)...)
		if code != exitUsage || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q, want exit 2 and %q", tc.args, code, stderr, tc.msg)
		}
	}
}

// TestAuditBlockSummary: summary.json's "blocklist" on the sample. With
// in-grace among --block-on, the verified crawlers that read a stale copy
// qualify but are held back and named; the written count is blocklist.txt's;
// an allow-listed spoofed address is counted as held back by the list.
func TestAuditBlockSummary(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	allow := filepath.Join(dir, "allow.txt")
	os.WriteFile(allow, []byte("185.220.101.34\n"), 0o644) // a spoofed Googlebot
	code, _, stderr := runCLI(t, "", "audit", "-q", "--out", out, "--block-on", "disallowed,spoofed,in-grace",
		"--allow-list", allow, "--robots", sampleRobots, sampleLog)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Blocklist *struct {
			Written           int `json:"written"`
			HeldBackVerified  int `json:"held_back_verified"`
			HeldBackAllowList int `json:"held_back_allow_list"`
			HeldBackSpecial   int `json:"held_back_special"`
			HeldBackCrawlers  []struct {
				Bot       string           `json:"bot"`
				Addresses int              `json:"addresses"`
				Requests  map[string]int64 `json:"requests"`
			} `json:"held_back_crawlers"`
		} `json:"blocklist"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	bl := s.Blocklist
	if bl == nil {
		t.Fatal("summary.json has no blocklist")
	}
	if n := len(readAddrs(t, filepath.Join(out, "blocklist.txt"))); bl.Written != n || n == 0 {
		t.Errorf("written = %d, blocklist.txt has %d", bl.Written, n)
	}
	if bl.HeldBackAllowList != 1 || bl.HeldBackSpecial != 0 {
		t.Errorf("held back by the allow list %d, special %d; want 1, 0", bl.HeldBackAllowList, bl.HeldBackSpecial)
	}
	addrs := 0
	var bots []string
	for _, c := range bl.HeldBackCrawlers {
		addrs += c.Addresses
		bots = append(bots, c.Bot)
		if c.Requests["in-grace"] == 0 {
			t.Errorf("%s held back without an in-grace request: %v", c.Bot, c.Requests)
		}
	}
	slices.Sort(bots)
	if bl.HeldBackVerified == 0 || addrs != bl.HeldBackVerified || !slices.Contains(bots, "Googlebot") {
		t.Errorf("held back %d verified addresses of %v (%d addresses), want Googlebot's among them", bl.HeldBackVerified, bots, addrs)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "Held back: ") || !strings.Contains(string(md), "- Googlebot (Google): ") || !strings.Contains(string(md), "block-verified") {
		t.Errorf("report.md does not name the held-back crawlers")
	}
	t.Logf("blocklist: written %d, held back %d verified (%v), %d allow list", bl.Written, bl.HeldBackVerified, bots, bl.HeldBackAllowList)
}

// TestAuditBlockAggregateForce: --block-aggregate /8 needs
// --block-aggregate-force; forced, no prefix covers a client that does not
// qualify or a published range of a crawler not on the list.
func TestAuditBlockAggregateForce(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "", "audit", "-q", "--out", dir, "--block-format", "cidr", "--block-aggregate", "/8,/32",
		"--robots", sampleRobots, sampleLog)
	if code != exitUsage || !strings.Contains(stderr, "--block-aggregate-force") {
		t.Fatalf("unforced /8: exit %d, %q; want exit 2 naming --block-aggregate-force", code, stderr)
	}
	code, _, stderr = runCLI(t, "", "audit", "-q", "--out", dir, "--block-format", "cidr", "--block-aggregate", "/8,/32",
		"--block-aggregate-force", "--robots", sampleRobots, sampleLog)
	if code != exitOK {
		t.Fatalf("forced: exit %d: %s", code, stderr)
	}
	prefixes := readPrefixes(t, filepath.Join(dir, "blocklist.cidr.txt"))
	listed := readAddrs(t, filepath.Join(dir, "blocklist.txt"))
	for _, a := range sampleClients(t) {
		if covered(prefixes, a) && !slices.Contains(listed, a) {
			t.Errorf("%v does not qualify but is covered", a)
		}
	}
	snap, err := verify.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	wide := 0
	for _, p := range prefixes {
		if p.IsSingleIP() {
			continue
		}
		wide++
		for _, s := range snap.Sources() {
			if !s.Authoritative || len(s.Versions) == 0 {
				continue
			}
			for _, q := range s.Versions[len(s.Versions)-1].Prefixes() {
				if p.Overlaps(q) {
					t.Errorf("%v overlaps %s's published %v", p, s.Name, q)
				}
			}
		}
	}
	t.Logf("forced /8,/32: %d prefixes, %d wider than one address", len(prefixes), wide)
}
