package rdns

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// knownZone answers for three crawler addresses whose names are known.
const knownZone = `
1.66.249.66.in-addr.arpa.  PTR crawl-66-249-66-1.googlebot.com.
crawl-66-249-66-1.googlebot.com.  A 66.249.66.1
1.39.55.157.in-addr.arpa.  PTR msnbot-157-55-39-1.search.msn.com.
msnbot-157-55-39-1.search.msn.com.  A 157.55.39.1
104.253.255.5.in-addr.arpa.  PTR 5-255-253-104.spider.yandex.com.
5-255-253-104.spider.yandex.com.  A 5.255.253.104
`

func knownProbes() []Probe {
	return []Probe{
		{Addr: netip.MustParseAddr("66.249.66.1"), Domains: googleDomains, About: "Googlebot"},
		{Addr: netip.MustParseAddr("157.55.39.1"), Domains: bingDomains, About: "bingbot"},
		{Addr: netip.MustParseAddr("5.255.253.104"), Domains: []string{"yandex.com"}, About: "YandexBot"},
	}
}

func TestCheckHealth(t *testing.T) {
	// A UDP port with nothing behind it: ICMP port unreachable, or a
	// timeout, whichever the system gives.
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := pc.LocalAddr().String()
	pc.Close()

	tests := []struct {
		name      string
		zone      string
		misbehave map[string]string
		server    string // "" : the test server
		probes    []Probe
		wantOK    bool
		confirmed int
		reason    string // a part of the reason
	}{
		{"Answers", knownZone, nil, "", knownProbes(), true, 3, ""},
		{"NXDOMAINForAll", "", nil, "", knownProbes(), false, 0, "NXDOMAIN for all 3 addresses whose names are known, such as 66.249.66.1 (Googlebot)"},
		{"SERVFAILForAll", knownZone, map[string]string{"*": "servfail"}, "", knownProbes(), false, 0, "SERVFAIL for all 3"},
		{"REFUSEDForAll", knownZone, map[string]string{"*": "refused"}, "", knownProbes(), false, 0, "REFUSED for all 3"},
		{"NoReply", knownZone, map[string]string{"*": "timeout"}, "", knownProbes(), false, 0, "no answer in time for all 3"},
		{"NothingListens", "", nil, closed, knownProbes(), false, 0, " for all 3 addresses"},
		// One of three answered: a partly failing resolver is failing.
		{"OneOfThree", knownZone, map[string]string{"1.39.55.157.in-addr.arpa": "servfail", "104.253.255.5.in-addr.arpa": "timeout"},
			"", knownProbes(), false, 1, "it confirmed 1 of 3 addresses whose names are known: 157.55.39.1 (bingbot): SERVFAIL; 5.255.253.104 (YandexBot): no answer in time"},
		// Two of three: a majority, the resolver is trusted.
		{"TwoOfThree", knownZone, map[string]string{"1.39.55.157.in-addr.arpa": "servfail"}, "", knownProbes(), true, 2, ""},
		// A resolver that gives every address the same wrong name.
		{"WrongName", "1.66.249.66.in-addr.arpa. PTR host.example.net.\nhost.example.net. A 66.249.66.1", nil, "",
			knownProbes()[:1], false, 0, "PTR host.example.net, expected under googlebot.com"},
		{"ForwardFails", knownZone, map[string]string{"crawl-66-249-66-1.googlebot.com": "servfail"}, "",
			knownProbes()[:1], false, 0, "SERVFAIL resolving crawl-66-249-66-1.googlebot.com for the one address whose name is known, 66.249.66.1 (Googlebot)"},
		{"NoProbes", knownZone, nil, "", nil, false, 0, "no address whose name is known"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newTestServer(t, tt.zone, tt.misbehave, 0)
			r := srv.resolver(150*time.Millisecond, 4)
			if tt.server != "" {
				r.Server = tt.server
			}
			start := time.Now()
			h := r.CheckHealth(context.Background(), tt.probes)
			if d := time.Since(start); d > r.probeTimeout()+200*time.Millisecond {
				t.Errorf("CheckHealth took %v, more than its bound %v", d, r.probeTimeout())
			}
			if h.OK() != tt.wantOK || h.Confirmed != tt.confirmed || h.Probes != len(tt.probes) {
				t.Errorf("Health = %+v, want ok %v with %d of %d confirmed", h, tt.wantOK, tt.confirmed, len(tt.probes))
			}
			if h.Server != r.Server {
				t.Errorf("Server = %q, want %q", h.Server, r.Server)
			}
			if tt.wantOK && h.Reason != "" || !tt.wantOK && !strings.Contains(h.Reason, tt.reason) {
				t.Errorf("Reason = %q, want it to contain %q", h.Reason, tt.reason)
			}
			// The answers of a resolver that passed are vouched for, of
			// one that failed not.
			if a := r.Lookup(context.Background(), netip.MustParseAddr("192.0.2.1")); a.Checked != tt.wantOK || a.Unvouched() == tt.wantOK && a.Err == ErrNXDomain {
				t.Errorf("after the check: answer %+v, want Checked %v", a, tt.wantOK)
			}
		})
	}
}

func TestWellKnown(t *testing.T) {
	w := WellKnown()
	if len(w) < 3 {
		t.Fatalf("%d well-known addresses, want at least 3", len(w))
	}
	for _, p := range w {
		if !p.Addr.IsValid() || !p.Addr.IsGlobalUnicast() || p.Addr.IsPrivate() || len(p.Domains) != 1 || p.About == "" {
			t.Errorf("bad well-known probe %+v", p)
		}
	}
}

func TestParseServer(t *testing.T) {
	tests := []struct {
		in, want string // want "" : an error
	}{
		{"127.0.0.1:5353", "127.0.0.1:5353"},
		{"8.8.8.8", "8.8.8.8:53"},
		{" 8.8.8.8 ", "8.8.8.8:53"},
		{"::1", "[::1]:53"},
		{"[::1]", "[::1]:53"},
		{"[2001:db8::53]:5300", "[2001:db8::53]:5300"},
		{"dns.example.net", "dns.example.net:53"},
		{"localhost:5353", "localhost:5353"},
		{"", ""},
		{"127.0.0.1:0", ""},
		{"127.0.0.1:65536", ""},
		{"127.0.0.1:dns", ""},
		{"127.0.0.1:", ""},
		{"1.2.3", ""},
		{"300.1.1.1", ""},
		{"udp://8.8.8.8", ""},
		{"8.8.8.8:53:53", ""},
		{"dns server", ""},
		{"a/b:53", ""},
	}
	for _, tt := range tests {
		got, err := ParseServer(tt.in)
		if tt.want == "" {
			if err == nil {
				t.Errorf("ParseServer(%q) = %q, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseServer(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
