//go:build duckdb_arrow

package audit

import (
	"context"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/verify/rdns"
)

// knownNames are the names of three of the four range-verified crawler
// addresses of identityLog (2001:4860:4801:2::5a has none): the addresses
// the audit checks the resolver with before it trusts it.
var knownNames = map[string]string{
	"1.66.249.66.in-addr.arpa.":  "crawl-66-249-66-1.googlebot.com.",
	"5.66.249.66.in-addr.arpa.":  "crawl-66-249-66-5.googlebot.com.",
	"12.39.55.157.in-addr.arpa.": "msnbot-157-55-39-12.search.msn.com.",
}

// knownForward maps each name of knownNames to its IPv4 address, for the
// forward (A) half of forward-confirmed reverse DNS.
func knownForward() map[string]string {
	forward := map[string]string{}
	for rev, name := range knownNames {
		f := strings.Split(strings.TrimSuffix(rev, ".in-addr.arpa."), ".")
		forward[name] = f[3] + "." + f[2] + "." + f[1] + "." + f[0]
	}
	return forward
}

// serveDNS answers the DNS queries sent to the address it returns, on
// 127.0.0.1 (tests never reach the internet), with handle until the test
// ends.
func serveDNS(t *testing.T, handle dns.HandlerFunc) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &dns.Server{PacketConn: pc, Handler: handle}
	go srv.ActivateAndServe()
	t.Cleanup(func() { srv.Shutdown() })
	return pc.LocalAddr().String()
}

// auditDNS audits logFile under robotsFile with the reverse DNS of opts,
// and closes the result when the test ends.
func auditDNS(t *testing.T, robotsFile, logFile string, opts DNSOptions) *Result {
	t.Helper()
	res, err := Run(context.Background(), Config{Robots: robotsFile, Profile: robots.RFC9309, DNS: opts}, []string{logFile})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Close() })
	return res
}

// warningsWith returns how many of res's warnings contain s.
func warningsWith(res *Result, s string) int {
	n := 0
	for _, w := range res.Warnings {
		if strings.Contains(w, s) {
			n++
		}
	}
	return n
}

// TestAuditIdentityLiveDNS: --rdns against a DNS server on 127.0.0.1 that
// confirms YandexBot's address, fails (SERVFAIL) for the spoofed Googlebot's
// and has no PTR for the other; the answers go into the cache, and a second
// audit with the cache alone gives the same identities with no query. The
// server names three of the four crawler addresses the ranges prove: a
// majority, so it passes its check.
func TestAuditIdentityLiveDNS(t *testing.T) {
	var queries atomic.Int64
	forward := knownForward()
	server := serveDNS(t, func(w dns.ResponseWriter, r *dns.Msg) {
		queries.Add(1)
		m := new(dns.Msg)
		m.SetReply(r)
		q := r.Question[0]
		switch {
		case q.Qtype == dns.TypePTR && knownNames[q.Name] != "":
			rr, _ := dns.NewRR(q.Name + " 60 IN PTR " + knownNames[q.Name])
			m.Answer = append(m.Answer, rr)
		case q.Qtype == dns.TypeA && forward[q.Name] != "":
			rr, _ := dns.NewRR(q.Name + " 60 IN A " + forward[q.Name])
			m.Answer = append(m.Answer, rr)
		case q.Qtype == dns.TypePTR && q.Name == "104.253.255.5.in-addr.arpa.":
			rr, _ := dns.NewRR("104.253.255.5.in-addr.arpa. 60 IN PTR 5-255-253-104.spider.yandex.com.")
			m.Answer = append(m.Answer, rr)
		case q.Qtype == dns.TypeA && q.Name == "5-255-253-104.spider.yandex.com.":
			rr, _ := dns.NewRR("5-255-253-104.spider.yandex.com. 60 IN A 5.255.253.104")
			m.Answer = append(m.Answer, rr)
		case q.Qtype == dns.TypePTR && q.Name == "7.2.0.192.in-addr.arpa.":
			m.Rcode = dns.RcodeServerFailure
		default:
			m.Rcode = dns.RcodeNameError
		}
		w.WriteMsg(m)
	})

	robotsFile, logFile := writeIdentityScenario(t)
	cachePath := filepath.Join(t.TempDir(), "rdns.jsonl")
	var lastStats DNSStats
	run := func(live bool, server string) map[string]identityRow {
		t.Helper()
		res := auditDNS(t, robotsFile, logFile,
			DNSOptions{Live: live, CachePath: cachePath, Resolver: &rdns.Resolver{Server: server, Timeout: time.Second, Concurrency: 2}})
		lastStats, _ = res.Summary.Verification.DNS.(DNSStats)
		return identityRows(&res.Summary)
	}
	got := run(true, server)
	if queries.Load() == 0 {
		t.Fatal("no DNS query was made with --rdns")
	}
	check := func(got map[string]identityRow) {
		t.Helper()
		if _, ok := got["YandexBot/verified"]; !ok {
			t.Errorf("YandexBot not verified by its forward-confirmed PTR: %v", got)
		}
		// 192.0.2.7: SERVFAIL makes its requests unverified, never
		// spoofed; 2001:db8::66 has no PTR (NXDOMAIN): spoofed stays.
		if g := got["Googlebot/unverified"]; g.requests != 2 {
			t.Errorf("Googlebot/unverified = %+v, want the 2 requests of the address DNS failed for", g)
		}
		if g := got["Googlebot/spoofed"]; g.requests != 1 {
			t.Errorf("Googlebot/spoofed = %+v, want the 1 request from the address without PTR", g)
		}
	}
	check(got)
	if h := lastStats.Resolver; h == nil || !h.OK() || h.Probes != 4 || h.Confirmed != 3 {
		t.Errorf("resolver check = %+v, want ok with 3 of 4 confirmed", h)
	}
	n := queries.Load()
	// The cache alone, the server out of reach: the same answers, no query.
	got = run(false, "127.0.0.1:9")
	if queries.Load() != n {
		t.Errorf("%d queries without --rdns", queries.Load()-n)
	}
	// The SERVFAIL is a failure, kept but no evidence: still unverified.
	check(got)
}

// TestAuditIdentityFailingResolver: a resolver that names one of the four
// range-verified crawler addresses and says NXDOMAIN for everything else is
// failing (a minority confirmed): none of its answers is used, the
// identities are those of the audit without reverse DNS, and one warning
// says why.
func TestAuditIdentityFailingResolver(t *testing.T) {
	var queries atomic.Int64
	server := serveDNS(t, func(w dns.ResponseWriter, r *dns.Msg) {
		queries.Add(1)
		m := new(dns.Msg)
		m.SetReply(r)
		q := r.Question[0]
		switch {
		case q.Qtype == dns.TypePTR && q.Name == "1.66.249.66.in-addr.arpa.":
			rr, _ := dns.NewRR(q.Name + " 60 IN PTR crawl-66-249-66-1.googlebot.com.")
			m.Answer = append(m.Answer, rr)
		case q.Qtype == dns.TypeA && q.Name == "crawl-66-249-66-1.googlebot.com.":
			rr, _ := dns.NewRR(q.Name + " 60 IN A 66.249.66.1")
			m.Answer = append(m.Answer, rr)
		default:
			m.Rcode = dns.RcodeNameError
		}
		w.WriteMsg(m)
	})

	robotsFile, logFile := writeIdentityScenario(t)
	cachePath := filepath.Join(t.TempDir(), "rdns.jsonl")
	res := auditDNS(t, robotsFile, logFile,
		DNSOptions{Live: true, CachePath: cachePath, Resolver: &rdns.Resolver{Server: server, Timeout: time.Second}})
	got := identityRows(&res.Summary)
	if g := got["Googlebot/spoofed"]; g.requests != 3 {
		t.Errorf("Googlebot/spoofed = %+v, want the 3 requests the ranges call spoofed", g)
	}
	if g, ok := got["YandexBot/unverified"]; !ok || g.requests != 1 {
		t.Errorf("YandexBot = %v: the failing resolver's NXDOMAIN must not make it spoofed", got)
	}
	if w := map[string]int64{"verified": 5, "spoofed": 4, "unverified": 3}; !equalCounts(res.Summary.Verification.Identities, w) {
		t.Errorf("identities = %v, want those of the audit without reverse DNS %v", res.Summary.Verification.Identities, w)
	}
	st, _ := res.Summary.Verification.DNS.(DNSStats)
	if h := st.Resolver; h == nil || h.OK() || h.Confirmed != 1 || h.Probes != 4 ||
		!strings.Contains(h.Reason, "it confirmed 1 of 4 addresses whose names are known") {
		t.Errorf("resolver check = %+v, want failing with 1 of 4 confirmed", st.Resolver)
	}
	if st.Queried != 0 || st.Changed != 0 || st.NotAsked != 4 {
		t.Errorf("stats = %+v: the failing resolver was asked, or changed an identity", st)
	}
	if n := warningsWith(res, "failed its check"); n != 1 {
		t.Errorf("warnings %q, want one about the resolver", res.Warnings)
	}
	// PTR of each of the 4 probes, and the A and AAAA of the one named.
	if n := queries.Load(); n != 6 {
		t.Errorf("%d queries, want the 6 of the check", n)
	}
}

// TestAuditIdentityUnvouchedCache: a cache kept by a version without the
// resolver check, whose NXDOMAIN for YandexBot's address may come from a
// resolver that said NXDOMAIN to everything, makes nothing spoofed, with
// the cache alone or with a resolver that fails its check; the same answer
// vouched for by a check does.
func TestAuditIdentityUnvouchedCache(t *testing.T) {
	robotsFile, logFile := writeIdentityScenario(t)
	yandex := netip.MustParseAddr("5.255.253.104")
	asked := time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name    string
		checked bool
		live    bool
		want    string
	}{
		{"unvouched, cache alone", false, false, "YandexBot/unverified"},
		{"unvouched, failing resolver", false, true, "YandexBot/unverified"},
		{"vouched, cache alone", true, false, "YandexBot/spoofed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cachePath := filepath.Join(t.TempDir(), "rdns.jsonl")
			cache, err := rdns.LoadCache(cachePath)
			if err != nil {
				t.Fatal(err)
			}
			cache.Put(rdns.Answer{Addr: yandex, Err: rdns.ErrNXDomain, Time: asked, Checked: c.checked})
			if err := cache.Save(); err != nil {
				t.Fatal(err)
			}
			// A closed port: the resolver check fails.
			res := auditDNS(t, robotsFile, logFile,
				DNSOptions{Live: c.live, CachePath: cachePath, Resolver: &rdns.Resolver{Server: "127.0.0.1:9", Timeout: 100 * time.Millisecond}})
			got := identityRows(&res.Summary)
			if g, ok := got[c.want]; !ok || g.requests != 1 {
				t.Errorf("rows %v, want %s", got, c.want)
			}
			if g := got["Googlebot/spoofed"]; g.requests != 3 {
				t.Errorf("Googlebot/spoofed = %+v, want the 3 requests the ranges call spoofed", g)
			}
		})
	}
}

// TestAuditIdentityDNSBudget: a resolver that passes its check and then
// takes longer than the run's DNS time budget: the lookups it cut short
// are missing data (unverified, never spoofed), counted, and one warning
// says how to get them.
func TestAuditIdentityDNSBudget(t *testing.T) {
	stop := make(chan struct{})
	googleV6Rev, _ := dns.ReverseAddr("2001:4860:4801:2::5a")
	forward := knownForward()
	server := serveDNS(t, func(w dns.ResponseWriter, r *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(r)
		q := r.Question[0]
		switch {
		case q.Qtype == dns.TypePTR && knownNames[q.Name] != "":
			rr, _ := dns.NewRR(q.Name + " 60 IN PTR " + knownNames[q.Name])
			m.Answer = append(m.Answer, rr)
		case q.Name == googleV6Rev:
			m.Rcode = dns.RcodeNameError // the fourth probe: no name, at once
		case strings.HasSuffix(q.Name, ".googlebot.com.") || strings.HasSuffix(q.Name, ".search.msn.com."):
			if q.Qtype == dns.TypeA && forward[q.Name] != "" {
				rr, _ := dns.NewRR(q.Name + " 60 IN A " + forward[q.Name])
				m.Answer = append(m.Answer, rr)
			}
		default:
			// Every other address: an answer that would refute, too late.
			select {
			case <-time.After(3 * time.Second):
			case <-stop:
				return
			}
			m.Rcode = dns.RcodeNameError
		}
		w.WriteMsg(m)
	})
	defer close(stop)

	robotsFile, logFile := writeIdentityScenario(t)
	start := time.Now()
	res := auditDNS(t, robotsFile, logFile,
		DNSOptions{Live: true, Resolver: &rdns.Resolver{Server: server, Timeout: 5 * time.Second, Budget: 400 * time.Millisecond}})
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the audit took %v with a DNS budget of 400ms", d)
	}
	got := identityRows(&res.Summary)
	if g, ok := got["YandexBot/unverified"]; !ok || g.requests != 1 {
		t.Errorf("YandexBot = %v: a lookup over the budget must leave it unverified", got)
	}
	if _, ok := got["YandexBot/spoofed"]; ok {
		t.Errorf("YandexBot spoofed by a lookup over the budget: %v", got)
	}
	st, _ := res.Summary.Verification.DNS.(DNSStats)
	if st.Resolver == nil || !st.Resolver.OK() || st.OverBudget == 0 || st.OverBudget != st.Queried {
		t.Errorf("stats = %+v, want an ok resolver and every lookup over budget", st)
	}
	if n := warningsWith(res, "within the DNS time budget of 400ms"); n != 1 {
		t.Errorf("warnings %q, want one about the budget", res.Warnings)
	}
}

// TestAuditIdentityWellKnownProbes: logs without a crawler address that a
// published range list proves (YandexBot alone) check the resolver with the
// well-known public addresses; a resolver that names them is trusted, and
// its answer verifies YandexBot.
func TestAuditIdentityWellKnownProbes(t *testing.T) {
	zone := map[string]string{}
	for _, p := range rdns.WellKnown()[:3] {
		rev, _ := dns.ReverseAddr(p.Addr.String())
		zone[rev+"/PTR"] = p.Domains[0] + "."
		zone[p.Domains[0]+"./A"] = p.Addr.String()
	}
	zone["104.253.255.5.in-addr.arpa./PTR"] = "5-255-253-104.spider.yandex.com."
	zone["5-255-253-104.spider.yandex.com./A"] = "5.255.253.104"
	server := serveDNS(t, func(w dns.ResponseWriter, r *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(r)
		q := r.Question[0]
		if v, ok := zone[q.Name+"/"+dns.TypeToString[q.Qtype]]; ok {
			rr, _ := dns.NewRR(q.Name + " 60 IN " + dns.TypeToString[q.Qtype] + " " + v)
			m.Answer = append(m.Answer, rr)
		} else if q.Qtype != dns.TypeAAAA {
			m.Rcode = dns.RcodeNameError
		}
		w.WriteMsg(m)
	})

	dir := t.TempDir()
	robotsFile, logFile := filepath.Join(dir, "robots.txt"), filepath.Join(dir, "access.log")
	if err := os.WriteFile(robotsFile, []byte(identityRobots), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logFile, []byte(line("5.255.253.104", "05/Oct/2026:09:00:00 +0000", "/private/y", uaYandex)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := auditDNS(t, robotsFile, logFile, DNSOptions{Live: true, Resolver: &rdns.Resolver{Server: server, Timeout: time.Second}})
	if _, ok := identityRows(&res.Summary)["YandexBot/verified"]; !ok {
		t.Errorf("YandexBot not verified: %v", identityRows(&res.Summary))
	}
	st, _ := res.Summary.Verification.DNS.(DNSStats)
	if h := st.Resolver; h == nil || !h.OK() || h.Probes != 3 || h.Confirmed != 3 {
		t.Errorf("resolver check = %+v, want ok with the 3 well-known addresses confirmed", st.Resolver)
	}
}
