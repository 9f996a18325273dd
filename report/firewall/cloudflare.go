package firewall

import (
	"encoding/csv"
	"fmt"
	"io"
	"iter"
	"net/netip"
	"slices"
	"strings"
)

func init() {
	register(Format{Name: "cloudflare", Files: []File{{Name: "blocklist.cloudflare.csv", Write: WriteCloudflare}}})
}

// The limits of an item of a Cloudflare custom IP list.
//
// Sources: "Lists with IP addresses (IP lists)" in
// https://developers.cloudflare.com/waf/tools/lists/custom-lists/ (individual
// IPv4 addresses, IPv4 CIDR ranges /8 to /32, IPv6 CIDR ranges /12 to /64; "To
// specify an IPv6 address, enter it as a CIDR range with a /64 prefix, the
// largest supported prefix for IPv6 CIDR ranges"), and the list item object
// in https://developers.cloudflare.com/waf/tools/lists/lists-api/json-object/
// (comment: "Maximum length: 500 characters").
const (
	// CloudflareIPv6Bits is the longest IPv6 prefix Cloudflare takes: an
	// IPv6 block longer than /64 is widened to its /64.
	CloudflareIPv6Bits = 64
	// CloudflareMaxDescription is the longest description of an item.
	CloudflareMaxDescription = 500

	cloudflareIPv4MinBits = 8
	cloudflareIPv6MinBits = 12
)

// CloudflareItem is one row of blocklist.cloudflare.csv: one item of a
// Cloudflare IP list and the blocks of the list it stands for.
type CloudflareItem struct {
	// Block is the item's prefix and the qualifying addresses inside it.
	// Its prefix is a block of the list, a /64 that widens IPv6 blocks
	// (Widened), or a /8 (IPv4) or /12 (IPv6) part of a block wider than
	// Cloudflare takes.
	Block Block
	// Widened are the IPv6 blocks of the list, longer than /64, that the
	// item widens to its /64 (in order); empty for an item written as it
	// is.
	Widened []netip.Prefix
	// Dropped: the widened /64 would cover an address that must stay
	// reachable (List.Reachable: a client seen in the logs that does not
	// qualify, a verified crawler, the allow list), so the item is not
	// written and its addresses are not blocked at Cloudflare.
	Dropped bool
	// Description is the item's description: its reason, after a note on
	// the widening for a widened item, sanitized (Sanitize), without a
	// comma (each becomes ';') so that no CSV reader needs quotes to read
	// it, at most CloudflareMaxDescription bytes.
	Description string
}

// Value returns the item as Cloudflare reads it: an IPv4 address alone for
// a single IPv4 address, else the CIDR.
func (it CloudflareItem) Value() string { return it.Block.String() }

// CloudflareItems returns the items of blocklist.cloudflare.csv for l, in
// the order of l.Blocks:
//
//   - an IPv4 block as it is ("192.0.2.10", "198.51.100.4/30");
//   - an IPv6 block of /64 or shorter as it is ("2001:db8::/48");
//   - an IPv6 block longer than /64 widened to its /64, the blocks that
//     widen to the same /64 in one item;
//   - a block shorter than /8 (IPv4) or /12 (IPv6), which Cloudflare does
//     not take, split into the /8s or /12s that make it up (Build never
//     makes one in practice: it needs every address of the prefix to
//     qualify).
func CloudflareItems(l *List) []CloudflareItem {
	return slices.Collect(CloudflareAll(l))
}

// CloudflareAll yields the items of CloudflareItems one at a time, each
// made as it is needed: the items of millions of blocks, held together,
// took several times the list's memory.
func CloudflareAll(l *List) iter.Seq[CloudflareItem] {
	return func(yield func(CloudflareItem) bool) {
		// pending: a widened item that the next blocks may join; its
		// entries are a slice of its own (copied at its first merge), so
		// that later merges append in amortised time.
		var pending *CloudflareItem
		owned := false
		flush := func() bool {
			if pending == nil {
				return true
			}
			it := *pending
			pending = nil
			return yield(describeCloudflare(l, it))
		}
		for _, b := range l.Blocks {
			p := b.Prefix
			minBits := cloudflareIPv4MinBits
			if p.Addr().Is6() {
				minBits = cloudflareIPv6MinBits
			}
			if p.Addr().Is6() && p.Bits() > CloudflareIPv6Bits {
				w, _ := p.Addr().Prefix(CloudflareIPv6Bits)
				if pending != nil && pending.Block.Prefix == w {
					if !owned {
						pending.Block.Entries = slices.Clone(pending.Block.Entries)
						owned = true
					}
					pending.Block.Entries = append(pending.Block.Entries, b.Entries...)
					pending.Widened = append(pending.Widened, p)
					continue
				}
				if !flush() {
					return
				}
				pending = &CloudflareItem{Block: Block{Prefix: w, Entries: b.Entries}, Widened: []netip.Prefix{p}}
				owned = false
				continue
			}
			if !flush() {
				return
			}
			if p.Bits() < minBits {
				for _, q := range cloudflareSplit(p, minBits) {
					var es []Entry
					for _, e := range b.Entries {
						if q.Contains(e.Addr) {
							es = append(es, e)
						}
					}
					if !yield(describeCloudflare(l, CloudflareItem{Block: Block{Prefix: q, Entries: es}})) {
						return
					}
				}
				continue
			}
			if !yield(describeCloudflare(l, CloudflareItem{Block: b})) {
				return
			}
		}
		flush()
	}
}

// describeCloudflare sets its Dropped and Description.
func describeCloudflare(l *List, it CloudflareItem) CloudflareItem {
	it.Dropped = len(it.Widened) > 0 && l.Reachable(it.Block.Prefix)
	desc := it.Block.Reason()
	if len(it.Widened) > 0 {
		from := make([]string, len(it.Widened))
		for j, w := range it.Widened {
			from[j] = w.String()
		}
		desc = "widened to /64 from " + strings.Join(from, " ") + " (the rest of the /64 not seen): " + desc
	}
	it.Description = strings.ReplaceAll(Sanitize(desc, CloudflareMaxDescription), ",", ";")
	return it
}

// cloudflareSplit returns the prefixes of length bits that make up p, in
// order; p itself when it is no shorter.
func cloudflareSplit(p netip.Prefix, bits int) []netip.Prefix {
	p = p.Masked()
	if p.Bits() >= bits {
		return []netip.Prefix{p}
	}
	half := p.Bits() + 1
	lo := netip.PrefixFrom(p.Addr(), half)
	hiAddr := p.Addr().AsSlice()
	i := p.Bits() / 8
	hiAddr[i] |= 0x80 >> (p.Bits() % 8)
	a, _ := netip.AddrFromSlice(hiAddr)
	hi := netip.PrefixFrom(a, half)
	return append(cloudflareSplit(lo, bits), cloudflareSplit(hi, bits)...)
}

// WriteCloudflare writes blocklist.cloudflare.csv, to upload into a
// Cloudflare custom IP list (Account > Configurations > Lists > Edit > Add
// items > Upload CSV; https://developers.cloudflare.com/waf/tools/lists/create-dashboard/):
// one item per line, "<IP_ADDRESS>,<DESCRIPTION>", as
// https://developers.cloudflare.com/waf/tools/lists/custom-lists/ gives the
// CSV file format, the items of CloudflareItems.
//
// The file has no header row and no comment lines: Cloudflare documents
// neither for an IP list (a header row is what Zero Trust lists want, a
// different product), and either would be read as an invalid item. So the
// header of the list (Meta) goes nowhere in this format; the description
// of each item carries its reason.
//
// Cloudflare takes no IPv6 prefix longer than /64, so an IPv6 block longer
// than /64 (a single address, or a /127 of two) is widened to its /64, and
// the blocks that widen to the same /64 become one row. Such a row blocks
// the whole /64: 2^64 addresses of which only the listed ones were found to
// qualify. A /64 that holds an address that must stay reachable
// (List.Reachable: a client seen in the logs that does not qualify, a
// verified crawler, an allowed address) is not written at all: its
// addresses are not blocked at Cloudflare (CloudflareItems marks them
// Dropped, for a warning), since widening would block the innocent. The
// audit tells Build of every client it saw when this format is asked for;
// other clients of the /64 that never reached this site cannot be known,
// and the description of a widened row says so and names the blocks it
// widens ("widened to /64 from 2001:db8::1/128 (the rest of the /64 not
// seen): ...").
//
// Cells are formula-safe by construction: the address starts with a digit
// or a hex letter, and the description is sanitized (Sanitize: no '=',
// '@', tab or CR, no leading '-' or '+'), with commas made ';' so that no
// cell is quoted. IPv4 rows are the blocks as they are. Cloudflare's limit
// on the number of items depends on the plan
// (https://developers.cloudflare.com/waf/tools/lists/#availability) and is
// not checked.
func WriteCloudflare(w io.Writer, l *List) error {
	cw := csv.NewWriter(w)
	for it := range CloudflareAll(l) {
		if it.Dropped {
			continue
		}
		rec := []string{it.Value(), it.Description}
		if it.Description == "" {
			rec = rec[:1]
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("cannot write cloudflare block list: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("cannot write cloudflare block list: %w", err)
	}
	return nil
}
