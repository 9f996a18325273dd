package measure

import (
	"cmp"
	"slices"
	"sort"
)

// Limit is what robots.txt put in force at a request: a Crawl-delay and a
// Request-rate n/t.
type Limit struct {
	CrawlDelay float64 // seconds
	HasDelay   bool
	// DelayIgnored: the crawler's operator says it ignores Crawl-delay
	// (policies.crawl_delay_ignored).
	DelayIgnored bool
	RateN, RateS int32 // Request-rate n/t: n requests per t seconds
	HasRate      bool
}

// Request is one request of a key (a bot, host and identity) for the
// windows. File and Line order requests at one instant as
// queries/measures.sql does (by time, file, line); Limit is the index of
// what was in force at it in the limits given to Windows.Breaches, -1 for
// nothing. Key is the caller's (BreachesBy counts the breaches per Key; a
// lean audit's block list gives each request its client address's).
type Request struct {
	US    int64 // Unix µs
	Line  int64
	File  int32
	Limit int32
	Key   int32
}

// Compare orders requests as window_measures does: by time, file, line.
func Compare(a, b Request) int {
	// A switch, not cmp.Or, which would compare all three: Add calls it
	// once per request of the judge's stream.
	switch {
	case a.US != b.US:
		return cmp.Compare(a.US, b.US)
	case a.File != b.File:
		return cmp.Compare(a.File, b.File)
	}
	return cmp.Compare(a.Line, b.Line)
}

// Windows gathers one key's requests, in any order, for the Crawl-delay
// and Request-rate windows (as docs/reading-the-audit.md defines them;
// window_measures in queries/measures.sql). The zero value is ready.
type Windows struct {
	// reqs holds the first requests, grown by append up to
	// firstWindowBlock; the others go to blocks, each filled to its
	// capacity before the next, twice as large up to maxBlock, is made.
	// Grown by append alone, a big key's slice would be copied at every
	// growth (by a quarter past 256 requests): about five times its final
	// size allocated and written, each page faulted in fresh, where the
	// blocks cost their size once (and one copy, in the background, if
	// the requests must be sorted: all).
	reqs     []Request
	blocks   [][]Request
	n        int
	unsorted bool // a request came before the one before it
}

// firstWindowBlock is how many requests Windows keeps in its first slice
// (16 KiB): a small key costs no more than that, and a hostile log's
// thousands of keys of one request each no more than a few.
const firstWindowBlock = 512

// Add takes one request.
func (w *Windows) Add(r Request) {
	if w.n > 0 && !w.unsorted && Compare(r, w.lastReq()) < 0 {
		w.unsorted = true
	}
	w.n++
	if len(w.blocks) == 0 && (len(w.reqs) < firstWindowBlock || len(w.reqs) < cap(w.reqs)) {
		w.reqs = append(w.reqs, r)
		return
	}
	if k := len(w.blocks); k == 0 || len(w.blocks[k-1]) == cap(w.blocks[k-1]) {
		size := 2 * firstWindowBlock
		if k > 0 {
			size = min(2*cap(w.blocks[k-1]), maxBlock)
		}
		w.blocks = append(w.blocks, make([]Request, 0, size))
	}
	b := &w.blocks[len(w.blocks)-1]
	*b = append(*b, r)
}

// lastReq returns the request taken last; there is one.
func (w *Windows) lastReq() Request {
	if k := len(w.blocks); k > 0 {
		b := w.blocks[k-1]
		return b[len(b)-1]
	}
	return w.reqs[len(w.reqs)-1]
}

// all puts every request taken in reqs, in the order taken.
func (w *Windows) all() {
	if len(w.blocks) == 0 {
		return
	}
	out := make([]Request, 0, w.n)
	out = append(out, w.reqs...)
	for _, b := range w.blocks {
		out = append(out, b...)
	}
	w.reqs, w.blocks = out, nil
}

// Merge takes o's requests.
func (w *Windows) Merge(o *Windows) {
	for _, r := range o.reqs {
		w.Add(r)
	}
	for _, b := range o.blocks {
		for _, r := range b {
			w.Add(r)
		}
	}
}

// Len returns the number of requests taken.
func (w *Windows) Len() int { return w.n }

// Breaches are what a key's requests breached.
type Breaches struct {
	CrawlDelay  int64 // crawl_delay_breaches
	RequestRate int64 // request_rate_breaches
	// CrawlDelayUnsupported counts the gaps shorter than a Crawl-delay the
	// crawler's operator says it ignores (crawl_delay_unsupported).
	CrawlDelayUnsupported int64
}

// Measure is what window_measures says of one request.
type Measure struct {
	GapUS  int64 // µs since the key's previous request; HasGap false for its first
	HasGap bool
	// RateCount is the number of the key's requests in (its time − t, its
	// time]; HasCount false where no Request-rate is in force.
	RateCount                                        int64
	HasCount                                         bool
	CrawlDelayBreach, RequestRateBreach, Unsupported bool
}

// Each sorts the requests (Compare) and calls f with each request and its
// Measure, in that order, under limits; a spoofed key is held to the
// Crawl-delay its claimed crawler ignores. It reports whether any request
// had a Crawl-delay or Request-rate in force.
//
// The definitions are those of window_measures, to the microsecond and the
// floating-point comparison: a request breaches the Crawl-delay when the
// gap since the previous request is shorter (a BIGINT compared with a
// DOUBLE, as DuckDB compares them), and the Request-rate n/t when more
// than n of the key's requests lie in [its time − (t × 10^6 − 1) µs, its
// time], every request at the same instant included (a RANGE frame).
func (w *Windows) Each(limits []Limit, spoofed bool, f func(Request, Measure)) (limited bool) {
	w.all()
	rated := false
	for _, r := range w.reqs {
		if r.Limit >= 0 {
			rated = rated || limits[r.Limit].HasRate
		}
	}
	limited = w.limited(limits)
	if w.unsorted {
		slices.SortFunc(w.reqs, Compare)
		w.unsorted = false
	}
	var times []int64
	if rated {
		times = make([]int64, len(w.reqs))
		for i, r := range w.reqs {
			times[i] = r.US
		}
	}
	for j, r := range w.reqs {
		var m Measure
		if j > 0 {
			m.GapUS, m.HasGap = r.US-w.reqs[j-1].US, true
		}
		if r.Limit >= 0 {
			l := &limits[r.Limit]
			if l.HasDelay && m.HasGap && float64(m.GapUS) < l.CrawlDelay*1e6 {
				if l.DelayIgnored && !spoofed {
					m.Unsupported = true
				} else {
					m.CrawlDelayBreach = true
				}
			}
			if l.HasRate {
				lo := r.US - (int64(l.RateS)*1_000_000 - 1)
				first := sort.Search(len(times), func(x int) bool { return times[x] >= lo })
				end := j + sort.Search(len(times)-j, func(x int) bool { return times[j+x] > r.US })
				m.RateCount, m.HasCount = int64(end-first), true
				m.RequestRateBreach = m.RateCount > int64(l.RateN)
			}
		}
		f(r, m)
	}
	return limited
}

// Breaches returns what the requests breached under limits (see Each),
// and whether any had a limit in force.
func (w *Windows) Breaches(limits []Limit, spoofed bool) (b Breaches, limited bool) {
	return w.BreachesBy(limits, spoofed, nil)
}

// BreachesBy returns what Breaches returns, and calls by with the Key of
// each request that breached the Crawl-delay or the Request-rate (the
// same flags Breaches counts), so that a caller can count them per its own
// key: a lean audit's block list counts them per client address. by may
// be nil.
func (w *Windows) BreachesBy(limits []Limit, spoofed bool, by func(key int32, crawlDelay, requestRate bool)) (b Breaches, limited bool) {
	if !w.limited(limits) {
		return b, false
	}
	limited = w.Each(limits, spoofed, func(r Request, m Measure) {
		switch {
		case m.CrawlDelayBreach:
			b.CrawlDelay++
		case m.Unsupported:
			b.CrawlDelayUnsupported++
		}
		if m.RequestRateBreach {
			b.RequestRate++
		}
		if by != nil && (m.CrawlDelayBreach || m.RequestRateBreach) {
			by(r.Key, m.CrawlDelayBreach, m.RequestRateBreach)
		}
	})
	return b, limited
}

// limited reports whether a request had a Crawl-delay or Request-rate in
// force.
func (w *Windows) limited(limits []Limit) bool {
	w.all()
	for _, r := range w.reqs {
		if r.Limit >= 0 && (limits[r.Limit].HasDelay || limits[r.Limit].HasRate) {
			return true
		}
	}
	return false
}
