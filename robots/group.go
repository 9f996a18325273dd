package robots

import "strings"

// Agent is one User-agent line of a group.
type Agent struct {
	// Value is the value as written (trimmed, comment removed).
	Value string
	// Token is the product token the group's profile reads in Value: "*" for
	// the default group, "" when Value names none (see rfcToken and
	// googleToken). Under koster1996 and orig1994 Value itself is matched,
	// and Token serves only to name the group and for header matching.
	Token string
	Line  int
}

// Group is a group (a "record" in the 1994 and 1996 documents): the
// User-agent lines that name it, and the lines that belong to it. Every
// directive is kept with its line number; values that failed to parse are not
// kept (they are diagnostics).
type Group struct {
	Agents []Agent
	// Rules are the Allow and Disallow lines, in file order, with their
	// values as written. Empty values are kept ("Disallow:" allows all).
	Rules         []Rule
	CrawlDelays   []Delay
	CacheDelays   []Delay
	RequestRates  []RequestRate
	VisitTimes    []VisitTime
	RobotVersions []Text
	Comments      []Text
	Noindex       []Text
	CleanParams   []CleanParam
	// Preferences are the Content-Usage and Content-Signal lines, in file
	// order (see pref.go).
	Preferences []Statement

	sawRule     bool // an Allow or Disallow line was added
	sawMember   bool // any group line was added
	firstMember int  // the line of the first group line after the agents
	blankLine   int  // a blank line seen since the last line of the group
	warnedGap   bool
}

// IsDefault reports whether one of the group's agents is "*".
func (g *Group) IsDefault() bool {
	for _, a := range g.Agents {
		if a.Token == "*" {
			return true
		}
	}
	return false
}

type groupMode uint8

const (
	// modeRFC forms groups as RFC 9309 does (rfc9309).
	modeRFC groupMode = iota
	// modeGoogle forms them as google/robotstxt does: as modeRFC, on Google's
	// reading of each line.
	modeGoogle
	// modeRecords forms the records of the 1994 and 1996 documents
	// (koster1996, orig1994).
	modeRecords
)

// buildGroups forms the groups of lines under mode. Diagnostics about the
// structure go to p when it is not nil (the RFC pass of Parse).
//
// RFC 9309 (modeRFC): a User-agent line starts a new group when the current
// group has seen a rule (a group's rules run until the next
// agent line that follows a rule, as RFC 9309 §2.1 has it); otherwise it adds an agent to the
// current group. Blank lines, unknown lines, Sitemap and Host do not end a
// group. A rule is what RFC 9309 §2.1 calls one, "a line with a key-value
// pair that defines how a crawler may access URIs": Allow and Disallow, and
// also the group extensions (Crawl-delay, Request-rate, Visit-time, ...),
// which define how often and when. So the common
//
//	User-agent: Yandex
//	Crawl-delay: 5
//
//	User-agent: *
//	Disallow: /admin
//
// is two groups, as its author meant: Yandex gets no Disallow, "*" no
// Crawl-delay. Lines that belong to a group but come before any User-agent
// line are ignored (RFC 9309 §2.2.2).
//
// Google (modeGoogle), Google-only: google/robotstxt knows no extension, so
// only Allow and Disallow end a list of agents, and the file above is one
// group for Yandex and "*" (Disallow: /admin and Crawl-delay: 5 for both).
//
// Records (modeRecords): the 1994 document and the 1996 draft (§3.3, "record
// = *commentline agentline *(commentline | agentline) 1*ruleline
// *(commentline | ruleline)") separate records by blank lines; lines holding
// only a comment are not blank ("Lines containing only a comment are
// discarded completely, and therefore do not indicate a record boundary").
// So a blank line ends the record, a User-agent line after a rule line (an
// extension line is a "ruleline" in the 1996 grammar) starts a new one, a
// rule line outside a record is ignored, and a record with no rule line is no
// record at all: it is dropped, so its agents fall back on the "*" record.
// This is also how the reference implementation of that era, Python's
// urllib.robotparser, reads files.
func buildGroups(lines []line, mode groupMode, p *parser) []*Group {
	var groups []*Group
	var cur *Group
	stars := 0
	for i := range lines {
		l := &lines[i]
		kind, value := l.kind, l.value
		if mode == modeGoogle {
			kind, value = l.gkind, l.gvalue
		}
		if l.blank {
			if mode == modeRecords {
				cur = nil
			} else if cur != nil && cur.blankLine == 0 {
				cur.blankLine = l.num
			}
			continue
		}
		switch {
		case kind == KindUserAgent:
			if cur == nil || cur.sawRule || (mode != modeGoogle && cur.sawMember) {
				cur = &Group{}
				groups = append(groups, cur)
			}
			a := Agent{Value: value, Line: l.num}
			switch mode {
			case modeGoogle:
				a.Token = googleToken(value)
			default:
				a.Token = rfcToken(value)
			}
			if a.Token == "*" && !cur.IsDefault() {
				stars++
				if stars == 2 && p != nil {
					p.diag(l.num, Warning, CodeMultipleStar, "a second group for \"*\": RFC 9309 merges them, the 1994 and 1996 documents allow only one (koster1996 and orig1994 use the first)")
				}
			}
			cur.Agents = append(cur.Agents, a)
			cur.blankLine = 0
		case kind.isGroupMember():
			if cur == nil && kind.isPreference() {
				// A preference before any group applies to every
				// crawler: a site that writes one there means its whole
				// site (draft-ietf-aipref-attach-05 puts them in groups only). Kept once, by Parse.
				if p != nil {
					st, _ := parseStatement(kind, value, l.num)
					p.checkDuplicatePref(p.f.Preferences, st, "outside any group")
					p.f.Preferences = append(p.f.Preferences, st)
				}
				continue
			}
			if cur == nil {
				if p != nil {
					p.diag(l.num, Error, CodeRuleOutsideGroup, "%s before any User-agent line is ignored", kind)
				}
				continue
			}
			if cur.blankLine != 0 && !cur.warnedGap && p != nil {
				cur.warnedGap = true
				p.diag(cur.blankLine, Warning, CodeBlankLineInGroup, "blank line inside a group: the 1994 and 1996 documents end the record here (koster1996 and orig1994 ignore line %d and the group's lines after it)", l.num)
			}
			cur.blankLine = 0
			cur.add(kind, value, l, p)
		}
	}
	if mode == modeRecords {
		kept := groups[:0]
		for _, g := range groups {
			if g.sawMember {
				kept = append(kept, g)
			}
		}
		groups = kept
	}
	return groups
}

// add adds a group member line to g.
func (g *Group) add(kind Kind, value string, l *line, p *parser) {
	if !g.sawMember {
		g.firstMember = l.num
	}
	g.sawMember = true
	switch kind {
	case KindAllow, KindDisallow:
		g.sawRule = true
		// Under the Google profile value is Google's reading of the line:
		// a line over MaxLineBytes is cut (see googleSplit).
		g.Rules = append(g.Rules, Rule{Allow: kind == KindAllow, Pattern: value, Line: l.num})
	case KindCrawlDelay:
		if v, err := parseDelay(value); err == nil {
			g.CrawlDelays = append(g.CrawlDelays, Delay{Seconds: v, Line: l.num})
		}
	case KindCacheDelay:
		if v, err := parseDelay(value); err == nil {
			g.CacheDelays = append(g.CacheDelays, Delay{Seconds: v, Line: l.num})
		}
	case KindRequestRate:
		if r, err := parseRequestRate(value); err == nil {
			r.Line = l.num
			g.RequestRates = append(g.RequestRates, r)
		}
	case KindVisitTime:
		if w, err := parseWindow(value); err == nil {
			if len(g.VisitTimes) == 1 && p != nil {
				p.diag(l.num, Warning, CodeDuplicateVisit, "more than one Visit-time in a group (the 2.0.0 proposal allows one): the first, line %d, applies", g.VisitTimes[0].Line)
			}
			g.VisitTimes = append(g.VisitTimes, VisitTime{Window: w, Line: l.num})
		}
	case KindRobotVersion:
		if p != nil {
			g.checkRobotVersion(value, l.num, p)
		}
		g.RobotVersions = append(g.RobotVersions, Text{Value: value, Line: l.num})
	case KindComment:
		g.Comments = append(g.Comments, Text{Value: value, Line: l.num})
	case KindNoindex:
		g.Noindex = append(g.Noindex, Text{Value: value, Line: l.num})
	case KindCleanParam:
		if c, err := parseCleanParam(value); err == nil {
			c.Line = l.num
			g.CleanParams = append(g.CleanParams, c)
		}
	case KindContentUsage, KindContentSignal:
		st, _ := parseStatement(kind, value, l.num)
		if p != nil {
			p.checkDuplicatePref(g.Preferences, st, "in this group")
		}
		g.Preferences = append(g.Preferences, st)
	}
}

// checkDuplicatePref reports, in the parse pass, a second line of the
// same directive for the same path in one scope: both apply, combined
// category by category with n winning (draft-ietf-aipref-attach-05 §3.1,
// draft-ietf-aipref-vocab-07 §5.1), which is rarely what the author meant.
func (p *parser) checkDuplicatePref(prev []Statement, st Statement, where string) {
	for _, o := range prev {
		if o.Kind != st.Kind || o.Path != st.Path {
			continue
		}
		how := "where they differ, n wins"
		if o.Prefs == st.Prefs {
			how = "it repeats it"
		}
		p.diag(st.Line, Warning, CodePrefDuplicate, "a second %s for %s %s (line %d): both apply, %s", st.Kind, pathOrAll(st.Path), where, o.Line, how)
		return
	}
}

// checkRobotVersion reports, in the parse pass, a Robot-version line that
// the spc2 profile does not read as the author likely meant (seed 000,
// Robot-version): a second one, one that does not follow the User-agent
// lines at once, an experimental version. An invalid value is reported by
// checkValue.
func (g *Group) checkRobotVersion(value string, num int, p *parser) {
	switch {
	case len(g.RobotVersions) > 0:
		p.diag(num, Warning, CodeDuplicateVersion, "more than one Robot-version in a group (the 2.0.0 proposal allows one): the first, line %d, applies", g.RobotVersions[0].Line)
		return
	case g.firstMember != num:
		p.diag(num, Warning, CodeVersionNotFirst, "Robot-version does not follow the User-agent lines at once: the 2.0.0 proposal (--spec spc2) reads the group as version 1.0.0")
		return
	}
	if v, err := ParseVersion(value); err == nil && v.Experimental() {
		p.diag(num, Warning, CodeExperimentalVersion, "Robot-version %s is experimental (odd minor number): the 2.0.0 proposal (--spec spc2) ignores the group and applies the default", quote(value))
	}
}

// isTokenChar reports whether c may appear in a product token as crawlaudit
// reads it under rfc9309. RFC 9309 §2.2.1 allows "a-zA-Z_-"; crawlaudit
// also accepts digits and '.' (deviation, documented in the package
// comment): real crawlers carry them in their names (MJ12bot, 360Spider,
// archive.org_bot, Microsoft.URL.Control), as HTTP product tokens may (RFC
// 9110 §5.6.2), and cutting them off would give the group to another name
// ("archive", "Microsoft") or to none.
func isTokenChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.'
}

// rfcToken returns the product token a User-agent value names under
// rfc9309: "*" for a value that is "*" or starts with "*" followed by a
// character that cannot be in a token ("* # all", "*/*"); otherwise the value
// cut to its leading product token ("User-agent: FOO BAR" names
// "FOO"; "Googlebot/2.1" names "Googlebot"); "" when the value starts with
// neither ("*bot", "(none)", non-ASCII letters): such a line names no
// crawler.
func rfcToken(v string) string {
	if v == "" {
		return ""
	}
	if v[0] == '*' {
		if len(v) == 1 || !isTokenChar(v[1]) {
			return "*"
		}
		return ""
	}
	i := 0
	for i < len(v) && isTokenChar(v[i]) {
		i++
	}
	return v[:i]
}

// googleToken returns the product token google/robotstxt reads in a
// User-agent value (RobotsMatcher::HandleUserAgent, ExtractUserAgent).
// Google-only, case by case:
//
//   - "*" followed by whitespace and anything ("* foo") is still the
//     default group.
//   - The value is cut at the first character outside [a-zA-Z_-]: digits
//     end a token, so "MJ12bot" names "MJ".
func googleToken(v string) string {
	if v == "" {
		return ""
	}
	if v[0] == '*' {
		if len(v) == 1 || strings.IndexByte(space, v[1]) >= 0 {
			return "*"
		}
		return ""
	}
	i := 0
	for i < len(v) {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_') {
			break
		}
		i++
	}
	return v[:i]
}
