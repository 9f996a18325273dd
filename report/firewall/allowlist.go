package firewall

import (
	"bufio"
	"fmt"
	"io"
	"net/netip"
	"strings"
)

// AllowListError is an --allow-list line that is not an address or a CIDR.
type AllowListError struct {
	File string
	Line int
	Text string
	Err  error
}

func (e *AllowListError) Error() string {
	return fmt.Sprintf("%s:%d: cannot parse %q as an address or a CIDR: %v", e.File, e.Line, e.Text, e.Err)
}

func (e *AllowListError) Unwrap() error { return e.Err }

// maxAllowLine bounds an allow-list line.
const maxAllowLine = 4096

// ParseAllowList reads an --allow-list file named name (for errors): one
// address ("192.0.2.7", "2001:db8::7") or CIDR ("192.0.2.0/24") per line;
// blank lines and everything from '#' to the end of a line are comments;
// spaces around an entry are ignored. A CIDR with host bits set
// ("192.0.2.7/24") means its network (192.0.2.0/24), as firewalls read it.
// IPv4-mapped IPv6 entries mean their IPv4 addresses. Any other line, an
// address with a zone among them, is an *AllowListError naming the line: an
// allow list that is half read would block what it was meant to protect.
func ParseAllowList(r io.Reader, name string) ([]netip.Prefix, error) {
	var ps []netip.Prefix
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxAllowLine)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(strings.TrimPrefix(line, "\ufeff"))
		if line == "" {
			continue
		}
		p, err := parseAllowEntry(line)
		if err != nil {
			return nil, &AllowListError{File: name, Line: n, Text: line, Err: err}
		}
		ps = append(ps, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, n+1, err)
	}
	return ps, nil
}

func parseAllowEntry(s string) (netip.Prefix, error) {
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return netip.Prefix{}, err
		}
		return unmapPrefix(p), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	if a.Zone() != "" {
		return netip.Prefix{}, fmt.Errorf("an address with a zone is not a client address")
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}
