//go:build duckdb_arrow

package audit

import (
	"context"
	"net"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/verify/rdns"
)

// TestAuditIdentityLiveDNS: --rdns against a DNS server on 127.0.0.1 that
// confirms YandexBot's address, fails (SERVFAIL) for the spoofed Googlebot's
// and has no PTR for the other; the answers go into the cache, and a second
// audit with the cache alone gives the same identities with no query.
func TestAuditIdentityLiveDNS(t *testing.T) {
	var queries atomic.Int64
	mux := dns.NewServeMux()
	mux.HandleFunc(".", func(w dns.ResponseWriter, r *dns.Msg) {
		queries.Add(1)
		m := new(dns.Msg)
		m.SetReply(r)
		q := r.Question[0]
		switch {
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
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &dns.Server{PacketConn: pc, Handler: mux}
	go srv.ActivateAndServe()
	defer srv.Shutdown()

	robotsFile, logFile := writeIdentityScenario(t)
	cachePath := filepath.Join(t.TempDir(), "rdns.jsonl")
	run := func(live bool, server string) map[string]identityRow {
		t.Helper()
		res, err := Run(context.Background(), Config{Robots: robotsFile, Profile: robots.RFC9309,
			DNS: DNSOptions{Live: live, CachePath: cachePath, Resolver: &rdns.Resolver{Server: server, Timeout: time.Second, Concurrency: 2}}},
			[]string{logFile})
		if err != nil {
			t.Fatal(err)
		}
		defer res.Close()
		return identityRows(&res.Summary)
	}
	got := run(true, pc.LocalAddr().String())
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
	n := queries.Load()
	// The cache alone, the server out of reach: the same answers, no query.
	got = run(false, "127.0.0.1:9")
	if queries.Load() != n {
		t.Errorf("%d queries without --rdns", queries.Load()-n)
	}
	// The SERVFAIL is a failure, kept but no evidence: still unverified.
	check(got)
}
