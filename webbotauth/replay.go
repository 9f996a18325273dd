package webbotauth

import "time"

// replayTracker remembers the nonces (or signatures) seen, with the client
// address that first sent each, in bounded memory: at most max entries, at
// most perAddr of them from one address, each forgotten once its signature
// has expired (a replay after that is expired anyway) or when it is the
// oldest and room is needed.
type replayTracker struct {
	max, perAddr int
	seen         map[string]replayEntry
	order        []string // ids in order of first sight; order[head:] are live
	head         int
	byAddr       map[string]int
	// Unrecorded counts ids not remembered because their address had
	// reached perAddr.
	unrecorded int64
}

type replayEntry struct {
	addr  string
	at    time.Time
	until time.Time
}

func newReplayTracker(max, perAddr int) *replayTracker {
	return &replayTracker{max: max, perAddr: perAddr, seen: map[string]replayEntry{}, byAddr: map[string]int{}}
}

// see records id sent by addr at t, valid until until. It reports the first
// sighting and whether this one is a replay: the same id seen before from
// another address. A request without an address is never called a replay
// (the log does not say who sent it) and is not remembered.
func (r *replayTracker) see(id, addr string, t, until time.Time) (replayEntry, bool) {
	r.expire(t)
	if e, ok := r.seen[id]; ok {
		return e, addr != "" && e.addr != addr
	}
	if addr == "" {
		return replayEntry{}, false
	}
	if r.byAddr[addr] >= r.perAddr {
		r.unrecorded++
		return replayEntry{}, false
	}
	r.seen[id] = replayEntry{addr: addr, at: t, until: until}
	r.byAddr[addr]++
	r.order = append(r.order, id)
	for len(r.seen) > r.max {
		r.forgetOldest()
	}
	return replayEntry{}, false
}

// expire forgets the oldest entries whose signatures expired before t.
func (r *replayTracker) expire(t time.Time) {
	for r.head < len(r.order) {
		e, ok := r.seen[r.order[r.head]]
		if ok && !e.until.Before(t) {
			return
		}
		r.forgetOldest()
	}
}

func (r *replayTracker) forgetOldest() {
	if r.head >= len(r.order) {
		return
	}
	id := r.order[r.head]
	r.order[r.head] = ""
	r.head++
	if e, ok := r.seen[id]; ok {
		delete(r.seen, id)
		if r.byAddr[e.addr]--; r.byAddr[e.addr] <= 0 {
			delete(r.byAddr, e.addr)
		}
	}
	// Compact once half the slice is dead, so that it does not grow
	// without bound.
	if r.head > 1024 && r.head*2 > len(r.order) {
		r.order = append(r.order[:0], r.order[r.head:]...)
		r.head = 0
	}
}

// size returns the number of ids remembered.
func (r *replayTracker) size() int { return len(r.seen) }
