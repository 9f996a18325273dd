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

// TestStringIndexOrders: the index finds every string through its growth
// whether the ids come as the judge adds them (0, 1, 2, ...: each growth
// hashes the strings again in id order) or in any other order (in the
// order of the old slots).
func TestStringIndexOrders(t *testing.T) {
	var dict []string
	for i := 0; i < 5000; i++ {
		dict = append(dict, fmt.Sprintf("/p/%d", i))
	}
	orders := map[string]func(int) int32{
		"ascending":  func(i int) int32 { return int32(i) },
		"descending": func(i int) int32 { return int32(len(dict) - 1 - i) },
		"first two swapped": func(i int) int32 {
			if i < 2 {
				return int32(1 - i)
			}
			return int32(i)
		},
	}
	for name, order := range orders {
		x := newStringIndex()
		seen := map[int32]bool{}
		for i := range dict {
			id := order(i)
			if seen[id] {
				t.Fatalf("%s: id %d twice", name, id)
			}
			seen[id] = true
			x.add(dict, id)
		}
		for i, s := range dict {
			if id, ok := x.find(dict, s); !ok || id != int32(i) {
				t.Fatalf("%s: find(%q) = %d, %t; want %d", name, s, id, ok, i)
			}
		}
		if _, ok := x.find(dict, "/p/5000"); ok {
			t.Errorf("%s: found a string never added", name)
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
