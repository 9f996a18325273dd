package firewall

import (
	"fmt"
	"net/netip"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go4.org/netipx"
)

// Widest is how far Build may widen prefixes beyond exact merges, per
// address family (--block-aggregate): the shortest prefix length allowed
// for IPv4 (V4) and IPv6 (V6). Zero, the default, allows only exact merges
// (a prefix every address of which qualifies).
type Widest struct{ V4, V6 int }

// String describes w for a header.
func (w Widest) String() string {
	if w == (Widest{}) {
		return "exact merges only, every address of a prefix qualifies"
	}
	part := func(n int, fam string) string {
		if n == 0 {
			return fam + " exact merges only"
		}
		return fmt.Sprintf("%s up to /%d", fam, n)
	}
	return part(w.V4, "IPv4") + ", " + part(w.V6, "IPv6") + "; never covering an address seen in the logs that does not qualify, nor a published range of a crawler not on the list"
}

// The widest prefixes --block-aggregate takes without
// --block-aggregate-force: a /16 is 65,536 IPv4 addresses, a /48 one
// site's IPv6 allocation (RFC 6177); wider ones block whole providers,
// most of whose addresses the logs never saw.
const (
	SafeWidestV4 = 16
	SafeWidestV6 = 48
)

// CheckSafe returns an error when w allows prefixes wider than
// SafeWidestV4 or SafeWidestV6, naming the width and how many addresses one
// such entry may block.
func (w Widest) CheckSafe() error {
	var parts []string
	if w.V4 != 0 && w.V4 < SafeWidestV4 {
		parts = append(parts, fmt.Sprintf("/%d (up to %s IPv4 addresses in one entry) is wider than /%d", w.V4, thousands(uint64(1)<<(32-w.V4)), SafeWidestV4))
	}
	if w.V6 != 0 && w.V6 < SafeWidestV6 {
		parts = append(parts, fmt.Sprintf("/%d (%s times a site's /48) is wider than /%d", w.V6, thousands(uint64(1)<<(SafeWidestV6-w.V6)), SafeWidestV6))
	}
	if len(parts) == 0 {
		return nil
	}
	return fmt.Errorf("--block-aggregate: %s: such a prefix blocks whole networks of a provider, most of whose addresses never appeared in the logs; give --block-aggregate-force to allow it", strings.Join(parts, "; "))
}

// thousands writes n with comma thousands separators.
func thousands(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// ParseWidest parses --block-aggregate: "/24,/64" (IPv4, then IPv6), one
// prefix alone (a length up to 32 for IPv4, above for IPv6, the other
// family exact), "exact" or "" for exact merges only. The slash is
// optional. IPv4 lengths run from 8 to 32, IPv6 from 16 to 128.
func ParseWidest(s string) (Widest, error) {
	var w Widest
	s = strings.TrimSpace(s)
	if s == "" || s == "exact" || s == "none" {
		return w, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > 2 {
		return w, fmt.Errorf("--block-aggregate %q: at most two prefix lengths, IPv4 then IPv6 (\"/24,/64\")", s)
	}
	for i, p := range parts {
		p = strings.TrimPrefix(strings.TrimSpace(p), "/")
		n, err := strconv.Atoi(p)
		if err != nil {
			return w, fmt.Errorf("--block-aggregate %q: %q is not a prefix length (\"/24,/64\")", s, parts[i])
		}
		v6 := len(parts) == 2 && i == 1 || len(parts) == 1 && n > 32
		switch {
		case !v6 && (n < 8 || n > 32):
			return w, fmt.Errorf("--block-aggregate %q: an IPv4 prefix length is between /8 and /32", s)
		case v6 && (n < 16 || n > 128):
			return w, fmt.Errorf("--block-aggregate %q: an IPv6 prefix length is between /16 and /128", s)
		case v6:
			w.V6 = n
		default:
			w.V4 = n
		}
	}
	return w, nil
}

// Options say what Build must keep reachable.
type Options struct {
	// Widest allows prefixes wider than exact merges.
	Widest Widest
	// Allow are prefixes never blocked (--allow-list): an entry inside one
	// is dropped, and no prefix covers any of their addresses.
	Allow []netip.Prefix
	// Seen are the client addresses seen in the logs, qualifying or not
	// (addresses of entries among them are ignored). No widened prefix
	// covers one that does not qualify, and List.Reachable reports them.
	Seen []netip.Addr
	// Protected are the published ranges of crawlers that are not on the
	// list (their operators' range lists): no widened prefix overlaps one,
	// and List.Reachable reports them, since a wide block there would shut
	// out a real crawler the logs happened not to show from that address.
	// An entry inside one is still listed, alone or in an exact merge.
	Protected []netip.Prefix
}

// Stats count what Build did with its entries.
type Stats struct {
	// Listed is the number of distinct addresses on the list.
	Listed int
	// Invalid counts entries whose address is not valid or has a zone.
	Invalid int
	// NotBlockable counts addresses never listed: unspecified (0.0.0.0,
	// ::), loopback (127.0.0.0/8, ::1), multicast, and the IPv4 broadcast
	// address.
	NotBlockable int
	// Allowed counts addresses inside the allow list.
	Allowed int
	// Duplicates counts entries that repeat an address (an IPv4-mapped
	// IPv6 address and its IPv4 address), merged.
	Duplicates int
}

// notBlockable are the ranges no list ever covers.
var notBlockable = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/32"),
	netip.MustParsePrefix("127.0.0.0/8"),
	netip.MustParsePrefix("224.0.0.0/4"),
	netip.MustParsePrefix("255.255.255.255/32"),
	netip.MustParsePrefix("::/128"),
	netip.MustParsePrefix("::1/128"),
	netip.MustParsePrefix("ff00::/8"),
}

// Blockable reports whether a may ever be on a block list: valid, without a
// zone, and not unspecified, loopback, multicast or the IPv4 broadcast
// address. An IPv4-mapped IPv6 address is judged as its IPv4 address.
func Blockable(a netip.Addr) bool {
	if !a.IsValid() || a.Zone() != "" {
		return false
	}
	a = a.Unmap()
	for _, p := range notBlockable {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// Build makes the list of entries under opt: it drops the entries that must
// never be blocked (invalid, not blockable, allowed), merges the entries of
// one address, and covers the rest with the fewest prefixes that (a) hold
// only qualifying addresses, or (b) are no wider than opt.Widest and cover
// no seen address that does not qualify, no allowed and no not-blockable
// address. Every maximal such prefix is taken: since those are disjoint and
// any cover needs one prefix inside each, no cover has fewer. A widened
// prefix also overlaps none of opt.Protected.
//
// Build filters and sorts entries in place: the List's Entries share its
// array, and the caller must not use entries afterwards.
func Build(entries []Entry, opt Options, meta Meta) (*List, Stats) {
	var st Stats
	var allowB netipx.IPSetBuilder
	for _, p := range opt.Allow {
		allowB.AddPrefix(unmapPrefix(p))
	}
	allow, _ := allowB.IPSet()

	// The entries are filtered and sorted in place: a copy of millions of
	// them (a log of millions of client addresses) would double the
	// memory of the merge.
	kept := entries[:0]
	for _, e := range entries {
		switch {
		case !e.Addr.IsValid() || e.Addr.Zone() != "":
			st.Invalid++
			continue
		case !Blockable(e.Addr):
			st.NotBlockable++
			continue
		}
		e.Addr = e.Addr.Unmap()
		if allow.Contains(e.Addr) {
			st.Allowed++
			continue
		}
		kept = append(kept, e)
	}
	slices.SortStableFunc(kept, func(a, b Entry) int { return a.Addr.Compare(b.Addr) })
	out := kept[:0]
	for _, e := range kept {
		if n := len(out); n > 0 && out[n-1].Addr == e.Addr {
			out[n-1] = mergeEntries(out[n-1], e)
			st.Duplicates++
			continue
		}
		out = append(out, e)
	}
	kept = out
	st.Listed = len(kept)

	// The qualifying addresses are kept's, sorted and distinct: searched
	// there (allQualify), where their ranges would take a third of the
	// entries' memory again.

	// reach: what must stay reachable. Built whenever Build knows of
	// anything beyond the fixed not-blockable ranges, so that a format
	// that must widen (Cloudflare's IPv6 /64) can ask List.Reachable.
	var reach rangeSet
	if opt.Widest != (Widest{}) || len(opt.Seen) > 0 || len(opt.Allow) > 0 || len(opt.Protected) > 0 {
		// The seen addresses that do not qualify, sorted into ranges
		// here: an IPSetBuilder of millions of them held several times
		// their size. The few prefixes go through the builder.
		seen := make([]netip.Addr, 0, len(opt.Seen))
		for _, a := range opt.Seen {
			if a.IsValid() && a.Zone() == "" && !hasAddr(kept, a.Unmap()) {
				seen = append(seen, a.Unmap())
			}
		}
		slices.SortFunc(seen, netip.Addr.Compare)
		seen = slices.Compact(seen)
		var b netipx.IPSetBuilder
		for _, p := range opt.Protected {
			if p.IsValid() {
				b.AddPrefix(unmapPrefix(p))
			}
		}
		b.AddSet(allow)
		for _, p := range notBlockable {
			b.AddPrefix(p)
		}
		s, _ := b.IPSet()
		reach = union(addrRanges(seen), s.Ranges())
	}

	if reach == nil {
		var b netipx.IPSetBuilder
		for _, p := range notBlockable {
			b.AddPrefix(p)
		}
		s, _ := b.IPSet()
		reach = rangeSet(s.Ranges())
	}
	// At most a block per entry: sized once, where appending to millions
	// of blocks would allocate them about twice over.
	l := &List{Entries: kept, Meta: meta, reach: reach, Blocks: make([]Block, 0, len(kept))}
	for i := 0; i < len(kept); {
		a := kept[i].Addr
		bits := a.BitLen()
		widest := opt.Widest.V4
		if a.Is6() {
			widest = opt.Widest.V6
		}
		if widest == 0 {
			widest = bits
		}
		best := netip.PrefixFrom(a, bits)
		for n := bits - 1; n >= 0; n-- {
			p, _ := a.Prefix(n)
			if !allQualify(kept, p) && (n < widest || reach.overlaps(netipx.RangeOfPrefix(p))) {
				break
			}
			best = p
		}
		j := i + 1
		for j < len(kept) && best.Contains(kept[j].Addr) {
			j++
		}
		l.Blocks = append(l.Blocks, Block{Prefix: best, Entries: kept[i:j:j]})
		i = j
	}
	return l, st
}

// mergeEntries adds b's counts and claims to a.
func mergeEntries(a, b Entry) Entry {
	for k := range a.Counts {
		a.Counts[k] += b.Counts[k]
	}
	a.Claims = slices.Clone(a.Claims)
	for _, c := range b.Claims {
		if !slices.Contains(a.Claims, c) {
			a.Claims = append(a.Claims, c)
		}
	}
	if !b.FirstSeen.IsZero() && (a.FirstSeen.IsZero() || b.FirstSeen.Before(a.FirstSeen)) {
		a.FirstSeen = b.FirstSeen
	}
	if b.LastSeen.After(a.LastSeen) {
		a.LastSeen = b.LastSeen
	}
	return a
}

// unmapPrefix returns p with an IPv4-mapped IPv6 prefix written as IPv4
// (::ffff:192.0.2.0/120 is 192.0.2.0/24).
func unmapPrefix(p netip.Prefix) netip.Prefix {
	a := p.Addr()
	if !a.Is4In6() {
		return p.Masked()
	}
	bits := p.Bits() - 96
	if bits < 0 {
		bits = 0
	}
	q, _ := a.Unmap().Prefix(bits)
	return q
}

// hasAddr reports whether a is the address of an entry of es, sorted by
// address.
func hasAddr(es []Entry, a netip.Addr) bool {
	_, found := slices.BinarySearchFunc(es, a, func(e Entry, a netip.Addr) int { return e.Addr.Compare(a) })
	return found
}

// allQualify reports whether every address of p is the address of an entry
// of es, sorted by address and distinct: whether as many entries lie in p
// as p holds addresses.
func allQualify(es []Entry, p netip.Prefix) bool {
	span := p.Addr().BitLen() - p.Bits()
	if span >= 62 || len(es) < 1<<span {
		return false
	}
	r := netipx.RangeOfPrefix(p)
	from, _ := slices.BinarySearchFunc(es, r.From(), func(e Entry, a netip.Addr) int { return e.Addr.Compare(a) })
	to, found := slices.BinarySearchFunc(es[from:], r.To(), func(e Entry, a netip.Addr) int { return e.Addr.Compare(a) })
	if found {
		to++
	}
	return to == 1<<span
}

// addrRanges returns sorted, distinct addresses as ranges: runs of
// consecutive addresses merged.
func addrRanges(as []netip.Addr) rangeSet {
	runs := 0
	for i := range as {
		if i == 0 || as[i] != as[i-1].Next() {
			runs++
		}
	}
	s := make(rangeSet, 0, runs)
	for i := 0; i < len(as); {
		j := i + 1
		for j < len(as) && as[j] == as[j-1].Next() {
			j++
		}
		s = append(s, netipx.IPRangeFrom(as[i], as[j-1]))
		i = j
	}
	return s
}

// union returns the ranges of a or b, each a sorted list of disjoint
// ranges, merged where they overlap or touch, as an IPSet's Ranges are.
func union(a, b []netipx.IPRange) rangeSet {
	all := make(rangeSet, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		var r netipx.IPRange
		if len(b) == 0 || len(a) > 0 && a[0].From().Less(b[0].From()) {
			r, a = a[0], a[1:]
		} else {
			r, b = b[0], b[1:]
		}
		if n := len(all); n > 0 {
			last := all[n-1]
			if next := last.To().Next(); !last.To().Less(r.From()) || next.IsValid() && next == r.From() {
				if last.To().Less(r.To()) {
					all[n-1] = netipx.IPRangeFrom(last.From(), r.To())
				}
				continue
			}
		}
		all = append(all, r)
	}
	return all
}

// rangeSet is a sorted list of disjoint ranges (an IPSet's Ranges), searched
// by bisection: IPSet's own ContainsRange and OverlapsRange scan.
type rangeSet []netipx.IPRange

// overlaps reports whether some address of r is in s.
func (s rangeSet) overlaps(r netipx.IPRange) bool {
	// The first range that does not end before r starts.
	i := sort.Search(len(s), func(i int) bool { return !s[i].To().Less(r.From()) })
	return i < len(s) && !r.To().Less(s[i].From())
}
