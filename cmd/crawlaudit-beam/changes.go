package main

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/audit/measure"
	"github.com/crawlaudit/crawlaudit/report"
)

// keyChanges returns the entries of summary.json's "changes" of one key
// (a bot, host and identity), with the definitions of package measure and
// audit/changes.go, from all the key's requests (their verdicts after the
// availability of robots.txt): for every change of the host's robots.txt
// that the key had a request within 30 days of (before or after), the
// rules the change added to the bot's group (for the least of its
// User-Agents in those days) and the key's reaction in the change's window
// (measure.Reaction).
func keyChanges(a *audit.PartialAuditor, key botKey, k *keyRows) ([]report.Change, error) {
	id, err := identityName(key.Identity)
	if err != nil {
		return nil, err
	}
	var out []report.Change
	for _, c := range a.VersionChanges(key.Host) {
		vc := measure.NewVersionChange(0, c.At, c.Until)
		ua, hasUA, active := "", false, false
		var reaction measure.Reaction
		var rules []string // the rules of the reaction, by number
		for i := range k.len() {
			ts := k.ts[i]
			if !vc.Active(ts) {
				continue
			}
			if k.hasUA[i] && (!hasUA || k.userAgent[i] < ua) {
				ua, hasUA = k.userAgent[i], true
			}
			active = true
			if !vc.InWindow(ts) {
				continue
			}
			rule := int32(-1)
			if (k.verdict[i] == audit.VerdictDisallowed || k.verdict[i] == audit.VerdictInGrace) && k.hasRule[i] {
				n := slices.Index(rules, k.rule[i])
				if n < 0 {
					n = len(rules)
					rules = append(rules, k.rule[i])
				}
				rule = int32(n)
			}
			reaction.Add(ts, k.robotsFetch[i], rule)
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
		m := reaction.Finish(func(rule int32) bool { return disallow[rules[rule]] }, nil)
		ch.Breaking = m.Breaking
		ch.FirstRobotsFetch, ch.HoursToRobotsFetch = since(c.At, m.HasFetch, m.FirstFetch)
		ch.LastBreaking, ch.HoursToLastBreaking = since(c.At, m.Breaking > 0, m.LastBreak)
		if len(ch.AddedRules) > 0 {
			ch.FirstObeying, ch.HoursToObeying = since(c.At, m.HasObeying, m.FirstObeying)
		}
		out = append(out, ch)
	}
	return out, nil
}

// since returns the instant us (Unix µs) and the hours from at to it; nil
// when has is false.
func since(at time.Time, has bool, us int64) (*time.Time, *float64) {
	if !has {
		return nil, nil
	}
	t := time.UnixMicro(us).UTC()
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
