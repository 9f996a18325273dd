package audit

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/crawlaudit/crawlaudit/audit/store"
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
// It keeps the verdicts of the judge, which a period of unreachable or
// unavailable robots.txt may change (availability.sql): so it keeps the
// time of every disallowed request, and changes() drops those that a
// period took out of the breaches (see availabilityFilter). It gives up, and
// changes() asks the SQL, when streamKeys gives up, past maxStreamTimes
// times.
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

// ruleBreaks are the requests a rule disallowed: the times of those not
// for /robots.txt (which a period of unavailable robots.txt may allow), and
// the last and number of those for it (which no period changes).
type ruleBreaks struct {
	rule      int32 // dict id of the rule's text
	times     []int64
	fetchLast int64
	fetchN    int64
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
			b := slices.IndexFunc(kc.breaks, func(rb ruleBreaks) bool { return rb.rule == r.breakRule })
			if b < 0 {
				b = len(kc.breaks)
				kc.breaks = append(kc.breaks, ruleBreaks{rule: r.breakRule})
			}
			rb := &kc.breaks[b]
			switch {
			case r.fetch:
				rb.fetchLast, rb.fetchN = max(rb.fetchLast, r.us), rb.fetchN+1
			case c.times >= maxStreamTimes:
				return false
			default:
				rb.times = append(rb.times, r.us)
				c.times++
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

// availabilityFilter says which disallowed requests a period of unreachable
// or unavailable robots.txt took out of the breaches, as availability.sql
// does (its table "during", read by the view requests): a request not for
// /robots.txt, by a bot that is not user-triggered and not spoofed, in the
// last period of its host and operator that began at or before it, while
// it lasted, is disallowed_unreachable (in an unreachable one; under
// --spec google only in its first 12 hours) or allowed_unavailable (in an
// unavailable one) instead of disallowed.
type availabilityFilter struct {
	ops     map[int64]botOp       // by bot id
	periods map[[2]int64][]period // by host id and op_key, by start
	google  bool
}

// botOp is a bot's row of bot_ops (availability.sql).
type botOp struct {
	opKey         int64
	userTriggered bool
}

// period is a row of robots_status, in Unix µs; open: it lasts past the
// logs' end (to_ts NULL).
type period struct {
	from, to    int64
	open        bool
	unreachable bool
}

// loadAvailability reads the periods availability.sql found and the
// operators of the bots; ok is false when two periods of one host and
// operator begin at the same instant, where the SQL's ASOF join may take
// either (changes() then asks the SQL).
func loadAvailability(ctx context.Context, s *store.Store) (f *availabilityFilter, ok bool, err error) {
	f = &availabilityFilter{ops: map[int64]botOp{}, periods: map[[2]int64][]period{}}
	err = s.Each(ctx, `SELECT coalesce(getvariable('spec_google'), false)`, nil, func(v []any) error {
		f.google, _ = v[0].(bool)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	err = s.Each(ctx, `SELECT bot_id, op_key, user_triggered FROM bot_ops`, nil, func(v []any) error {
		ut, _ := v[2].(bool)
		f.ops[numeric(v[0])] = botOp{opKey: numeric(v[1]), userTriggered: ut}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	err = s.Each(ctx, `SELECT host_id, op_key, kind = 'unreachable', epoch_us(from_ts), epoch_us(to_ts)
FROM robots_status ORDER BY host_id, op_key, from_ts`, nil, func(v []any) error {
		p := period{unreachable: v[2].(bool), from: numeric(v[3])}
		if v[4] == nil {
			p.open = true
		} else {
			p.to = numeric(v[4])
		}
		k := [2]int64{numeric(v[0]), numeric(v[1])}
		f.periods[k] = append(f.periods[k], p)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	for _, ps := range f.periods {
		for i := 1; i < len(ps); i++ {
			if ps[i].from == ps[i-1].from {
				return nil, false, nil
			}
		}
	}
	return f, true, nil
}

// breaches returns whether a disallowed request (not for /robots.txt) of
// bot to host by identity at us is still one once the periods are applied;
// nil when no period can apply to the bot.
func (f *availabilityFilter) breaches(host, bot, identity int64) func(us int64) bool {
	if f == nil || identity == 2 {
		return nil // a spoofed request: no period of the operator's applies
	}
	op, ok := f.ops[bot]
	if !ok || op.userTriggered {
		return nil
	}
	ps := f.periods[[2]int64{host, op.opKey}]
	if len(ps) == 0 {
		return nil
	}
	return func(us int64) bool {
		// The last period that began at or before us.
		i := sort.Search(len(ps), func(i int) bool { return ps[i].from > us }) - 1
		if i < 0 {
			return true
		}
		p := ps[i]
		if !p.open && us >= p.to {
			return true
		}
		if p.unreachable {
			// Under --spec google, past 12 hours the last copy applies.
			return f.google && us >= p.from+12*int64(time.Hour/time.Microsecond)
		}
		return false // allowed_unavailable
	}
}

// streamedChange is what finish hands to changes() of one key and change,
// with names in place of dict ids (the dict goes before changes() runs).
type streamedChange struct {
	hi, k    int
	host     int64 // dict id
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
			sc := streamedChange{hi: ch.hi, k: ch.k, host: int64(k.host), botID: int64(k.bot), bot: dict[k.bot], identity: int64(k.identity),
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
						b.times = append(slices.Clone(o.times), b.times...)
						b.fetchLast, b.fetchN = max(b.fetchLast, o.fetchLast), b.fetchN+o.fetchN
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
