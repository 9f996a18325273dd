package report

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkWriteBlocklist writes 100,000 addresses (a third IPv6, a tenth
// repeated, a few malformed).
func BenchmarkWriteBlocklist(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	ips := make([]string, 100_000)
	for i := range ips {
		switch {
		case i%10 == 9:
			ips[i] = ips[r.IntN(i)]
		case i%100 == 1:
			ips[i] = fmt.Sprintf("%d.1.1.1; rm -rf /", i)
		case i%3 == 0:
			ips[i] = fmt.Sprintf("2001:db8:%x::%x", r.IntN(65536), r.IntN(65536))
		default:
			ips[i] = fmt.Sprintf("%d.%d.%d.%d", 1+r.IntN(222), r.IntN(256), r.IntN(256), 1+r.IntN(254))
		}
	}
	cw := &countWriter{}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := WriteBlocklist(cw, ips, "bench"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(ips))*float64(b.N)/b.Elapsed().Seconds(), "addrs/s")
}
