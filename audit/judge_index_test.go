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

// TestStringIndexFindMany: findMany gives, for every key, what find gives
// (the id, or -1 when absent), with tagged and untagged ids, keys found at
// their first slot and keys displaced by collisions (a table three
// quarters full), absent keys, duplicates, and a last chunk shorter than
// findChunk.
func TestStringIndexFindMany(t *testing.T) {
	for _, limit := range []uint32{0, 100, slotIDMask} {
		x := newStringIndex()
		x.maxTagged = limit
		var dict []string
		for i := 0; i < 3000; i++ {
			dict = append(dict, fmt.Sprintf("/p/%d", i))
			x.add(dict, int32(i))
		}
		var keys []string
		for i := 0; i < 4000; i += 3 {
			keys = append(keys, fmt.Sprintf("/p/%d", i), fmt.Sprintf("/p/%d", i%7), "")
		}
		keys = append(keys, "/p/2999", "/p/3000", "/p/1")
		for _, n := range []int{0, 1, findChunk - 1, findChunk, findChunk + 1, len(keys)} {
			ids := make([]int32, n)
			for i := range ids {
				ids[i] = 12345 // overwritten
			}
			x.findMany(dict, ids, func(i int) string { return keys[i] })
			for i, got := range ids {
				want, ok := x.find(dict, keys[i])
				if !ok {
					want = -1
				}
				if got != want {
					t.Fatalf("limit %d, %d keys: findMany gives %q the id %d, find %d", limit, n, keys[i], got, want)
				}
			}
		}
	}
}

// TestTidTable: every id put is found with its value, through the
// table's growth and after a clear, and ids not put are not.
func TestTidTable(t *testing.T) {
	var x tidTable
	if _, ok := x.find(0); ok {
		t.Fatal("found an id in an empty table")
	}
	for round := 0; round < 2; round++ {
		for tid := int32(0); tid < 30000; tid += 3 {
			x.put(tid, uint32(tid)*10+1)
		}
		for tid := int32(0); tid < 31000; tid++ {
			v, ok := x.find(tid)
			want := tid < 30000 && tid%3 == 0
			if ok != want || ok && v != uint32(tid)*10+1 {
				t.Fatalf("round %d: find(%d) = %d, %t; want %t", round, tid, v, ok, want)
			}
		}
		x.clear()
		if _, ok := x.find(0); ok {
			t.Fatal("found an id after clear")
		}
	}
}
