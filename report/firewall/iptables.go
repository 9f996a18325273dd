package firewall

import (
	"bufio"
	"io"
	"strconv"
)

func init() {
	register(Format{Name: "iptables", Files: []File{
		{Name: "blocklist.iptables", Write: WriteIptables},
		{Name: "blocklist.ip6tables", Write: WriteIp6tables},
	}})
}

// IptablesChain is the user chain blocklist.iptables and
// blocklist.ip6tables define.
const IptablesChain = "crawlaudit-block"

// WriteIptables writes blocklist.iptables, a file for
// iptables-restore --noflush: the header as "# " comments
// (iptables-restore skips lines that begin with '#'), then the filter
// table with the user chain crawlaudit-block holding one rule per IPv4
// block,
//
//	-A crawlaudit-block -s 192.0.2.0/30 -m comment --comment "reason" -j DROP
//
// The file defines the chain and nothing else: it does not hook the chain
// into INPUT. With --noflush, iptables-restore flushes a user chain the
// file declares (":crawlaudit-block - [0:0]") and leaves the rest of the
// table alone, so loading the file again replaces the chain's rules, in one
// commit, and entries dropped from the list leave it; a jump from INPUT in
// the file would be added once more at every load, since --noflush does
// not flush built-in chains. The jump is made once, by hand (a comment in
// the file says so):
//
//	iptables -I INPUT -j crawlaudit-block
//	iptables -I FORWARD -j crawlaudit-block   # routed traffic, containers behind published ports
//
// Without --noflush, iptables-restore empties the whole filter table first,
// the rules of the host's firewall with it; the header warns about it.
// iptables rules have no timeout: Meta.TTL is only in the header.
func WriteIptables(w io.Writer, l *List) error {
	return writeIptables(w, l, 4)
}

// WriteIp6tables writes blocklist.ip6tables, for
// ip6tables-restore --noflush: the same as WriteIptables for the IPv6
// blocks.
func WriteIp6tables(w io.Writer, l *List) error {
	return writeIptables(w, l, 6)
}

// writeIptables writes the iptables-restore file of family f (4 or 6).
func writeIptables(w io.Writer, l *List, f int) error {
	tool, file, other := "iptables", "blocklist.iptables", "IPv6 ones are in blocklist.ip6tables"
	if f == 6 {
		tool, file, other = "ip6tables", "blocklist.ip6tables", "IPv4 ones are in blocklist.iptables"
	}
	blocks := l.Family(f)
	bw := bufio.NewWriter(w)
	writeHeader(bw, l, "# ")
	bw.WriteString("# this file: the " + strconv.Itoa(len(blocks)) + " IPv" + strconv.Itoa(f) + " entries (the " + other + ")\n")
	bw.WriteString("# load with: " + tool + "-restore --noflush " + file + " (loading it again replaces the rules of chain " + IptablesChain + ")\n")
	bw.WriteString("# never without --noflush: " + tool + "-restore would empty the whole filter table first\n")
	bw.WriteString("# then, once: " + tool + " -I INPUT -j " + IptablesChain + " (and " + tool + " -I FORWARD -j " + IptablesChain + " for routed traffic)\n")
	if l.Meta.TTL > 0 {
		bw.WriteString("# " + tool + " rules do not expire: load a newer list to drop old entries\n")
	}
	bw.WriteString("*filter\n")
	bw.WriteString(":" + IptablesChain + " - [0:0]\n")
	for _, b := range blocks {
		bw.WriteString("-A " + IptablesChain + " -s " + b.CIDR() + ` -m comment --comment "` + b.Reason() + "\" -j DROP\n")
	}
	bw.WriteString("COMMIT\n")
	return flush(bw, "iptables")
}
