package audit

import "testing"

func TestCanonicalIP(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"192.0.2.7", "192.0.2.7"},
		{"10.0.0.1", "10.0.0.1"},
		{"2001:db8::2", "2001:db8::2"},
		{"2001:DB8:0:0:0:0:0:2", "2001:db8::2"},
		{"::ffff:192.0.2.7", "192.0.2.7"},
		{"::FFFF:192.0.2.7", "192.0.2.7"},
		{"999.1.1.1", "999.1.1.1"},                 // not an address: kept as logged
		{"010.1.1.1", "010.1.1.1"},                 // leading zeros: netip rejects, kept
		{"crawl.example.net", "crawl.example.net"}, // a host name
		{"", ""},
	} {
		if got := canonicalIP(c.in); got != c.want {
			t.Errorf("canonicalIP(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
