package rdns

import (
	"context"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"
)

// googleDomains and bingDomains are the domains the operators document for
// verifying their crawlers.
var (
	googleDomains = []string{"googlebot.com", "google.com", "googleusercontent.com"}
	bingDomains   = []string{"search.msn.com"}
)

// zone is served by the test server for the lookup tests.
const zone = `
; Googlebot, confirmed both ways
1.66.249.66.in-addr.arpa.  PTR crawl-66-249-66-1.googlebot.com.
crawl-66-249-66-1.googlebot.com.  A 66.249.66.1
; IPv6 Googlebot
1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.0.0.2.1.0.8.4.0.6.8.4.1.0.0.2.ip6.arpa. PTR crawl-2001-4860-4801-2008--1.googlebot.com.
crawl-2001-4860-4801-2008--1.googlebot.com. AAAA 2001:4860:4801:2008::1
; a home connection claiming to be Googlebot
215.188.37.177.in-addr.arpa. PTR host-177-37-188-215.example-isp.net.br.
host-177-37-188-215.example-isp.net.br. A 177.37.188.215
; look-alike domains, each resolving back to its address
1.113.0.203.in-addr.arpa. PTR crawl-66-249-66-1.googlebot.com.evil.net.
crawl-66-249-66-1.googlebot.com.evil.net. A 203.0.113.1
2.113.0.203.in-addr.arpa. PTR evilgooglebot.com.
evilgooglebot.com. A 203.0.113.2
; a PTR under the domain that resolves elsewhere
2.66.249.66.in-addr.arpa.  PTR crawl-66-249-66-2.googlebot.com.
crawl-66-249-66-2.googlebot.com.  A 66.249.66.99
; a PTR under the domain that does not exist forward
3.66.249.66.in-addr.arpa.  PTR crawl-66-249-66-3.googlebot.com.
; 66.249.66.4 has no PTR: NXDOMAIN
; several names: an ISP's and Google's
8.66.249.66.in-addr.arpa.  PTR host-8.example-isp.net.
8.66.249.66.in-addr.arpa.  PTR crawl-66-249-66-8.googlebot.com.
host-8.example-isp.net.  A 66.249.66.8
crawl-66-249-66-8.googlebot.com.  A 66.249.66.8
; two names under the domain, the first (sorted) resolving elsewhere
9.66.249.66.in-addr.arpa.  PTR a-crawl-66-249-66-9.googlebot.com.
9.66.249.66.in-addr.arpa.  PTR b-crawl-66-249-66-9.googlebot.com.
a-crawl-66-249-66-9.googlebot.com.  A 66.249.66.99
b-crawl-66-249-66-9.googlebot.com.  A 66.249.66.9
; a forward lookup that times out, one that fails
10.66.249.66.in-addr.arpa.  PTR crawl-66-249-66-10.googlebot.com.
13.66.249.66.in-addr.arpa.  PTR crawl-66-249-66-13.googlebot.com.
; upper case in the PTR
11.66.249.66.in-addr.arpa.  PTR Crawl-66-249-66-11.GoogleBot.COM.
crawl-66-249-66-11.googlebot.com.  A 66.249.66.11
; a reverse name with no PTR (NOERROR, no data)
12.66.249.66.in-addr.arpa.  TXT "no ptr here"
; RFC 2317 classless delegation: a CNAME before the PTR
5.2.0.192.in-addr.arpa.  CNAME 5.0-25.2.0.192.in-addr.arpa.
5.0-25.2.0.192.in-addr.arpa.  PTR crawl-192-0-2-5.googlebot.com.
crawl-192-0-2-5.googlebot.com.  A 192.0.2.5
; a CNAME loop on the reverse name, a chain of 10 links, a chain that stops
; at a name that has no record, one under a negative answer, and a loop on
; the forward name
30.66.249.66.in-addr.arpa.  CNAME loop-a.example.
loop-a.example.  CNAME loop-b.example.
loop-b.example.  CNAME 30.66.249.66.in-addr.arpa.
31.66.249.66.in-addr.arpa.  CNAME c1.example.
c1.example.  CNAME c2.example.
c2.example.  CNAME c3.example.
c3.example.  CNAME c4.example.
c4.example.  CNAME c5.example.
c5.example.  CNAME c6.example.
c6.example.  CNAME c7.example.
c7.example.  CNAME c8.example.
c8.example.  CNAME c9.example.
c9.example.  CNAME c10.example.
c10.example.  PTR crawl-66-249-66-31.googlebot.com.
crawl-66-249-66-31.googlebot.com.  A 66.249.66.31
32.66.249.66.in-addr.arpa.  CNAME gone.example.
33.66.249.66.in-addr.arpa.  PTR crawl-66-249-66-33.googlebot.com.
crawl-66-249-66-33.googlebot.com.  CNAME crawl-66-249-66-33.googlebot.com.
; Bingbot
1.39.55.157.in-addr.arpa.  PTR msnbot-157-55-39-1.search.msn.com.
msnbot-157-55-39-1.search.msn.com.  A 157.55.39.1
; a name with both A and AAAA, asked from its IPv6 address
2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.0.0.2.1.0.8.4.0.6.8.4.1.0.0.2.ip6.arpa. PTR crawl-dual.googlebot.com.
crawl-dual.googlebot.com. A 66.249.66.77
crawl-dual.googlebot.com. AAAA 2001:4860:4801:2008::2
`

var misbehave = map[string]string{
	"5.66.249.66.in-addr.arpa.":        "timeout",
	"6.66.249.66.in-addr.arpa.":        "servfail",
	"7.66.249.66.in-addr.arpa.":        "refused",
	"crawl-66-249-66-10.googlebot.com": "timeout",
	"crawl-66-249-66-13.googlebot.com": "servfail",
}

// clientTimeout is the per-query timeout of the lookup tests; the test
// server's "timeout" handlers sleep past it (2 s, or until the server
// stops).
const clientTimeout = 200 * time.Millisecond

func TestLookupCheck(t *testing.T) {
	srv := newTestServer(t, zone, misbehave, 0)
	r := srv.resolver(clientTimeout, 4)
	tests := []struct {
		name     string
		addr     string
		domains  []string
		want     Outcome
		wantName string
		wantErr  string
		wantPTR  []string
	}{
		{"GooglebotConfirmed", "66.249.66.1", googleDomains, Confirmed,
			"crawl-66-249-66-1.googlebot.com", "", []string{"crawl-66-249-66-1.googlebot.com"}},
		{"IPv4MappedUnmapped", "::ffff:66.249.66.1", googleDomains, Confirmed,
			"crawl-66-249-66-1.googlebot.com", "", []string{"crawl-66-249-66-1.googlebot.com"}},
		{"IPv6Confirmed", "2001:4860:4801:2008::1", googleDomains, Confirmed,
			"crawl-2001-4860-4801-2008--1.googlebot.com", "", []string{"crawl-2001-4860-4801-2008--1.googlebot.com"}},
		{"IPv6WithAAndAAAA", "2001:4860:4801:2008::2", googleDomains, Confirmed,
			"crawl-dual.googlebot.com", "", []string{"crawl-dual.googlebot.com"}},
		{"PTROutsideDomains", "177.37.188.215", googleDomains, Refuted,
			"host-177-37-188-215.example-isp.net.br", "", []string{"host-177-37-188-215.example-isp.net.br"}},
		{"LookAlikeSuffix", "203.0.113.1", googleDomains, Refuted,
			"crawl-66-249-66-1.googlebot.com.evil.net", "", []string{"crawl-66-249-66-1.googlebot.com.evil.net"}},
		{"LookAlikeNoDot", "203.0.113.2", googleDomains, Refuted,
			"evilgooglebot.com", "", []string{"evilgooglebot.com"}},
		{"ForwardElsewhere", "66.249.66.2", googleDomains, Refuted,
			"crawl-66-249-66-2.googlebot.com", "", []string{"crawl-66-249-66-2.googlebot.com"}},
		{"ForwardNXDOMAIN", "66.249.66.3", googleDomains, Refuted,
			"crawl-66-249-66-3.googlebot.com", "", []string{"crawl-66-249-66-3.googlebot.com"}},
		{"PTRNXDOMAIN", "66.249.66.4", googleDomains, Refuted, "", "nxdomain", nil},
		{"PTRNoData", "66.249.66.12", googleDomains, Refuted, "", "", nil},
		{"PTRTimeout", "66.249.66.5", googleDomains, Failed, "", "timeout", nil},
		{"PTRSERVFAIL", "66.249.66.6", googleDomains, Failed, "", "servfail", nil},
		{"PTRREFUSED", "66.249.66.7", googleDomains, Failed, "", "refused", nil},
		{"ForwardTimeout", "66.249.66.10", googleDomains, Failed,
			"crawl-66-249-66-10.googlebot.com", "timeout", []string{"crawl-66-249-66-10.googlebot.com"}},
		{"ForwardSERVFAIL", "66.249.66.13", googleDomains, Failed,
			"crawl-66-249-66-13.googlebot.com", "servfail", []string{"crawl-66-249-66-13.googlebot.com"}},
		{"SeveralNamesOneUnderDomain", "66.249.66.8", googleDomains, Confirmed,
			"crawl-66-249-66-8.googlebot.com", "", []string{"crawl-66-249-66-8.googlebot.com", "host-8.example-isp.net"}},
		{"SeveralNamesSecondConfirms", "66.249.66.9", googleDomains, Confirmed,
			"b-crawl-66-249-66-9.googlebot.com", "", []string{"a-crawl-66-249-66-9.googlebot.com", "b-crawl-66-249-66-9.googlebot.com"}},
		{"SeveralNamesNoneUnderBing", "66.249.66.8", bingDomains, Refuted,
			"crawl-66-249-66-8.googlebot.com", "", []string{"crawl-66-249-66-8.googlebot.com", "host-8.example-isp.net"}},
		{"UpperCasePTR", "66.249.66.11", googleDomains, Confirmed,
			"crawl-66-249-66-11.googlebot.com", "", []string{"crawl-66-249-66-11.googlebot.com"}},
		{"ClasslessCNAME", "192.0.2.5", googleDomains, Confirmed,
			"crawl-192-0-2-5.googlebot.com", "", []string{"crawl-192-0-2-5.googlebot.com"}},
		{"PTRCNAMELoop", "66.249.66.30", googleDomains, Failed, "", "cname loop", nil},
		{"PTRCNAMEChainTooLong", "66.249.66.31", googleDomains, Failed, "", "cname chain too long", nil},
		{"PTRCNAMEUnresolved", "66.249.66.32", googleDomains, Failed, "", "cname chain unresolved", nil},
		{"ForwardCNAMELoop", "66.249.66.33", googleDomains, Failed,
			"crawl-66-249-66-33.googlebot.com", "cname loop", []string{"crawl-66-249-66-33.googlebot.com"}},
		{"BingbotConfirmed", "157.55.39.1", bingDomains, Confirmed,
			"msnbot-157-55-39-1.search.msn.com", "", []string{"msnbot-157-55-39-1.search.msn.com"}},
		{"BingbotClaimingGoogle", "157.55.39.1", googleDomains, Refuted,
			"msnbot-157-55-39-1.search.msn.com", "", []string{"msnbot-157-55-39-1.search.msn.com"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr := netip.MustParseAddr(tt.addr)
			start := time.Now()
			a := r.Lookup(context.Background(), addr)
			if d := time.Since(start); d > 5*clientTimeout {
				t.Errorf("Lookup took %v, more than 5 query timeouts", d)
			}
			if a.Addr != addr.Unmap() {
				t.Errorf("Addr = %v, want %v", a.Addr, addr.Unmap())
			}
			if a.Err != tt.wantErr {
				t.Errorf("Err = %q, want %q", a.Err, tt.wantErr)
			}
			if !slices.Equal(a.Names, tt.wantPTR) {
				t.Errorf("Names = %q, want %q", a.Names, tt.wantPTR)
			}
			if want := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC); !a.Time.Equal(want) {
				t.Errorf("Time = %v, want %v", a.Time, want)
			}
			o, name := a.Check(tt.domains)
			if o != tt.want || name != tt.wantName {
				t.Errorf("Check = %v %q, want %v %q (answer %+v)", o, name, tt.want, tt.wantName, a)
			}
		})
	}
}

// TestLookupForward pins what the forward part of an answer holds: a name
// answered with no address has an empty list, a failed one is absent.
func TestLookupForward(t *testing.T) {
	srv := newTestServer(t, zone, misbehave, 0)
	r := srv.resolver(clientTimeout, 4)
	tests := []struct {
		addr string
		want map[string][]netip.Addr
	}{
		{"66.249.66.1", map[string][]netip.Addr{"crawl-66-249-66-1.googlebot.com": {netip.MustParseAddr("66.249.66.1")}}},
		{"2001:4860:4801:2008::2", map[string][]netip.Addr{"crawl-dual.googlebot.com": {
			netip.MustParseAddr("66.249.66.77"), netip.MustParseAddr("2001:4860:4801:2008::2")}}},
		{"66.249.66.3", map[string][]netip.Addr{"crawl-66-249-66-3.googlebot.com": {}}},
		{"66.249.66.10", nil}, // the only forward lookup timed out
		{"66.249.66.4", nil},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			a := r.Lookup(context.Background(), netip.MustParseAddr(tt.addr))
			if (a.Forward == nil) != (tt.want == nil) || len(a.Forward) != len(tt.want) {
				t.Fatalf("Forward = %v, want %v", a.Forward, tt.want)
			}
			for n, w := range tt.want {
				got, ok := a.Forward[n]
				if !ok || !slices.Equal(got, w) {
					t.Errorf("Forward[%q] = %v (present %v), want %v", n, got, ok, w)
				}
			}
		})
	}
}

// TestLookupTimeoutBounded: a server that never answers costs one query
// timeout, not the server's sleep.
func TestLookupTimeoutBounded(t *testing.T) {
	srv := newTestServer(t, zone, misbehave, 0)
	r := srv.resolver(100*time.Millisecond, 1)
	start := time.Now()
	a := r.Lookup(context.Background(), netip.MustParseAddr("66.249.66.5"))
	d := time.Since(start)
	if a.Err != ErrTimeout {
		t.Errorf("Err = %q, want timeout", a.Err)
	}
	if d < 100*time.Millisecond || d > time.Second {
		t.Errorf("Lookup took %v, want about the 100ms timeout", d)
	}
	if got := srv.queries.Load(); got != 1 {
		t.Errorf("queries = %d, want 1 (no retry)", got)
	}
}

func TestLookupCanceled(t *testing.T) {
	srv := newTestServer(t, zone, misbehave, 0)
	r := srv.resolver(clientTimeout, 1)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a := r.Lookup(ctx, netip.MustParseAddr("66.249.66.1"))
	if a.Err != ErrCanceled {
		t.Errorf("canceled before: Err = %q, want canceled", a.Err)
	}
	if got := srv.queries.Load(); got != 0 {
		t.Errorf("canceled before: queries = %d, want 0", got)
	}
	if o, _ := a.Check(googleDomains); o != Failed {
		t.Errorf("canceled before: Check = %v, want failed", o)
	}

	// Cancelled while the server sleeps: the wait ends at once, not at the
	// query timeout.
	r = srv.resolver(10*time.Second, 1)
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	a = r.Lookup(ctx, netip.MustParseAddr("66.249.66.5"))
	if d := time.Since(start); d > time.Second {
		t.Errorf("canceled during: Lookup took %v", d)
	}
	if a.Err != ErrCanceled {
		t.Errorf("canceled during: Err = %q, want canceled", a.Err)
	}
}

func TestLookupNoServer(t *testing.T) {
	// A closed port on 127.0.0.1: the query fails (ICMP port unreachable
	// or a timeout), never a refutation.
	srv := newTestServer(t, "", nil, 0)
	r := &Resolver{Server: "127.0.0.1:1", Timeout: clientTimeout}
	a := r.Lookup(context.Background(), netip.MustParseAddr("66.249.66.1"))
	if a.Err == "" || a.Err == ErrNXDomain {
		t.Errorf("Err = %q, want a failure", a.Err)
	}
	if o, _ := a.Check(googleDomains); o != Failed {
		t.Errorf("Check = %v, want failed", o)
	}
	a = (&Resolver{Server: srv.addr}).Lookup(context.Background(), netip.Addr{})
	if a.Err == "" || srv.queries.Load() != 0 {
		t.Errorf("invalid address: Err = %q, queries %d", a.Err, srv.queries.Load())
	}
}

func TestCheck(t *testing.T) {
	v4 := netip.MustParseAddr("66.249.66.1")
	mapped := netip.MustParseAddr("::ffff:66.249.66.1")
	other := netip.MustParseAddr("66.249.66.99")
	const g = "crawl-66-249-66-1.googlebot.com"
	tests := []struct {
		name     string
		a        Answer
		domains  []string
		want     Outcome
		wantName string
	}{
		{"Confirmed", Answer{Addr: v4, Names: []string{g}, Forward: map[string][]netip.Addr{g: {v4}}}, googleDomains, Confirmed, g},
		{"MappedForward", Answer{Addr: v4, Names: []string{g}, Forward: map[string][]netip.Addr{g: {mapped}}}, googleDomains, Confirmed, g},
		{"MappedAddr", Answer{Addr: mapped, Names: []string{g}, Forward: map[string][]netip.Addr{g: {v4}}}, googleDomains, Confirmed, g},
		{"DomainCaseAndDots", Answer{Addr: v4, Names: []string{g}, Forward: map[string][]netip.Addr{g: {v4}}}, []string{".GoogleBot.COM."}, Confirmed, g},
		{"NameEqualsDomain", Answer{Addr: v4, Names: []string{"googlebot.com"}, Forward: map[string][]netip.Addr{"googlebot.com": {v4}}}, googleDomains, Confirmed, "googlebot.com"},
		{"NameWithTrailingDot", Answer{Addr: v4, Names: []string{g + "."}, Forward: map[string][]netip.Addr{g: {v4}}}, googleDomains, Confirmed, g},
		{"NoDomains", Answer{Addr: v4, Names: []string{g}, Forward: map[string][]netip.Addr{g: {v4}}}, nil, Refuted, g},
		{"EmptyDomainIgnored", Answer{Addr: v4, Names: []string{g}, Forward: map[string][]netip.Addr{g: {v4}}}, []string{"", "."}, Refuted, g},
		{"ForwardElsewhere", Answer{Addr: v4, Names: []string{g}, Forward: map[string][]netip.Addr{g: {other}}}, googleDomains, Refuted, g},
		{"ForwardEmpty", Answer{Addr: v4, Names: []string{g}, Forward: map[string][]netip.Addr{g: {}}}, googleDomains, Refuted, g},
		{"ForwardNotAnswered", Answer{Addr: v4, Names: []string{g}, Err: "timeout"}, googleDomains, Failed, g},
		{"ForwardNotAnsweredOtherConfirms", Answer{Addr: v4, Names: []string{"a.googlebot.com", g},
			Forward: map[string][]netip.Addr{g: {v4}}, Err: "servfail"}, googleDomains, Confirmed, g},
		{"ForwardNotAnsweredOutsideDomains", Answer{Addr: v4, Names: []string{"host.example.net"}, Err: "timeout"}, googleDomains, Refuted, "host.example.net"},
		{"NXDOMAIN", Answer{Addr: v4, Err: "nxdomain"}, googleDomains, Refuted, ""},
		{"NoNames", Answer{Addr: v4}, googleDomains, Refuted, ""},
		{"Timeout", Answer{Addr: v4, Err: "timeout"}, googleDomains, Failed, ""},
		{"SERVFAIL", Answer{Addr: v4, Err: "servfail"}, googleDomains, Failed, ""},
		{"REFUSED", Answer{Addr: v4, Err: "refused"}, googleDomains, Failed, ""},
		{"OtherRcode", Answer{Addr: v4, Err: "notimp"}, googleDomains, Failed, ""},
		{"NetworkError", Answer{Addr: v4, Err: "read udp 127.0.0.1:5353: connection refused"}, googleDomains, Failed, ""},
		{"Zero", Answer{}, googleDomains, Refuted, ""},
		{"LookAlikeSuffix", Answer{Addr: v4, Names: []string{"googlebot.com.evil.net"},
			Forward: map[string][]netip.Addr{"googlebot.com.evil.net": {v4}}}, googleDomains, Refuted, "googlebot.com.evil.net"},
		{"LookAlikeNoDot", Answer{Addr: v4, Names: []string{"evilgooglebot.com"},
			Forward: map[string][]netip.Addr{"evilgooglebot.com": {v4}}}, googleDomains, Refuted, "evilgooglebot.com"},
		{"YandexDomains", Answer{Addr: v4, Names: []string{"spider-1.yandex.com"},
			Forward: map[string][]netip.Addr{"spider-1.yandex.com": {v4}}}, []string{"yandex.ru", "yandex.net", "yandex.com"}, Confirmed, "spider-1.yandex.com"},
		{"AppleSubdomainOnly", Answer{Addr: v4, Names: []string{"17-1.apple.com"},
			Forward: map[string][]netip.Addr{"17-1.apple.com": {v4}}}, []string{"applebot.apple.com"}, Refuted, "17-1.apple.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, name := tt.a.Check(tt.domains)
			if o != tt.want || name != tt.wantName {
				t.Errorf("Check = %v %q, want %v %q", o, name, tt.want, tt.wantName)
			}
			// A negative answer without a name is usable only when a
			// resolver check vouched for it.
			settled := tt.a.Err == "" || tt.a.Err == "nxdomain"
			if tt.a.Usable() != (settled && len(tt.a.Names) > 0) {
				t.Errorf("Usable() = %v with Err %q", tt.a.Usable(), tt.a.Err)
			}
			checked := tt.a
			checked.Checked = true
			if checked.Usable() != settled || checked.Unvouched() {
				t.Errorf("checked: Usable() = %v, Unvouched() = %v with Err %q", checked.Usable(), checked.Unvouched(), tt.a.Err)
			}
			if tt.a.Unvouched() != (settled && len(tt.a.Names) == 0) {
				t.Errorf("Unvouched() = %v with Err %q and names %q", tt.a.Unvouched(), tt.a.Err, tt.a.Names)
			}
		})
	}
}

func TestOutcomeString(t *testing.T) {
	for o, want := range map[Outcome]string{Failed: "failed", Confirmed: "confirmed", Refuted: "refuted", 9: "failed"} {
		if got := o.String(); got != want {
			t.Errorf("Outcome(%d).String() = %q, want %q", o, got, want)
		}
	}
}

// TestLookupManyNames: a PTR set too large for a UDP reply is asked again
// over TCP, and only the first MaxForward names are resolved forward.
func TestLookupManyNames(t *testing.T) {
	var zone strings.Builder
	var names []string
	for i := range 30 {
		name := fmt.Sprintf("crawl-%02d-a-rather-long-label-to-fill-the-packet.googlebot.com", i)
		names = append(names, name)
		fmt.Fprintf(&zone, "20.66.249.66.in-addr.arpa. PTR %s.\n%s. A 66.249.66.20\n", name, name)
	}
	srv := newTestServer(t, zone.String(), nil, 0)
	if !srv.hasTCP {
		t.Skipf("TCP port of %s taken", srv.addr)
	}
	r := srv.resolver(clientTimeout, 1)
	a := r.Lookup(context.Background(), netip.MustParseAddr("66.249.66.20"))
	if a.Err != "" || !slices.Equal(a.Names, names) {
		t.Fatalf("Lookup = %+v, want the 30 names and no error", a)
	}
	if n := srv.tcpQueries.Load(); n != 1 {
		t.Errorf("%d queries over TCP, want 1 (the truncated PTR)", n)
	}
	if len(a.Forward) != MaxForward {
		t.Errorf("%d names resolved forward, want %d", len(a.Forward), MaxForward)
	}
	for _, n := range names[:MaxForward] {
		if _, ok := a.Forward[n]; !ok {
			t.Errorf("%s not resolved forward", n)
		}
	}
	if want := int64(2 + 2*MaxForward); srv.queries.Load() != want {
		t.Errorf("%d queries, want %d (PTR over UDP and TCP, A and AAAA of %d names)", srv.queries.Load(), want, MaxForward)
	}
	if o, name := a.Check(googleDomains); o != Confirmed || name != names[0] {
		t.Errorf("Check = %v %q, want confirmed %q", o, name, names[0])
	}
}
