package audit

import (
	"math"
	"time"

	"github.com/crawlaudit/crawlaudit/robots/history"
)

// uncertainFrom returns, by version ID, the instant (µs) from which the
// next version of the same host may already have been live (uncertainSince
// of that version), math.MaxInt64 when there is no such instant. A history
// rebuilt from the web archive knows only that a version went live between
// the last capture of the one before and its own first capture, so a
// request in between is judged by both (docs/robots-history.md).
func uncertainFrom(hist *history.History) []int64 {
	all := hist.All()
	out := make([]int64, len(all))
	for i := range out {
		out[i] = math.MaxInt64
	}
	for hi := range hist.NumHosts() {
		first, end := hist.VersionIDs(hi)
		for id := first; id+1 < end; id++ {
			if nb, ok := uncertainSince(all[id], all[id+1]); ok {
				out[id] = nb.UnixMicro()
			}
		}
	}
	return out
}

// uncertainSince returns the earliest instant at which v, the version of
// its host after prev, may have gone live, when that is before v.Start:
// v.NotBefore, but never before prev went live (v cannot have replaced prev
// before prev was live). ok is false when v surely went live at v.Start.
func uncertainSince(prev, v history.Version) (t time.Time, ok bool) {
	if v.NotBefore.IsZero() || v.Start.IsZero() || !v.NotBefore.Before(v.Start) {
		return time.Time{}, false
	}
	t = v.NotBefore
	if !prev.Start.IsZero() && t.Before(prev.Start) {
		t = prev.Start
	}
	return t.UTC(), t.Before(v.Start)
}

// judgeUncertain judges a request at us on the history host hi, made while
// version id was in effect but the next version (id+1) may already have
// been live (us >= j.unsureFrom[id]); dec is id's decision on the target.
// It returns the verdict and the decision whose rule the row carries:
//
//   - both versions allow: allowed;
//   - one allows and the other disallows: disallowed_in_grace (the crawler
//     may have met the version that allows), with the disallowing rule;
//   - both disallow: disallowed, or disallowed_in_grace when a version
//     that may have been in effect a grace period earlier allowed (the
//     24 h cache of RFC 9309 §2.4).
//
// A user-triggered fetcher's request that either version disallows is
// user_triggered, as it is without uncertainty.
func (j *judge) judgeUncertain(uas *uaState, hi, id int, us int64, dec decision, target string, tid int32) (int, decision) {
	next := j.decide(j.group(uas, id+1), target, tid)
	switch {
	case dec.allowed && next.allowed:
		return vAllowed, dec
	case !dec.allowed && !next.allowed:
		if uas.rule.UserTriggered {
			return vUserTriggered, dec
		}
		if uas.graceUS > 0 && j.cachedAllows(uas, hi, id, us-uas.graceUS, target, tid) {
			return vInGrace, dec
		}
		return vDisallowed, dec
	}
	if dec.allowed {
		dec = next
	}
	if uas.rule.UserTriggered {
		return vUserTriggered, dec
	}
	return vInGrace, dec
}

// cachedAllows reports whether a version that may have been in effect at
// the instant at (a grace period before a request judged by version id,
// which disallows it) allows the target: the version in effect then, or the
// next one when at lies in its uncertain interval.
func (j *judge) cachedAllows(uas *uaState, hi, id int, at int64, target string, tid int32) bool {
	old, ok := j.hist.AtMicros(hi, at)
	if !ok {
		return false
	}
	if old != id && j.decide(j.group(uas, old), target, tid).allowed {
		return true
	}
	// The next version may have been live at the earlier instant too. It
	// is id itself, or a version between, when old != id; when old == id
	// it is id+1, which the caller has found disallowing.
	if n := old + 1; at >= j.unsureFrom[old] && n != id && n != id+1 {
		return j.decide(j.group(uas, n), target, tid).allowed
	}
	return false
}
