package firewall

import (
	"bufio"
	"io"
	"strconv"
	"time"
)

func init() {
	register(Format{Name: "nftables", Files: []File{{Name: "blocklist.nft", Write: WriteNftables}}})
}

// The names blocklist.nft defines.
const (
	nftTable = "inet crawlaudit"
	nftSetV4 = "blocklist_v4"
	nftSetV6 = "blocklist_v6"
)

// WriteNftables writes blocklist.nft, a file for nft -f (checked with
// nft -c -f): the header as "# " comments, then the table inet crawlaudit
// with
//
//   - a set per address family, blocklist_v4 (type ipv4_addr) and
//     blocklist_v6 (type ipv6_addr), with flags interval, holding the
//     family's blocks, each with its reason as the element's comment and,
//     when Meta.TTL is not zero, the TTL as its timeout (flags interval,
//     timeout; whole seconds, rounded up; without a TTL the set has no
//     timeout flag and its elements stay until the file is loaded again);
//     a family without blocks gets an empty set (nft rejects
//     "elements = { }", so the line is left out);
//   - two base chains, input and forward (type filter, priority
//     filter - 10, policy accept), that count and drop every packet whose
//     source address is in a set: traffic to this host and traffic it
//     forwards, which is how requests reach containers behind published
//     ports. A drop is final in nftables, whatever other tables accept.
//
// Loading the file again replaces the table as a whole, in the one
// transaction nft -f makes of a file: it begins with "add table" (a no-op
// when the table exists) and "delete table" (which then cannot fail), a
// pattern nft 1.0.6 accepts; "destroy table" needs nft 1.0.8. Entries
// dropped from the list leave the firewall, timeouts restart, and anything
// added to the table by hand is gone: the table belongs to the file.
//
// The sets have no auto-merge: Build's blocks are disjoint, and auto-merge
// would fuse adjacent blocks into one range that keeps only the first
// block's comment and timeout. The price: adding by hand a prefix that
// overlaps an element fails ("interval overlaps with an existing one").
func WriteNftables(w io.Writer, l *List) error {
	bw := bufio.NewWriter(w)
	writeHeader(bw, l, "# ")
	bw.WriteString("# load with: nft -f blocklist.nft (loading it again replaces table " + nftTable + " as a whole)\n")
	bw.WriteString("add table " + nftTable + "\n")
	bw.WriteString("delete table " + nftTable + "\n")
	bw.WriteString("table " + nftTable + " {\n")
	timeout := ""
	if l.Meta.TTL > 0 {
		timeout = " timeout " + nftDuration(l.Meta.TTL)
	}
	for _, fam := range []struct {
		set, typ string
		blocks   []Block
	}{
		{nftSetV4, "ipv4_addr", l.Family(4)},
		{nftSetV6, "ipv6_addr", l.Family(6)},
	} {
		bw.WriteString("\tset " + fam.set + " {\n")
		bw.WriteString("\t\ttype " + fam.typ + "\n")
		if timeout != "" {
			bw.WriteString("\t\tflags interval, timeout\n")
		} else {
			bw.WriteString("\t\tflags interval\n")
		}
		if len(fam.blocks) > 0 {
			bw.WriteString("\t\telements = {\n")
			for i, b := range fam.blocks {
				bw.WriteString("\t\t\t")
				bw.WriteString(b.String())
				bw.WriteString(timeout)
				bw.WriteString(` comment "`)
				bw.WriteString(b.Reason())
				bw.WriteByte('"')
				if i < len(fam.blocks)-1 {
					bw.WriteByte(',')
				}
				bw.WriteByte('\n')
			}
			bw.WriteString("\t\t}\n")
		}
		bw.WriteString("\t}\n")
	}
	for _, hook := range []string{"input", "forward"} {
		bw.WriteString("\tchain " + hook + " {\n")
		bw.WriteString("\t\ttype filter hook " + hook + " priority filter - 10; policy accept;\n")
		bw.WriteString("\t\tip saddr @" + nftSetV4 + " counter drop\n")
		bw.WriteString("\t\tip6 saddr @" + nftSetV6 + " counter drop\n")
		bw.WriteString("\t}\n")
	}
	bw.WriteString("}\n")
	return flush(bw, "nftables")
}

// nftDuration writes d as an nft time ("30d", "1d2h30m", "45s"), rounded up
// to whole seconds; it is at least one second. Every time.Duration fits:
// the kernel takes timeouts up to about 584 years, a Duration ends at 292.
func nftDuration(d time.Duration) string {
	s := ttlSeconds(d)
	var b []byte
	for _, u := range []struct {
		n    int64
		unit byte
	}{{86400, 'd'}, {3600, 'h'}, {60, 'm'}, {1, 's'}} {
		if s >= u.n {
			b = strconv.AppendInt(b, s/u.n, 10)
			b = append(b, u.unit)
			s %= u.n
		}
	}
	return string(b)
}

// ttlSeconds returns d in whole seconds, rounded up, and at least one.
func ttlSeconds(d time.Duration) int64 {
	s := int64(d / time.Second)
	if d%time.Second != 0 {
		s++
	}
	return max(s, 1)
}
