package firewall

import (
	"bufio"
	"io"
)

func init() {
	register(Format{Name: "nginx", Files: []File{{Name: "blocklist.nginx.conf", Write: WriteNginx}}})
}

// WriteNginx writes blocklist.nginx.conf: the header as "# " comments, then
// one deny directive of ngx_http_access_module per block, IPv4 first, an
// address alone for a single address and a CIDR otherwise, each followed by
// its reason as a comment:
//
//	deny 192.0.2.10;  # disallowed 64, spoofed 64: Googlebot spoofed
//	deny 2001:db8:bad:1::90/127;  # 2 addresses: disallowed 5, spoofed 7: GPTBot spoofed
//
// The file is included where deny is allowed (http, server, location or
// limit_except):
//
//	server {
//	    include /etc/nginx/blocklist.nginx.conf;
//	    ...
//	}
//
// nginx checks allow and deny rules in order until the first match, and
// lets a request through when none matches. The file therefore ends with
// the last deny and no "allow all;" or "deny all;": an address it does not
// list goes on to the operator's own allow and deny rules written after the
// include, or is let through when there are none. Include the file before
// those rules; after an "allow all;" it has no effect.
//
// A level with its own allow or deny rules does not inherit those of the
// level around it: a location with "allow 10.0.0.0/8; deny all;" ignores
// the file included in its server block, so include it in such a location
// as well, before its rules. With "satisfy any", a client that passes
// another check (a password, auth_request) is let in although listed.
// An IPv4 entry also matches its IPv4-mapped IPv6 client address.
//
// nginx checks the rules one by one for every request; for lists of tens of
// thousands of prefixes, the nftables or ipset formats cost less.
func WriteNginx(w io.Writer, l *List) error {
	bw := bufio.NewWriter(w)
	writeHeader(bw, l, "# ")
	bw.WriteString("# ngx_http_access_module deny rules: include in an http, server or location block,\n")
	bw.WriteString("# before the block's own allow and deny rules; no final allow all or deny all.\n")
	for _, b := range l.Blocks {
		bw.WriteString("deny ")
		bw.WriteString(b.String())
		bw.WriteString(";  # ")
		bw.WriteString(b.Reason())
		bw.WriteByte('\n')
	}
	return flush(bw, "nginx")
}
