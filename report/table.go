package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TableOptions controls WriteTable.
type TableOptions struct {
	// Terminal draws an aligned table with a header and a summary for a
	// person; otherwise the rows are tab-separated values with one header
	// line, for scripts (as gh does when stdout is not a terminal).
	Terminal bool
	// Limit is the most bot rows shown on a terminal (0: all).
	Limit int
	// Width is the terminal's width in columns: no line of the table or
	// its summary is wider (0: DefaultWidth).
	Width int
	// Color draws the verdicts in colour (ANSI escapes): for a terminal,
	// when NO_COLOR is not set.
	Color bool
	// Next is the footer's advice on what to do next ("" for none).
	Next string
}

// WriteTable writes the per-bot table of s: on a terminal, aligned to its
// width (columns dropped and the bot name cut rather than a row wrapped),
// numbers right-aligned with thousands separators, a summary and what to
// do next; otherwise TSV.
func WriteTable(w io.Writer, s *Summary, opt TableOptions) error {
	if !opt.Terminal {
		return writeTSV(w, s)
	}
	width := opt.Width
	if width <= 0 {
		width = DefaultWidth
	}
	rows := s.Bots
	if opt.Limit > 0 && len(rows) > opt.Limit {
		rows = rows[:opt.Limit]
	}
	var para []string
	legend := ""
	say := func(format string, args ...any) { para = append(para, fmt.Sprintf(format, args...)) }
	if len(rows) == 0 {
		say("No bot requests.")
	} else {
		var dropped []string
		dropped, legend = writeTerminalTable(w, rows, width, opt.Color)
		if len(rows) < len(s.Bots) {
			say("… and %s more bots (--limit 0, --json or --out DIR for all).", Thousands(int64(len(s.Bots)-len(rows))))
		}
		if i := slices.Index(dropped, "HOST"); i >= 0 && rows[0].Host != "" && allOnHost(rows, rows[0].Host) {
			say("Host: %s.", Printable(rows[0].Host, 0))
			dropped = slices.Delete(dropped, i, i+1)
		}
		if len(dropped) > 0 {
			say("Left out to fit %d columns: %s (a wider terminal, --json or --out DIR show them).", width, strings.Join(dropped, ", "))
		}
	}
	in := s.Input
	line := fmt.Sprintf("%s lines in %d %s: %s parsed, %s rejected", Thousands(in.Lines), in.Files, plural(in.Files, "file", "files"), Thousands(in.Parsed), Thousands(in.Rejected))
	if len(in.RejectedReasons) > 0 {
		line += fmt.Sprintf(" (%s)", reasons(in.RejectedReasons))
	}
	say("%s. %s bot requests, %s human requests, %s unaudited (no robots.txt version in effect)%s.", line,
		Thousands(in.BotRequests), Thousands(in.HumanRequests), Thousands(in.Unaudited), outside(in.OutsidePeriod))
	if n := datedOut(in.Skipped); n > 0 {
		say("%s not read: %s dated outside --from/--to by %s key (summary.json input.skipped lists %s).",
			plural(n, "1 object", Thousands(int64(n))+" objects"), plural(n, "it is", "they are"), plural(n, "its", "their"), plural(n, "it", "them"))
	}
	period := ""
	if in.From != nil && in.To != nil {
		period = fmt.Sprintf("Period: %s to %s (UTC). ", in.From.UTC().Format("2006-01-02 15:04:05"), in.To.UTC().Format("2006-01-02 15:04:05"))
	}
	say("%srobots.txt: %s, profile %s, cache grace %gs.", period, Printable(s.Audit.Robots, 0), s.Audit.Spec, s.Audit.GraceSeconds)
	if s.Audit.TimeResolution == "1s" {
		say("DELAY: the log's timestamps have a resolution of one second, so delays are measured to the second.")
	}
	if v := s.Verification; v != nil {
		dns := ""
		if v.DNS != nil {
			dns = " and reverse DNS"
			// A resolver that failed its check settled nothing: say so
			// rather than credit it (the DNS statistics come from audit,
			// which report cannot import).
			if f, ok := v.DNS.(interface{ ResolverFailing() bool }); ok && f.ResolverFailing() {
				dns = "; reverse DNS unused: the resolver failed its check"
			}
		}
		say("Identity: %s bot requests verified, %s spoofed, %s unverified (operators' published ranges%s); \"(spoofed)\": not made by the crawler named.",
			Thousands(v.Identities[IdentityVerified]), Thousands(v.Identities[IdentitySpoofed]), Thousands(v.Identities[IdentityUnverified]), dns)
		if v.Predating != nil {
			say("%s", Printable(v.Predating.Sentence(), 0))
		}
	}
	if line := referralsLine(s); line != "" {
		say("%s", line)
	}
	if b := s.Blocklist; b != nil && len(b.HeldBackCrawlers) > 0 {
		say("%s", Printable(heldBackFooter(b), 0))
	}
	if legend != "" {
		say("%s", legend)
	}
	if opt.Next != "" {
		say("%s", opt.Next)
	}
	fmt.Fprintln(w)
	for _, p := range para {
		for _, l := range wrapText(p, width) {
			fmt.Fprintln(w, l)
		}
	}
	return nil
}

func allOnHost(rows []BotRow, host string) bool {
	for i := range rows {
		if rows[i].Host != host {
			return false
		}
	}
	return true
}

func outside(n int64) string {
	if n == 0 {
		return ""
	}
	return ", " + Thousands(n) + " outside --from/--to"
}

func writeTSV(w io.Writer, s *Summary) error {
	header := []string{"bot", "host", "identity", "operator", "purpose", "requests", "robots_fetches", "disallowed",
		"disallowed_in_grace", "crawl_delay_breaches", "request_rate_breaches", "visit_time_breaches", "ips", "verdict",
		"disallowed_unreachable", "allowed_unavailable", "user_triggered", "crawl_delay_unsupported"}
	if _, err := fmt.Fprintln(w, strings.Join(header, "\t")); err != nil {
		return err
	}
	for _, r := range s.Bots {
		_, err := fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%d\t%d\t%d\t%d\n",
			tsvField(r.Bot), tsvField(r.Host), r.Identity, tsvField(r.Operator), tsvField(r.Purpose),
			r.Requests, r.RobotsFetches, r.Disallowed, r.DisallowedInGrace,
			r.CrawlDelayBreaches, r.RequestRateBreaches, r.VisitTimeBreaches, r.IPs, r.Verdict,
			r.DisallowedUnreachable, r.AllowedUnavailable, r.UserTriggered, r.CrawlDelayUnsupported)
		if err != nil {
			return err
		}
	}
	return nil
}

func reasons(m map[string]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// Most frequent first, then by name.
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && (m[keys[j]] > m[keys[j-1]] || m[keys[j]] == m[keys[j-1]] && keys[j] < keys[j-1]); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s: %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Printable makes an attacker-controlled string safe to show: every
// character that is not printable is written as a Go escape (\x1b, \u202e),
// and invalid UTF-8 as \xHH; the result is cut to max runes (0: not cut)
// with an ellipsis. That takes out control characters (terminal escape
// sequences, line breaks), the bidirectional controls U+061C, U+200E/F,
// U+202A–U+202E and U+2066–U+2069 that would show a string's characters
// in another order than they have, and the line and paragraph separators.
// The terminal table, report.html and report.md all show log strings
// through it, so the three show such a string the same way.
func Printable(s string, max int) string {
	if max > 0 && utf8.RuneCountInString(s) > max {
		cut, n := 0, 0
		for i := range s {
			if n == max-1 {
				cut = i
				break
			}
			n++
		}
		return Printable(s[:cut], 0) + "…"
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !unicode.IsPrint(r) && r != ' ':
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TerminalSafe makes a message for a terminal safe, since logs and robots.txt files come from strangers: every
// line is made Printable, so that a log's or a robots.txt's escape
// sequences quoted in an error (ESC[2J) reach the terminal as text; line
// breaks are kept.
func TerminalSafe(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		lines[i] = Printable(strings.TrimSuffix(l, "\r"), 0)
	}
	return strings.Join(lines, "\n")
}

// tsvField keeps a value on one TSV cell: tabs and line breaks become spaces,
// other control characters are escaped.
func tsvField(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
	return Printable(s, 0)
}

// datedOut counts the skipped objects whose key dated them outside the
// audited period.
func datedOut(skipped []SkippedFile) int {
	n := 0
	for _, f := range skipped {
		if strings.HasSuffix(f.Reason, "(--from/--to)") {
			n++
		}
	}
	return n
}
