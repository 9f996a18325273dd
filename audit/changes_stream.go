package audit

import (
	"fmt"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots/history"
)

// streamChanges gathers, while the logs stream, what changes() would
// otherwise ask DuckDB of the requests around each robots.txt version
// change (contract §12): per key (bot, host, identity) and change, its
// least User-Agent within changeWindow of the change (the bots active
// around it: queries/changes_agents.sql), and, in the window after it
// (queries/changes.sql), its first /robots.txt request, the last request
// and count disallowed by each rule, and the times of its other requests,
// from which changes() finds the first it made after the last breach once
// it knows which rules the change added. None of it depends on the order of
// the requests.
//
// It measures the verdicts of the judge, which a period of unreachable or
// unavailable robots.txt may change (availability.sql): after a 4xx or 5xx
// answer to a /robots.txt request (judge.robotsFailed), changes() asks the
// SQL. So it does when streamKeys gave up, or past maxStreamTimes times.
type streamChanges struct {
	list   []streamChange
	byName map[string][]int32 // the indices in list of a history host name's changes
	times  int                // request times kept
	off    bool
}

// streamChange is one change: version k of the history host hi.
type streamChange struct {
	hi, k     int
	at, until int64 // Unix µs: the change and the end of its window (changes())
	from, to  int64 // at ∓ changeWindow, both included: the bots active around it
}

// keyChange is what one key did around one change.
type keyChange struct {
	active bool     // a request in [from, to]
	ua     *uaState // the least User-Agent of those stored with the requests (nil: none)
	// In [at, until): any request, the first /robots.txt request, the
	// disallowed requests by rule, the times of the others.
	inWindow   bool
	hasFetch   bool
	firstFetch int64
	breaks     []ruleBreaks
	times      []int64
}

// ruleBreaks are the requests a rule disallowed: the last one's time and
// how many.
type ruleBreaks struct {
	rule int32 // dict id of the rule's text
	last int64
	n    int64
}

// init lists the changes of hist as changes() does (none for a nil hist).
func (c *streamChanges) init(hist *history.History) {
	c.byName = make(map[string][]int32)
	if hist == nil {
		return
	}
	for hi := 0; hi < hist.NumHosts(); hi++ {
		host := hist.HostName(hi)
		versions := hist.Versions(host)
		for k := 1; k < len(versions); k++ {
			at := versions[k].Start.UTC()
			until := at.Add(changeWindow)
			if k+1 < len(versions) && versions[k+1].Start.Before(until) {
				until = versions[k+1].Start
			}
			c.byName[host] = append(c.byName[host], int32(len(c.list)))
			c.list = append(c.list, streamChange{hi: hi, k: k, at: at.UnixMicro(), until: until.UnixMicro(),
				from: at.Add(-changeWindow).UnixMicro(), to: at.Add(changeWindow).UnixMicro()})
		}
	}
}

// of returns the indices of the changes of the host named name.
func (c *streamChanges) of(name string) []int32 { return c.byName[name] }

// add takes one request of key k; it returns false when the times kept
// reach maxStreamTimes (the caller drops the changes).
func (c *streamChanges) add(k *streamKey, r *streamRow) bool {
	if k.changes == nil {
		k.changes, k.changeIDs = make([]keyChange, len(r.changes)), r.changes
	}
	for i, ci := range r.changes {
		ch := &c.list[ci]
		if r.us < ch.from || r.us > ch.to {
			continue
		}
		kc := &k.changes[i]
		kc.active = true
		// The User-Agent as the table stores it: a dict entry or the row's
		// own string; NULL (not counted) otherwise.
		if ua := r.ua; ua != kc.ua && (ua.id >= 0 || ua.inline) && (kc.ua == nil || ua.ua < kc.ua.ua) {
			kc.ua = ua
		}
		if r.us < ch.at || r.us >= ch.until {
			continue
		}
		kc.inWindow = true
		if r.fetch {
			if !kc.hasFetch || r.us < kc.firstFetch {
				kc.hasFetch, kc.firstFetch = true, r.us
			}
		} else {
			if c.times >= maxStreamTimes {
				return false
			}
			kc.times = append(kc.times, r.us)
			c.times++
		}
		if r.breakRule >= 0 {
			found := false
			for b := range kc.breaks {
				if rb := &kc.breaks[b]; rb.rule == r.breakRule {
					rb.last, rb.n, found = max(rb.last, r.us), rb.n+1, true
					break
				}
			}
			if !found {
				kc.breaks = append(kc.breaks, ruleBreaks{rule: r.breakRule, last: r.us, n: 1})
			}
		}
	}
	return true
}

// drop forgets what was gathered: changes() asks the SQL.
func (c *streamChanges) drop() {
	c.off = true
	c.byName = nil
}

// streamedChange is what finish hands to changes() of one key and change,
// with names in place of dict ids (the dict goes before changes() runs).
type streamedChange struct {
	hi, k    int
	botID    int64
	bot      string
	identity int64
	ua       string // "": none
	inWindow bool
	fetch    *time.Time
	breaks   map[string]ruleBreaks // by rule text
	times    []int64
}

// finishChanges returns what w gathered of the changes, or nil when it did
// not (changes() then asks the SQL). It must be called while the judge's
// dict is there.
func (w *streamKeys) finishChanges(dict []string) []streamedChange {
	if w == nil || w.off || w.changes.off || len(w.changes.list) == 0 {
		return nil
	}
	out := []streamedChange{}
	for i := range w.keys {
		k := &w.keys[i]
		for n, kc := range k.changes {
			if !kc.active {
				continue
			}
			ch := &w.changes.list[k.changeIDs[n]]
			sc := streamedChange{hi: ch.hi, k: ch.k, botID: int64(k.bot), bot: dict[k.bot], identity: int64(k.identity),
				inWindow: kc.inWindow, times: kc.times}
			if kc.ua != nil {
				sc.ua = kc.ua.ua
			}
			if kc.hasFetch {
				t := time.UnixMicro(kc.firstFetch).UTC()
				sc.fetch = &t
			}
			if len(kc.breaks) > 0 {
				sc.breaks = make(map[string]ruleBreaks, len(kc.breaks))
				for _, b := range kc.breaks {
					// Several rule ids of one text would be one rule to the SQL.
					text := dict[b.rule]
					if o, ok := sc.breaks[text]; ok {
						b.last, b.n = max(b.last, o.last), b.n+o.n
					}
					sc.breaks[text] = b
				}
			}
			out = append(out, sc)
		}
	}
	return out
}

// identityName returns the name of an identity code as the view requests
// names it (claims: 0 unverified, 1 verified, 2 spoofed).
func identityName(code int64) (string, error) {
	names := [...]string{report.IdentityUnverified, report.IdentityVerified, report.IdentitySpoofed}
	if code < 0 || code >= int64(len(names)) {
		return "", fmt.Errorf("unknown identity code %d", code)
	}
	return names[code], nil
}
