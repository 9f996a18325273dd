package firewall

import (
	"bufio"
	"io"
)

func init() {
	register(Format{Name: "apache", Files: []File{{Name: "blocklist.apache.conf", Write: WriteApache}}})
}

// WriteApache writes blocklist.apache.conf for Apache httpd 2.4
// (mod_authz_core and mod_authz_host): the header as "# " comments, then a
// <RequireAll> that grants every client (Require all granted) except the
// listed ones, one "Require not ip" per block, IPv4 first, an address alone
// for a single address and a CIDR otherwise. Apache allows no comment after
// a directive on its line, so each block's reason is a comment line of its
// own, just before its Require:
//
//	<RequireAll>
//	    Require all granted
//	    # disallowed 64, spoofed 64: Googlebot spoofed
//	    Require not ip 192.0.2.10
//	    # 2 addresses: disallowed 5, spoofed 7: GPTBot spoofed
//	    Require not ip 2001:db8:bad:1::90/127
//	</RequireAll>
//
// An empty list is the <RequireAll> with Require all granted alone (a
// <RequireAll> of negated Requires only is an error). The file is included
// in a <Directory>, <Location> or <Files> section:
//
//	<Location "/">
//	    Include /etc/apache2/blocklist.apache.conf
//	</Location>
//
// The file grants access to whoever it does not list. Apache puts the
// Require directives and containers of a section that are not inside
// another container into an implicit <RequireAny>, so next to another
// Require in the same section (Require valid-user, Require ip 10.0.0.0/8)
// the file would let every client not listed in. To keep such a rule, put
// both inside a <RequireAll> of their own:
//
//	<RequireAll>
//	    Include /etc/apache2/blocklist.apache.conf
//	    Require valid-user
//	</RequireAll>
//
// A section with Require directives of its own replaces the authorization
// of the sections around it (AuthMerging Off, the default), so include the
// file in those sections too, or set AuthMerging And in them.
//
// Each Require line names one prefix: the reason stays beside its address,
// every line stays short, and since mod_authz_host parses the addresses
// once, at start, and tests a client against them one by one either way,
// several addresses to a line (which Require accepts) would save little.
// For tens of thousands of prefixes the nftables or ipset formats cost less.
func WriteApache(w io.Writer, l *List) error {
	bw := bufio.NewWriter(w)
	writeHeader(bw, l, "# ")
	bw.WriteString("# mod_authz_core and mod_authz_host: Include inside <Directory>, <Location> or <Files>.\n")
	bw.WriteString("# It grants every client it does not list: beside other Require directives,\n")
	bw.WriteString("# put them and the Include together inside a <RequireAll>.\n")
	bw.WriteString("<RequireAll>\n")
	bw.WriteString("    Require all granted\n")
	for _, b := range l.Blocks {
		bw.WriteString("    # ")
		bw.WriteString(b.Reason())
		bw.WriteString("\n    Require not ip ")
		bw.WriteString(b.String())
		bw.WriteByte('\n')
	}
	bw.WriteString("</RequireAll>\n")
	return flush(bw, "apache")
}
