package webbotauth

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// BenchmarkVerify: one signed request through the whole verification
// (parse, key lookup, base, signature, times, replay), with the cache of
// verifications and without it (each iteration a new signature check).
// The published Web Bot Auth vectors: ed25519 and rsa-pss-sha512.
func BenchmarkVerify(b *testing.B) {
	for _, tc := range []struct {
		name   string
		vector int
	}{{"ed25519", 3}, {"rsa-pss-sha512", 1}} {
		for _, cached := range []bool{false, true} {
			name := tc.name + "/uncached"
			if cached {
				name = tc.name + "/cached"
			}
			b.Run(name, func(b *testing.B) {
				v := NewVerifier(testKeys(b), Options{})
				req := wbaRequest(tc.vector)
				b.ReportAllocs()
				for b.Loop() {
					if !cached {
						clear(v.cache)
					}
					if r := v.Verify(req); r.Status != StatusValid {
						b.Fatal(r)
					}
				}
			})
		}
	}
}

// BenchmarkReplayMemory fills the replay tracker to its default bound with
// the worst case (every nonce live, each from its own address) and reports
// the heap it holds.
func BenchmarkReplayMemory(b *testing.B) {
	const n = 100_000
	pad := strings.Repeat("x", 80) // nonces are often 64 bytes in base64
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r := newReplayTracker(n, 1000)
		t0 := time.Unix(1793527200, 0)
		for i := range n {
			r.see(fmt.Sprintf("n\x00chatgpt.com\x00%s%08d", pad, i), fmt.Sprintf("10.%d.%d.%d", i>>16, (i>>8)&255, i&255), t0, t0.Add(time.Hour))
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/1e6, "MB")
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "B/entry")
		runtime.KeepAlive(r)
	}
}
