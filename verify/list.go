package verify

import (
	"encoding/binary"
	"net/netip"
	"slices"
	"sync"
	"time"
)

// List is one version of a range source: the prefixes an operator
// published, with the creation time the operator gave them. A list is in
// effect from Created until the Created of the source's next version.
//
// A List is immutable once built and safe for concurrent use.
type List struct {
	// Created is the list's creation time, UTC.
	Created time.Time

	createdUS int64  // Created in Unix microseconds
	stamp     string // Created as evidence writes it

	// The prefixes are made canonical and the lookup tables built on first
	// use: a snapshot holds hundreds of versions, of which an audit reads a
	// few, and building all of them would slow every audit's start
	// (docs/performance.md has the figure).
	once     sync.Once
	raw      []netip.Prefix // as given, until built
	prefixes []netip.Prefix // canonical (masked, IPv4 unmapped), sorted, distinct
	v4, v6   ivtable
}

// NewList returns the list of the given prefixes created at created. The
// prefixes are made canonical: host bits are cleared, an IPv4-mapped IPv6
// prefix of /96 or longer becomes the IPv4 prefix it maps, and duplicates
// are dropped. Invalid prefixes are ignored (the parsers never pass one).
func NewList(created time.Time, prefixes []netip.Prefix) *List {
	return newList(created, slices.Clone(prefixes))
}

// newList is NewList taking prefixes as its own, for a caller that made
// them for the list (the built-in snapshot, whose thousands of prefixes
// are decoded at every audit's start).
func newList(created time.Time, prefixes []netip.Prefix) *List {
	return &List{Created: created.UTC(), createdUS: created.UnixMicro(), stamp: stamp(created), raw: prefixes}
}

// ready builds the canonical prefixes and the lookup tables, once.
func (l *List) ready() *List {
	l.once.Do(func() {
		ps := l.raw[:0]
		for _, p := range l.raw {
			if p = canonicalPrefix(p); p.IsValid() {
				ps = append(ps, p)
			}
		}
		slices.SortFunc(ps, comparePrefix)
		l.prefixes = slices.Clip(slices.Compact(ps))
		l.raw = nil
		l.v4, l.v6 = buildTables(l.prefixes)
	})
	return l
}

// Len returns the number of distinct prefixes in the list.
func (l *List) Len() int { return len(l.ready().prefixes) }

// Prefixes returns the list's prefixes, IPv4 first, each family in address
// order. The slice belongs to the list: do not modify it.
func (l *List) Prefixes() []netip.Prefix { return l.ready().prefixes }

// Lookup returns the longest prefix of the list that contains a, and
// whether there is one. An IPv4-mapped IPv6 address is looked up as the
// IPv4 address it maps. Lookup does not allocate.
func (l *List) Lookup(a netip.Addr) (netip.Prefix, bool) {
	if !a.IsValid() {
		return netip.Prefix{}, false
	}
	l.ready()
	a = a.Unmap()
	t, k := &l.v6, key(a)
	if a.Is4() {
		t = &l.v4
	}
	if i := t.find(k); i >= 0 {
		return l.prefixes[i], true
	}
	return netip.Prefix{}, false
}

// samePrefixes reports whether two lists hold the same prefix set.
func (l *List) samePrefixes(m *List) bool { return slices.Equal(l.Prefixes(), m.Prefixes()) }

// canonicalPrefix masks p and unmaps an IPv4-mapped IPv6 prefix that lies
// inside ::ffff:0:0/96.
func canonicalPrefix(p netip.Prefix) netip.Prefix {
	if !p.IsValid() {
		return p
	}
	if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
		p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
	}
	return p.Masked()
}

// comparePrefix orders IPv4 before IPv6, then by address, then shorter
// prefixes first.
func comparePrefix(a, b netip.Prefix) int {
	if c := a.Addr().Compare(b.Addr()); c != 0 {
		return c
	}
	return a.Bits() - b.Bits()
}

// u128 is an address as a 128-bit unsigned number (IPv4 in the low 32
// bits).
type u128 struct{ hi, lo uint64 }

func (x u128) less(y u128) bool { return x.hi < y.hi || (x.hi == y.hi && x.lo < y.lo) }

func (x u128) next() u128 {
	if x.lo == ^uint64(0) {
		return u128{x.hi + 1, 0}
	}
	return u128{x.hi, x.lo + 1}
}

func key(a netip.Addr) u128 {
	if a.Is4() {
		b := a.As4()
		return u128{0, uint64(binary.BigEndian.Uint32(b[:]))}
	}
	b := a.As16()
	return u128{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])}
}

// lastOf returns the last address of the canonical prefix p.
func lastOf(p netip.Prefix) u128 {
	k := key(p.Addr())
	host := 32 - p.Bits()
	if p.Addr().Is6() {
		host = 128 - p.Bits()
	}
	switch {
	case host == 0:
	case host >= 128:
		k = u128{^uint64(0), ^uint64(0)}
	case host >= 64:
		k.hi |= ^uint64(0) >> (128 - host)
		k.lo = ^uint64(0)
	default:
		k.lo |= ^uint64(0) >> (64 - host)
	}
	return k
}

// ivtable is a sorted table of disjoint address intervals, each labelled
// with the longest prefix of the list that covers it. Addresses no prefix
// covers fall in no interval.
type ivtable struct {
	start, end []u128  // interval i is [start[i], end[i]]
	idx        []int32 // the index in List.prefixes of its longest prefix
}

// find returns the label of the interval holding k, or -1.
func (t *ivtable) find(k u128) int32 {
	// The number of intervals starting at or before k.
	lo, hi := 0, len(t.start)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if k.less(t.start[m]) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	if lo == 0 || t.end[lo-1].less(k) {
		return -1
	}
	return t.idx[lo-1]
}

func (t *ivtable) add(from, to u128, i int32) {
	if n := len(t.idx); n > 0 && t.idx[n-1] == i && t.end[n-1].next() == from {
		t.end[n-1] = to
		return
	}
	t.start = append(t.start, from)
	t.end = append(t.end, to)
	t.idx = append(t.idx, i)
}

// buildTables builds the interval tables of the sorted canonical prefixes
// ps. CIDR prefixes either nest or are disjoint, so a sweep in address
// order with a stack of the open (enclosing) prefixes labels every
// address with its innermost, that is longest, prefix.
func buildTables(ps []netip.Prefix) (v4, v6 ivtable) {
	split := len(ps)
	for i, p := range ps {
		if p.Addr().Is6() {
			split = i
			break
		}
	}
	sweep(&v4, ps[:split], 0)
	sweep(&v6, ps[split:], int32(split))
	return v4, v6
}

func sweep(t *ivtable, ps []netip.Prefix, base int32) {
	type open struct {
		last u128
		i    int32
	}
	var stack []open
	var cur u128  // the first address not yet labelled
	done := false // cur went past the last IPv6 address
	pop := func() {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if done || top.last.less(cur) {
			return
		}
		t.add(cur, top.last, top.i)
		if top.last == (u128{^uint64(0), ^uint64(0)}) {
			done = true
			return
		}
		cur = top.last.next()
	}
	for j, p := range ps {
		start := key(p.Addr())
		for len(stack) > 0 && stack[len(stack)-1].last.less(start) {
			pop()
		}
		if len(stack) > 0 && cur.less(start) {
			// The enclosing prefix holds the addresses before p.
			t.add(cur, prev(start), stack[len(stack)-1].i)
		}
		cur = start
		stack = append(stack, open{lastOf(p), base + int32(j)})
	}
	for len(stack) > 0 {
		pop()
	}
}

// prev returns x-1 (x > 0).
func prev(x u128) u128 {
	if x.lo == 0 {
		return u128{x.hi - 1, ^uint64(0)}
	}
	return u128{x.hi, x.lo - 1}
}
