package audit

import (
	"context"
	"fmt"
	"slices"

	"github.com/crawlaudit/crawlaudit/audit/measure"
	"github.com/crawlaudit/crawlaudit/audit/store"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots/history"
)

// streamChanges gathers, while the logs stream, what changes() would
// otherwise ask DuckDB of the requests around each robots.txt version
// change: per key (bot, host, identity) and change, its
// least User-Agent within measure.ChangeWindow of the change (the bots
// active around it: queries/changes_agents.sql), and its reaction in the
// window after it (measure.Reaction; queries/changes.sql). None of it
// depends on the order of the requests.
//
// It keeps the verdicts of the judge, which a period of unreachable or
// unavailable robots.txt may change (availability.sql): so the reaction
// keeps the time of every disallowed request, and changes() drops those
// that a period took out of the breaches (see availabilityFilter). It gives
// up, and changes() asks the SQL, when streamKeys gives up, past
// maxStreamTimes times.
type streamChanges struct {
	list   []streamChange
	byName map[string][]int32 // the indices in list of a history host name's changes
	times  int                // request times kept
	off    bool
}

// streamChange is one change of the history host hi.
type streamChange struct {
	hi int
	measure.VersionChange
	at, until int64 // Unix µs: the change and the end of its window
}

// keyChange is what one key did around one change.
type keyChange struct {
	active bool     // a request in [from, to]
	ua     *uaState // the least User-Agent of those stored with the requests (nil: none)
	// inWindow: a request in [at, until), whose reaction is gathered
	// (rules by dict id).
	inWindow bool
	reaction measure.Reaction
}

// init lists the changes of hist as changes() does (none for a nil hist).
func (c *streamChanges) init(hist *history.History) {
	c.byName = make(map[string][]int32)
	if hist == nil {
		return
	}
	for hi := 0; hi < hist.NumHosts(); hi++ {
		host := hist.HostName(hi)
		for _, vc := range measure.VersionChanges(versionStarts(hist.Versions(host))) {
			c.byName[host] = append(c.byName[host], int32(len(c.list)))
			c.list = append(c.list, streamChange{hi: hi, VersionChange: vc, at: vc.At.UnixMicro(), until: vc.Until.UnixMicro()})
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
		if !ch.Active(r.us) {
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
		if c.times+2 > maxStreamTimes {
			return false
		}
		kc.inWindow = true
		c.times += kc.reaction.Add(r.us, r.fetch, r.breakRule)
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
	ops     map[int64]botOp               // by bot id
	periods map[[2]int64][]measure.Period // by host id and op_key, by start
	google  bool
}

// botOp is a bot's row of bot_ops (availability.sql).
type botOp struct {
	opKey         int64
	userTriggered bool
}

// loadAvailability reads the periods availability.sql found and the
// operators of the bots; ok is false when two periods of one host and
// operator begin at the same instant, where the SQL's ASOF join may take
// either (changes() then asks the SQL).
func loadAvailability(ctx context.Context, s *store.Store) (f *availabilityFilter, ok bool, err error) {
	f = &availabilityFilter{ops: map[int64]botOp{}, periods: map[[2]int64][]measure.Period{}}
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
		p := measure.Period{Kind: measure.StateUnavailable, From: numeric(v[3])}
		if v[2].(bool) {
			p.Kind = measure.StateUnreachable
		}
		if v[4] == nil {
			p.Open = true
		} else {
			p.To = numeric(v[4])
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
			if ps[i].From == ps[i-1].From {
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
		i := measure.Covering(ps, us)
		return i < 0 || !ps[i].Affects(us, true, f.google)
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
	// reaction numbers its rules by their index in rules, the rule
	// texts.
	reaction measure.Reaction
	rules    []string
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
			sc := streamedChange{hi: ch.hi, k: ch.K, host: int64(k.host), botID: int64(k.bot), bot: dict[k.bot], identity: int64(k.identity),
				inWindow: kc.inWindow, reaction: kc.reaction}
			if kc.ua != nil {
				sc.ua = kc.ua.ua
			}
			// Several rule ids of one text would be one rule to the SQL.
			sc.reaction.Breaks = nil
			for _, b := range kc.reaction.Breaks {
				text := dict[b.Rule]
				n := slices.Index(sc.rules, text)
				if n < 0 {
					n = len(sc.rules)
					sc.rules = append(sc.rules, text)
				}
				b.Rule = int32(n)
				sc.reaction.Merge(&measure.Reaction{Breaks: []measure.RuleBreaks{b}})
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
