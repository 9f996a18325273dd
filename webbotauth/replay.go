package webbotauth

import (
	"crypto/sha256"
	"time"
)

// replayTracker remembers the nonces (or signatures) seen, with the client
// address that first sent each, in bounded memory: at most max entries, at
// most perAddr of them from one address, each forgotten once its signature
// has expired (a replay after that is expired anyway) or when it is the
// oldest and room is needed. Ids are kept as 128-bit digests: a nonce is
// often 88 characters, and a collision of two digests would take 2^64 ids.
type replayTracker struct {
	max, perAddr int
	seen         map[replayID]replayEntry
	order        []replayID // ids in order of first sight; order[head:] are live
	head         int
	byAddr       map[string]int
	// unrecorded counts ids not remembered because their address had
	// reached perAddr.
	unrecorded int64
}

type replayID [16]byte

type replayEntry struct {
	addr  string
	at    int64 // Unix seconds of the first sighting
	until int64 // Unix seconds after which the signature has expired
}

func newReplayTracker(max, perAddr int) *replayTracker {
	return &replayTracker{max: max, perAddr: perAddr, seen: map[replayID]replayEntry{}, byAddr: map[string]int{}}
}

// see records id sent by addr at t, valid until until. It reports the first
// sighting (its address and time) and whether this one is a replay: the
// same id seen before from another address. A request without an address
// is never called a replay (the log does not say who sent it) and is not
// remembered.
func (r *replayTracker) see(id, addr string, t, until time.Time) (firstAddr string, firstAt time.Time, replayed bool) {
	r.expire(t.Unix())
	sum := sha256.Sum256([]byte(id))
	var k replayID
	copy(k[:], sum[:16])
	if e, ok := r.seen[k]; ok {
		return e.addr, time.Unix(e.at, 0), addr != "" && e.addr != addr
	}
	if addr == "" {
		return "", time.Time{}, false
	}
	if r.byAddr[addr] >= r.perAddr {
		r.unrecorded++
		return "", time.Time{}, false
	}
	r.seen[k] = replayEntry{addr: addr, at: t.Unix(), until: until.Unix()}
	r.byAddr[addr]++
	r.order = append(r.order, k)
	for len(r.seen) > r.max {
		r.forgetOldest()
	}
	return "", time.Time{}, false
}

// expire forgets the oldest entries whose signatures expired before t.
func (r *replayTracker) expire(t int64) {
	for r.head < len(r.order) {
		e, ok := r.seen[r.order[r.head]]
		if ok && e.until >= t {
			return
		}
		r.forgetOldest()
	}
}

func (r *replayTracker) forgetOldest() {
	if r.head >= len(r.order) {
		return
	}
	k := r.order[r.head]
	r.head++
	if e, ok := r.seen[k]; ok {
		delete(r.seen, k)
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
