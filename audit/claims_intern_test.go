package audit

import (
	"fmt"
	"testing"
)

// TestStringIndexUntagged: ids past the tagged ones (2^25 and more, here
// past a lowered limit) are found like the others, next to tagged ones.
func TestStringIndexUntagged(t *testing.T) {
	for _, limit := range []uint32{0, 1, 100, 3000} {
		x := newStringIndex()
		x.maxTagged = limit
		var dict []string
		for i := 0; i < 5000; i++ {
			dict = append(dict, fmt.Sprintf("s%d", i))
			x.add(dict, int32(i))
		}
		for i, s := range dict {
			if id, ok := x.find(dict, s); !ok || id != int32(i) {
				t.Fatalf("limit %d: find(%q) = %d, %t; want %d", limit, s, id, ok, i)
			}
		}
		for _, s := range []string{"", "s", "s5000", "x0"} {
			if id, ok := x.find(dict, s); ok {
				t.Errorf("limit %d: find(%q) = %d, not added", limit, s, id)
			}
		}
	}
}

// TestDecisionCache: every pair put is found with its value, through the
// cache's growth and after a clear, and pairs not put are not.
func TestDecisionCache(t *testing.T) {
	var c decisionCache
	if _, ok := c.find(1, 0); ok {
		t.Fatal("found a pair in an empty cache")
	}
	for round := 0; round < 2; round++ {
		for g := uint32(1); g <= 7; g++ {
			for tid := int32(0); tid < 3000; tid += int32(g) {
				c.put(g, tid, uint32(tid)*10+g)
			}
		}
		for g := uint32(1); g <= 8; g++ {
			for tid := int32(0); tid < 3100; tid++ {
				v, ok := c.find(g, tid)
				want := g <= 7 && tid < 3000 && tid%int32(g) == 0
				if ok != want || ok && v != uint32(tid)*10+g {
					t.Fatalf("round %d: find(%d, %d) = %d, %t; want %t", round, g, tid, v, ok, want)
				}
			}
		}
		c.clear()
		if _, ok := c.find(1, 0); ok {
			t.Fatal("found a pair after clear")
		}
	}
}
