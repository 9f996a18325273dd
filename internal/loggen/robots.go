package loggen

import (
	"embed"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

//go:embed robots/*.txt
var robotsFS embed.FS

// RobotsVersion is one version of a host's robots.txt.
type RobotsVersion struct {
	// At is the UTC instant the version went live; it names the file in a
	// history directory, as `audit --robots DIR` reads it (docs/commands.md):
	// At.Format(time.RFC3339) + ".txt".
	At time.Time
	// Text is the content of the file.
	Text string

	groups []robotsGroup
}

// FileName returns the version's file name in a history directory,
// "2026-10-10T12:00:00Z.txt".
func (v *RobotsVersion) FileName() string { return v.At.UTC().Format(time.RFC3339) + ".txt" }

// Robots returns the robots.txt history the generator's crawlers obey for
// host: three hand-written versions, live from 2026-09-15T00:00:00Z,
// 2026-10-10T12:00:00Z and 2026-10-20T00:00:00Z (51, 54 and 60 Allow and
// Disallow rules), with groups for *, Googlebot, Googlebot-Image, GPTBot
// (disallowed entirely from the second version on), bingbot and YandexBot
// (Crawl-delay: 5), AhrefsBot, SemrushBot and MJ12bot (Crawl-delay: 10),
// DotBot (Request-rate: 3/1m, and 10/1m from 01:00 to 05:00 UTC), PetalBot
// (Visit-time: 0100-0500) and Bytespider (Disallow: /), wildcard rules
// (/*?sessionid=, /*.pdf$), Allow inside Disallow and Sitemap lines naming
// host. Every version only adds restrictions to the one before it for the
// paths the generator produces, so a crawler obeying a copy younger than
// 24 h is never counted in "disallowed", only in "disallowed_in_grace".
func Robots(host string) []RobotsVersion {
	entries, err := robotsFS.ReadDir("robots")
	if err != nil {
		panic(err) // the files are embedded: cannot happen
	}
	var vs []RobotsVersion
	for _, e := range entries {
		name := e.Name()
		// Embedded names cannot hold ':': they use the basic ISO 8601 form.
		at, err := time.Parse("20060102T150405Z", strings.TrimSuffix(name, ".txt"))
		if err != nil {
			panic(fmt.Sprintf("embedded robots file %q: %v", name, err))
		}
		b, err := robotsFS.ReadFile(path.Join("robots", name))
		if err != nil {
			panic(err)
		}
		text := strings.ReplaceAll(string(b), "{{host}}", host)
		vs = append(vs, RobotsVersion{At: at, Text: text, groups: parseRobots(text)})
	}
	slices.SortFunc(vs, func(a, b RobotsVersion) int { return a.At.Compare(b.At) })
	return vs
}

// HandWrittenRules is the number of Allow and Disallow rules of the last
// version of Robots.
const HandWrittenRules = 60

// RobotsHistory returns the robots.txt history for host with rules Allow
// and Disallow rules in its last version: Robots(host) when rules is 0 or
// HandWrittenRules, else Robots(host) with rules-HandWrittenRules Disallow
// rules added at the end of every version, in groups of their own for *,
// Googlebot, bingbot and AhrefsBot in turn (merged with the hand-written
// groups of those agents, RFC 9309 §2.2.1). The added rules are the kind a
// large site accumulates: product and category prefixes, old blog months,
// tracking parameters and file types, with wildcards and "$". Because they
// only disallow, every version still only adds restrictions to the one
// before it. It fails when rules is below HandWrittenRules (and not 0) or
// above MaxRobotsRules.
func RobotsHistory(host string, rules int) ([]RobotsVersion, error) {
	vs := Robots(host)
	if rules == 0 || rules == HandWrittenRules {
		return vs, nil
	}
	if rules < HandWrittenRules || rules > MaxRobotsRules {
		return nil, fmt.Errorf("cannot write a robots.txt of %d rules: want 0 (the hand-written %d) or %d to %d", rules, HandWrittenRules, HandWrittenRules, MaxRobotsRules)
	}
	extra := extraRobotsRules(rules - HandWrittenRules)
	for i := range vs {
		vs[i].Text += extra
		vs[i].groups = parseRobots(vs[i].Text)
	}
	return vs, nil
}

// MaxRobotsRules bounds RobotsHistory's rules.
const MaxRobotsRules = 20000

// extraRobotsRules returns n Disallow rules in groups of their own, all
// different.
func extraRobotsRules(n int) string {
	params := []string{"utm_source", "utm_medium", "utm_campaign", "ref", "fbclid", "gclid", "replytocom",
		"filter", "view", "share", "print", "lang", "currency", "preview", "add-to-cart", "orderby"}
	exts := []string{"json", "php", "asp", "bak", "zip", "sql", "log", "cgi", "inc", "xml.gz", "tmp", "old"}
	years := []string{"2019", "2020", "2021", "2022"}
	// Rule i is of kind i%6; the first rules of a kind are the plainest.
	rule := func(i int) string {
		j := i / 6
		switch i % 6 {
		case 0:
			a, b := adjectives[j%len(adjectives)], nouns[(j/len(adjectives))%len(nouns)]
			if k := j / (len(adjectives) * len(nouns)); k > 0 {
				return "/products/" + a + "-" + b + "-" + strconv.Itoa(k) + "$"
			}
			return "/products/" + a + "-" + b + "-"
		case 1:
			s := "/category/" + categories[j%len(categories)] + "/" + nouns[(j/len(categories))%len(nouns)] + "-"
			if k := j / (len(categories) * len(nouns)); k > 0 {
				return s + strconv.Itoa(k) + "*/"
			}
			return s + "*/?page="
		case 2:
			s := "/blog/" + years[j%len(years)] + "/" + fmt.Sprintf("%02d", 1+(j/len(years))%12) + "/"
			if k := j / (len(years) * 12); k > 0 {
				return s + blogSlugs[k%len(blogSlugs)] + "-" + strconv.Itoa(k/len(blogSlugs))
			}
			return s
		case 3:
			p := params[j%len(params)]
			switch k := j / len(params); k {
			case 0:
				return "/*?" + p + "="
			case 1:
				return "/*&" + p + "="
			default:
				return "/*?" + p + strconv.Itoa(k) + "="
			}
		case 4:
			if k := j / len(exts); k > 0 {
				return "/*." + exts[j%len(exts)] + strconv.Itoa(k) + "$"
			}
			return "/*." + exts[j%len(exts)] + "$"
		default:
			if k := j / len(nouns); k > 0 {
				return "/tag/" + nouns[j%len(nouns)] + "-" + strconv.Itoa(k) + "/"
			}
			return "/tag/" + nouns[j%len(nouns)] + "/"
		}
	}
	agents := []string{"*", "Googlebot", "bingbot", "AhrefsBot"}
	var b strings.Builder
	b.WriteString("\n# Rules added by the generator (--robots-rules).\n")
	per := (n + len(agents) - 1) / len(agents)
	for gi, a := range agents {
		lo, hi := gi*per, min(n, (gi+1)*per)
		if lo >= hi {
			break
		}
		fmt.Fprintf(&b, "\nUser-agent: %s\n", a)
		for i := lo; i < hi; i++ {
			b.WriteString("Disallow: ")
			b.WriteString(rule(i))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// versionAt returns the index of the version in effect at unix second t, or
// -1 before the first one.
func versionAt(vs []RobotsVersion, t int64) int {
	i := -1
	for j := range vs {
		if vs[j].At.Unix() <= t {
			i = j
		}
	}
	return i
}

// Allowed reports whether the version allows target (path and query, as
// requested) for a crawler sending userAgent.
//
// This is the generator's own small RFC 9309 matcher, written only for the
// embedded files: group chosen by the longest agent token that appears in
// userAgent as a product name, else "*"; longest match with
// Allow winning ties; "*" and a final "$"; percent-encoding normalised on
// both sides. It steers the polite crawlers and serves tests as a reference
// that does not depend on package robots.
func (v *RobotsVersion) Allowed(userAgent, target string) bool {
	return v.groupFor(userAgent).allowed(target)
}

// groupCache remembers the groups chosen for the agents of one actor.
type groupCache map[groupKey]robotsGroup

type groupKey struct {
	v  *RobotsVersion
	ua string
}

func (c groupCache) allowed(v *RobotsVersion, userAgent, target string) bool {
	k := groupKey{v, userAgent}
	g, ok := c[k]
	if !ok {
		g = v.groupFor(userAgent)
		c[k] = g
	}
	return g.allowed(target)
}

type robotsRule struct {
	allow    bool
	anchored bool   // the pattern ended in '$'
	pattern  string // normalised, without the final '$'
	octets   int    // length of the pattern as written, for longest match
}

type robotsGroup struct {
	agents []string // lower case
	rules  []robotsRule
}

// parseRobots parses the embedded files, which are well-formed; it is not a
// general robots.txt parser (see package robots for that).
func parseRobots(text string) []robotsGroup {
	var groups []robotsGroup
	inAgents := false
	for line := range strings.Lines(text) {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		val = strings.TrimSpace(val)
		switch key {
		case "user-agent":
			if !inAgents {
				groups = append(groups, robotsGroup{})
				inAgents = true
			}
			g := &groups[len(groups)-1]
			g.agents = append(g.agents, strings.ToLower(val))
		case "allow", "disallow":
			inAgents = false
			if len(groups) == 0 || val == "" {
				continue
			}
			g := &groups[len(groups)-1]
			p := normalizePath(val)
			r := robotsRule{allow: key == "allow", octets: len(p)}
			r.pattern, r.anchored = strings.CutSuffix(p, "$")
			g.rules = append(g.rules, r)
		default:
			inAgents = false
		}
	}
	return groups
}

// groupFor merges the groups that apply to userAgent.
func (v *RobotsVersion) groupFor(userAgent string) robotsGroup {
	ua := strings.ToLower(userAgent)
	best := ""
	for _, g := range v.groups {
		for _, a := range g.agents {
			if a != "*" && len(a) > len(best) && tokenIn(ua, a) {
				best = a
			}
		}
	}
	if best == "" {
		best = "*"
	}
	var merged robotsGroup
	for _, g := range v.groups {
		if slices.Contains(g.agents, best) {
			merged.rules = append(merged.rules, g.rules...)
		}
	}
	return merged
}

// tokenIn reports whether tok appears in ua bounded by start, space, '(',
// ';' or '/' before it and by end, space, '(', ';' or '/' after it.
func tokenIn(ua, tok string) bool {
	isBound := func(c byte) bool { return c == ' ' || c == '(' || c == ';' || c == '/' }
	for off := 0; ; {
		i := strings.Index(ua[off:], tok)
		if i < 0 {
			return false
		}
		i += off
		j := i + len(tok)
		if (i == 0 || isBound(ua[i-1])) && (j == len(ua) || isBound(ua[j])) {
			return true
		}
		off = i + 1
	}
}

func (g robotsGroup) allowed(target string) bool {
	p := normalizePath(target)
	if p == "/robots.txt" {
		return true
	}
	bestLen, allow := -1, true
	for _, r := range g.rules {
		if !matchPattern(p, r.pattern, r.anchored) {
			continue
		}
		n := r.octets
		if n > bestLen || (n == bestLen && r.allow) {
			bestLen, allow = n, r.allow
		}
	}
	return allow
}

// matchPattern reports whether pattern ('*' any run) matches all of p when
// anchored, else a prefix of p.
func matchPattern(p, pattern string, anchored bool) bool {
	// Iterative wildcard match with backtracking to the last star: linear
	// enough for the embedded rules.
	pi, si, star, mark := 0, 0, -1, 0
	for si < len(p) {
		switch {
		case !anchored && pi == len(pattern):
			return true
		case pi < len(pattern) && pattern[pi] == '*':
			star, mark = pi, si
			pi++
		case pi < len(pattern) && pattern[pi] == p[si]:
			pi++
			si++
		case star >= 0:
			pi = star + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for pi < len(pattern) && pattern[pi] == '*' {
		pi++
	}
	return pi == len(pattern)
}

// normalizePath applies RFC 9309 §2.2.2 normalisation: octets outside
// US-ASCII are percent-encoded, %xx of unreserved characters decoded, hex
// digits upper-cased.
func normalizePath(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == '%' || r >= 0x80 }) {
		return s
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			d := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(d) {
				b.WriteByte(d)
			} else {
				b.WriteByte('%')
				b.WriteByte(hex[d>>4])
				b.WriteByte(hex[d&15])
			}
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}
