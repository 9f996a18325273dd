//go:build duckdb_arrow

package audit

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/crawlaudit/crawlaudit/report/firewall"
)

// TestTopEntries checks that topEntries picks what a stable sort by requests
// (most first) and a cut at the limit picked, as the report showed before
// it stopped copying the list.
func TestTopEntries(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		n, limit, spread int
	}{
		{0, 10, 5}, {1, 10, 5}, {10, 10, 5}, {11, 10, 5}, {1000, 10, 3}, {1000, 50, 1000}, {100, 0, 5}, {5000, 25, 1},
	} {
		t.Run(fmt.Sprintf("%d-%d-%d", tc.n, tc.limit, tc.spread), func(t *testing.T) {
			entries := make([]firewall.Entry, tc.n)
			for i := range entries {
				entries[i].Counts[rng.IntN(int(firewall.NumKinds))] = int64(rng.IntN(tc.spread))
				entries[i].Counts[firewall.Spoofed] += int64(rng.IntN(tc.spread))
			}
			total := func(e firewall.Entry) int64 {
				var s int64
				for _, c := range e.Counts {
					s += c
				}
				return s
			}
			idx := make([]int, len(entries))
			for i := range idx {
				idx[i] = i
			}
			slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(total(entries[b]), total(entries[a])) })
			want := idx[:min(len(idx), tc.limit)]
			got := topEntries(entries, tc.limit)
			if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Errorf("topEntries = %v, want %v", got, want)
			}
		})
	}
}

// TestClaimArena checks that the claims of consecutive addresses stay their
// own across the arena's chunks, and that a claim set on one (Predates) is
// no other's.
func TestClaimArena(t *testing.T) {
	var a claimArena
	var got [][]firewall.Claim
	for i := range 3 * claimChunk {
		a.start()
		var cl []firewall.Claim
		for k := range i%3 + 1 {
			cl = a.add(fmt.Sprintf("bot%d", k), "unverified", "")
		}
		got = append(got, cl)
	}
	// An address with more claims than a chunk holds.
	a.start()
	var big []firewall.Claim
	for k := range claimChunk + 7 {
		big = a.add(fmt.Sprintf("bot%d", k%5), "spoofed", "")
	}
	if len(big) != claimChunk+7 || big[claimChunk+6].Bot != fmt.Sprintf("bot%d", (claimChunk+6)%5) || big[0].Bot != "bot0" {
		t.Fatalf("big address: %d claims, last %+v", len(big), big[len(big)-1])
	}
	for i, cl := range got {
		if len(cl) != i%3+1 || cap(cl) != len(cl) {
			t.Fatalf("address %d: %d claims (capacity %d), want %d", i, len(cl), cap(cl), i%3+1)
		}
		for k, c := range cl {
			if c.Bot != fmt.Sprintf("bot%d", k) || c.Identity != "unverified" || c.Predates {
				t.Fatalf("address %d claim %d = %+v", i, k, c)
			}
		}
	}
	got[1][0].Predates = true
	if got[0][0].Predates || got[2][0].Predates {
		t.Error("setting a claim of one address changed another's")
	}
}

// TestClaimArenaShare checks that addresses with the same claims share one
// slice and give the arena back its room, and that different claims do not.
func TestClaimArenaShare(t *testing.T) {
	var a claimArena
	claimsOf := func(pairs ...string) []firewall.Claim {
		a.start()
		var cl []firewall.Claim
		for i := 0; i < len(pairs); i += 2 {
			cl = a.add(pairs[i], pairs[i+1], "")
		}
		return a.share(cl)
	}
	x := claimsOf("Googlebot", "spoofed")
	used := len(a.chunk)
	y := claimsOf("Googlebot", "spoofed")
	z := claimsOf("Googlebot", "spoofed", "bingbot", "spoofed")
	w := claimsOf("Googlebot", "unverified")
	if &x[0] != &y[0] || len(a.chunk) != used+3 {
		t.Errorf("the same claims are not shared (arena %d claims, want %d)", len(a.chunk), used+3)
	}
	if &z[0] == &x[0] || len(z) != 2 || z[1].Bot != "bingbot" {
		t.Errorf("two claims %+v share the first's", z)
	}
	if &w[0] == &x[0] || w[0].Identity != "unverified" {
		t.Errorf("a claim of another identity %+v shares the spoofed one's", w)
	}
	if got := claimsOf(); len(got) != 0 {
		t.Errorf("no claims: %+v", got)
	}
}
