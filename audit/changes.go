package audit

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/queries"
	"github.com/crawlaudit/crawlaudit/report"
)

// changeWindow is how far around a robots.txt change a bot must have been
// active to be followed, and how long after it its reaction is looked for.
const changeWindow = 30 * 24 * time.Hour

// changes returns summary.json's "changes" (contract §12): for every
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
	for hi := 0; hi < r.hist.NumHosts(); hi++ {
		host := r.hist.HostName(hi)
		id, ok := j.hostID(host)
		if !ok {
			continue // no request for the host
		}
		versions := r.hist.Versions(host)
		for k := 1; k < len(versions); k++ {
			at := versions[k].Start.UTC()
			until := at.Add(changeWindow)
			if k+1 < len(versions) && versions[k+1].Start.Before(until) {
				until = versions[k+1].Start
			}
			rows = append(rows, []any{len(list), id, at, until})
			list = append(list, change{host, versions[k].Name, versions[k-1].Name, versions[k-1].ID, versions[k].ID, at})
		}
	}
	if len(list) == 0 {
		return out, nil
	}
	if err := r.store.Exec(ctx, `CREATE OR REPLACE TEMP TABLE version_changes (change_id INTEGER, host_id INTEGER, starts TIMESTAMPTZ, ends TIMESTAMPTZ)`); err != nil {
		return nil, err
	}
	if err := r.store.insertValues(ctx, "version_changes", rows); err != nil {
		return nil, err
	}
	// The bots active around each change, with one of their headers.
	type pair struct {
		change          int
		botID, identity int64
		bot, idName, ua string
	}
	var pairs []pair
	// The User-Agents are grouped on their ids first and named after, so
	// that only the few ids met are looked up in dict, not every request's.
	err := r.store.Each(ctx, `
WITH agents AS (
    SELECT c.change_id, r.bot_id, r.identity_code, r.user_agent_id, min(r.user_agent) AS user_agent
    FROM version_changes c
    JOIN requests r ON r.host_id = c.host_id AND r.ts BETWEEN c.starts - INTERVAL 720 HOUR AND c.starts + INTERVAL 720 HOUR
    GROUP BY ALL
)
SELECT a.change_id, a.bot_id, a.identity_code, ['unverified', 'verified', 'spoofed'][a.identity_code + 1],
    min(coalesce(ua.value, a.user_agent)), any_value(bot.value)
FROM agents a
LEFT JOIN dict ua ON ua.id = a.user_agent_id
LEFT JOIN dict bot ON bot.id = a.bot_id
GROUP BY a.change_id, a.bot_id, a.identity_code`, nil, func(v []any) error {
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
	type key struct {
		change          int
		botID, identity int64
	}
	results := make(map[key]*report.Change, len(pairs))
	var added [][]any
	for _, p := range pairs {
		c := list[p.change]
		ch := &report.Change{Host: c.host, Version: c.version, Previous: c.previous, At: c.at, Bot: p.bot, Identity: p.idName}
		ch.AddedRules = addedRules(j, c.prev, c.cur, p.ua, p.bot)
		results[key{p.change, p.botID, p.identity}] = ch
		for _, t := range ch.AddedRules {
			if strings.HasPrefix(t, "Disallow:") {
				added = append(added, []any{p.change, p.botID, p.identity, t})
			}
		}
	}
	if err := r.store.Exec(ctx, `CREATE OR REPLACE TEMP TABLE change_rules (change_id INTEGER, bot_id INTEGER, identity_code UTINYINT, rule VARCHAR)`); err != nil {
		return nil, err
	}
	if err := r.store.insertValues(ctx, "change_rules", added); err != nil {
		return nil, err
	}
	err = r.store.Each(ctx, queries.SQL("changes.sql"), nil, func(v []any) error {
		ch := results[key{int(numeric(v[0])), numeric(v[1]), numeric(v[2])}]
		if ch == nil {
			return nil
		}
		set := func(x any, at **time.Time, hours **float64) {
			if t, ok := x.(time.Time); ok {
				u := t.UTC()
				*at, *hours = &u, hoursBetween(ch.At, u)
			}
		}
		set(v[3], &ch.FirstRobotsFetch, &ch.HoursToRobotsFetch)
		set(v[4], &ch.LastBreaking, &ch.HoursToLastBreaking)
		ch.Breaking = numeric(v[5])
		if len(ch.AddedRules) > 0 {
			set(v[6], &ch.FirstObeying, &ch.HoursToObeying)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("changes: %w", err)
	}
	for _, p := range pairs {
		out = append(out, *results[key{p.change, p.botID, p.identity}])
	}
	slices.SortStableFunc(out, func(a, b report.Change) int {
		return cmp.Or(a.At.Compare(b.At), strings.Compare(a.Host, b.Host), strings.Compare(a.Bot, b.Bot), strings.Compare(a.Identity, b.Identity))
	})
	return out, nil
}

// addedRules returns the rule texts of bot's group in version cur that its
// group in version prev lacks.
func addedRules(j *judge, prev, cur int, ua, bot string) []string {
	b := j.ident.Identify(ua)
	if b.Name != bot {
		b = j.ident.Identify(bot)
	}
	rule, _ := j.rules.Crawler(b.Name)
	texts := func(id int) []string {
		g := groupOf(j.versions[id].robots, ua, b, rule, j.noGroup)
		var ts []string
		for i := range g.Rules() {
			ts = append(ts, g.RuleText(i))
		}
		if d, ok := g.CrawlDelay(); ok {
			ts = append(ts, fmt.Sprintf("Crawl-delay: %g", d))
		}
		for _, rr := range g.RequestRates() {
			t := fmt.Sprintf("Request-rate: %d/%ds", rr.Requests, rr.Seconds)
			if rr.HasWindow {
				t += fmt.Sprintf(" %02d%02d-%02d%02d", rr.Window.Start/60, rr.Window.Start%60, rr.Window.End/60, rr.Window.End%60)
			}
			ts = append(ts, t)
		}
		if s, e, ok := g.VisitTime(); ok {
			ts = append(ts, fmt.Sprintf("Visit-time: %02d%02d-%02d%02d", s/60, s%60, e/60, e%60))
		}
		return ts
	}
	old := texts(prev)
	added := []string{}
	for _, t := range texts(cur) {
		if !slices.Contains(old, t) && !slices.Contains(added, t) {
			added = append(added, t)
		}
	}
	return added
}
