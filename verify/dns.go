package verify

import (
	"net/netip"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/verify/rdns"
)

// DNS evidence is dated: a DNS answer tells who holds an address when it
// was obtained, and addresses move. A refutation by DNS makes a claim
// spoofed only when every request of the claim lies within DNSMaxAge
// before the answer and DNSMaxAhead after it.
const (
	DNSMaxAge   = 62 * 24 * time.Hour
	DNSMaxAhead = 24 * time.Hour
)

// ApplyDNS settles a claim that the ranges left unverified or spoofed with
// forward-confirmed reverse DNS, the check
// the operators document where they publish no list. c is what [Ranges.Check]
// said; ans the DNS answer for its address; domains the crawler's
// documented domains ([Ranges.DNSDomains]); firstUS and lastUS (Unix µs)
// the earliest and the latest request of the claim.
//
//   - Confirmed (a PTR name under one of domains resolves back to the
//     address): Verified, whatever the lists said; the evidence names the
//     PTR name.
//   - Refuted (NXDOMAIN, no PTR name, PTR names none under the domains, or
//     under them but not resolving back): a claim the lists already made
//     Spoofed stays Spoofed, with the DNS finding added. A claim no list
//     settled (Unverified) becomes Spoofed only when every request lies
//     within 62 days before to 1 day after the answer was obtained; an
//     older (or much later) log is never called spoofed by DNS of another
//     time, and the claim stays Unverified with the evidence saying why.
//   - Failed (timeout, SERVFAIL, refused, a network error): Unverified. A
//     failure is never evidence against an address; the evidence keeps
//     what the lists said and adds the failure.
//
// A claim the ranges verified, a crawler without domains, or an answer
// without an address, is returned unchanged. The result's DNS field is set
// when the answer is not Verified (DNS was documented, and did not
// confirm).
func ApplyDNS(c Check, ans rdns.Answer, domains []string, firstUS, lastUS int64) Check {
	if c.Identity == Verified || len(domains) == 0 || !ans.Addr.IsValid() {
		return c
	}
	o, name := ans.Check(domains)
	when := ans.Time.UTC().Format(time.DateOnly)
	switch o {
	case rdns.Confirmed:
		c.Identity, c.Source, c.Prefix, c.DNS = Verified, "", netip.Prefix{}, false
		c.Evidence = "PTR " + name + " forward-confirmed (reverse DNS of " + when + ")"
		return c
	case rdns.Refuted:
		finding := "reverse DNS of " + when + " refutes it: " + refutation(ans, name, domains)
		if c.Identity == Spoofed {
			c.Evidence += "; " + finding
			c.DNS = true
			return c
		}
		t := ans.Time.UnixMicro()
		if firstUS >= t-DNSMaxAge.Microseconds() && lastUS <= t+DNSMaxAhead.Microseconds() {
			c.Identity = Spoofed
			c.Evidence = finding + "; " + c.Evidence
		} else {
			c.Evidence += "; " + finding + ", but the requests (" + stamp(time.UnixMicro(firstUS)) + " … " +
				stamp(time.UnixMicro(lastUS)) + ") are too far from it to tell who held the address then"
		}
		c.DNS = true
		return c
	}
	// Failed.
	failure := ans.Err
	if failure == "" {
		failure = "no answer"
	}
	if name != "" {
		failure += " resolving " + name
	}
	if c.Identity == Spoofed {
		c.Evidence += "; reverse DNS failed (" + failure + "), so it is not settled"
	} else {
		c.Evidence += "; reverse DNS failed (" + failure + ")"
	}
	c.Identity, c.Source, c.DNS = Unverified, "", true
	return c
}

// refutation says why DNS does not confirm the address.
func refutation(ans rdns.Answer, name string, domains []string) string {
	switch {
	case name == "" && ans.Err == rdns.ErrNXDomain:
		return "no PTR name (NXDOMAIN)"
	case name == "":
		return "no PTR name"
	case underDomains(name, domains):
		return "PTR " + name + " does not resolve back to " + ans.Addr.Unmap().String()
	}
	return "PTR " + name + " is not under " + strings.Join(domains, ", ")
}

// underDomains reports whether the DNS name n equals one of domains or
// lies under it (as rdns.Answer.Check decides).
func underDomains(n string, domains []string) bool {
	n = strings.ToLower(strings.TrimSuffix(n, "."))
	for _, d := range domains {
		d = strings.ToLower(strings.Trim(d, "."))
		if d != "" && (n == d || strings.HasSuffix(n, "."+d)) {
			return true
		}
	}
	return false
}
