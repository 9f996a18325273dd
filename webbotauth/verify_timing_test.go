package webbotauth

import "testing"

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
