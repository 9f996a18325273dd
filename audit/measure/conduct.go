package measure

import (
	"cmp"
	"math"
	"math/bits"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

// ConductRequest is what Conduct keeps of one request of a key: its time,
// which URL it asked for (the caller's number for the target: the same
// target always gets the same number), its status (-1 when none was
// logged) and the wait its answer's Retry-After asked for (see
// ParseRetryAfter; -1 when none was logged or it could not be read).
type ConductRequest struct {
	US     int64 // Unix µs
	URL    uint64
	WaitS  int32 // seconds
	Status int16
}

// DefaultWaitUS is the wait after an error answer that carries no
// Retry-After: one second. A crawler that backs off at all waits longer
// than that before it asks again (draft-illyes-webbotauth-cbcp-01 §2.3 asks
// for back-off on the signals of RFC 9110 §15.6 without a figure).
const DefaultWaitUS = 1_000_000

// IsErrorAnswer reports whether a status tells the crawler to back off:
// 429 Too Many Requests (RFC 6585 §4) or any 5xx (RFC 9110 §15.6).
func IsErrorAnswer(status int32) bool {
	return status == 429 || status >= 500 && status <= 599
}

// ContactPattern matches a User-Agent that carries a way to reach the
// crawler's operator: a URL ("+https://example.com/bot.html",
// "www.example.com/bot") or an e-mail address
// (draft-illyes-webbotauth-cbcp-01 §2.2 and §2.6). It is RE2 syntax, so
// that Go and DuckDB's regexp_matches read it alike.
const ContactPattern = `(?i)(https?://[^\s;)]+|www\.[a-z0-9-]+\.[a-z]{2,}|[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,})`

var contactRE = regexp.MustCompile(ContactPattern)

// HasContact reports whether a User-Agent matches ContactPattern.
func HasContact(ua string) bool { return contactRE.MatchString(ua) }

// maxWaitS bounds a Retry-After's wait to a year: a larger one is a
// misconfiguration, and the bound keeps it in an int32.
const maxWaitS = 366 * 24 * 3600

// ParseRetryAfter reads a Retry-After header (RFC 9110 §10.2.3): either
// delay-seconds (1*DIGIT) or an HTTP-date, which is the wait from the
// answer's time atUS (the request's time: logs have no other). A date
// already past waits 0 s. The three date forms of RFC 9110 §5.6.7
// (IMF-fixdate and the obsolete RFC 850 and asctime forms) are accepted, as
// a recipient must. ok is false for anything else ("-", "soon", "-5").
func ParseRetryAfter(v string, atUS int64) (waitS int32, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if v[0] >= '0' && v[0] <= '9' {
		n := int64(0)
		for i := 0; i < len(v); i++ {
			c := v[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			if n < maxWaitS {
				n = n*10 + int64(c-'0')
			}
		}
		return int32(min(n, maxWaitS)), true
	}
	for _, layout := range httpDateLayouts {
		t, err := time.Parse(layout, v)
		if err != nil {
			continue
		}
		d := t.Unix() - floorDiv(atUS, 1_000_000)
		return int32(max(0, min(d, maxWaitS))), true
	}
	return 0, false
}

// httpDateLayouts are IMF-fixdate, RFC 850 and asctime (RFC 9110 §5.6.7).
var httpDateLayouts = []string{
	"Mon, 02 Jan 2006 15:04:05 GMT",
	"Monday, 02-Jan-06 15:04:05 GMT",
	"Mon Jan _2 15:04:05 2006",
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// Conduct gathers one key's requests, in any order, for the measures of
// its conduct that need its history (queries/conduct.sql is the same
// definition over stored rows). The zero value is ready.
type Conduct struct {
	// blocks hold the requests; each is filled to its capacity before the
	// next, twice as large up to maxBlock, is made: nothing is copied as
	// a big crawler's requests come in.
	blocks [][]ConductRequest
	n      int
}

// maxBlock is the largest block of Conduct (96 KiB) and of Windows (128
// KiB), in requests.
const maxBlock = 4096

// Add takes one request.
func (c *Conduct) Add(r ConductRequest) {
	if k := len(c.blocks); k == 0 || len(c.blocks[k-1]) == cap(c.blocks[k-1]) {
		size := 64
		if k > 0 {
			size = min(2*cap(c.blocks[k-1]), maxBlock)
		}
		c.blocks = append(c.blocks, make([]ConductRequest, 0, size))
	}
	b := &c.blocks[len(c.blocks)-1]
	*b = append(*b, r)
	c.n++
}

// Len returns the number of requests taken.
func (c *Conduct) Len() int { return c.n }

// Merge takes the requests of o.
func (c *Conduct) Merge(o *Conduct) {
	for _, b := range o.blocks {
		for _, r := range b {
			c.Add(r)
		}
	}
}

// all returns every request taken, in one slice.
func (c *Conduct) all() []ConductRequest {
	out := make([]ConductRequest, 0, c.n)
	for _, b := range c.blocks {
		out = append(out, b...)
	}
	return out
}

// ConductResult is what Finish measures of a key's requests.
type ConductResult struct {
	// NoBackoff counts the requests sent while an earlier error answer
	// (IsErrorAnswer) asked the crawler to wait: after it, and no later
	// than its Retry-After (DefaultWaitUS without one). A request counts
	// once however many answers it ignored.
	NoBackoff int64
	// RepeatFetches counts the fetches of a URL after the key's first of
	// it (fetches at the same instant: a 304 after another answer);
	// NotModified those of them answered 304.
	RepeatFetches, NotModified int64
	// RefetchMedianUS is the median time between consecutive fetches of
	// the same URL (the mean of the two middle ones for an even count);
	// HasRefetch is false when no URL was fetched twice.
	RefetchMedianUS float64
	HasRefetch      bool
}

// Finish measures the requests taken. It reorders them, so it is called
// once. It is on the audit's critical path (the judge's stream calls it once
// the logs are read), so it sorts once, machine words rather than structs:
// the back-off needs no order (the waits the error answers ask for are
// merged into intervals, and each request is looked up in them), and the
// fetches of a URL are ordered by a key that packs the URL's number, the
// time and whether the answer was 304.
func (c *Conduct) Finish() ConductResult {
	var res ConductResult
	if c.n == 0 {
		return res
	}
	first := c.blocks[0][0]
	minUS, maxUS, maxURL := first.US, first.US, first.URL
	seconds := true // every time a whole second: the keys count seconds
	var waits []interval
	for _, b := range c.blocks {
		for _, r := range b {
			minUS, maxUS, maxURL = min(minUS, r.US), max(maxUS, r.US), max(maxURL, r.URL)
			seconds = seconds && r.US%1_000_000 == 0
			if IsErrorAnswer(int32(r.Status)) {
				wait := int64(DefaultWaitUS)
				if r.WaitS >= 0 {
					wait = int64(r.WaitS) * 1_000_000
				}
				waits = append(waits, interval{r.US, r.US + wait})
			}
		}
	}
	if len(waits) > 0 {
		res.NoBackoff = c.countWithin(mergeIntervals(waits))
	}

	// The fetches of each URL in time order, a 304 after another answer at
	// the same instant: packed as URL<<(tBits+1) | (time − first)<<1 |
	// is304, the time in seconds where every one is whole, the URLs
	// numbered densely where their own numbers do not fit; else sorted as
	// structs. Fewer bits are fewer passes of the radix sort.
	unit := int64(1)
	if seconds {
		unit = 1_000_000
	}
	tBits := bits.Len64(uint64((maxUS - minUS) / unit))
	var dense map[uint64]uint64
	if bits.Len64(maxURL)+tBits+1 > 64 {
		dense = make(map[uint64]uint64)
	}
	keys := make([]uint64, 0, c.n)
	for _, b := range c.blocks {
		for _, r := range b {
			u := r.URL
			if dense != nil {
				d, ok := dense[u]
				if !ok {
					d = uint64(len(dense))
					dense[u] = d
				}
				u = d
			}
			k := uint64((r.US-minUS)/unit) << 1
			if r.Status == 304 {
				k |= 1
			}
			keys = append(keys, u<<(tBits+1)|k)
		}
	}
	if dense != nil && bits.Len(uint(len(dense)))+tBits+1 > 64 {
		return finishStructs(c.all(), res)
	}
	// The sorted keys are in one of the two slices; the gaps go into the
	// other, and the keys' slice, once read, is the scratch that sorts them.
	orig, free := keys, make([]uint64, len(keys))
	keys = radixSort(orig, free)
	if &keys[0] == &free[0] {
		free = orig
	}
	tMask := uint64(1)<<tBits - 1
	gaps := free[:0]
	for i := 1; i < len(keys); i++ {
		if keys[i]>>(tBits+1) != keys[i-1]>>(tBits+1) {
			continue
		}
		res.RepeatFetches++
		res.NotModified += int64(keys[i] & 1)
		gaps = append(gaps, keys[i]>>1&tMask-keys[i-1]>>1&tMask)
	}
	res = withMedian(res, gaps, keys)
	res.RefetchMedianUS *= float64(unit)
	return res
}

// finishStructs measures the fetches of each URL, for Finish, by sorting
// the requests themselves (a span or URL numbers the packed keys cannot
// hold), in the same order.
func finishStructs(reqs []ConductRequest, res ConductResult) ConductResult {
	is304 := func(r ConductRequest) int {
		if r.Status == 304 {
			return 1
		}
		return 0
	}
	slices.SortFunc(reqs, func(a, b ConductRequest) int {
		return cmp.Or(cmp.Compare(a.URL, b.URL), cmp.Compare(a.US, b.US), cmp.Compare(is304(a), is304(b)))
	})
	var gaps []uint64
	for i := 1; i < len(reqs); i++ {
		if reqs[i].URL != reqs[i-1].URL {
			continue
		}
		res.RepeatFetches++
		res.NotModified += int64(is304(reqs[i]))
		gaps = append(gaps, uint64(reqs[i].US-reqs[i-1].US))
	}
	return withMedian(res, gaps, make([]uint64, len(gaps)))
}

// withMedian sets the median of gaps (times between fetches, never
// negative; sorted here, with scratch at least as long) in res.
func withMedian(res ConductResult, gaps, scratch []uint64) ConductResult {
	if len(gaps) == 0 {
		return res
	}
	gaps = radixSort(gaps, scratch)
	m := len(gaps) / 2
	res.HasRefetch = true
	if len(gaps)%2 == 1 {
		res.RefetchMedianUS = float64(gaps[m])
	} else {
		res.RefetchMedianUS = (float64(gaps[m-1]) + float64(gaps[m])) / 2
	}
	return res
}

// radixMin is the length from which radixSort beats slices.Sort.
const radixMin = 256

// radixSort sorts a in ascending order, least significant 11 bits first
// (the counts stay on the stack), skipping the digits no value has, and
// returns the sorted slice: a or scratch, which must be as long. A big
// crawler's month is hundreds of thousands of keys, which pdqsort's
// comparisons take several times longer to sort.
func radixSort(a, scratch []uint64) []uint64 {
	if len(a) < radixMin {
		slices.Sort(a)
		return a
	}
	const digit = 11
	var top uint64
	for _, v := range a {
		top |= v
	}
	buf := scratch[:len(a)]
	var count [1 << digit]int
	for shift := uint(0); shift < 64 && top>>shift != 0; shift += digit {
		clear(count[:])
		for _, v := range a {
			count[v>>shift&(1<<digit-1)]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, v := range a {
			d := v >> shift & (1<<digit - 1)
			buf[count[d]] = v
			count[d]++
		}
		a, buf = buf, a
	}
	return a
}

// interval is the wait an error answer asked for: the times in (from, to].
type interval struct{ from, to int64 }

// mergeIntervals returns the union of in as disjoint intervals in order.
func mergeIntervals(in []interval) []interval {
	slices.SortFunc(in, func(a, b interval) int { return cmp.Compare(a.from, b.from) })
	out := in[:1]
	for _, w := range in[1:] {
		last := &out[len(out)-1]
		if w.from <= last.to {
			last.to = max(last.to, w.to)
			continue
		}
		out = append(out, w)
	}
	return out
}

// countWithin counts the requests whose time lies in one of the disjoint,
// ordered intervals ws.
func (c *Conduct) countWithin(ws []interval) int64 {
	var n int64
	for _, b := range c.blocks {
		for _, r := range b {
			// The last interval that starts before the request.
			i := sort.Search(len(ws), func(i int) bool { return ws[i].from >= r.US }) - 1
			if i >= 0 && r.US <= ws[i].to {
				n++
			}
		}
	}
	return n
}

// Hours returns µs as hours rounded to three decimals, as the summary
// shows them (queries/conduct.sql rounds alike).
func Hours(us float64) float64 { return math.Round(us/3.6e9*1000) / 1000 }

// StatusWait returns the Retry-After wait of a logged header value for
// ConductRequest.WaitS: -1 when absent or unreadable.
func StatusWait(v string, present bool, atUS int64) int32 {
	if !present {
		return -1
	}
	if w, ok := ParseRetryAfter(v, atUS); ok {
		return w
	}
	return -1
}

// URLHash numbers a target for ConductRequest.URL the same way in every
// process (FNV-1a, 64 bits), for callers that meet a bot's requests in
// separate processes (the Beam pipeline).
func URLHash(target string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(target); i++ {
		h ^= uint64(target[i])
		h *= 1099511628211
	}
	return h
}
