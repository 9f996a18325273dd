package firewall

import (
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"

	"go4.org/netipx"
)

// TestAllQualify checks the search Build makes on its sorted entries
// against an IPSet of the same addresses: a prefix qualifies when the set
// holds all of it, and an address when the set holds it.
func TestAllQualify(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 20 {
		var b netipx.IPSetBuilder
		var es []Entry
		// Dense runs in one IPv4 /24 and one IPv6 /120, so that whole
		// prefixes qualify.
		for i := range 256 {
			if rng.IntN(4) > 0 || round%5 == 0 {
				a4 := netip.AddrFrom4([4]byte{192, 0, 2, byte(i)})
				a6 := netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 15: byte(i)})
				for _, a := range []netip.Addr{a4, a6} {
					b.Add(a)
					es = append(es, Entry{Addr: a})
				}
			}
		}
		slices.SortFunc(es, func(x, y Entry) int { return x.Addr.Compare(y.Addr) })
		set, _ := b.IPSet()
		for _, base := range []netip.Addr{netip.MustParseAddr("192.0.2.0"), netip.MustParseAddr("2001:db8::")} {
			for i := range 256 {
				a := base
				for range i {
					a = a.Next()
				}
				if got, want := hasAddr(es, a), set.Contains(a); got != want {
					t.Fatalf("round %d: hasAddr(%v) = %v, want %v", round, a, got, want)
				}
				for bits := a.BitLen(); bits >= a.BitLen()-10; bits-- {
					p, _ := a.Prefix(bits)
					if got, want := allQualify(es, p), set.ContainsPrefix(p); got != want {
						t.Fatalf("round %d: allQualify(%v) = %v, want %v", round, p, got, want)
					}
				}
			}
		}
	}
}
