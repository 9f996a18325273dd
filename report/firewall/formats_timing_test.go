package firewall

import (
	"io"
	"net/netip"
	"testing"
	"time"
)

// manyEntries returns n qualifying addresses: three in four IPv4, spread so
// that about a third merge with a neighbour, the rest IPv6.
func manyEntries(n int) []Entry {
	es := make([]Entry, 0, n)
	t0 := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		var a netip.Addr
		if i%4 != 3 {
			x := uint32(0x0b000000) + uint32(i)*3/2 // from 11.0.0.0
			a = netip.AddrFrom4([4]byte{byte(x >> 24), byte(x >> 16), byte(x >> 8), byte(x)})
		} else {
			var b [16]byte
			b[0], b[1], b[2], b[3] = 0x20, 0x01, 0x0d, 0xb8
			b[8], b[9], b[14], b[15] = byte(i>>16), byte(i>>8), byte(i>>8), byte(i)
			a = netip.AddrFrom16(b)
		}
		e := Entry{Addr: a, Claims: []Claim{{Bot: "Bytespider", Identity: "unverified"}}, FirstSeen: t0, LastSeen: t0.Add(time.Hour)}
		e.Counts[Disallowed] = int64(i%50 + 1)
		es = append(es, e)
	}
	return es
}

// BenchmarkBuild200k: qualifying set to merged list, 200,000 addresses.
func BenchmarkBuild200k(b *testing.B) {
	es := manyEntries(200_000)
	b.ReportAllocs()
	for b.Loop() {
		Build(es, Options{}, Meta{})
	}
	b.ReportMetric(float64(len(es))*float64(b.N)/b.Elapsed().Seconds(), "addrs/s")
}

// BenchmarkFormats200k: each format's files for 200,000 addresses (the
// issue asks for every format in under 2 s). AWS WAF refuses a family over
// 10,000 addresses: it is measured on the first 10,000.
func BenchmarkFormats200k(b *testing.B) {
	l, _ := Build(manyEntries(200_000), Options{}, Meta{TTL: 720 * time.Hour})
	small, _ := Build(manyEntries(10_000), Options{}, Meta{TTL: 720 * time.Hour})
	for _, f := range Formats() {
		list := l
		if f.Name == "aws-waf" {
			list = small
		}
		b.Run(f.Name, func(b *testing.B) {
			var n countWriter
			for b.Loop() {
				n = 0
				for _, file := range f.Files {
					if err := file.Write(&n, list); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.SetBytes(int64(n))
			b.ReportMetric(float64(len(list.Entries))*float64(b.N)/b.Elapsed().Seconds(), "addrs/s")
		})
	}
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)
