package main

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/report"
)

// changeWindow is how far around a robots.txt change a bot must have been
// active to be followed (audit/changes.go; INTERVAL 30 DAY under the time
// zone UTC).
const changeWindow = 30 * 24 * time.Hour

// keyChanges returns the entries of summary.json's "changes" of one key
// (a bot, host and identity), with the definitions of audit/changes.go
// and queries/changes.sql, from all the key's requests (their verdicts
// after the availability of robots.txt): for every change of the host's
// robots.txt that the key had a request within 30 days of (before or
// after), the rules the change added to the bot's group (for the least of
// its User-Agents in those days), its first /robots.txt request in the
// change's window [At, Until), its last request there that an added
// Disallow rule disallowed (and how many), and its first request there,
// not for /robots.txt, after both.
func keyChanges(a *audit.PartialAuditor, key botKey, k *keyRows) ([]report.Change, error) {
	id, err := identityName(key.Identity)
	if err != nil {
		return nil, err
	}
	var out []report.Change
	for _, c := range a.VersionChanges(key.Host) {
		lo, hi := c.At.Add(-changeWindow).UnixMicro(), c.At.Add(changeWindow).UnixMicro()
		ua, hasUA, active := "", false, false
		for i := range k.len() {
			if k.ts[i] < lo || k.ts[i] > hi {
				continue
			}
			if k.hasUA[i] && (!hasUA || k.userAgent[i] < ua) {
				ua, hasUA = k.userAgent[i], true
			}
			active = true
		}
		if !active {
			continue
		}
		ch := report.Change{Host: c.Host, Version: c.Version, Previous: c.Previous, At: c.At, Bot: key.Bot, Identity: id}
		ch.AddedRules = a.AddedRules(c, ua, key.Bot)
		disallow := map[string]bool{}
		for _, r := range ch.AddedRules {
			if strings.HasPrefix(r, "Disallow:") {
				disallow[r] = true
			}
		}
		from, until := c.At.UnixMicro(), c.Until.UnixMicro()
		var firstFetch, lastBreak *int64
		for i := range k.len() {
			ts := k.ts[i]
			if ts < from || ts >= until {
				continue
			}
			if k.robotsFetch[i] && (firstFetch == nil || ts < *firstFetch) {
				firstFetch = &ts
			}
			breaks := (k.verdict[i] == audit.VerdictDisallowed || k.verdict[i] == audit.VerdictInGrace) &&
				k.hasRule[i] && disallow[k.rule[i]]
			if breaks {
				ch.Breaking++
				if lastBreak == nil || ts > *lastBreak {
					lastBreak = &ts
				}
			}
		}
		var firstObeying *int64
		if len(ch.AddedRules) > 0 {
			for i := range k.len() {
				ts := k.ts[i]
				if ts < from || ts >= until || k.robotsFetch[i] ||
					(lastBreak != nil && ts <= *lastBreak) || (firstFetch != nil && ts <= *firstFetch) {
					continue
				}
				if firstObeying == nil || ts < *firstObeying {
					firstObeying = &ts
				}
			}
		}
		ch.FirstRobotsFetch, ch.HoursToRobotsFetch = since(c.At, firstFetch)
		ch.LastBreaking, ch.HoursToLastBreaking = since(c.At, lastBreak)
		ch.FirstObeying, ch.HoursToObeying = since(c.At, firstObeying)
		out = append(out, ch)
	}
	return out, nil
}

// since returns the instant us (Unix µs) and the hours from at to it; nil
// when us is.
func since(at time.Time, us *int64) (*time.Time, *float64) {
	if us == nil {
		return nil, nil
	}
	t := time.UnixMicro(*us).UTC()
	h := t.Sub(at).Hours()
	return &t, &h
}

// sortChanges puts changes in the order of audit's: by change time, host,
// bot and identity.
func sortChanges(cs []report.Change) {
	slices.SortStableFunc(cs, func(a, b report.Change) int {
		return cmp.Or(a.At.Compare(b.At), strings.Compare(a.Host, b.Host), strings.Compare(a.Bot, b.Bot), strings.Compare(a.Identity, b.Identity))
	})
}
