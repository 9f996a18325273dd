package measure

import "slices"

// Reaction gathers what one key did in the window after one robots.txt
// change (queries/changes.sql), from its requests in that window in any
// order: its first /robots.txt request, the requests each rule disallowed
// and the times of its other requests, from which Finish finds the first
// it made after the last breach once the rules the change added are known.
// The zero value is ready.
type Reaction struct {
	HasFetch   bool
	FirstFetch int64 // Unix µs
	Breaks     []RuleBreaks
	Times      []int64 // of the requests not for /robots.txt
}

// RuleBreaks are the requests a rule disallowed: the times of those not for
// /robots.txt (which a period of unavailable robots.txt may allow), and
// the last and number of those for it (which no period changes).
type RuleBreaks struct {
	Rule      int32 // the caller's number for the rule
	Times     []int64
	FetchLast int64
	FetchN    int64
}

// Add takes one request in the window: at us, for /robots.txt or not
// (fetch), disallowed by rule (-1: not disallowed, or allowed). It returns
// how many times it kept (0 to 2), for a caller that bounds its memory.
func (r *Reaction) Add(us int64, fetch bool, rule int32) (kept int) {
	if fetch {
		if !r.HasFetch || us < r.FirstFetch {
			r.HasFetch, r.FirstFetch = true, us
		}
	} else {
		r.Times = appendTime(r.Times, us)
		kept++
	}
	if rule < 0 {
		return kept
	}
	b := slices.IndexFunc(r.Breaks, func(rb RuleBreaks) bool { return rb.Rule == rule })
	if b < 0 {
		b = len(r.Breaks)
		r.Breaks = append(r.Breaks, RuleBreaks{Rule: rule})
	}
	rb := &r.Breaks[b]
	if fetch {
		rb.FetchLast, rb.FetchN = max(rb.FetchLast, us), rb.FetchN+1
		return kept
	}
	rb.Times = appendTime(rb.Times, us)
	return kept + 1
}

// maxDoubledTimes is the length up to which appendTime doubles a full
// slice (512 KiB of times).
const maxDoubledTimes = 1 << 16

// appendTime appends us to ts, doubling a full slice of 256 to
// maxDoubledTimes times where append would add a quarter: the times of a
// busy crawler's key are then allocated, copied and faulted in about twice
// their size, not five times.
func appendTime(ts []int64, us int64) []int64 {
	if n := len(ts); n == cap(ts) && n >= 256 && n < maxDoubledTimes {
		ts = slices.Grow(ts, n)
	}
	return append(ts, us)
}

// Merge takes o's requests.
func (r *Reaction) Merge(o *Reaction) {
	if o.HasFetch && (!r.HasFetch || o.FirstFetch < r.FirstFetch) {
		r.HasFetch, r.FirstFetch = true, o.FirstFetch
	}
	r.Times = append(r.Times, o.Times...)
	for _, ob := range o.Breaks {
		b := slices.IndexFunc(r.Breaks, func(rb RuleBreaks) bool { return rb.Rule == ob.Rule })
		if b < 0 {
			r.Breaks = append(r.Breaks, RuleBreaks{Rule: ob.Rule, Times: slices.Clone(ob.Times), FetchLast: ob.FetchLast, FetchN: ob.FetchN})
			continue
		}
		rb := &r.Breaks[b]
		rb.Times = append(rb.Times, ob.Times...)
		rb.FetchLast, rb.FetchN = max(rb.FetchLast, ob.FetchLast), rb.FetchN+ob.FetchN
	}
}

// Marks are what changes.sql says of a key's requests in a change's
// window; a Has* false is SQL's NULL.
type Marks struct {
	HasFetch   bool
	FirstFetch int64 // first /robots.txt request
	// Breaking counts the requests an added Disallow rule disallowed, the
	// last at LastBreak.
	Breaking  int64
	LastBreak int64
	// FirstObeying is the first request not for /robots.txt after both
	// the last breach and the first /robots.txt request.
	HasObeying   bool
	FirstObeying int64
}

// Finish returns the Marks, counting the breaches of the rules for which
// added is true (the Disallow rules the change added to the bot's group);
// still, when not nil, says whether a breach not for /robots.txt at us
// still is one once the periods of unreachable or unavailable robots.txt
// are applied.
func (r *Reaction) Finish(added func(rule int32) bool, still func(us int64) bool) Marks {
	m := Marks{HasFetch: r.HasFetch, FirstFetch: r.FirstFetch}
	for _, b := range r.Breaks {
		if !added(b.Rule) {
			continue
		}
		if b.FetchN > 0 {
			if m.Breaking == 0 || b.FetchLast > m.LastBreak {
				m.LastBreak = b.FetchLast
			}
			m.Breaking += b.FetchN
		}
		for _, us := range b.Times {
			if still != nil && !still(us) {
				continue
			}
			if m.Breaking == 0 || us > m.LastBreak {
				m.LastBreak = us
			}
			m.Breaking++
		}
	}
	after, hasAfter := r.FirstFetch, r.HasFetch
	if m.Breaking > 0 && (!hasAfter || m.LastBreak > after) {
		after, hasAfter = m.LastBreak, true
	}
	for _, t := range r.Times {
		if (!hasAfter || t > after) && (!m.HasObeying || t < m.FirstObeying) {
			m.FirstObeying, m.HasObeying = t, true
		}
	}
	return m
}
