//go:build duckdb_arrow

package audit

import (
	"context"
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/verify/rdns"
)

const (
	uaYandex = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
	uaClaude = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"
)

// identityRobots disallows /private/ for everyone and asks for a
// Crawl-delay of 10 s.
const identityRobots = "User-agent: *\nDisallow: /private/\nCrawl-delay: 10\n"

// identityLog: genuine and spoofed crawlers of several operators in October
// 2026, when the built-in snapshot's newest lists (August 2026) are in
// effect, and a bingbot of 2015, before Bing's first list. The expected
// identities come from the published lists in ../shared/data/ip-ranges
// (googlebot 66.249.66.0/27, 2001:4860:4801:2::/64; bingbot 157.55.39.0/24;
// Anthropic 216.73.216.0/22), not from running the code.
var identityLog = []string{
	// Googlebot from Google's list: verified.
	line("66.249.66.1", "02/Oct/2026:10:00:00 +0000", "/private/a", uaGooglebot),    // disallowed
	line("66.249.66.1", "02/Oct/2026:10:00:30 +0000", "/page", uaGooglebot),         // 30 s: no delay breach
	line("::ffff:66.249.66.5", "02/Oct/2026:10:01:30 +0000", "/page2", uaGooglebot), // IPv4-mapped, unmapped: verified; 60 s
	line("2001:4860:4801:2::5a", "02/Oct/2026:10:03:00 +0000", "/page3", uaGooglebot),
	// "Googlebot" from outside Google's list, interleaved with the real one:
	// spoofed; its requests never shorten the real Googlebot's gaps.
	line("192.0.2.7", "02/Oct/2026:10:00:10 +0000", "/private/b", uaGooglebot), // disallowed, spoofed
	line("192.0.2.7", "02/Oct/2026:10:00:12 +0000", "/x", uaGooglebot),         // 2 s after the impostor's previous: delay breach (spoofed row)
	line("2001:db8::66", "02/Oct/2026:10:02:00 +0000", "/y", uaGooglebot),      // spoofed, allowed
	// bingbot: genuine in 2026, and in 2015 before Bing's first list (its
	// address long gone from today's list is unverified, never spoofed).
	line("157.55.39.12", "03/Oct/2026:08:00:00 +0000", "/private/c", uaBing),  // disallowed, verified
	line("65.52.104.9", "17/May/2015:10:05:00 +0000", "/private/old", uaBing), // disallowed, unverified
	// ClaudeBot spoofed: allowed paths only, still spoofed.
	line("198.51.100.9", "04/Oct/2026:09:00:00 +0000", "/docs/", uaClaude),
	// YandexBot: no published list, rDNS only: unverified without DNS.
	line("5.255.253.104", "05/Oct/2026:09:00:00 +0000", "/private/y", uaYandex),
	// curl: a script nobody verifies.
	line("203.0.113.7", "05/Oct/2026:09:30:00 +0000", "/private/z", uaCurl),
}

func writeIdentityScenario(t *testing.T) (robotsFile, logFile string) {
	t.Helper()
	dir := t.TempDir()
	robotsFile = filepath.Join(dir, "robots.txt")
	logFile = filepath.Join(dir, "access.log")
	if err := os.WriteFile(robotsFile, []byte(identityRobots), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logFile, []byte(strings.Join(identityLog, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return robotsFile, logFile
}

type identityRow struct {
	requests, disallowed, delay, ips int64
	operator, verdict                string
}

func identityRows(s *report.Summary) map[string]identityRow {
	m := map[string]identityRow{}
	for _, r := range s.Bots {
		m[r.Bot+"/"+r.Identity] = identityRow{r.Requests, r.Disallowed, r.CrawlDelayBreaches, r.IPs, r.Operator, r.Verdict}
	}
	return m
}

func TestAuditIdentity(t *testing.T) {
	robotsFile, logFile := writeIdentityScenario(t)
	ctx := context.Background()
	res, err := Run(ctx, Config{Robots: robotsFile, Profile: robots.RFC9309}, []string{logFile})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	want := map[string]identityRow{
		"Googlebot/verified":   {4, 1, 0, 3, "Google", report.VerdictIgnoresRobots},
		"Googlebot/spoofed":    {3, 1, 1, 2, "", report.VerdictSpoofed},
		"bingbot/verified":     {1, 1, 0, 1, "Microsoft", report.VerdictIgnoresRobots},
		"bingbot/unverified":   {1, 1, 0, 1, "Microsoft", report.VerdictIgnoresRobots},
		"ClaudeBot/spoofed":    {1, 0, 0, 1, "", report.VerdictSpoofed},
		"YandexBot/unverified": {1, 1, 0, 1, "Yandex", report.VerdictIgnoresRobots},
		"curl/unverified":      {1, 1, 0, 1, "", report.VerdictIgnoresRobots},
	}
	got := identityRows(&res.Summary)
	for k, w := range want {
		if g, ok := got[k]; !ok || g != w {
			t.Errorf("%s: got %+v (present %v), want %+v", k, g, ok, w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected row %s: %+v", k, got[k])
		}
	}
	v := res.Summary.Verification
	if v == nil {
		t.Fatal("summary has no verification section")
	}
	if w := map[string]int64{"verified": 5, "spoofed": 4, "unverified": 3}; !equalCounts(v.Identities, w) {
		t.Errorf("identities = %v, want %v", v.Identities, w)
	}
	var names []string
	for _, s := range v.Sources {
		names = append(names, s.Name)
		if s.Versions < 1 || s.First.IsZero() || s.Last.Before(s.First) || s.Origin == "" {
			t.Errorf("source %+v: no versions, dates or origin", s)
		}
	}
	if len(names) < 5 {
		t.Errorf("verification sources = %v, want the operators' lists", names)
	}
	b, _ := json.Marshal(res.Summary)
	if !strings.Contains(string(b), `"identity":"spoofed"`) || !strings.Contains(string(b), `"verification":{"sources":[`) {
		t.Errorf("summary.json lacks identities: %s", b)
	}

	// The label a person reads.
	for _, r := range res.Summary.Bots {
		switch {
		case r.Identity == "spoofed" && r.Label() != r.Bot+" (spoofed)":
			t.Errorf("label of a spoofed row: %q", r.Label())
		case r.Bot == "curl" && r.Label() != "curl":
			t.Errorf("a script is never labelled unverified: %q", r.Label())
		case r.Bot == "YandexBot" && r.Label() != "YandexBot (unverified)":
			t.Errorf("label of an unverified verifiable bot: %q", r.Label())
		}
	}

	// --out: the identity column and the block list.
	out := t.TempDir()
	if err := res.WriteOut(ctx, out, BlockPolicy{}); err != nil {
		t.Fatal(err)
	}
	viol := readCSV(t, filepath.Join(out, "violations.csv"))
	col := slices.Index(viol[0], "identity")
	if col < 0 {
		t.Fatalf("violations.csv has no identity column: %v", viol[0])
	}
	byIP := map[string]string{}
	for _, r := range viol[1:] {
		byIP[r[2]] = r[col]
	}
	for ip, id := range map[string]string{"66.249.66.1": "verified", "192.0.2.7": "spoofed", "157.55.39.12": "verified",
		"65.52.104.9": "unverified", "5.255.253.104": "unverified", "203.0.113.7": "unverified"} {
		if byIP[ip] != id {
			t.Errorf("violations.csv: %s is %q, want %q", ip, byIP[ip], id)
		}
	}
	br := readCSV(t, filepath.Join(out, "breaches.csv"))
	if len(br) != 2 || br[1][2] != "192.0.2.7" || br[1][slices.Index(br[0], "identity")] != "spoofed" {
		t.Errorf("breaches.csv = %v, want the impostor's one crawl-delay breach", br)
	}
	// Default --block-on disallowed,spoofed: every spoofed address (with a
	// disallowed request or not) and the unverified ones with a disallowed
	// request; never a verified one.
	wantBlock := []string{"65.52.104.9", "192.0.2.7", "198.51.100.9", "203.0.113.7", "5.255.253.104", "2001:db8::66"}
	if got := blockAddrs(t, filepath.Join(out, "blocklist.txt")); !sameSet(got, wantBlock) {
		t.Errorf("blocklist = %v, want %v", got, wantBlock)
	}
	// Each entry says why: its counts and the crawlers it claimed, with
	// what verification found.
	l, _, err := res.BlockList(ctx, BlockPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, b := range l.Blocks {
		reasons[b.String()] = b.Reason()
	}
	t.Logf("reasons: %v", reasons)
	if got := reasons["192.0.2.7"]; !strings.Contains(got, "Googlebot spoofed") || !strings.Contains(got, "disallowed ") {
		t.Errorf("reason of 192.0.2.7 = %q, want its disallowed count and Googlebot spoofed", got)
	}
	for _, c := range []struct {
		name string
		p    BlockPolicy
		want []string
	}{
		{"spoofed only", BlockPolicy{On: []string{"spoofed"}}, []string{"192.0.2.7", "198.51.100.9", "2001:db8::66"}},
		{"disallowed only", BlockPolicy{On: []string{"disallowed"}}, []string{"65.52.104.9", "192.0.2.7", "203.0.113.7", "5.255.253.104"}},
		{"crawl-delay", BlockPolicy{On: []string{"crawl-delay"}}, []string{"192.0.2.7"}},
		{"disallowed, verified allowed", BlockPolicy{On: []string{"disallowed"}, Verified: true},
			[]string{"65.52.104.9", "66.249.66.1", "157.55.39.12", "192.0.2.7", "203.0.113.7", "5.255.253.104"}},
		{"min 2", BlockPolicy{On: []string{"disallowed", "spoofed"}, Min: 2}, []string{"192.0.2.7"}},
	} {
		l, _, err := res.BlockList(ctx, c.p)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range l.Entries {
			got = append(got, e.Addr.String())
		}
		if !sameSet(got, c.want) {
			t.Errorf("%s: blocklist = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestAuditIdentityDNSCache: answers kept in --rdns-cache settle what the
// ranges leave open, and without --rdns no query is made (the resolver
// points at a closed port: a query would fail and leave the claim alone).
func TestAuditIdentityDNSCache(t *testing.T) {
	robotsFile, logFile := writeIdentityScenario(t)
	cachePath := filepath.Join(t.TempDir(), "rdns.jsonl")
	now := time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC)
	cache, err := rdns.LoadCache(cachePath)
	if err != nil {
		t.Fatal(err)
	}
	yandex := netip.MustParseAddr("5.255.253.104")
	spoof := netip.MustParseAddr("192.0.2.7")
	old := netip.MustParseAddr("65.52.104.9")
	cache.Put(rdns.Answer{Addr: yandex, Names: []string{"5-255-253-104.spider.yandex.com"},
		Forward: map[string][]netip.Addr{"5-255-253-104.spider.yandex.com": {yandex}}, Time: now})
	cache.Put(rdns.Answer{Addr: spoof, Names: []string{"host7.example.net"}, Time: now})
	// The 2015 bingbot's address answers with another owner today: an old
	// log is never called spoofed by today's DNS.
	cache.Put(rdns.Answer{Addr: old, Names: []string{"vm-9.cloud.example"}, Time: now})
	if err := cache.Save(); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Robots: robotsFile, Profile: robots.RFC9309,
		DNS: DNSOptions{CachePath: cachePath, Resolver: &rdns.Resolver{Server: "127.0.0.1:9", Timeout: 50 * time.Millisecond}}},
		[]string{logFile})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	got := identityRows(&res.Summary)
	if _, ok := got["YandexBot/verified"]; !ok {
		t.Errorf("YandexBot with a forward-confirmed PTR under yandex.com is not verified: %v", got)
	}
	if g := got["Googlebot/spoofed"]; g.requests != 3 {
		t.Errorf("Googlebot/spoofed = %+v: the PTR outside Google's domains keeps it spoofed", g)
	}
	if _, ok := got["bingbot/unverified"]; !ok {
		t.Errorf("the 2015 bingbot must stay unverified: %v", got)
	}
	st, ok := res.Summary.Verification.DNS.(DNSStats)
	if !ok || st.Live || st.Queried != 0 || st.Answered != 3 || st.Changed != 1 {
		t.Errorf("DNS stats = %+v", res.Summary.Verification.DNS)
	}
}

func equalCounts(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range b {
		if a[k] != v {
			return false
		}
	}
	return true
}

func blockAddrs(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestAuditTrustedProxy: behind a trusted proxy the client is the right-most
// untrusted address of X-Forwarded-For; without --trusted-proxy the
// forwarded field is never read, since anyone can write it.
func TestAuditTrustedProxy(t *testing.T) {
	dir := t.TempDir()
	robotsFile := filepath.Join(dir, "robots.txt")
	logFile := filepath.Join(dir, "access.jsonl")
	os.WriteFile(robotsFile, []byte(identityRobots), 0o644)
	// nginx JSON lines: the remote address is the load balancer's; the
	// chain's left part may be forged by the client.
	lines := []string{
		`{"time_iso8601":"2026-10-02T10:00:00+00:00","remote_addr":"10.0.0.5","request":"GET /private/a HTTP/1.1","status":200,"body_bytes_sent":5,"http_user_agent":"` + uaGooglebot + `","http_x_forwarded_for":"66.249.66.1"}`,
		`{"time_iso8601":"2026-10-02T10:01:00+00:00","remote_addr":"10.0.0.5","request":"GET /b HTTP/1.1","status":200,"body_bytes_sent":5,"http_user_agent":"` + uaGooglebot + `","http_x_forwarded_for":"66.249.66.1, 192.0.2.77"}`,
		`{"time_iso8601":"2026-10-02T10:02:00+00:00","remote_addr":"198.51.100.3","request":"GET /c HTTP/1.1","status":200,"body_bytes_sent":5,"http_user_agent":"` + uaGooglebot + `","http_x_forwarded_for":"66.249.66.1"}`,
	}
	os.WriteFile(logFile, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	for _, c := range []struct {
		name    string
		trusted []netip.Prefix
		want    map[string]identityRow
	}{
		// Behind 10.0.0.0/8: 66.249.66.1 (verified), then 192.0.2.77, the
		// right-most untrusted address of a chain whose left part is
		// forged (spoofed); 198.51.100.3 is no proxy, its chain unread.
		{"trusted", []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}, map[string]identityRow{
			"Googlebot/verified": {1, 1, 0, 1, "Google", report.VerdictIgnoresRobots},
			"Googlebot/spoofed":  {2, 0, 0, 2, "", report.VerdictSpoofed}}},
		// Without --trusted-proxy every request comes from its remote
		// address, none of them Google's.
		{"untrusted", nil, map[string]identityRow{
			"Googlebot/spoofed": {3, 1, 0, 2, "", report.VerdictSpoofed}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Run(context.Background(), Config{Robots: robotsFile, TrustedProxies: c.trusted}, []string{logFile})
			if err != nil {
				t.Fatal(err)
			}
			defer res.Close()
			if got := identityRows(&res.Summary); len(got) != len(c.want) || !mapsEqual(got, c.want) {
				t.Errorf("rows = %+v, want %+v", got, c.want)
			}
		})
	}
}

func mapsEqual[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
