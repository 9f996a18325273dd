package verify

import (
	"math/rand/v2"
	"net/netip"
	"testing"
	"time"
)

// benchAddrs returns n addresses of which about half lie in l.
func benchAddrs(l *List, n int, v6 bool) []netip.Addr {
	rng := rand.New(rand.NewPCG(7, 7))
	var in []netip.Prefix
	for _, p := range l.Prefixes() {
		if p.Addr().Is6() == v6 {
			in = append(in, p)
		}
	}
	out := make([]netip.Addr, n)
	for i := range out {
		if i%2 == 0 && len(in) > 0 {
			out[i] = in[rng.IntN(len(in))].Addr()
			continue
		}
		if v6 {
			var b [16]byte
			b[0], b[1] = 0x20, 0x01
			for j := 2; j < 16; j++ {
				b[j] = byte(rng.IntN(256))
			}
			out[i] = netip.AddrFrom16(b)
		} else {
			out[i] = netip.AddrFrom4([4]byte{byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256))})
		}
	}
	return out
}

// benchList is the largest list of the snapshot (Google's user-triggered
// fetchers, about 1,000 prefixes), or a synthetic one of that size.
func benchList(b *testing.B) *List {
	r, err := Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	var best *List
	for _, s := range r.Sources() {
		for _, v := range s.Versions {
			if best == nil || v.Len() > best.Len() {
				best = v
			}
		}
	}
	return best
}

func BenchmarkLookup(b *testing.B) {
	l := benchList(b)
	for _, fam := range []struct {
		name string
		v6   bool
	}{{"IPv4", false}, {"IPv6", true}} {
		b.Run(fam.name, func(b *testing.B) {
			addrs := benchAddrs(l, 4096, fam.v6)
			b.ReportAllocs()
			found := 0
			i := 0
			for b.Loop() {
				if _, ok := l.Lookup(addrs[i&4095]); ok {
					found++
				}
				i++
			}
			b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "lookups/s")
			b.ReportMetric(float64(l.Len()), "prefixes")
			_ = found
		})
	}
}

// BenchmarkCheck measures Ranges.Check, what the audit calls once per
// distinct (bot, address, interval).
func BenchmarkCheck(b *testing.B) {
	r, err := Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	l := r.Source("google-common-crawlers").Versions
	addrs := benchAddrs(l[len(l)-1], 4096, false)
	at := time.Date(2026, 10, 15, 0, 0, 0, 0, time.UTC).UnixMicro()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_ = r.Check("Googlebot", addrs[i&4095], at)
		i++
	}
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "checks/s")
}

// BenchmarkDecodeSnapshot measures what every audit pays at start to
// decode (and check) the built-in snapshot.
func BenchmarkDecodeSnapshot(b *testing.B) {
	b.SetBytes(int64(len(snapshotGz)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeSnapshot(snapshotGz); err != nil {
			b.Fatal(err)
		}
	}
}
