package audit

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/audit/measure"
	"github.com/crawlaudit/crawlaudit/queries"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/robots/history"
)

// changes returns summary.json's "changes": for every
// robots.txt version change of a host and every bot (and identity) with a
// request to that host within 30 days before or after it, how the bot
// reacted in the 30 days after (or until the next change, if sooner):
//
//   - first_robots_fetch: its first request for /robots.txt at or after the
//     change;
//   - added_rules: the rules of its group (chosen as the judge chooses it)
//     in the new version that its group in the previous one lacked, as
//     rule texts ("Disallow: /beta/"); a Crawl-delay, Request-rate or
//     Visit-time line counts when its value is new;
//   - last_breaking: its last request after the change disallowed by one of
//     the added rules (the verdict disallowed or disallowed_in_grace with
//     that rule deciding), and breaking, how many there were;
//   - first_obeying: its first request after the change made after it had
//     broken the added rules for the last time and after its first
//     robots.txt fetch since the change (when it fetched one): the first
//     request from which on it followed the new version. A bot that never
//     broke an added rule and fetched no robots.txt obeys from its first
//     request. Nil when no request came after that point, or when the
//     change added no rule for the bot's group.
//
// Hours are counted from the change.
func (r *Result) changes(ctx context.Context, j *judge) ([]report.Change, error) {
	out := []report.Change{}
	type change struct {
		host, version, previous string
		prev, cur               int
		at                      time.Time
	}
	var list []change
	var rows [][]any
	index := map[[2]int]int{} // by history host index and version
	for hi := 0; hi < r.hist.NumHosts(); hi++ {
		host := r.hist.HostName(hi)
		id, ok := j.hostID(host)
		if !ok {
			continue // no request for the host
		}
		versions := r.hist.Versions(host)
		for _, vc := range measure.VersionChanges(versionStarts(versions)) {
			k := vc.K
			index[[2]int{hi, k}] = len(list)
			rows = append(rows, []any{len(list), id, vc.At, vc.Until})
			list = append(list, change{host, versions[k].Name, versions[k-1].Name, versions[k-1].ID, versions[k].ID, vc.At})
		}
	}
	if len(list) == 0 {
		return out, nil
	}
	// The bots active around each change, with one of their headers: from
	// what the judge gathered while the logs streamed (streamChanges, with
	// the periods of unavailable robots.txt applied: availabilityFilter),
	// unless it gave up or two periods begin at one instant; else from
	// DuckDB.
	type pair struct {
		change          int
		botID, identity int64
		bot, idName, ua string
	}
	type key struct {
		change          int
		botID, identity int64
	}
	var pairs []pair
	streamed := j.streamedChanges != nil
	var periods *availabilityFilter
	if streamed && j.robotsFailed {
		var err error
		if periods, streamed, err = loadAvailability(ctx, r.store); err != nil {
			return nil, fmt.Errorf("changes: %w", err)
		}
	}
	byKey := map[key]*streamedChange{}
	if streamed {
		for i := range j.streamedChanges {
			sc := &j.streamedChanges[i]
			c, ok := index[[2]int{sc.hi, sc.k}]
			if !ok {
				continue
			}
			idName, err := identityName(sc.identity)
			if err != nil {
				return nil, err
			}
			pairs = append(pairs, pair{change: c, botID: sc.botID, identity: sc.identity, bot: sc.bot, idName: idName, ua: sc.ua})
			byKey[key{c, sc.botID, sc.identity}] = sc
		}
	} else {
		if r.lean {
			return nil, fmt.Errorf("%w: the reactions to changes are left to the SQL", errNeedsRows) // changes_agents.sql reads every request
		}
		if err := r.store.Exec(ctx, `CREATE OR REPLACE TEMP TABLE version_changes (change_id INTEGER, host_id INTEGER, starts TIMESTAMPTZ, ends TIMESTAMPTZ)`); err != nil {
			return nil, err
		}
		if err := r.store.InsertValues(ctx, "version_changes", rows); err != nil {
			return nil, err
		}
		err := r.store.Each(ctx, queries.SQL("changes_agents.sql"), nil, func(v []any) error {
			p := pair{change: int(numeric(v[0])), botID: numeric(v[1]), identity: numeric(v[2])}
			p.idName, _ = v[3].(string)
			p.ua, _ = v[4].(string)
			p.bot, _ = v[5].(string)
			pairs = append(pairs, p)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("changes: %w", err)
		}
	}
	results := make(map[key]*report.Change, len(pairs))
	var added [][]any
	// The pairs in change order, so that the cache of group texts holds
	// the groups of two versions at a time.
	order := make([]int, len(pairs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(pairs[a].change, pairs[b].change) })
	var cache groupTexts
	cached := -1
	for _, pi := range order {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := pairs[pi]
		c := list[p.change]
		if p.change != cached {
			cache, cached = groupTexts{}, p.change
		}
		ch := &report.Change{Host: c.host, Version: c.version, Previous: c.previous, At: c.at, Bot: p.bot, Identity: p.idName}
		ch.AddedRules = addedRules(j, cache, c.prev, c.cur, p.ua, p.bot)
		results[key{p.change, p.botID, p.identity}] = ch
		for _, t := range ch.AddedRules {
			if strings.HasPrefix(t, "Disallow:") {
				added = append(added, []any{p.change, p.botID, p.identity, t})
			}
		}
	}
	set := func(ch *report.Change, x any, at **time.Time, hours **float64) {
		if t, ok := x.(time.Time); ok {
			u := t.UTC()
			*at, *hours = &u, hoursBetween(ch.At, u)
		}
	}
	// What each did in the window after the change (queries/changes.sql).
	mark := func(ch *report.Change, firstFetch, lastBreak any, breaking int64, firstObeying any) {
		set(ch, firstFetch, &ch.FirstRobotsFetch, &ch.HoursToRobotsFetch)
		set(ch, lastBreak, &ch.LastBreaking, &ch.HoursToLastBreaking)
		ch.Breaking = breaking
		if len(ch.AddedRules) > 0 {
			set(ch, firstObeying, &ch.FirstObeying, &ch.HoursToObeying)
		}
	}
	if streamed {
		for k, ch := range results {
			sc := byKey[k]
			if !sc.inWindow {
				continue
			}
			m := streamedMarks(sc, ch.AddedRules, periods.breaches(sc.host, sc.botID, sc.identity))
			mark(ch, marksTime(m.HasFetch, m.FirstFetch), marksTime(m.Breaking > 0, m.LastBreak), m.Breaking, marksTime(m.HasObeying, m.FirstObeying))
		}
	} else {
		if err := r.store.Exec(ctx, `CREATE OR REPLACE TEMP TABLE change_rules (change_id INTEGER, bot_id INTEGER, identity_code UTINYINT, rule VARCHAR)`); err != nil {
			return nil, err
		}
		if err := r.store.InsertValues(ctx, "change_rules", added); err != nil {
			return nil, err
		}
		err := r.store.Each(ctx, queries.SQL("changes.sql"), nil, func(v []any) error {
			ch := results[key{int(numeric(v[0])), numeric(v[1]), numeric(v[2])}]
			if ch == nil {
				return nil
			}
			mark(ch, v[3], v[4], numeric(v[5]), v[6])
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("changes: %w", err)
		}
	}
	for _, p := range pairs {
		out = append(out, *results[key{p.change, p.botID, p.identity}])
	}
	slices.SortStableFunc(out, func(a, b report.Change) int {
		return cmp.Or(a.At.Compare(b.At), strings.Compare(a.Host, b.Host), strings.Compare(a.Bot, b.Bot), strings.Compare(a.Identity, b.Identity))
	})
	return out, nil
}

// streamedMarks returns what changes.sql says of a key's requests in the
// window after a change from what the judge gathered of them
// (measure.Reaction): the breaches are those of the Disallow rules among
// addedRules, those not for /robots.txt counted only when still reports them
// still disallowed, when it is not nil (see availabilityFilter).
func streamedMarks(sc *streamedChange, addedRules []string, still func(us int64) bool) measure.Marks {
	added := make([]bool, len(sc.rules))
	for _, t := range addedRules {
		if n := slices.Index(sc.rules, t); n >= 0 && strings.HasPrefix(t, "Disallow:") {
			added[n] = true
		}
	}
	return sc.reaction.Finish(func(rule int32) bool { return added[rule] }, still)
}

// marksTime returns the instant us (Unix µs) as changes.sql's rows hold it:
// a time.Time, or nil (NULL) when has is false.
func marksTime(has bool, us int64) any {
	if !has {
		return nil
	}
	return time.UnixMicro(us).UTC()
}

// versionStarts returns when each of versions began, for
// measure.VersionChanges.
func versionStarts(versions []history.Version) []time.Time {
	out := make([]time.Time, len(versions))
	for i, v := range versions {
		out[i] = v.Start
	}
	return out
}

// groupTexts caches, per resolved group, the rule texts addedRules compares,
// and their set: many bots share one group, and a group of a large
// robots.txt (tens of thousands of rules) is costly to list again for each.
// Not safe for concurrent use.
type groupTexts map[*robots.Resolved]*ruleTexts

// ruleTexts are a group's rule texts in file order, and the same as a set.
type ruleTexts struct {
	list []string
	set  map[string]struct{}
}

// of returns g's rule texts, listing them on first use (a nil cache lists
// them each time).
func (c groupTexts) of(g *robots.Resolved) *ruleTexts {
	if t, ok := c[g]; ok {
		return t
	}
	t := &ruleTexts{set: map[string]struct{}{}}
	add := func(s string) {
		if _, dup := t.set[s]; !dup {
			t.set[s] = struct{}{}
			t.list = append(t.list, s)
		}
	}
	for i := range g.Rules() {
		add(g.RuleText(i))
	}
	if d, ok := g.CrawlDelay(); ok {
		add(fmt.Sprintf("Crawl-delay: %g", d))
	}
	for _, rr := range g.RequestRates() {
		s := fmt.Sprintf("Request-rate: %d/%ds", rr.Requests, rr.Seconds)
		if rr.HasWindow {
			s += fmt.Sprintf(" %02d%02d-%02d%02d", rr.Window.Start/60, rr.Window.Start%60, rr.Window.End/60, rr.Window.End%60)
		}
		add(s)
	}
	if s, e, ok := g.VisitTime(); ok {
		add(fmt.Sprintf("Visit-time: %02d%02d-%02d%02d", s/60, s%60, e/60, e%60))
	}
	if c != nil {
		c[g] = t
	}
	return t
}

// addedRules returns the rule texts of bot's group in version cur that its
// group in version prev lacks, in the order of cur. It takes time linear in
// the two groups' rules (once per group when cache is shared).
func addedRules(j *judge, cache groupTexts, prev, cur int, ua, bot string) []string {
	b := j.ident.Identify(ua)
	if b.Name != bot {
		b = j.ident.Identify(bot)
	}
	rule, _ := j.rules.Crawler(b.Name)
	old := cache.of(groupOf(j.versions[prev].robots, ua, b, rule, j.noGroup))
	added := []string{}
	for _, t := range cache.of(groupOf(j.versions[cur].robots, ua, b, rule, j.noGroup)).list {
		if _, ok := old.set[t]; !ok {
			added = append(added, t)
		}
	}
	return added
}
