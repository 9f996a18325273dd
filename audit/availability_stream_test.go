package audit

import (
	"math/rand/v2"
	"testing"
)

// TestAvailHostPush holds the buffer of a host's requests before its first
// failed /robots.txt answer (availHost.push) to what streamAvail needs of
// it: every request less than availSlack older than the latest is kept
// (a period that begins later may cover it), the count of dropped requests
// adds up, droppedMax is at least the latest dropped request (the SQL then
// runs for a period that begins before it), and the buffer stays within
// the slack (or availKeep) plus two blocks however long the month. Five weeks of requests
// every 20 s, in time order and shuffled within ten-minute runs.
func TestAvailHostPush(t *testing.T) {
	const (
		step  = 20 * 1_000_000 // µs between requests
		count = 5 * 7 * 24 * 3600 / 20
	)
	for _, shuffled := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(9309, 2026))
		us := make([]int64, count)
		for i := range us {
			us[i] = int64(i) * step
		}
		if shuffled {
			for i := 0; i < count; i += 30 {
				run := us[i:min(i+30, count)]
				rng.Shuffle(len(run), func(a, b int) { run[a], run[b] = run[b], run[a] })
			}
		}
		var h availHost
		dropped := 0
		for i, u := range us {
			dropped += h.push(availReq{rid: int64(i), us: u})
		}
		kept := map[int64]bool{}
		for _, b := range h.pending {
			for _, q := range b.reqs {
				kept[q.rid] = true
			}
		}
		if len(kept)+dropped != count {
			t.Fatalf("shuffled %t: %d kept + %d dropped != %d pushed", shuffled, len(kept), dropped, count)
		}
		if dropped == 0 || !h.dropped {
			t.Fatalf("shuffled %t: five weeks of requests, none dropped (%d kept)", shuffled, len(kept))
		}
		latest := int64(count-1) * step
		if h.latest != latest {
			t.Errorf("shuffled %t: latest %d, want %d", shuffled, h.latest, latest)
		}
		var lastDropped int64 = -1
		for i, u := range us {
			if kept[int64(i)] {
				continue
			}
			lastDropped = max(lastDropped, u)
			if u >= latest-availSlack {
				t.Fatalf("shuffled %t: request at %d dropped, within the slack of the latest %d", shuffled, u, latest)
			}
		}
		if h.droppedMax < lastDropped {
			t.Errorf("shuffled %t: droppedMax %d before the latest dropped request %d", shuffled, h.droppedMax, lastDropped)
		}
		if limit := max(int(availSlack/step), availKeep) + 2*maxAvailBlock; len(kept) > limit {
			t.Errorf("shuffled %t: %d requests kept, more than the slack's %d (at least %d) and two blocks", shuffled, len(kept), int(availSlack/step), availKeep)
		}
	}
}

// TestAvailHostPushSmall: a host with fewer than availKeep requests loses
// none, however late its earlier requests come: the second half of a month
// first, then the first half (a parser's later batch judged before an
// earlier one).
func TestAvailHostPushSmall(t *testing.T) {
	const n = 20000
	month := int64(30 * 24 * 3600 * 1_000_000)
	var h availHost
	dropped := 0
	for _, half := range [][2]int{{n / 2, n}, {0, n / 2}} {
		for i := half[0]; i < half[1]; i++ {
			dropped += h.push(availReq{rid: int64(i), us: month * int64(i) / n})
		}
	}
	if dropped != 0 || h.dropped || h.n != n {
		t.Fatalf("%d dropped (flag %t), %d kept of %d", dropped, h.dropped, h.n, n)
	}
}
