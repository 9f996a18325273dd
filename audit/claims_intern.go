package audit

import "hash/maphash"

// stringIndex finds the id of a string of the judge's dict (judge.intern):
// open addressing over slots that hold id+1 (0: empty), the strings
// themselves staying in the dict. It costs 6 to 12 bytes per string where
// a map[string]int32 costs about 40: with millions of invented bot names,
// which are interned whatever the budget (issue 12), that is the judge's
// largest cost per bot name.
type stringIndex struct {
	seed  maphash.Seed
	slots []int32
	n     int
}

func newStringIndex() *stringIndex {
	return &stringIndex{seed: maphash.MakeSeed(), slots: make([]int32, 1024)}
}

// find returns the id of s in dict, and whether it is there.
func (x *stringIndex) find(dict []string, s string) (int32, bool) {
	mask := uint64(len(x.slots) - 1)
	for i := maphash.String(x.seed, s) & mask; ; i = (i + 1) & mask {
		v := x.slots[i]
		if v == 0 {
			return -1, false
		}
		if dict[v-1] == s {
			return v - 1, true
		}
	}
}

// add records that dict[id] is the string of id; it must not be there yet.
func (x *stringIndex) add(dict []string, id int32) {
	if (x.n+1)*4 > len(x.slots)*3 { // at most three quarters full
		old := x.slots
		x.slots = make([]int32, 2*len(old))
		for _, v := range old {
			if v != 0 {
				x.put(dict[v-1], v)
			}
		}
	}
	x.put(dict[id], id+1)
	x.n++
}

func (x *stringIndex) put(s string, v int32) {
	mask := uint64(len(x.slots) - 1)
	i := maphash.String(x.seed, s) & mask
	for x.slots[i] != 0 {
		i = (i + 1) & mask
	}
	x.slots[i] = v
}

// len returns the number of strings indexed.
func (x *stringIndex) len() int { return x.n }
