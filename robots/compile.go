package robots

import (
	"sort"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// Robots is a robots.txt file compiled for one profile: its groups as the
// profile forms them, and for every crawler the group that applies,
// compiled. It is immutable and safe for concurrent use.
type Robots struct {
	file    *File
	profile Profile
	groups  []*Group

	// rfc9309 and google: the merged groups of each product token (keys
	// lower case), compiled on first use, and the merged "*" groups.
	byToken  map[string]*lazyGroup
	mu       sync.Mutex
	compiled map[string]*Resolved // by set of group indices
	// koster1996, orig1994 and spc2: per record, compiled on first use.
	records []*lazyRecord
	star    *Resolved
	none    *Resolved
}

// Compile compiles f for profile p. It never fails.
func Compile(f *File, p Profile) *Robots {
	r := &Robots{file: f, profile: p}
	switch p {
	case Koster1996, Orig1994, Spc2:
		r.groups = buildGroups(f.lines, modeRecords, nil)
	case Google:
		r.groups = buildGroups(f.lines, modeGoogle, nil)
	default:
		r.groups = f.Groups
	}
	r.none = newResolved("", nil, p, f.Preferences)
	if p == Koster1996 || p == Orig1994 || p == Spc2 {
		r.compileRecords()
	} else {
		r.compileMerged()
	}
	if r.star == nil {
		r.star = r.none
	}
	return r
}

// compileMerged prepares rfc9309 and google: every group naming a token is
// merged (RFC 9309 §2.2.1: "the matching groups' rules MUST be combined into
// one group"), and so are all the "*" groups. Here crawlaudit ("else
// all * groups") follows the published RFC 9309 and Google's parser rather
// than draft-08 (seed 003), which says "the first group with a user-agent
// line with a "*" value".
func (r *Robots) compileMerged() {
	sets := map[string][]int{}
	var order []string
	var star []int
	for gi, g := range r.groups {
		seen := map[string]bool{}
		for _, a := range g.Agents {
			switch {
			case a.Token == "":
				continue
			case a.Token == "*":
				if len(star) == 0 || star[len(star)-1] != gi {
					star = append(star, gi)
				}
				continue
			}
			t := strings.ToLower(a.Token)
			if seen[t] {
				continue
			}
			seen[t] = true
			if _, ok := sets[t]; !ok {
				order = append(order, t)
			}
			sets[t] = append(sets[t], gi)
		}
	}
	r.byToken = make(map[string]*lazyGroup, len(order))
	for _, t := range order {
		r.byToken[t] = &lazyGroup{name: t, idx: sets[t]}
	}
	if len(star) > 0 {
		r.star = newResolved("*", r.pick(star), r.profile, r.file.Preferences)
	}
}

// lazyGroup is the merged groups of one token, compiled on first use: a
// file can name thousands of tokens, each in a different set of groups, and
// compiling them all up front would take time quadratic in the file's size
// (a group of A agents and R rules compiled A times). Only the tokens the
// logs ask for are compiled.
type lazyGroup struct {
	once sync.Once
	name string
	idx  []int
	res  *Resolved
}

// get returns the compiled group of l. Tokens naming the same groups share
// one compiled rule set.
func (r *Robots) get(l *lazyGroup) *Resolved {
	l.once.Do(func() {
		key := setKey(l.idx)
		r.mu.Lock()
		base, ok := r.compiled[key]
		r.mu.Unlock()
		if !ok {
			base = newResolved(l.name, r.pick(l.idx), r.profile, r.file.Preferences)
			r.mu.Lock()
			if r.compiled == nil {
				r.compiled = map[string]*Resolved{}
			}
			if b, ok := r.compiled[key]; ok {
				base = b
			} else {
				r.compiled[key] = base
			}
			r.mu.Unlock()
		}
		l.res = base.named(l.name)
	})
	return l.res
}

// compileRecords prepares koster1996, orig1994 and spc2: one compiled record
// per record, named after each of its agents, compiled on first use; the
// first "*" record is the default (1996 draft §3.2.1: "the first record with
// a User-agent line with a "*" value"; the 1994 document allows only one).
// Under spc2 a record with an experimental Robot-version is ignored (seed
// 000: "ignore that rule set and use the default"): it is never the default,
// and a crawler it names gets the default (see resolveRecord).
func (r *Robots) compileRecords() {
	r.records = make([]*lazyRecord, len(r.groups))
	for gi, g := range r.groups {
		r.records[gi] = &lazyRecord{group: g}
		if r.profile == Spc2 {
			if reading, _ := spcReadingOf(g); reading == spcIgnored {
				r.records[gi].ignored = true
				continue
			}
		}
		if r.star == nil {
			for ai, a := range g.Agents {
				if a.Token == "*" {
					r.star = r.record(gi, ai)
					break
				}
			}
		}
	}
}

// lazyRecord is a record compiled on first use, named after each agent.
type lazyRecord struct {
	once    sync.Once
	group   *Group
	named   []*Resolved
	ignored bool // spc2: an experimental Robot-version
}

// record returns record gi named after its agent ai.
func (r *Robots) record(gi, ai int) *Resolved {
	l := r.records[gi]
	l.once.Do(func() {
		base := newResolved("", []*Group{l.group}, r.profile, r.file.Preferences)
		l.named = make([]*Resolved, len(l.group.Agents))
		for i, a := range l.group.Agents {
			name := strings.ToLower(a.Token)
			if name == "" {
				name = strings.ToLower(a.Value)
			}
			l.named[i] = base.named(name)
		}
	})
	return l.named[ai]
}

func (r *Robots) pick(idx []int) []*Group {
	gs := make([]*Group, len(idx))
	for i, gi := range idx {
		gs[i] = r.groups[gi]
	}
	return gs
}

func setKey(idx []int) string {
	var b []byte
	for _, i := range idx {
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, ',')
	}
	return string(b)
}

// Profile returns the profile r was compiled for.
func (r *Robots) Profile() Profile { return r.profile }

// File returns the parsed file r was compiled from.
func (r *Robots) File() *File { return r.file }

// Groups returns the groups as r's profile forms them: File.Groups for
// rfc9309, Google's reading of the lines for google, the blank-line
// separated records for koster1996 and orig1994. The slice must not be
// modified.
func (r *Robots) Groups() []*Group { return r.groups }

// Default returns the group for crawlers no group names: the "*" group(s),
// or a group with no rules (Name "") when there is none.
func (r *Robots) Default() *Resolved { return r.star }

// Resolve returns the group that applies to agent. It never returns nil:
// when no group applies the result has Name "" and no rules, and allows
// everything.
//
// agent is either a bare product token ("Googlebot", "GPTBot") or a full
// User-Agent header value ("Mozilla/5.0 (compatible; Googlebot/2.1;
// +http://www.google.com/bot.html)"). It is a header when it contains a
// space, a tab, '/', '(', ')', ';' or ','. An empty (or blank) agent gets
// the "*" groups, under every profile (google/robotstxt's
// GoogleOnly_SystemTest asks an empty agent).
//
// Google-only: an agent with a space or tab but none of the other header
// separators ("Foo Bar", "Googlebot Images") is a crawler's name, not a
// header; Google's matcher compares it whole with each token the file
// names, and as a token never holds a space it gets the "*" groups. A
// User-Agent line "Foo Bar" in the file still names Foo (googleToken).
//
// rfc9309 and google: a bare token selects the groups whose token equals it,
// case-insensitively (RFC 9309 §2.2.1). In a header, a robots.txt token
// applies when it appears as a product name: case-insensitively,
// between separators (start or end of the header, space, tab, '(', ')', ';',
// '/', ',' or '+'; so "Googlebot" does not apply to "Googlebot-Image/1.0",
// nor "bot" to "Googlebot"); of the tokens that apply the longest wins
// ("Googlebot-Image" before "Googlebot"), and of equally long ones the first
// in the header. Else the "*" groups apply; else none.
//
// koster1996, orig1994 and spc2: a bare token selects the first record with
// an agent value that contains it as a case-insensitive substring (1996
// draft §3.2.1; "bot" selects a record for "Googlebot"). With a header the
// crawler's own token is unknown, so the first record with an agent whose
// token appears in the header as a product name (as above) is selected,
// which is how the 1996 draft's FigTree example ("FigTree/0.1 Robot
// libwww-perl/5.04" obeys "User-agent: figtree") reads. Else the first "*"
// record; else none. Under spc2, when the record selected has an
// experimental Robot-version, the default applies (seed 000: "ignore that
// rule set and use the default"), not a later record naming the crawler.
//
// Resolve allocates, and compiles a token's groups the first time it is
// asked for; call it once per distinct agent and keep the result. It is safe
// for concurrent use. Two calls for the same token return the same pointer.
func (r *Robots) Resolve(agent string) *Resolved {
	agent = strings.TrimSpace(agent)
	if agent == "" {
		return r.star
	}
	header := strings.ContainsAny(agent, " \t/();,")
	if header && r.profile == Google && !strings.ContainsAny(agent, "/();,") {
		// Google's matcher compares the crawler's name whole with each
		// file token, so a name with a space ("Foo Bar") equals none and
		// gets the "*" groups (google/robotstxt robots_test.cc,
		// GoogleOnly_AcceptUserAgentUpToFirstSpace).
		return r.star
	}
	if r.records != nil {
		return r.resolveRecord(agent, header)
	}
	if !header {
		if l, ok := r.byToken[strings.ToLower(agent)]; ok {
			return r.get(l)
		}
		return r.star
	}
	var best *lazyGroup
	eachProduct(strings.ToLower(agent), func(w string) bool {
		if best == nil || len(w) > len(best.name) {
			if l, ok := r.byToken[w]; ok {
				best = l
			}
		}
		return true
	})
	if best != nil {
		return r.get(best)
	}
	return r.star
}

func (r *Robots) resolveRecord(agent string, header bool) *Resolved {
	la := strings.ToLower(agent)
	var words map[string]bool
	if header {
		words = map[string]bool{}
		eachProduct(la, func(w string) bool { words[w] = true; return true })
	}
	for gi, g := range r.groups {
		for ai, a := range g.Agents {
			if a.Token == "*" {
				continue
			}
			var ok bool
			if header {
				ok = a.Token != "" && words[strings.ToLower(a.Token)]
			} else {
				ok = strings.Contains(strings.ToLower(a.Value), la)
			}
			if ok {
				if r.records[gi].ignored {
					return r.star
				}
				return r.record(gi, ai)
			}
		}
	}
	return r.star
}

// isProductSep reports whether c separates product names in a User-Agent
// header: the separators of HTTP's product syntax (RFC 9110 §10.1.5), plus
// ')', ',', tab and '+', which separate them in real headers:
// "Baiduspider+(+http://...)".
func isProductSep(c byte) bool {
	switch c {
	case ' ', '\t', '(', ')', ';', '/', ',', '+':
		return true
	}
	return false
}

// eachProduct calls fn with every run of characters between separators of
// the (lower-cased) header h, until fn returns false. A robots.txt token
// (which holds no separator) appears in h as a product name exactly when it
// equals one of these runs.
func eachProduct(h string, fn func(string) bool) {
	start := 0
	for i := 0; i <= len(h); i++ {
		if i == len(h) || isProductSep(h[i]) {
			if i > start && !fn(h[start:i]) {
				return
			}
			start = i + 1
		}
	}
}

// Decision is the verdict on one request target.
type Decision struct {
	// Allowed is the verdict.
	Allowed bool
	// Rule is the deciding rule as a robots.txt line ("Disallow:
	// /private/"), "" when no rule matched. Under spc2, a target that a
	// 2.0.0 record's Allow lines leave out (RuleSet.Decide's Unlisted) is
	// disallowed by the record's Robot-version line, "Robot-version:
	// 2.0.0", with Index -1.
	Rule string
	// Line is the 1-based line of the deciding rule, 0 when none.
	Line int
	// Index is the deciding rule's index in Resolved.Rules, -1 when none
	// (no rule matched, or Unlisted).
	Index int
}

// Resolved is the group that applies to a crawler under one profile: the
// merged groups naming its token, the "*" groups, or nothing. It is
// immutable and safe for concurrent use.
//
// When groups are merged (rfc9309 and google), their rules are merged in
// file order and the extension values combine as follows (crawlaudit's
// choice; the documents are silent):
//
//   - Crawl-delay and Cache-delay: the largest value (the strictest; of
//     equal values, the first line).
//   - Request-rate: all lines are kept; see RequestRate for the one in
//     force at an instant.
//   - Visit-time: the first line in file order (the 2.0.0 proposal allows
//     one per group; lint warns of others).
//   - Robot-version: the first line. Comment, Noindex, Clean-param: all
//     lines, in file order.
//
// The same rules combine several such lines within one group.
type Resolved struct {
	name   string
	groups []*Group
	rules  []Rule
	texts  []string
	set    *RuleSet

	crawlDelay, cacheDelay       Delay
	hasCrawlDelay, hasCacheDelay bool
	rates                        []RequestRate
	visit                        VisitTime
	hasVisit                     bool
	robotVersion                 Text
	hasRobotVersion              bool
	comments, noindex            []Text
	cleanParams                  []CleanParam
	// spc2, a 2.0.0 record: its Robot-version line, reported as the
	// deciding line of an Unlisted target.
	versionRule string
	versionLine int
	// prefs: the Content-Usage and Content-Signal lines that apply.
	prefs prefMatcher
}

func newResolved(name string, groups []*Group, p Profile, filePrefs []Statement) *Resolved {
	g := &Resolved{name: name, groups: groups, prefs: compilePrefs(groups, filePrefs)}
	for _, gr := range groups {
		g.rules = append(g.rules, gr.Rules...)
		for _, d := range gr.CrawlDelays {
			if !g.hasCrawlDelay || d.Seconds > g.crawlDelay.Seconds {
				g.crawlDelay, g.hasCrawlDelay = d, true
			}
		}
		for _, d := range gr.CacheDelays {
			if !g.hasCacheDelay || d.Seconds > g.cacheDelay.Seconds {
				g.cacheDelay, g.hasCacheDelay = d, true
			}
		}
		g.rates = append(g.rates, gr.RequestRates...)
		if !g.hasVisit && len(gr.VisitTimes) > 0 {
			g.visit, g.hasVisit = gr.VisitTimes[0], true
		}
		if !g.hasRobotVersion && len(gr.RobotVersions) > 0 {
			g.robotVersion, g.hasRobotVersion = gr.RobotVersions[0], true
		}
		g.comments = append(g.comments, gr.Comments...)
		g.noindex = append(g.noindex, gr.Noindex...)
		g.cleanParams = append(g.cleanParams, gr.CleanParams...)
	}
	g.texts = make([]string, len(g.rules))
	for i, ru := range g.rules {
		g.texts[i] = ru.String()
	}
	if p == Spc2 {
		// One record (spc2 never merges): the 2.0.0 reading when it
		// declares Robot-version 2.x.y, else the 1.0.0 reading, which is
		// Koster1996's.
		p = Koster1996
		if len(groups) == 1 {
			if reading, v := spcReadingOf(groups[0]); reading == spcV2 {
				p = Spc2
				g.versionRule, g.versionLine = KindRobotVersion.String()+": "+v.Value, v.Line
			}
		}
	}
	g.set = CompileRules(g.rules, p)
	return g
}

// named returns a copy of g under another name, sharing everything else.
func (g *Resolved) named(name string) *Resolved {
	c := *g
	c.name = name
	return &c
}

// Name returns the group's name: the robots.txt product token that selected
// it, in lower case ("googlebot"), "*" for the default group, "" when no
// group applies.
func (g *Resolved) Name() string { return g.name }

// Matched reports whether a group applies (Name is not "").
func (g *Resolved) Matched() bool { return g.name != "" }

// Groups returns the groups merged into g, in file order.
func (g *Resolved) Groups() []*Group { return g.groups }

// Rules returns the merged rules, in file order. Decision.Index indexes it.
func (g *Resolved) Rules() []Rule { return g.rules }

// RuleText returns the i-th rule as Decision.Rule reports it when that
// rule decides ("Disallow: /private/").
func (g *Resolved) RuleText(i int) string { return g.texts[i] }

// Decide decides the request target (path and query as logged, or an
// absolute URL; see RuleSet.Decide). buf is scratch space owned by the
// caller, returned possibly grown; Decide does not allocate once buf has
// grown to the longest target.
func (g *Resolved) Decide(target []byte, buf []byte) (Decision, []byte) {
	i, buf := g.set.Decide(target, buf)
	return g.decision(i), buf
}

// DecideString is Decide for a target held in a string, read in place.
func (g *Resolved) DecideString(target string, buf []byte) (Decision, []byte) {
	return g.Decide(unsafe.Slice(unsafe.StringData(target), len(target)), buf)
}

func (g *Resolved) decision(i int) Decision {
	if i == Unlisted {
		return Decision{Allowed: false, Rule: g.versionRule, Line: g.versionLine, Index: -1}
	}
	if i < 0 {
		return Decision{Allowed: true, Index: -1}
	}
	ru := &g.rules[i]
	return Decision{Allowed: ru.Allow, Rule: g.texts[i], Line: ru.Line, Index: i}
}

// CrawlDelay returns the Crawl-delay in seconds, and whether there is one.
func (g *Resolved) CrawlDelay() (seconds float64, ok bool) {
	return g.crawlDelay.Seconds, g.hasCrawlDelay
}

// CrawlDelayLine returns the line of the Crawl-delay in force, 0 when none.
func (g *Resolved) CrawlDelayLine() int { return g.crawlDelay.Line }

// CacheDelay returns the Cache-delay in seconds, and whether there is one.
func (g *Resolved) CacheDelay() (seconds float64, ok bool) {
	return g.cacheDelay.Seconds, g.hasCacheDelay
}

// RequestRates returns every valid Request-rate line of the group.
func (g *Resolved) RequestRates() []RequestRate { return g.rates }

// RequestRate returns the rate in force at the UTC instant unixSeconds: n
// requests per seconds seconds. As the 2.0.0 proposal says, a line whose
// window covers the instant applies; else, of the lines without a window,
// the strictest ("the one that requests the fewest documents per unit of
// time"). Several lines covering the instant: the strictest of them. ok is
// false when no line applies.
func (g *Resolved) RequestRate(unixSeconds int64) (n, seconds int, ok bool) {
	r, ok := g.RequestRateAt(unixSeconds)
	return r.Requests, r.Seconds, ok
}

// RequestRateAt is RequestRate returning the whole line in force.
func (g *Resolved) RequestRateAt(unixSeconds int64) (RequestRate, bool) {
	var best RequestRate
	found := false
	for _, r := range g.rates {
		if r.HasWindow && r.Window.Contains(unixSeconds) && (!found || r.stricter(best)) {
			best, found = r, true
		}
	}
	if found {
		return best, true
	}
	for _, r := range g.rates {
		if !r.HasWindow && (!found || r.stricter(best)) {
			best, found = r, true
		}
	}
	return best, found
}

// VisitTime returns the Visit-time window in minutes since midnight UTC
// (start inclusive, end exclusive; start > end wraps midnight), and whether
// there is one.
func (g *Resolved) VisitTime() (startMinute, endMinute int, ok bool) {
	return g.visit.Start, g.visit.End, g.hasVisit
}

// VisitTimeLine returns the line of the Visit-time in force, 0 when none.
func (g *Resolved) VisitTimeLine() int { return g.visit.Line }

// InVisitTime reports whether the UTC instant unixSeconds is inside the
// Visit-time window; true when there is no Visit-time.
func (g *Resolved) InVisitTime(unixSeconds int64) bool {
	return !g.hasVisit || g.visit.Contains(unixSeconds)
}

// RobotVersion returns the first Robot-version value, and whether there is
// one.
func (g *Resolved) RobotVersion() (string, bool) {
	return g.robotVersion.Value, g.hasRobotVersion
}

// Comments returns the Comment lines, in file order.
func (g *Resolved) Comments() []Text { return g.comments }

// Noindex returns the Noindex lines, in file order.
func (g *Resolved) Noindex() []Text { return g.noindex }

// CleanParams returns the Clean-param lines, in file order.
func (g *Resolved) CleanParams() []CleanParam { return g.cleanParams }

// Tokens returns the product tokens the groups name under r's profile, in
// lower case, sorted, without "*".
func (r *Robots) Tokens() []string {
	seen := map[string]bool{}
	var ts []string
	for _, g := range r.groups {
		for _, a := range g.Agents {
			t := strings.ToLower(a.Token)
			if t != "" && t != "*" && !seen[t] {
				seen[t] = true
				ts = append(ts, t)
			}
		}
	}
	sort.Strings(ts)
	return ts
}
