package verify

import (
	"net/netip"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/verify/rdns"
)

func TestApplyDNS(t *testing.T) {
	googleDomains := []string{"google.com", "googlebot.com"}
	asked := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	a := netip.MustParseAddr("66.249.66.1")
	confirmed := rdns.Answer{Addr: a, Names: []string{"crawl-66-249-66-1.googlebot.com"},
		Forward: map[string][]netip.Addr{"crawl-66-249-66-1.googlebot.com": {a}}, Time: asked}
	elsewhere := rdns.Answer{Addr: a, Names: []string{"host.example.net"}, Time: asked}
	notBack := rdns.Answer{Addr: a, Names: []string{"crawl-1-2-3-4.googlebot.com"},
		Forward: map[string][]netip.Addr{"crawl-1-2-3-4.googlebot.com": {netip.MustParseAddr("1.2.3.4")}}, Time: asked}
	nx := rdns.Answer{Addr: a, Err: rdns.ErrNXDomain, Time: asked}
	timeout := rdns.Answer{Addr: a, Err: rdns.ErrTimeout, Time: asked}
	fwdFail := rdns.Answer{Addr: a, Names: []string{"crawl-66-249-66-1.googlebot.com"}, Err: rdns.ErrServFail, Time: asked}

	spoofed := Check{Identity: Spoofed, Evidence: "outside the google-common-crawlers list of 2026-06-09T14:45:48Z", Source: "google-common-crawlers", From: 1, Until: 2, DNS: true}
	unverified := Check{Identity: Unverified, Evidence: "YandexBot's operator publishes no ranges", From: minI, Until: maxI, DNS: true}
	verified := Check{Identity: Verified, Evidence: "in x list", Source: "x", Prefix: netip.MustParsePrefix("66.249.66.0/27")}

	recent := us(asked.Add(-30 * 24 * time.Hour))
	old := us(asked.Add(-63 * 24 * time.Hour))
	tests := []struct {
		name        string
		c           Check
		ans         rdns.Answer
		domains     []string
		first, last int64
		identity    Identity
		evidence    string
		source      string
		dns         bool
	}{
		{"confirmed_over_spoofed", spoofed, confirmed, googleDomains, recent, recent, Verified,
			"PTR crawl-66-249-66-1.googlebot.com forward-confirmed (reverse DNS of 2026-11-20)", "", false},
		{"confirmed_over_unverified", unverified, confirmed, googleDomains, old, old, Verified,
			"PTR crawl-66-249-66-1.googlebot.com forward-confirmed (reverse DNS of 2026-11-20)", "", false},
		{"refuted_spoofed_stays", spoofed, elsewhere, googleDomains, old, old, Spoofed,
			"outside the google-common-crawlers list of 2026-06-09T14:45:48Z; reverse DNS of 2026-11-20 refutes it: PTR host.example.net is not under google.com, googlebot.com",
			"google-common-crawlers", true},
		{"refuted_recent", unverified, notBack, googleDomains, recent, us(asked.Add(23 * time.Hour)), Spoofed,
			"reverse DNS of 2026-11-20 refutes it: PTR crawl-1-2-3-4.googlebot.com does not resolve back to 66.249.66.1; YandexBot's operator publishes no ranges",
			"", true},
		{"refuted_nxdomain_recent", unverified, nx, googleDomains, recent, recent, Spoofed,
			"reverse DNS of 2026-11-20 refutes it: no PTR name (NXDOMAIN); YandexBot's operator publishes no ranges", "", true},
		{"refuted_too_old", unverified, elsewhere, googleDomains, old, recent, Unverified,
			"YandexBot's operator publishes no ranges; reverse DNS of 2026-11-20 refutes it: PTR host.example.net is not under google.com, googlebot.com, " +
				"but the requests (2026-09-18T08:00:00Z … 2026-10-21T08:00:00Z) are too far from it to tell who held the address then", "", true},
		{"refuted_too_late", unverified, nx, googleDomains, recent, us(asked.Add(25 * time.Hour)), Unverified,
			"YandexBot's operator publishes no ranges; reverse DNS of 2026-11-20 refutes it: no PTR name (NXDOMAIN), " +
				"but the requests (2026-10-21T08:00:00Z … 2026-11-21T09:00:00Z) are too far from it to tell who held the address then", "", true},
		{"failed_spoofed_unsettled", spoofed, timeout, googleDomains, recent, recent, Unverified,
			"outside the google-common-crawlers list of 2026-06-09T14:45:48Z; reverse DNS failed (timeout), so it is not settled", "", true},
		{"failed_unverified", unverified, timeout, googleDomains, recent, recent, Unverified,
			"YandexBot's operator publishes no ranges; reverse DNS failed (timeout)", "", true},
		{"failed_forward", unverified, fwdFail, googleDomains, recent, recent, Unverified,
			"YandexBot's operator publishes no ranges; reverse DNS failed (servfail resolving crawl-66-249-66-1.googlebot.com)", "", true},
		{"verified_unchanged", verified, elsewhere, googleDomains, recent, recent, Verified, "in x list", "x", false},
		{"no_domains_unchanged", unverified, elsewhere, nil, recent, recent, Unverified, "YandexBot's operator publishes no ranges", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := ApplyDNS(tc.c, tc.ans, tc.domains, tc.first, tc.last)
			if c.Identity != tc.identity || c.Evidence != tc.evidence || c.Source != tc.source || c.DNS != tc.dns {
				t.Errorf("ApplyDNS = %v %q (source %q, DNS %v)\n         want %v %q (source %q, DNS %v)",
					c.Identity, c.Evidence, c.Source, c.DNS, tc.identity, tc.evidence, tc.source, tc.dns)
			}
			if c.From != tc.c.From || c.Until != tc.c.Until {
				t.Errorf("the interval changed: [%d, %d)", c.From, c.Until)
			}
			if c.Identity == Verified && tc.c.Identity != Verified && c.Prefix.IsValid() {
				t.Errorf("a DNS verification has a prefix: %v", c.Prefix)
			}
		})
	}
}
