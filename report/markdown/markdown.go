package markdown

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
)

// Write writes the report of f to w.
func Write(w io.Writer, f *report.Findings) error {
	bw := bufio.NewWriter(w)
	m := &writer{w: bw}
	m.write(f)
	return bw.Flush()
}

type writer struct{ w *bufio.Writer }

func (m *writer) p(format string, args ...any) {
	fmt.Fprintf(m.w, format, args...)
	m.w.WriteByte('\n')
}

func (m *writer) table(head []string, right []bool, rows [][]string) {
	m.p("%s", Row(head...))
	seps := make([]string, len(head))
	for i := range head {
		seps[i] = "---"
		if i < len(right) && right[i] {
			seps[i] = "---:"
		}
	}
	m.p("%s", Row(seps...))
	for _, r := range rows {
		m.p("%s", Row(r...))
	}
	m.p("")
}

func num(n int64) string { return report.Thousands(n) }

func when(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04")
}

func host(h string) string {
	if h == "" {
		return "every host"
	}
	return h
}

func (m *writer) write(f *report.Findings) {
	s := f.Summary
	in := s.Input
	title := "Crawler compliance report"
	if len(s.Robots) == 1 && s.Robots[0].Host != "" {
		title += " — " + s.Robots[0].Host
	}
	m.p("# %s", Text(title))
	m.p("")
	period := ""
	if in.From != nil && in.To != nil {
		period = in.From.UTC().Format("2006-01-02 15:04") + " to " + in.To.UTC().Format("2006-01-02 15:04") + " UTC"
	}
	m.p("%s · made by %s at %s", Text(period), Text(f.Tool), f.Generated.UTC().Format(time.RFC3339))
	m.p("")

	// Summary.
	m.p("## Summary")
	m.p("")
	counts := map[string]int{}
	for _, r := range s.Bots {
		counts[r.Verdict]++
	}
	rows := [][]string{
		{"period", Text(period)},
		{"log lines", fmt.Sprintf("%s (%s parsed, %s rejected)", num(in.Lines), num(in.Parsed), num(in.Rejected))},
		{"bot requests", num(in.BotRequests)},
		{"browser requests (not judged)", num(in.HumanRequests)},
		{"bot rows (bot, host, identity)", num(int64(len(s.Bots)))},
	}
	for _, v := range []string{report.VerdictIgnoresRobots, report.VerdictSpoofed, report.VerdictBreaches, report.VerdictGrace, report.VerdictOK, report.VerdictUnaudited} {
		if counts[v] > 0 {
			rows = append(rows, []string{"verdict: " + v, num(int64(counts[v]))})
		}
	}
	if v := s.Verification; v != nil {
		for _, id := range []string{report.IdentityVerified, report.IdentitySpoofed, report.IdentityUnverified} {
			if n, ok := v.Identities[id]; ok {
				rows = append(rows, []string{"identity: " + id + " (requests)", num(n)})
			}
		}
	}
	m.table([]string{"", ""}, []bool{false, true}, rows)
	if v := s.Verification; v != nil && v.Predating != nil {
		m.p("%s", Sentence(v.Predating.Sentence()))
		m.p("")
	}
	for _, h := range f.Headlines {
		m.p("- %s", Sentence(h))
	}
	if len(f.Headlines) > 0 {
		m.p("")
	}

	// Bots.
	m.p("## Bots")
	m.p("")
	if len(f.Rows) < len(s.Bots) {
		m.p("The first %d of %d rows (top %d, worst first); summary.json has every row.", len(f.Rows), len(s.Bots), f.Limits.Bots)
	} else {
		m.p("All %d rows, worst first. A spoofed row's requests named a crawler whose operator did not send them.", len(f.Rows))
	}
	m.p("")
	head := []string{"bot", "host", "identity"}
	right := []bool{false, false, false}
	var cols []report.Column
	var hidden []string
	for _, c := range report.BotColumns {
		if c.Optional && allZero(c, f.Rows) {
			if !c.Silent {
				hidden = append(hidden, c.Head)
			}
			continue
		}
		cols = append(cols, c)
		head = append(head, c.Head)
		right = append(right, c.Num)
	}
	if len(hidden) > 0 {
		m.p("Left out because they are 0 on every row: %s.", strings.Join(hidden, ", "))
		m.p("")
	}
	head = append(head, "verdict")
	rows = nil
	for i := range f.Rows {
		r := &f.Rows[i].BotRow
		row := []string{Name(r.Label()), Name(r.Host), r.Identity}
		for _, c := range cols {
			switch v := c.Value(r).(type) {
			case int64:
				row = append(row, num(v))
			case string:
				row = append(row, Text(v))
			default:
				row = append(row, Text(fmt.Sprint(v)))
			}
		}
		rows = append(rows, append(row, r.Verdict))
	}
	m.table(head, right, rows)
	m.signatures(s)

	// Rules.
	m.p("## Broken rules")
	m.p("")
	if len(f.Rules) == 0 {
		m.p("No robots.txt rule disallowed a bot request.")
		m.p("")
	} else {
		if len(f.Rules) < f.RulesTotal {
			m.p("The %d of %d rules with most disallowed requests (top %d), with up to %d bots each.", len(f.Rules), f.RulesTotal, f.Limits.Rules, f.Limits.RuleBots)
		} else {
			m.p("Every rule that disallowed a request, with up to %d bots each.", f.Limits.RuleBots)
		}
		m.p("")
		rows = nil
		for _, r := range f.Rules {
			var bots []string
			for _, b := range r.Bots {
				bots = append(bots, Name(b.Value)+" "+num(b.N))
			}
			if more := r.BotsTotal - len(r.Bots); more > 0 {
				bots = append(bots, fmt.Sprintf("and %d more", more))
			}
			rows = append(rows, []string{Code(r.Rule), fmt.Sprint(r.Line), Code(path.Base(r.Version)), when(r.VersionStart), num(r.Requests), num(r.InGrace), strings.Join(bots, ", ")})
		}
		m.table([]string{"rule", "line", "version", "live from (UTC)", "disallowed", "in grace", "bots"}, []bool{false, true, false, false, true, true, false}, rows)
	}

	// Paths.
	m.p("## Top disallowed paths")
	m.p("")
	if len(f.Paths) == 0 {
		m.p("No bot request was disallowed.")
		m.p("")
	} else {
		if len(f.Paths) < f.PathBotsTotal {
			m.p("Up to %d paths of each of the %d of %d bot rows with most disallowed requests (top %d); violations.csv lists every one.", f.Limits.Paths, len(f.Paths), f.PathBotsTotal, f.Limits.PathBots)
		} else {
			m.p("Up to %d paths of every bot row with disallowed requests; violations.csv lists every one.", f.Limits.Paths)
		}
		m.p("")
		rows = nil
		for _, bp := range f.Paths {
			for _, pc := range bp.Paths {
				line := ""
				if pc.Line > 0 {
					line = fmt.Sprint(pc.Line)
				}
				rows = append(rows, []string{Name(bp.Label), Code(pc.Path), num(pc.N), Code(pc.Rule), line})
			}
		}
		m.table([]string{"bot", "path", "requests", "rule", "line"}, []bool{false, false, true, false, true}, rows)
	}

	// Breaches.
	m.p("## Breaches of limits")
	m.p("")
	if len(f.Breaches) == 0 {
		m.p("No bot broke a Crawl-delay, Request-rate or Visit-time limit.")
		m.p("")
	} else {
		if len(f.Breaches) < f.BreachesTotal {
			m.p("The %d of %d groups (bot row, kind, limit) with most breaches (top %d); breaches.csv lists every breach.", len(f.Breaches), f.BreachesTotal, f.Limits.Breaches)
		} else {
			m.p("Every group (bot row, kind, limit); breaches.csv lists every breach.")
		}
		if s.Audit.TimeResolution == "1s" {
			m.p("The log's timestamps are whole seconds: a gap of 0 means within the same second.")
		}
		m.p("")
		rows = nil
		for _, b := range f.Breaches {
			rows = append(rows, []string{Name(b.Label), Name(b.Host), b.Kind, Code(b.Limit), num(b.N), Text(b.Worst), Text(b.Median), Text(b.Unit), when(b.First), when(b.Last)})
		}
		m.table([]string{"bot", "host", "kind", "limit", "breaches", "worst", "median", "measured", "first (UTC)", "last (UTC)"},
			[]bool{false, false, false, false, true}, rows)
	}
	// Crawlers whose operators say they ignore Crawl-delay: their short
	// gaps are no breach, and the rule cannot slow them down.
	for _, n := range f.CrawlDelayIgnored {
		control := ""
		if n.Control != "" {
			control = "; its crawl rate is set in " + Text(n.Control)
			switch {
			case n.ControlURL == "":
			case strings.HasPrefix(n.ControlURL, "https://") && !strings.ContainsAny(n.ControlURL, " <>\t\r\n"):
				control += " (<" + n.ControlURL + ">)"
			default:
				control += " (" + Text(n.ControlURL) + ")"
			}
		}
		m.p("Crawl-delay has no effect on %s: %s ignores it%s. %s of its requests came sooner than Crawl-delay after the one before: counted as crawl_delay_unsupported, not as breaches.",
			Name(n.Bot), Text(n.Operator), control, num(n.N))
		m.p("")
	}

	m.referrals(s)
	m.conduct(f)

	// Block list.
	m.p("## Block list")
	m.p("")
	b := f.Block
	if len(b.Files) > 0 {
		var names []string
		for _, n := range b.Files {
			names = append(names, Code(n))
		}
		m.p("Written: %s.", strings.Join(names, ", "))
	} else {
		m.p("No block-list file was written with this report; this is the list `--out DIR` would write.")
	}
	m.p("It holds %s in %s: addresses with at least %d requests of a kind in %s (`--block-on`).%s",
		plural(b.Addresses, "address", "addresses"), plural(b.Blocks, "prefix", "prefixes"), b.Min, Text(strings.Join(b.Kinds, ", ")), verifiedText(b.Verified))
	m.p("")
	if t := b.HeldBackText(); t != "" {
		m.p("%s", Sentence(t))
		m.p("")
		for _, l := range b.HeldBackLines() {
			m.p("- %s", Text(l))
		}
		m.p("")
	}
	if t := b.PredatingText(); t != "" {
		m.p("%s", Sentence(t))
		m.p("")
	}
	if len(b.Entries) > 0 {
		if len(b.Entries) < b.Addresses {
			m.p("The %d of %d addresses with most findings (top %d).", len(b.Entries), b.Addresses, f.Limits.BlockEntries)
			m.p("")
		}
		rows = nil
		for _, e := range b.Entries {
			var claims []string
			for _, c := range e.Claims {
				claims = append(claims, Name(c))
			}
			rows = append(rows, []string{Code(e.Addr), Text(e.Reasons), strings.Join(claims, ", "), when(e.First), when(e.Last)})
		}
		m.table([]string{"address", "why", "claimed to be", "first seen (UTC)", "last seen (UTC)"}, nil, rows)
	}

	// Outages.
	if outages := report.Outages(s); len(outages) > 0 {
		m.p("## robots.txt unreachable or unavailable")
		m.p("")
		m.p("When robots.txt answered crawlers with an error, as the log's own `/robots.txt` responses show. Each operator's crawlers are judged by the error they got until they fetched robots.txt again; summary.json (`robots_status`) lists each operator's period.")
		m.p("")
		rows = nil
		for _, o := range outages {
			ended := "after the log's end"
			if o.To != nil {
				ended = when(*o.To)
			}
			var ops []string
			for _, op := range o.Operators {
				ops = append(ops, Name(op))
			}
			rows = append(rows, []string{Name(host(o.Host)), o.Answered(), report.Span(o.From, o.LastError), fmt.Sprintf("%d: %s", len(ops), strings.Join(ops, ", ")),
				ended, num(o.Requests), num(o.Affected), Text(o.Meaning())})
		}
		m.table([]string{"host", "answered", "errors seen", "operators", "their last period ended (UTC)", "requests in their periods", "verdicts changed", "what it means"},
			[]bool{false, false, false, false, false, true, true, false}, rows)
	}

	// Versions.
	m.p("## robots.txt versions")
	m.p("")
	if len(f.Versions) == 0 {
		m.p("No robots.txt version.")
		m.p("")
	} else {
		if len(f.Versions) < f.VersionsTotal {
			m.p("The %d newest of the %d versions in effect during the period (top %d).", len(f.Versions), f.VersionsTotal, f.Limits.Versions)
			m.p("")
		}
		rows = nil
		for _, v := range f.Versions {
			change := "first version"
			if !v.First {
				change = fmt.Sprintf("+%d −%d lines", v.Added, v.Removed)
			}
			start := when(v.Start)
			switch {
			case v.Start.IsZero():
				start = "all time"
			case !v.NotBefore.IsZero():
				// The history shows the version before until NotBefore:
				// requests in between were judged by both.
				start = "between " + when(v.NotBefore) + " and " + start + " (uncertain: judged by both versions)"
			}
			rows = append(rows, []string{Name(host(v.Host)), Code(path.Base(v.Name)), start, fmt.Sprint(v.Rules), change, num(v.Requests), num(v.Disallowed)})
		}
		m.table([]string{"host", "version", "live from (UTC)", "rules", "change", "requests judged", "disallowed"}, []bool{false, false, false, true, false, true, true}, rows)
	}
	// Changes the logs' own /robots.txt answers show and the history lacks.
	for _, e := range s.RobotsEvidence {
		m.p("**A change the history lacks:** on %s the answers to crawlers' /robots.txt went from %s to %s bytes between %s and %s UTC (seen by %s), and no version of the history goes live then.",
			Name(host(e.Host)), num(e.BytesBefore), num(e.BytesAfter), when(e.After), when(e.Before), Text(strings.Join(e.Operators, ", ")))
		m.p("")
	}

	// Reactions to changes.
	m.p("## Reactions to changes")
	m.p("")
	if reactions, total := report.Reactions(s); len(reactions) == 0 {
		m.p("No robots.txt version change with a bot active around it.")
		m.p("")
	} else {
		if len(reactions) < total {
			m.p("%d of the %d bots and changes; those whose change added rules to the bot's group first.", len(reactions), total)
			m.p("")
		}
		rows = nil
		for _, c := range reactions {
			added := "none"
			if len(c.AddedRules) > 0 {
				added = Code(c.AddedRules[0])
				if len(c.AddedRules) > 1 {
					added += fmt.Sprintf(" and %d more", len(c.AddedRules)-1)
				}
			}
			rows = append(rows, []string{Name(c.Bot) + " (" + Text(c.Identity) + ")", when(c.At), added,
				report.Hours(c.HoursToRobotsFetch), report.Hours(c.HoursToLastBreaking), num(c.Breaking), report.Hours(c.HoursToObeying)})
		}
		m.table([]string{"bot", "change (UTC)", "rules added", "robots.txt fetched after", "last broke one after", "requests breaking", "obeys from"},
			[]bool{false, false, false, true, true, true, true}, rows)
	}

	m.preferences(f)

	// Method.
	m.p("## Method")
	m.p("")
	m.p("- robots.txt %s, profile %s, cache grace %s; timestamps in UTC, resolution %s.", Code(s.Audit.Robots), Code(s.Audit.Spec), report.GraceText(s.Audit.GraceSeconds), Text(s.Audit.TimeResolution))
	if v := s.Verification; v != nil && len(v.Sources) > 0 {
		var src []string
		for _, r := range v.Sources {
			src = append(src, fmt.Sprintf("%s (%s to %s)", Text(r.Operator), r.First.UTC().Format("2006-01-02"), r.Last.UTC().Format("2006-01-02")))
		}
		m.p("- identity: verified against the operators' published address ranges in effect at each request: %s.", strings.Join(src, ", "))
	}
	m.p("- limits of this report: bots %d, rules %d, paths %d × %d, breach groups %d, block-list addresses %d; summary.json, violations.csv and breaches.csv hold everything.",
		f.Limits.Bots, f.Limits.Rules, f.Limits.PathBots, f.Limits.Paths, f.Limits.Breaches, f.Limits.BlockEntries)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return report.Thousands(int64(n)) + " " + many
}

func verifiedText(v bool) string {
	if v {
		return " Addresses verified as their crawler's operator's may be listed (`--block-verified`)."
	}
	return " An address verified as its crawler's operator's is never listed."
}

// allZero reports whether column c is 0 on every row.
func allZero(c report.Column, rows []report.BotFindings) bool {
	for i := range rows {
		if n, ok := c.Value(&rows[i].BotRow).(int64); !ok || n != 0 {
			return false
		}
	}
	return true
}

// signatures writes the signed requests (Web Bot Auth): the signed share
// of each bot row, and a line per signer, key and outcome. Nothing when no
// request was signed. Signers and keys come from the logs: escaped.
func (m *writer) signatures(s *report.Summary) {
	if len(s.Signatures) == 0 {
		return
	}
	m.p("")
	m.p("### Signed requests")
	m.p("")
	if shares := report.SignedShares(s); len(shares) > 0 {
		var rows [][]string
		for _, r := range shares {
			rows = append(rows, []string{Name(r.Label), Name(r.Host), r.Identity, num(r.Signed), num(r.Requests), fmt.Sprintf("%d%%", r.Percent)})
		}
		m.table([]string{"bot", "host", "identity", "signed", "requests", "share"}, []bool{false, false, false, true, true, true}, rows)
		m.p("")
	}
	var rows [][]string
	for _, g := range s.Signatures {
		bots := make([]string, len(g.Bots))
		for i, b := range g.Bots {
			bots[i] = Name(b)
		}
		rows = append(rows, []string{Text(g.Signer), Text(g.Key), g.Status, num(g.Requests), strings.Join(bots, ", "), report.SignatureMeaning(g.Status)})
	}
	m.table([]string{"signer", "key", "outcome", "requests", "judged as", "what it means"}, []bool{false, false, false, true, false, false}, rows)
}

// preferences writes the section AI-use preferences: per robots.txt version
// the declared lines and the exposure of each search or AI crawler.
func (m *writer) preferences(f *report.Findings) {
	m.p("## AI-use preferences")
	m.p("")
	if len(f.Preferences) == 0 {
		m.p("No robots.txt version declares an AI-use preference (%s or %s).", Code("Content-Usage"), Code("Content-Signal"))
		m.p("")
		return
	}
	m.p("Per robots.txt version, its %s and %s lines, and the requests of the crawlers a preference can refuse; "+
		"exposed counts those fetched (as robots.txt allowed) where the preference in effect refused the crawler's purpose. "+
		"Exposure is not a violation: it is not counted as disallowed and blocks no one.", Code("Content-Usage"), Code("Content-Signal"))
	m.p("")
	for _, v := range f.Preferences {
		start := "in effect for all time"
		if !v.Start.IsZero() {
			start = "live from " + when(v.Start) + " UTC"
		}
		m.p("### %s of %s, %s", Code(path.Base(v.Name)), Name(host(v.Host)), start)
		m.p("")
		if len(v.Statements) == 0 {
			m.p("No preference declared.")
			m.p("")
		} else {
			var rows [][]string
			for _, st := range v.Statements {
				rows = append(rows, []string{fmt.Sprint(st.Line), Text(st.Directive), Text(st.Scope()), Code(st.Value), Text(st.Stated())})
			}
			m.table([]string{"line", "directive", "for", "value as written", "read as"}, []bool{true}, rows)
		}
		if len(v.Rows) == 0 {
			m.p("No request of a search or AI crawler was judged by this version.")
			m.p("")
			continue
		}
		var rows [][]string
		for _, e := range v.Rows {
			rows = append(rows, []string{Name(e.Bot) + " (" + Text(e.Identity) + ")", Text(e.Purpose), Code(e.Refusing() + "=n"), num(e.Requests), num(e.Exposed)})
		}
		m.table([]string{"bot", "purpose", "refused by", "requests", "exposed"}, []bool{false, false, false, true, true}, rows)
		if len(v.Rows) < v.RowsTotal {
			m.p("%d of %d bot rows, most exposed first.", len(v.Rows), v.RowsTotal)
			m.p("")
		}
	}
}
