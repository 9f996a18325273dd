package report

import (
	"fmt"
	"strings"
)

// Headlines returns the main findings of f in a sentence each, the worst
// first: bots that ignored robots.txt, spoofed crawlers, breaches of
// limits, stale copies, the block list. The sentences hold bot names from
// logs as they are: the renderer escapes them.
func Headlines(f *Findings) []string {
	var hs []string
	s := f.Summary
	var ignored, spoofed, breached, stale []BotRow
	var nIgnored, nSpoofed, nStale, nDisallowed, nSpoofedDisallowed int64
	for _, r := range s.Bots {
		// The chart of disallowed requests counts every row's, spoofed
		// ones too: the sentences say the same total.
		nDisallowed += r.Disallowed
		if r.Identity == IdentitySpoofed {
			nSpoofedDisallowed += r.Disallowed
		}
		switch r.Verdict {
		case VerdictIgnoresRobots:
			ignored = append(ignored, r)
			nIgnored += r.Disallowed
		case VerdictSpoofed:
			spoofed = append(spoofed, r)
			nSpoofed += r.Requests
		case VerdictBreaches:
			breached = append(breached, r)
		case VerdictGrace:
			stale = append(stale, r)
			nStale += r.DisallowedInGrace
		}
	}
	if len(ignored) > 0 {
		most := names(ignored, 3, func(r BotRow) string {
			return fmt.Sprintf("%s (%s)", r.Label(), Thousands(r.Disallowed))
		})
		if nDisallowed == nIgnored {
			hs = append(hs, fmt.Sprintf("%s ignored robots.txt: %s disallowed requests, most by %s.",
				count(len(ignored), "bot", "bots"), Thousands(nIgnored), most))
		} else {
			hs = append(hs, fmt.Sprintf("%s disallowed requests in all: %s by %s that ignored robots.txt, most by %s; %s by spoofed User-Agents.",
				Thousands(nDisallowed), Thousands(nIgnored), count(len(ignored), "bot", "bots"), most, Thousands(nDisallowed-nIgnored)))
		}
	}
	if len(spoofed) > 0 {
		dis := ""
		if nSpoofedDisallowed > 0 {
			dis = fmt.Sprintf(" (%s of them disallowed)", Thousands(nSpoofedDisallowed))
		}
		hs = append(hs, fmt.Sprintf("%s named a crawler whose operator did not send them (spoofed): %s requests%s, by %s.",
			count(len(spoofed), "User-Agent claim", "User-Agent claims"), Thousands(nSpoofed), dis, names(spoofed, 4, func(r BotRow) string {
				return fmt.Sprintf("%s from %s", r.Bot, count(int(r.IPs), "address", "addresses"))
			})))
	}
	if len(breached) > 0 {
		hs = append(hs, fmt.Sprintf("%s kept away from disallowed paths but broke Crawl-delay, Request-rate or Visit-time: %s.",
			count(len(breached), "bot", "bots"), names(breached, 4, func(r BotRow) string {
				var parts []string
				for _, p := range []struct {
					n    int64
					what string
				}{{r.CrawlDelayBreaches, "Crawl-delay"}, {r.RequestRateBreaches, "Request-rate"}, {r.VisitTimeBreaches, "Visit-time"}} {
					if p.n > 0 {
						parts = append(parts, fmt.Sprintf("%s %s", p.what, Thousands(p.n)))
					}
				}
				return fmt.Sprintf("%s (%s)", r.Label(), strings.Join(parts, ", "))
			})))
	}
	if len(stale) > 0 {
		hs = append(hs, fmt.Sprintf("%s made %s requests that a robots.txt change had just disallowed, within the cache grace of %s: a stale copy, not counted as disallowed.",
			count(len(stale), "bot", "bots"), Thousands(nStale), graceText(s.Audit.GraceSeconds)))
	}
	if len(ignored)+len(spoofed)+len(breached) == 0 && len(s.Bots) > 0 {
		hs = append(hs, "No bot broke the robots.txt in effect when it made its requests.")
	}
	if b := f.Block; b.Addresses > 0 {
		hs = append(hs, fmt.Sprintf("The block list holds %s (in %s).", count(b.Addresses, "address", "addresses"), count(b.Blocks, "prefix", "prefixes")))
	}
	return hs
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Thousands(int64(n)) + " " + many
}

// names joins the first max rows as show makes them, "and N more" after.
func names(rows []BotRow, max int, show func(BotRow) string) string {
	var parts []string
	for i, r := range rows {
		if i == max {
			parts = append(parts, fmt.Sprintf("%d more", len(rows)-max))
			break
		}
		parts = append(parts, show(r))
	}
	switch len(parts) {
	case 1:
		return parts[0]
	case 2:
		return parts[0] + " and " + parts[1]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// graceText writes a grace period in seconds as a person reads it: "24 h",
// "90 min", "30 s".
func graceText(sec float64) string {
	switch {
	case sec == 0:
		return "0 (off)"
	case sec >= 3600 && int64(sec)%3600 == 0:
		return fmt.Sprintf("%d h", int64(sec)/3600)
	case sec >= 60 && int64(sec)%60 == 0:
		return fmt.Sprintf("%d min", int64(sec)/60)
	}
	return fmt.Sprintf("%g s", sec)
}

// GraceText writes the cache grace period of an audit (seconds) as a
// person reads it.
func GraceText(sec float64) string { return graceText(sec) }
