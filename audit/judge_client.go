package audit

import (
	"net/netip"
	"strings"
)

// clientBehindProxies returns the client address of a request that reached
// the server from remote with the forwarded chain fwd (an X-Forwarded-For
// value, "client, proxy1, proxy2"), given the trusted proxies
// (--trusted-proxy): when remote is a trusted proxy, the chain is read from its right
// end, and the first address that is not a trusted proxy is the client.
// Every address right of it was added by a proxy the site trusts; anything
// left of it was written by the client and may be forged. When remote is
// not trusted, the chain is not either and remote is the client; when the
// whole chain is trusted, its left-most address is. An element that is not
// an address ("unknown", a host name, garbage) stops the walk: it is taken
// as it is, so that a forged element is never skipped over. Elements may
// carry a port ("192.0.2.1:443", "[2001:db8::1]:443"), which is dropped.
// ok is false when remote is not trusted or fwd holds nothing to read.
func clientBehindProxies(remote, fwd string, trusted []netip.Prefix) (client string, ok bool) {
	if len(trusted) == 0 || !inPrefixes(remote, trusted) {
		return remote, false
	}
	last := ""
	for fwd != "" {
		i := strings.LastIndexByte(fwd, ',')
		elem := strings.TrimSpace(fwd[i+1:])
		if i < 0 {
			fwd = ""
		} else {
			fwd = fwd[:i]
		}
		if elem == "" {
			continue
		}
		a, ok := parseHostPort(elem)
		if !ok {
			return elem, true
		}
		last = a.String()
		if !containsAddr(trusted, a) {
			return last, true
		}
	}
	if last == "" {
		return remote, false
	}
	return last, true
}

// parseHostPort parses an address with or without a port.
func parseHostPort(s string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	return netip.Addr{}, false
}

func inPrefixes(s string, ps []netip.Prefix) bool {
	a, ok := parseHostPort(s)
	return ok && containsAddr(ps, a)
}

func containsAddr(ps []netip.Prefix, a netip.Addr) bool {
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
