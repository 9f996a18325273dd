package firewall

import (
	"bufio"
	"io"
	"strconv"
	"time"
)

func init() {
	register(Format{Name: "ipset", Files: []File{{Name: "blocklist.ipset", Write: WriteIpset}}})
}

// The names and limits of blocklist.ipset.
const (
	ipsetV4 = "crawlaudit-v4"
	ipsetV6 = "crawlaudit-v6"
	// ipsetNew is the suffix of the set each set is filled in before the
	// swap.
	ipsetNew = "-new"
	// IpsetMaxTimeout is the longest timeout ipset takes, in seconds
	// (about 24.8 days): ipset(8), "timeout".
	IpsetMaxTimeout = 2147483
	// ipsetDefaultMaxelem is ipset's default maxelem, the least the file
	// asks for.
	ipsetDefaultMaxelem = 65536
)

// WriteIpset writes blocklist.ipset, a file for ipset restore: the header
// as "# " comments (ipset restore skips lines that begin with '#', checked
// with ipset 7.17), then, per address family, a hash:net set,
// crawlaudit-v4 (family inet) and crawlaudit-v6 (family inet6), holding
// the family's blocks, each with its reason as comment. The sets match
// nothing until a rule uses them, once, for instance
//
//	iptables -I INPUT -m set --match-set crawlaudit-v4 src -j DROP
//	ip6tables -I INPUT -m set --match-set crawlaudit-v6 src -j DROP
//
// (a comment in the file says so too).
//
// Restoring the file again replaces the contents of the sets, atomically
// for the rules that use them: each family's blocks go into a set named
// with "-new", which is created with -exist and flushed first (so a file
// restored halfway before is no obstacle), then swapped with the set in
// use and destroyed. Entries dropped from the list leave the set, and
// timeouts restart.
//
// "create -exist" succeeds only when an existing set has the same create
// options, and a swap hands the new set's options to the set in use, so the
// options must not change from one list to the next. Hence:
//
//   - Every set is created with "timeout 0" (timeouts enabled, entries
//     permanent by default), with or without a TTL: when Meta.TTL is not
//     zero each add carries it in whole seconds, rounded up and capped at
//     IpsetMaxTimeout, the largest ipset takes (a header line says when
//     the cap applies: load the file again before the entries expire);
//     without a TTL the adds carry no timeout and entries stay.
//   - maxelem is the power of two at or above the number of blocks of the
//     family, and at least ipset's default 65536: it changes only when a
//     list outgrows it. Then the first create fails ("set with the same
//     name already exists") before anything changed; destroy the sets
//     (after removing the rules that use them) and restore again.
func WriteIpset(w io.Writer, l *List) error {
	bw := bufio.NewWriter(w)
	writeHeader(bw, l, "# ")
	bw.WriteString("# load with: ipset restore -f blocklist.ipset (loading it again replaces the contents of the sets)\n")
	bw.WriteString("# then, once: iptables -I INPUT -m set --match-set " + ipsetV4 + " src -j DROP\n")
	bw.WriteString("#             ip6tables -I INPUT -m set --match-set " + ipsetV6 + " src -j DROP\n")
	timeout := ""
	if l.Meta.TTL > 0 {
		s := ttlSeconds(l.Meta.TTL)
		if s > IpsetMaxTimeout {
			s = IpsetMaxTimeout
			bw.WriteString("# ipset keeps an entry at most " + strconv.Itoa(IpsetMaxTimeout) + " s (" +
				nftDuration(IpsetMaxTimeout*time.Second) + "), less than --block-ttl: load the file again before the entries expire\n")
		}
		timeout = " timeout " + strconv.FormatInt(s, 10)
	}
	for _, fam := range []struct {
		set, family string
		blocks      []Block
	}{
		{ipsetV4, "inet", l.Family(4)},
		{ipsetV6, "inet6", l.Family(6)},
	} {
		opts := " hash:net family " + fam.family + " maxelem " + strconv.Itoa(ipsetMaxelem(len(fam.blocks))) + " timeout 0 comment -exist\n"
		tmp := fam.set + ipsetNew
		bw.WriteString("create " + fam.set + opts)
		bw.WriteString("create " + tmp + opts)
		bw.WriteString("flush " + tmp + "\n")
		for _, b := range fam.blocks {
			bw.WriteString("add " + tmp + " " + b.String() + timeout + ` comment "` + b.Reason() + "\"\n")
		}
		bw.WriteString("swap " + tmp + " " + fam.set + "\n")
		bw.WriteString("destroy " + tmp + "\n")
	}
	return flush(bw, "ipset")
}

// ipsetMaxelem returns the maxelem of a set of n entries: the power of two
// at or above n, at least ipset's default.
func ipsetMaxelem(n int) int {
	m := ipsetDefaultMaxelem
	for m < n {
		m *= 2
	}
	return m
}
