package robots

import (
	"fmt"
	"testing"
)

// fileAllows parses body, compiles it for p, resolves agent and decides url.
func fileAllows(t testing.TB, body string, p Profile, agent, url string) bool {
	t.Helper()
	d, _ := Compile(Parse([]byte(body)), p).Resolve(agent).Decide([]byte(url), nil)
	return d.Allowed
}

// fictOrg is the /robots.txt of the 1996 draft, §4 (seed 001), verbatim,
// including the indented last line.
const fictOrg = `# /robots.txt for http://www.fict.org/
# comments to webmaster@fict.org

User-agent: unhipbot
Disallow: /

User-agent: webcrawler
User-agent: excite
Disallow:

User-agent: *
Disallow: /org/plans.html
Allow: /org/
Allow: /serv
Allow: /~mak
 Disallow: /
`

// fictOrgMatrix is the draft's matrix: URL, then unhipbot, webcrawler &
// excite, other.
var fictOrgMatrix = []struct {
	url                      string
	unhip, webcrawler, other bool
}{
	{"http://www.fict.org/", false, true, false},
	{"http://www.fict.org/index.html", false, true, false},
	{"http://www.fict.org/robots.txt", true, true, true},
	{"http://www.fict.org/server.html", false, true, true},
	{"http://www.fict.org/services/fast.html", false, true, true},
	{"http://www.fict.org/services/slow.html", false, true, true},
	{"http://www.fict.org/orgo.gif", false, true, false},
	{"http://www.fict.org/org/about.html", false, true, true},
	{"http://www.fict.org/org/plans.html", false, true, false},
	{"http://www.fict.org/%7Ejim/jim.html", false, true, false},
	{"http://www.fict.org/%7Emak/mak.html", false, true, true},
}

// TestKoster1996_FictOrgFile checks all 11 URLs × 3 agent columns of the
// 1996 draft's example, with the agents given as bare tokens and as the
// User-Agent headers the draft names ("UnhipBot/0.1", "WebCrawler/3.0",
// "Excite/1.0").
func TestKoster1996_FictOrgFile(t *testing.T) {
	r := Compile(Parse([]byte(fictOrg)), Koster1996)
	for _, row := range fictOrgMatrix {
		for _, c := range []struct {
			agent string
			want  bool
		}{
			{"unhipbot", row.unhip}, {"UnhipBot/0.1", row.unhip},
			{"webcrawler", row.webcrawler}, {"WebCrawler/3.0", row.webcrawler},
			{"excite", row.webcrawler}, {"Excite/1.0", row.webcrawler},
			{"OtherBot", row.other}, {"OtherBot/2.0 (+http://other.example)", row.other},
		} {
			d, _ := r.Resolve(c.agent).Decide([]byte(row.url), nil)
			if d.Allowed != c.want {
				t.Errorf("%s for %s: allowed=%v (by %q line %d), want %v", row.url, c.agent, d.Allowed, d.Rule, d.Line, c.want)
			}
		}
	}
}

// TestRFC9309_FictOrgFile reads the same file under RFC 9309 (longest
// match instead of first match): the matrix comes out the same, by other
// rules: /org/plans.html is disallowed because "Disallow: /org/plans.html"
// (15 octets) is longer than "Allow: /org/" (5), not because it comes first.
//
// Google's matcher compares the URL as written: "/%7Emak/mak.html" is not
// "Allow: /~mak", so under the google profile OtherBot is refused it (the
// only cell that differs).
func TestRFC9309_FictOrgFile(t *testing.T) {
	for _, p := range []Profile{RFC9309, Google} {
		r := Compile(Parse([]byte(fictOrg)), p)
		for _, row := range fictOrgMatrix {
			other := row.other
			if p == Google && row.url == "http://www.fict.org/%7Emak/mak.html" {
				other = false
			}
			for _, c := range []struct {
				agent string
				want  bool
			}{{"unhipbot", row.unhip}, {"webcrawler", row.webcrawler}, {"excite", row.webcrawler}, {"OtherBot", other}} {
				d, _ := r.Resolve(c.agent).Decide([]byte(row.url), nil)
				if d.Allowed != c.want {
					t.Errorf("%s: %s for %s: allowed=%v (by %q), want %v", p, row.url, c.agent, d.Allowed, d.Rule, c.want)
				}
			}
		}
	}
	// The deciding rules differ between the profiles.
	for _, c := range []struct {
		p    Profile
		url  string
		rule string
		line int
	}{
		{Koster1996, "/org/plans.html", "Disallow: /org/plans.html", 12},
		{RFC9309, "/org/plans.html", "Disallow: /org/plans.html", 12},
		{Koster1996, "/org/about.html", "Allow: /org/", 13},
		{RFC9309, "/org/about.html", "Allow: /org/", 13},
		{Koster1996, "/", "Disallow: /", 16},
		{RFC9309, "/%7Emak/mak.html", "Allow: /~mak", 15},
	} {
		d, _ := Compile(Parse([]byte(fictOrg)), c.p).Resolve("other").Decide([]byte(c.url), nil)
		if d.Rule != c.rule || d.Line != c.line {
			t.Errorf("%s %s: rule %q line %d, want %q line %d", c.p, c.url, d.Rule, d.Line, c.rule, c.line)
		}
	}
}

// TestKoster1996_AgentSubstring: "The robot must obey the first record in
// /robots.txt that contains a User-Agent line whose value contains the name
// token of the robot as a substring. The name comparisons are
// case-insensitive." (§3.2.1).
func TestKoster1996_AgentSubstring(t *testing.T) {
	body := "User-agent: SuperFigTreeBot\nDisallow: /a\n\nUser-agent: figtree\nDisallow: /b\n\nUser-agent: *\nDisallow: /c\n"
	for _, c := range []struct {
		agent, name string
		a, b, cc    bool
	}{
		{"figtree", "superfigtreebot", false, true, true}, // first record containing "figtree"
		{"FIGTREE", "superfigtreebot", false, true, true},
		{"FigTree/0.1 Robot libwww-perl/5.04", "figtree", true, false, true}, // header: token as product name
		{"SuperFigTreeBot", "superfigtreebot", false, true, true},
		{"other", "*", true, true, false},
	} {
		g := Compile(Parse([]byte(body)), Koster1996).Resolve(c.agent)
		if g.Name() != c.name {
			t.Errorf("%q: group %q, want %q", c.agent, g.Name(), c.name)
		}
		for _, u := range []struct {
			path string
			want bool
		}{{"/a", c.a}, {"/b", c.b}, {"/c", c.cc}} {
			if d, _ := g.Decide([]byte(u.path), nil); d.Allowed != u.want {
				t.Errorf("%q %s: allowed=%v, want %v", c.agent, u.path, d.Allowed, u.want)
			}
		}
	}
}

// TestKoster1996_Records: records are separated by blank lines (§3.3
// grammar); a record with no rule line is none; rules outside a record are
// ignored.
func TestKoster1996_Records(t *testing.T) {
	for _, c := range []struct {
		name, body, agent, path string
		koster, rfc             bool
	}{
		{"blank line between agent and rules", "User-agent: *\n\nDisallow: /\n", "x", "/a", true, false},
		{"blank line ends record", "User-agent: a\nDisallow: /x\n\nDisallow: /y\n", "a", "/y", true, false},
		{"comment line does not end record", "User-agent: a\n# note\nDisallow: /y\n", "a", "/y", false, false},
		{"agent-only record dropped, falls back on *", "User-agent: a\n\nUser-agent: *\nDisallow: /\n", "a", "/p", false, false},
		{"rfc: agent lines share group across blank", "User-agent: a\n\nUser-agent: b\nDisallow: /\n", "a", "/p", true, false},
		{"agent after rule starts record", "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n", "a", "/y", true, true},
		{"agent after extension starts record", "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /y\n", "a", "/y", true, true},
	} {
		if got := fileAllows(t, c.body, Koster1996, c.agent, c.path); got != c.koster {
			t.Errorf("%s: koster1996 allowed=%v, want %v", c.name, got, c.koster)
		}
		if got := fileAllows(t, c.body, RFC9309, c.agent, c.path); got != c.rfc {
			t.Errorf("%s: rfc9309 allowed=%v, want %v", c.name, got, c.rfc)
		}
	}
}

// TestKoster1996_FirstStarRecord: "If no such record exists, it should obey
// the first record with a User-agent line with a "*" value".
func TestKoster1996_FirstStarRecord(t *testing.T) {
	body := "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n"
	if !fileAllows(t, body, Koster1996, "x", "/b") || fileAllows(t, body, Koster1996, "x", "/a") {
		t.Error("koster1996 must use only the first * record")
	}
	if fileAllows(t, body, RFC9309, "x", "/b") || fileAllows(t, body, RFC9309, "x", "/a") {
		t.Error("rfc9309 must merge all * groups")
	}
}

// orig1994Examples are the three examples of "A Standard for Robot
// Exclusion" (seed 004), with URLs checked against their prose.
var orig1994Examples = []struct {
	name, body string
	checks     []struct {
		agent, url string
		want       bool
	}
}{
	{
		name: "no robot visits /cyberworld/map/, /tmp/ or /foo.html",
		body: "# robots.txt for http://www.example.com/\n\nUser-agent: *\nDisallow: /cyberworld/map/ # This is an infinite virtual URL space\nDisallow: /tmp/ # these will soon disappear\nDisallow: /foo.html\n",
		checks: []struct {
			agent, url string
			want       bool
		}{
			{"anybot", "/cyberworld/map/index.html", false},
			{"anybot", "/cyberworld/", true},
			{"anybot", "/tmp/x", false},
			{"anybot", "/tmp", true},
			{"anybot", "/foo.html", false},
			{"anybot", "/foo.html?x=1", false},
			{"anybot", "/foo.htm", true},
			{"anybot", "/", true},
		},
	},
	{
		name: "all but cybermapper",
		body: "# robots.txt for http://www.example.com/\n\nUser-agent: *\nDisallow: /cyberworld/map/ # This is an infinite virtual URL space\n\n# Cybermapper knows where to go.\nUser-agent: cybermapper\nDisallow:\n",
		checks: []struct {
			agent, url string
			want       bool
		}{
			{"anybot", "/cyberworld/map/x", false},
			{"cybermapper", "/cyberworld/map/x", true},
			{"CyberMapper/1.0", "/cyberworld/map/x", true},
			{"cybermapper", "/", true},
		},
	},
	{
		name: "go away",
		body: "# go away\nUser-agent: *\nDisallow: /\n",
		checks: []struct {
			agent, url string
			want       bool
		}{
			{"anybot", "/", false},
			{"anybot", "/index.html", false},
			{"anybot", "/robots.txt", true},
		},
	},
	{
		name: "Disallow: /help disallows /help.html and /help/index.html",
		body: "User-agent: *\nDisallow: /help\n",
		checks: []struct {
			agent, url string
			want       bool
		}{{"x", "/help.html", false}, {"x", "/help/index.html", false}, {"x", "/hel", true}},
	},
	{
		name: "Disallow: /help/ disallows /help/index.html but allows /help.html",
		body: "User-agent: *\nDisallow: /help/\n",
		checks: []struct {
			agent, url string
			want       bool
		}{{"x", "/help.html", true}, {"x", "/help/index.html", false}},
	},
	{
		name: "empty value allows all",
		body: "User-agent: *\nDisallow:\n",
		checks: []struct {
			agent, url string
			want       bool
		}{{"x", "/", true}, {"x", "/anything", true}},
	},
	{
		name: "empty file allows all",
		body: "",
		checks: []struct {
			agent, url string
			want       bool
		}{{"x", "/", true}},
	},
}

func TestOrig1994_Examples(t *testing.T) {
	for _, ex := range orig1994Examples {
		for _, p := range Profiles {
			r := Compile(Parse([]byte(ex.body)), p)
			for _, c := range ex.checks {
				if d, _ := r.Resolve(c.agent).Decide([]byte(c.url), nil); d.Allowed != c.want {
					t.Errorf("%s: %s: %s %s: allowed=%v, want %v", ex.name, p, c.agent, c.url, d.Allowed, c.want)
				}
			}
		}
	}
}

// TestOrig1994_NoAllowNoWildcards: the 1994 format has only Disallow, as a
// plain prefix.
func TestOrig1994_NoAllowNoWildcards(t *testing.T) {
	body := "User-agent: *\nAllow: /org/\nDisallow: /org\nDisallow: /*.gif\n"
	for _, c := range []struct {
		p         Profile
		url       string
		want      bool
		rule      string
		ruleIndex int
	}{
		{Orig1994, "/org/about.html", false, "Disallow: /org", 1},
		{Koster1996, "/org/about.html", true, "Allow: /org/", 0},
		{Orig1994, "/a.gif", true, "", -1},
		{Orig1994, "/*.gif", false, "Disallow: /*.gif", 2},
		{RFC9309, "/a.gif", false, "Disallow: /*.gif", 2},
	} {
		d, _ := Compile(Parse([]byte(body)), c.p).Resolve("x").Decide([]byte(c.url), nil)
		if d.Allowed != c.want || d.Rule != c.rule || d.Index != c.ruleIndex {
			t.Errorf("%s %s: %+v, want allowed=%v rule %q", c.p, c.url, d, c.want, c.rule)
		}
	}
}

// TestRFC9309_SimpleExample is §5.1 of the draft (seed 003).
func TestRFC9309_SimpleExample(t *testing.T) {
	body := "User-Agent : foobot\nDisallow : /example/page.html\nDisallow : /example/disallowed.gif\n\nUser-Agent : barbot\nUser-Agent : bazbot\nAllow : /example/page.html\nDisallow : /example/disallowed.gif\n\nUser-Agent: quxbot\n\nEOF\n"
	f := Parse([]byte(body))
	if len(f.Groups) != 3 {
		t.Fatalf("%d groups, want 3", len(f.Groups))
	}
	for _, c := range []struct {
		agent, url string
		want       bool
		group      string
	}{
		{"foobot", "/example/page.html", false, "foobot"},
		{"foobot", "/example/disallowed.gif", false, "foobot"},
		{"foobot", "/example/other.html", true, "foobot"},
		{"barbot", "/example/page.html", true, "barbot"},
		{"bazbot", "/example/page.html", true, "bazbot"},
		{"BazBot", "/example/disallowed.gif", false, "bazbot"},
		{"quxbot", "/example/disallowed.gif", true, "quxbot"}, // empty group: no rules, allowed
		{"other", "/example/disallowed.gif", true, ""},        // no group at all
	} {
		for _, p := range []Profile{RFC9309, Google} {
			g := Compile(f, p).Resolve(c.agent)
			if g.Name() != c.group {
				t.Errorf("%s %s: group %q, want %q", p, c.agent, g.Name(), c.group)
			}
			if d, _ := g.Decide([]byte(c.url), nil); d.Allowed != c.want {
				t.Errorf("%s %s %s: allowed=%v, want %v", p, c.agent, c.url, d.Allowed, c.want)
			}
		}
	}
	// "EOF" is not a directive: a diagnostic, not an error of parsing.
	if !hasCode(f, CodeUnknownKey, 12) {
		t.Errorf("no unknown-key diagnostic for line 12: %v", f.Diagnostics)
	}
}

// TestRFC9309_LongestMatch is §5.2: /example/page/disallowed.gif is decided
// by the longer Disallow.
func TestRFC9309_LongestMatch(t *testing.T) {
	body := "User-Agent : foobot\nAllow : /example/page/\nDisallow : /example/page/disallowed.gif\n"
	d, _ := Compile(Parse([]byte(body)), RFC9309).Resolve("foobot").Decide([]byte("http://example.com/example/page/disallowed.gif"), nil)
	if d.Allowed || d.Line != 3 || d.Rule != "Disallow: /example/page/disallowed.gif" {
		t.Errorf("got %+v", d)
	}
	d, _ = Compile(Parse([]byte(body)), Koster1996).Resolve("foobot").Decide([]byte("/example/page/disallowed.gif"), nil)
	if !d.Allowed || d.Line != 2 {
		t.Errorf("koster1996 (first match) got %+v", d)
	}
}

// TestRFC9309_Groups covers §2.1/§2.2.1 group formation and selection.
func TestRFC9309_Groups(t *testing.T) {
	body := "allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\nallow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n"
	for _, c := range []struct {
		agent, url string
		want       bool
	}{
		{"FooBot", "/x/b", true}, {"FooBot", "/z/d", true}, {"FooBot", "/y/c", false}, {"FooBot", "/foo/bar/", false},
		{"BarBot", "/y/c", true}, {"BarBot", "/w/a", true}, {"BarBot", "/z/d", false},
		{"BazBot", "/z/d", true}, {"BazBot", "/x/b", false},
	} {
		for _, p := range []Profile{RFC9309, Google} {
			if got := fileAllows(t, body, p, c.agent, c.url); got != c.want {
				t.Errorf("%s %s %s: allowed=%v, want %v", p, c.agent, c.url, got, c.want)
			}
		}
	}
	f := Parse([]byte(body))
	if !hasCode(f, CodeRuleOutsideGroup, 1) {
		t.Errorf("no rule-outside-group diagnostic at line 1: %v", f.Diagnostics)
	}
	// Other lines (Sitemap, unknown) do not end the list of agents.
	for _, body := range []string{
		"User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n",
		"User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n",
	} {
		for _, agent := range []string{"FooBot", "BarBot"} {
			if fileAllows(t, body, RFC9309, agent, "/") {
				t.Errorf("%q: %s allowed", body, agent)
			}
		}
	}
	// No group for the crawler, several "*" groups: all of them, merged.
	body = "User-agent: *\nDisallow: /a\nUser-agent: x\nDisallow: /\nUser-agent: *\nDisallow: /b\n"
	if fileAllows(t, body, RFC9309, "y", "/a") || fileAllows(t, body, RFC9309, "y", "/b") || !fileAllows(t, body, RFC9309, "y", "/c") {
		t.Error("the * groups are not merged")
	}
	if !hasCode(Parse([]byte(body)), CodeMultipleStar, 5) {
		t.Error("no multiple-star-groups diagnostic")
	}
	// Global group is secondary.
	body = "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n"
	if fileAllows(t, body, RFC9309, "FooBot", "/x/y") || !fileAllows(t, body, RFC9309, "BarBot", "/x/y") {
		t.Error("a specific group must win over *")
	}
	if !fileAllows(t, "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\n", RFC9309, "QuxBot", "/x/y") {
		t.Error("no matching group and no * group: no rules apply")
	}
}

// TestRFC9309_Syntax covers the lenient reading of lines (§2.2 "apply
// Postel's law").
func TestRFC9309_Syntax(t *testing.T) {
	for _, c := range []struct {
		name, body, agent, url string
		want                   bool
	}{
		{"keys in any case", "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n", "FooBot", "/x/y", true},
		{"keys in any case, disallow", "uSeR-aGeNt: FooBot\ndIsAlLoW: /\n", "FooBot", "/a", false},
		{"agent value case-insensitive", "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n", "foo", "/a", false},
		{"agent value cut to token", "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n", "Foo", "/x/y", true},
		{"agent value cut at version", "User-agent: Googlebot/2.1\nDisallow: /\n", "googlebot", "/a", false},
		{"whitespace around colon", "User-agent   :   FooBot  \n  Disallow\t:\t/a  \n", "FooBot", "/a", false},
		{"missing colon", "user-agent FooBot\ndisallow /\n", "FooBot", "/x/y", false},
		{"incorrect keys", "foo: FooBot\nbar: /\n", "FooBot", "/x/y", true},
		{"rules after unknown line stay in group", "User-agent: FooBot\nFoo: bar\nDisallow: /\n", "FooBot", "/a", false},
		{"comment in value", "User-agent: FooBot # the bot\nDisallow: /a # not /\n", "FooBot", "/b", true},
		{"comment in value 2", "User-agent: FooBot # the bot\nDisallow: /a # not /\n", "FooBot", "/a", false},
		{"CR line ends", "User-agent: FooBot\rDisallow: /a\r", "FooBot", "/a", false},
		{"CRLF line ends", "User-agent: FooBot\r\nDisallow: /a\r\n", "FooBot", "/a", false},
		{"BOM", "\xEF\xBB\xBFUser-agent: FooBot\nDisallow: /a\n", "FooBot", "/a", false},
		{"no final newline", "User-agent: FooBot\nDisallow: /a", "FooBot", "/a", false},
		{"empty Disallow allows", "User-agent: FooBot\nDisallow:\n", "FooBot", "/a", true},
		{"paths case-sensitive", "User-agent: FooBot\nDisallow: /X\n", "FooBot", "/x", true},
		{"star followed by comment", "User-agent: * # everyone\nDisallow: /\n", "FooBot", "/a", false},
	} {
		if got := fileAllows(t, c.body, RFC9309, c.agent, c.url); got != c.want {
			t.Errorf("%s: allowed=%v, want %v", c.name, got, c.want)
		}
	}
}

// TestRFC9309_LineNumbers: CR, LF and CRLF each end one line.
func TestRFC9309_LineNumbers(t *testing.T) {
	for _, body := range []string{
		"User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n",
		"User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n",
		"User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r",
		"User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\r\r\nDisallow: /",
	} {
		f := Parse([]byte(body))
		if f.Lines != 6 && !(f.Lines == 5 && body[len(body)-1] == '/') {
			t.Errorf("%q: %d lines", body, f.Lines)
		}
		g := f.Groups[1]
		if g.Agents[0].Line != 3 || g.Rules[0].Line != f.Lines {
			t.Errorf("%q: agent line %d, rule line %d", body, g.Agents[0].Line, g.Rules[0].Line)
		}
	}
}

// TestRFC9309_ByteOrderMark: a BOM (or a prefix of one) at the start is
// skipped; anywhere else it is content.
func TestRFC9309_ByteOrderMark(t *testing.T) {
	for _, c := range []struct {
		body    string
		rules   int
		unknown bool
	}{
		{"\xEF\xBB\xBFUser-Agent: foo\nAllow: /AnyValue\n", 1, false},
		{"\xEF\xBBUser-Agent: foo\nAllow: /AnyValue\n", 1, false},
		{"\xEFUser-Agent: foo\nAllow: /AnyValue\n", 1, false},
		{"\xEF\x11\xBFUser-Agent: foo\nAllow: /AnyValue\n", 0, true},
		{"User-Agent: foo\n\xEF\xBB\xBFAllow: /AnyValue\n", 0, true},
	} {
		f := Parse([]byte(c.body))
		rules := 0
		for _, g := range f.Groups {
			rules += len(g.Rules)
		}
		unknown := hasCode(f, CodeUnknownKey, 0) || hasCode(f, CodeMisspelledKey, 0)
		if rules != c.rules || unknown != c.unknown {
			t.Errorf("%q: %d rules, unknown=%v; want %d, %v (%v)", c.body, rules, unknown, c.rules, c.unknown, f.Diagnostics)
		}
	}
}

// hasCode reports whether f has a diagnostic with code at line (any line
// when line is 0).
func hasCode(f *File, code Code, line int) bool {
	for _, d := range f.Diagnostics {
		if d.Code == code && (line == 0 || d.Line == line) {
			return true
		}
	}
	return false
}

func ExampleResolved_Decide() {
	f := Parse([]byte("User-agent: Googlebot\nDisallow: /private/\nAllow: /private/ok\n\nUser-agent: *\nDisallow: /\n"))
	g := Compile(f, RFC9309).Resolve("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
	var buf []byte
	for _, u := range []string{"/", "/private/x", "/private/ok.html"} {
		var d Decision
		d, buf = g.Decide([]byte(u), buf)
		fmt.Printf("%s %s: %v %q %d\n", g.Name(), u, d.Allowed, d.Rule, d.Line)
	}
	// Output:
	// googlebot /: true "" 0
	// googlebot /private/x: false "Disallow: /private/" 2
	// googlebot /private/ok.html: true "Allow: /private/ok" 3
}
