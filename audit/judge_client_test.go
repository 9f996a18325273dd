package audit

import (
	"net/netip"
	"testing"
)

func TestClientBehindProxies(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8:ffff::/48")}
	for _, c := range []struct {
		name, remote, fwd string
		trusted           []netip.Prefix
		want              string
		ok                bool
	}{
		{"no trusted proxies: the chain is never read", "10.0.0.5", "66.249.66.1", nil, "10.0.0.5", false},
		{"remote not trusted: the chain may be forged", "198.51.100.9", "66.249.66.1", trusted, "198.51.100.9", false},
		{"one trusted hop", "10.0.0.5", "66.249.66.1", trusted, "66.249.66.1", true},
		{"right-most untrusted wins over a forged left part", "10.0.0.5", "66.249.66.1, 203.0.113.7, 10.1.2.3", trusted, "203.0.113.7", true},
		{"spaces and empty elements", "10.0.0.5", " 66.249.66.1 ,, 10.9.9.9 ", trusted, "66.249.66.1", true},
		{"all trusted: the left-most", "10.0.0.5", "10.1.1.1, 10.2.2.2", trusted, "10.1.1.1", true},
		{"ports dropped", "10.0.0.5", "192.0.2.1:443, 10.0.0.1:80", trusted, "192.0.2.1", true},
		{"IPv6 with port", "10.0.0.5", "[2001:db8::1]:443", trusted, "2001:db8::1", true},
		{"IPv4-mapped unmapped", "10.0.0.5", "::ffff:192.0.2.7", trusted, "192.0.2.7", true},
		{"IPv6 proxy", "2001:db8:ffff::1", "2a00:1450::5", trusted, "2a00:1450::5", true},
		{"garbage stops the walk", "10.0.0.5", "66.249.66.1, unknown, 10.0.0.9", trusted, "unknown", true},
		{"empty chain", "10.0.0.5", "", trusted, "10.0.0.5", false},
		{"remote not an address", "proxy.local", "66.249.66.1", trusted, "proxy.local", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := clientBehindProxies(c.remote, c.fwd, c.trusted)
			if got != c.want || ok != c.ok {
				t.Errorf("clientBehindProxies(%q, %q) = %q, %v; want %q, %v", c.remote, c.fwd, got, ok, c.want, c.ok)
			}
		})
	}
}
