package firewall

import (
	"net/netip"
	"runtime"
	"testing"
	"time"
)

// ipv6Entries returns n spoofed IPv6 addresses, a few to a /64 as real
// clients show, with a claim each, in no order.
func ipv6Entries(n int) []Entry {
	es := make([]Entry, n)
	t0 := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	for i := range es {
		x := uint64(i)*0x9e3779b97f4a7c15 + 1
		var b [16]byte
		b[0], b[1], b[2], b[3] = 0x3f, 0xff, 0, byte(i%8)
		for k := 0; k < 4; k++ {
			b[4+k] = byte(uint64(i/4) >> (8 * k))
		}
		for k := 0; k < 8; k++ {
			b[8+k] = byte(x >> (8 * k))
		}
		es[i] = Entry{Addr: netip.AddrFrom16(b), FirstSeen: t0, LastSeen: t0,
			Claims: []Claim{{Bot: "Googlebot", Identity: "spoofed"}}}
		es[i].Counts[Spoofed] = 1
	}
	return es
}

// TestBuildMemory bounds what Build allocates beyond its entries, per
// entry, on many IPv6 addresses: the block list of a log of millions of
// client addresses is built in Go, and its merge held every entry twice
// and every address in a set builder besides (docs/performance.md, Memory).
func TestBuildMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 1 M addresses")
	}
	for _, tc := range []struct {
		name     string
		opt      Options
		maxBytes uint64 // per entry
	}{
		{"exact", Options{}, 80},
		{"aggregate /24,/64", Options{Widest: Widest{V4: 24, V6: 64}}, 80},
		// As many other addresses seen, which no widened prefix may cover.
		{"aggregate, 1 M seen", Options{Widest: Widest{V4: 24, V6: 64}, Seen: seenIPv6(1_000_000)}, 240},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 1_000_000
			es := ipv6Entries(n)
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			l, st := Build(es, tc.opt, Meta{})
			runtime.ReadMemStats(&after)
			if st.Listed != n || len(l.Entries) != n {
				t.Fatalf("listed %d (%d entries), want %d", st.Listed, len(l.Entries), n)
			}
			per := (after.TotalAlloc - before.TotalAlloc) / n
			t.Logf("%s: %d bytes allocated per entry, %d blocks", tc.name, per, len(l.Blocks))
			if per > tc.maxBytes {
				t.Errorf("Build allocated %d bytes per entry, want at most %d", per, tc.maxBytes)
			}
		})
	}
}

// seenIPv6 returns n IPv6 addresses that are not those of ipv6Entries,
// in the same /64s.
func seenIPv6(n int) []netip.Addr {
	as := make([]netip.Addr, n)
	for i, e := range ipv6Entries(n) {
		b := e.Addr.As16()
		b[15] ^= 0x80
		as[i] = netip.AddrFrom16(b)
	}
	return as
}
