package firewall

import (
	"bufio"
	"io"
)

func init() {
	register(Format{Name: "cidr", Files: []File{{Name: "blocklist.cidr.txt", Write: WriteCIDR}}})
}

// WriteCIDR writes blocklist.cidr.txt: the header as "# " comments, then one
// CIDR per line ("192.0.2.0/31", "2001:db8::1/128"), IPv4 first, each
// followed by its reason as a comment ("  # disallowed 3: Googlebot
// spoofed"). Tools that read plain CIDR lists (HAProxy, ipset add in a
// loop, firehol's iprange) take the part before '#'.
func WriteCIDR(w io.Writer, l *List) error {
	bw := bufio.NewWriter(w)
	writeHeader(bw, l, "# ")
	for _, b := range l.Blocks {
		bw.WriteString(b.CIDR())
		bw.WriteString("  # ")
		bw.WriteString(b.Reason())
		bw.WriteByte('\n')
	}
	return flush(bw, "cidr")
}
