package verify

import (
	"math/rand/v2"
	"net/netip"
	"testing"
	"time"
)

var t0 = time.Date(2026, 6, 9, 14, 45, 50, 0, time.UTC)

func pfx(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// bruteLookup is the longest-prefix match by trying every prefix.
func bruteLookup(ps []netip.Prefix, a netip.Addr) (netip.Prefix, bool) {
	a = a.Unmap()
	var best netip.Prefix
	for _, p := range ps {
		p = canonicalPrefix(p)
		if p.Contains(a) && (!best.IsValid() || p.Bits() > best.Bits()) {
			best = p
		}
	}
	return best, best.IsValid()
}

func TestListLookup(t *testing.T) {
	l := NewList(t0, pfx(
		"66.249.64.0/19", "66.249.66.0/27", "66.249.66.0/24", "66.249.79.255/32",
		"10.0.0.0/8", "10.1.2.3/32", "10.255.255.255/32",
		"2001:4860:4801:10::/64", "2001:4860::/32", "2001:4860:4801:10::1/128",
		"66.249.64.5/19", // host bits: the same prefix as 66.249.64.0/19
		"::ffff:192.0.2.0/120",
	))
	tests := []struct {
		addr string
		want string // "" when no prefix holds it
	}{
		{"66.249.66.1", "66.249.66.0/27"},
		{"66.249.66.31", "66.249.66.0/27"},
		{"66.249.66.32", "66.249.66.0/24"},
		{"66.249.66.255", "66.249.66.0/24"},
		{"66.249.67.0", "66.249.64.0/19"},
		{"66.249.64.0", "66.249.64.0/19"},
		{"66.249.79.254", "66.249.64.0/19"},
		{"66.249.79.255", "66.249.79.255/32"},
		{"66.249.80.0", "66.249.64.0/19"},
		{"66.249.96.0", ""},
		{"66.249.63.255", ""},
		{"10.1.2.3", "10.1.2.3/32"},
		{"10.1.2.4", "10.0.0.0/8"},
		{"10.255.255.255", "10.255.255.255/32"},
		{"11.0.0.0", ""},
		{"192.0.2.77", "192.0.2.0/24"}, // from the IPv4-mapped prefix
		{"::ffff:66.249.66.1", "66.249.66.0/27"},
		{"2001:4860:4801:10::1", "2001:4860:4801:10::1/128"},
		{"2001:4860:4801:10::2", "2001:4860:4801:10::/64"},
		{"2001:4860:4801:11::", "2001:4860::/32"},
		{"2001:4861::", ""},
		{"::1", ""},
		{"0.0.0.0", ""},
	}
	for _, tc := range tests {
		t.Run(tc.addr, func(t *testing.T) {
			got, ok := l.Lookup(netip.MustParseAddr(tc.addr))
			if tc.want == "" {
				if ok {
					t.Fatalf("Lookup = %v, want none", got)
				}
				return
			}
			if !ok || got != netip.MustParsePrefix(tc.want) {
				t.Fatalf("Lookup = %v, %v; want %s", got, ok, tc.want)
			}
		})
	}
	if got := l.Len(); got != 11 {
		t.Errorf("Len = %d, want 11 (duplicates and host bits folded)", got)
	}
	if _, ok := l.Lookup(netip.Addr{}); ok {
		t.Error("the zero Addr was found")
	}
}

func TestListWholeSpace(t *testing.T) {
	l := NewList(t0, pfx("0.0.0.0/0", "255.255.255.255/32", "::/0", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128", "ffff::/16"))
	for _, tc := range []struct{ addr, want string }{
		{"0.0.0.0", "0.0.0.0/0"},
		{"255.255.255.254", "0.0.0.0/0"},
		{"255.255.255.255", "255.255.255.255/32"},
		{"::", "::/0"},
		{"fffe::", "::/0"},
		{"ffff::1", "ffff::/16"},
		{"ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe", "ffff::/16"},
		{"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128"},
	} {
		got, ok := l.Lookup(netip.MustParseAddr(tc.addr))
		if !ok || got.String() != tc.want {
			t.Errorf("Lookup(%s) = %v, %v; want %s", tc.addr, got, ok, tc.want)
		}
	}
}

func TestListEmpty(t *testing.T) {
	l := NewList(t0, nil)
	if l.Len() != 0 {
		t.Fatal("not empty")
	}
	if _, ok := l.Lookup(netip.MustParseAddr("66.249.66.1")); ok {
		t.Fatal("an empty list holds an address")
	}
}

// TestListRandom compares the interval table with a brute-force match over
// random nested prefix sets.
func TestListRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	randAddr := func(v4 bool) netip.Addr {
		if v4 {
			// A small space, so that prefixes nest and collide.
			return netip.AddrFrom4([4]byte{10, byte(rng.IntN(4)), byte(rng.IntN(256)), byte(rng.IntN(256))})
		}
		var b [16]byte
		b[0], b[1], b[2] = 0x20, 0x01, byte(rng.IntN(4))
		for i := 3; i < 16; i++ {
			b[i] = byte(rng.IntN(256))
		}
		return netip.AddrFrom16(b)
	}
	for round := range 200 {
		var ps []netip.Prefix
		for range 1 + rng.IntN(40) {
			v4 := rng.IntN(2) == 0
			a := randAddr(v4)
			bits := 8 + rng.IntN(25)
			if !v4 {
				bits = 16 + rng.IntN(113)
			}
			ps = append(ps, netip.PrefixFrom(a, bits))
		}
		l := NewList(t0, ps)
		for range 300 {
			a := randAddr(rng.IntN(2) == 0)
			if rng.IntN(3) == 0 { // an edge of a prefix
				p := canonicalPrefix(ps[rng.IntN(len(ps))])
				a = p.Addr()
				if rng.IntN(2) == 0 {
					a = lastAddr(p)
				}
				if rng.IntN(2) == 0 {
					a = a.Next()
				} else if rng.IntN(2) == 0 {
					a = a.Prev()
				}
				if !a.IsValid() {
					continue
				}
			}
			want, wok := bruteLookup(ps, a)
			got, gok := l.Lookup(a)
			if got != want || gok != wok {
				t.Fatalf("round %d: Lookup(%s) = %v, %v; brute force %v, %v\nprefixes %v", round, a, got, gok, want, wok, ps)
			}
		}
	}
}

func lastAddr(p netip.Prefix) netip.Addr {
	k := lastOf(p)
	if p.Addr().Is4() {
		return netip.AddrFrom4([4]byte{byte(k.lo >> 24), byte(k.lo >> 16), byte(k.lo >> 8), byte(k.lo)})
	}
	var b [16]byte
	for i := range 8 {
		b[i] = byte(k.hi >> (56 - 8*i))
		b[8+i] = byte(k.lo >> (56 - 8*i))
	}
	return netip.AddrFrom16(b)
}

func TestLookupAllocs(t *testing.T) {
	l := NewList(t0, pfx("66.249.64.0/27", "66.249.66.0/24", "2001:4860:4801:10::/64"))
	addrs := []netip.Addr{
		netip.MustParseAddr("66.249.66.1"),
		netip.MustParseAddr("1.2.3.4"),
		netip.MustParseAddr("2001:4860:4801:10::1"),
		netip.MustParseAddr("::ffff:66.249.66.1"),
	}
	var sink bool
	n := testing.AllocsPerRun(1000, func() {
		for _, a := range addrs {
			_, ok := l.Lookup(a)
			sink = sink != ok
		}
	})
	if n != 0 {
		t.Fatalf("Lookup allocates %v times per run", n)
	}
}
