package firewall

import (
	"bufio"
	"io"
)

func init() {
	register(Format{Name: "haproxy", Files: []File{{Name: "blocklist.haproxy.acl", Write: WriteHAProxy}}})
}

// WriteHAProxy writes blocklist.haproxy.acl, a pattern file for an HAProxy
// ACL on the client's address:
//
//	acl blocked src -n -f /etc/haproxy/blocklist.haproxy.acl
//	http-request deny if blocked
//
// (or tcp-request connection reject if blocked, before any HTTP work). The
// header comes first as "# " comments, then one address or CIDR per line,
// IPv4 first, an address alone for a single address and a CIDR otherwise,
// each after its reason on a comment line of its own:
//
//	# disallowed 64, spoofed 64: Googlebot spoofed
//	192.0.2.10
//	# 2 addresses: disallowed 5, spoofed 7: GPTBot spoofed
//	2001:db8:bad:1::90/127
//
// HAProxy reads every line of a -f file as one pattern, leading spaces and
// tabs stripped; empty lines and lines beginning with '#' are ignored. A
// '#' after a pattern does not start a comment: it would be part of the
// pattern, which is why each reason has a line of its own. An empty list
// is the header alone, an ACL that matches no client. The -n flag makes
// HAProxy refuse a line that is not an address instead of resolving it as
// a host name. An IPv4 entry also matches a client whose IPv6 address
// holds it (::ffff:a.b.c.d, ::a.b.c.d or 6to4 2002:a.b.c.d::).
func WriteHAProxy(w io.Writer, l *List) error {
	bw := bufio.NewWriter(w)
	writeHeader(bw, l, "# ")
	bw.WriteString("# HAProxy ACL pattern file, one address or CIDR per line:\n")
	bw.WriteString("#   acl blocked src -n -f /etc/haproxy/blocklist.haproxy.acl\n")
	bw.WriteString("#   http-request deny if blocked\n")
	for _, b := range l.Blocks {
		bw.WriteString("# ")
		bw.WriteString(b.Reason())
		bw.WriteByte('\n')
		bw.WriteString(b.String())
		bw.WriteByte('\n')
	}
	return flush(bw, "haproxy")
}
