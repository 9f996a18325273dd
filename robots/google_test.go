package robots

import (
	"strings"
	"testing"
)

// Google-only leniencies of the google profile, case by case, each against
// what rfc9309 does with the same file. The cases follow google/robotstxt's
// robots_test.cc where it has one (named there GoogleOnly_...).

// GoogleOnly_AcceptTypos: Google reads frequent misspellings of
// User-agent and Disallow, and keys that start with a directive's name.
func TestGoogleOnly_AcceptTypos(t *testing.T) {
	for _, c := range []struct {
		body string
		rfc  bool // allowed under rfc9309 for FooBot at /a
	}{
		{"useragent: FooBot\ndisallow: /a\n", true},
		{"user agent: FooBot\ndisallow: /a\n", true},
		{"User-agent: FooBot\ndissallow: /a\n", true},
		{"User-agent: FooBot\ndissalow: /a\n", true},
		{"User-agent: FooBot\ndisalow: /a\n", true},
		{"User-agent: FooBot\ndiasllow: /a\n", true},
		{"User-agent: FooBot\ndisallaw: /a\n", true},
		{"User-agent: FooBot\nDisallowed: /a\n", true},
		{"User-agents: FooBot\nDisallow: /a\n", true},
	} {
		if got := fileAllows(t, c.body, Google, "FooBot", "/a"); got {
			t.Errorf("google: %q: /a allowed", c.body)
		}
		if got := fileAllows(t, c.body, RFC9309, "FooBot", "/a"); got != c.rfc {
			t.Errorf("rfc9309: %q: allowed=%v", c.body, got)
		}
		if f := Parse([]byte(c.body)); !hasCode(f, CodeMisspelledKey, 0) {
			t.Errorf("%q: no misspelled-key diagnostic: %v", c.body, f.Diagnostics)
		}
	}
	// "site-map" is a Sitemap for Google only; its lines never join groups.
	if f := Parse([]byte("site-map: http://x/s.xml\n")); len(f.Sitemaps) != 0 || !hasCode(f, CodeMisspelledKey, 1) {
		t.Errorf("site-map: %+v", f)
	}
}

// GoogleOnly_AcceptUserAgentUpToFirstSpace (robots_test.cc): "User-Agent:
// Foo Bar" names Foo under both profiles. The crawler "Foo Bar" is refused
// Foo's group under google, as upstream asks: Google's matcher compares the
// crawler's name whole. rfc9309 reads a value with a space as a User-Agent
// header, in which Foo appears as a product name. A real
// header keeps its product reading under google too.
func TestGoogleOnly_AcceptUserAgentUpToFirstSpace(t *testing.T) {
	body := "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n"
	for _, c := range []struct {
		agent       string
		google, rfc bool
	}{
		{"Foo", true, true},
		{"foo", true, true},
		{"Bar", false, false},
		{"Foo Bar", false, true},
		{"Foo\tBar", false, true},
		{"  Foo  ", true, true}, // surrounding blanks are trimmed: a bare token
		{"Foo/1.0", true, true},
		{"Mozilla/5.0 (compatible; Foo/1.0; +http://foo.bar/bot)", true, true},
		{"Foo Bar/2.0", true, true},
	} {
		if got := fileAllows(t, body, Google, c.agent, "/x/y"); got != c.google {
			t.Errorf("google: %q allowed /x/y = %v, want %v", c.agent, got, c.google)
		}
		if got := fileAllows(t, body, RFC9309, c.agent, "/x/y"); got != c.rfc {
			t.Errorf("rfc9309: %q allowed /x/y = %v, want %v", c.agent, got, c.rfc)
		}
	}
}

// GoogleOnly_TokenWithoutDigits: Google cuts a token at the first character
// outside [a-zA-Z_-], so "User-agent: MJ12bot" names "MJ" and does not apply
// to the crawler MJ12bot; rfc9309 keeps digits (see the package comment).
func TestGoogleOnly_TokenWithoutDigits(t *testing.T) {
	body := "User-agent: MJ12bot\nDisallow: /\n"
	if fileAllows(t, body, RFC9309, "MJ12bot", "/a") {
		t.Error("rfc9309: MJ12bot allowed")
	}
	if !fileAllows(t, body, Google, "MJ12bot", "/a") {
		t.Error("google: MJ12bot refused")
	}
	if fileAllows(t, body, Google, "MJ", "/a") {
		t.Error("google: MJ allowed")
	}
	if got := Compile(Parse([]byte(body)), Google).Tokens(); len(got) != 1 || got[0] != "mj" {
		t.Errorf("google tokens %q", got)
	}
}

// GoogleOnly_StarWithText: "User-agent: * foo" is still the default group
// for Google; rfc9309 reads "*" followed by a space the same way, but "*bot"
// names nothing in either.
func TestGoogleOnly_StarWithText(t *testing.T) {
	for _, p := range []Profile{Google, RFC9309} {
		if fileAllows(t, "User-agent: * everyone\nDisallow: /\n", p, "x", "/a") {
			t.Errorf("%s: \"* everyone\" is not the default group", p)
		}
		if !fileAllows(t, "User-agent: *bot\nDisallow: /\n", p, "x", "/a") {
			t.Errorf("%s: \"*bot\" is the default group", p)
		}
	}
}

// GoogleOnly_MissingColonTwoWordsOnly: Google accepts whitespace for the
// colon only when the line has exactly two words; rfc9309 accepts it after
// any known key.
func TestGoogleOnly_MissingColonTwoWordsOnly(t *testing.T) {
	body := "User-agent FooBot\nDisallow /a b\nDisallow /c\n"
	if fileAllows(t, body, Google, "FooBot", "/a b") == fileAllows(t, body, RFC9309, "FooBot", "/a b") {
		t.Error("google and rfc9309 agree on \"Disallow /a b\"")
	}
	if fileAllows(t, body, RFC9309, "FooBot", "/a%20b") {
		t.Error("rfc9309 did not read \"Disallow /a b\"")
	}
	for _, p := range []Profile{Google, RFC9309} {
		if fileAllows(t, body, p, "FooBot", "/c") {
			t.Errorf("%s: \"Disallow /c\" not read", p)
		}
	}
	// Google: a key that merely starts with "disallow" takes the text after
	// the colon; rfc9309 takes the first word as the key.
	body = "User-agent: FooBot\nDisallow /x: /y\n"
	if fileAllows(t, body, Google, "FooBot", "/y") || !fileAllows(t, body, Google, "FooBot", "/x") {
		t.Error("google: \"Disallow /x: /y\" should disallow /y")
	}
	if fileAllows(t, body, RFC9309, "FooBot", "/x:%20/y") || !fileAllows(t, body, RFC9309, "FooBot", "/y") {
		t.Error("rfc9309: \"Disallow /x: /y\" should disallow \"/x: /y\"")
	}
}

// GoogleOnly_LineTooLong (robots_test.cc): Google keeps the first
// MaxLineBytes-1 bytes of a line. A Disallow cut there matches URLs that
// share the kept prefix; rfc9309 keeps the whole line.
func TestGoogleOnly_LineTooLong(t *testing.T) {
	const disallow = "disallow: "
	longline := "/x/"
	for len(longline) < MaxLineBytes-len("/x/")-len(disallow)+1 {
		longline += "a"
	}
	body := "user-agent: FooBot\n" + disallow + longline + "/qux\n"
	if !fileAllows(t, body, Google, "FooBot", "/fux") {
		t.Error("google: /fux refused")
	}
	if fileAllows(t, body, Google, "FooBot", longline+"/fux") {
		t.Error("google: the cut rule does not match")
	}
	if !fileAllows(t, body, RFC9309, "FooBot", longline+"/fux") {
		t.Error("rfc9309: the line was cut")
	}
	if fileAllows(t, body, RFC9309, "FooBot", longline+"/qux") {
		t.Error("rfc9309: the whole rule does not match")
	}
	if f := Parse([]byte(body)); !hasCode(f, CodeLineTooLong, 2) {
		t.Errorf("no line-too-long diagnostic: %v", f.Diagnostics)
	}

	const allow = "allow: "
	a, b := "/x/", "/x/"
	for len(a) < MaxLineBytes-len("/x/")-len(allow)+1 {
		a += "a"
		b += "b"
	}
	body = "user-agent: FooBot\ndisallow: /\n" + allow + a + "/qux\n" + allow + b + "/qux\n"
	for _, c := range []struct {
		url  string
		want bool
	}{{"/", false}, {a + "/qux", true}, {b + "/fux", true}} {
		if got := fileAllows(t, body, Google, "FooBot", c.url); got != c.want {
			t.Errorf("google: %.20q…: allowed=%v, want %v", c.url, got, c.want)
		}
	}
	if fileAllows(t, body, RFC9309, "FooBot", b+"/fux") {
		t.Error("rfc9309: the allow line was cut")
	}
}

// GoogleOnly_IndexHTMLisDirectory, end to end: "Allow: .../index.html" also
// allows the directory (the matcher's Google-only rule, through the parser).
func TestGoogleOnly_IndexHTMLisDirectory(t *testing.T) {
	body := "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n"
	for _, c := range []struct {
		url  string
		want bool
	}{
		{"http://foo.com/allowed-slash/", true},
		{"http://foo.com/allowed-slash/index.htm", false},
		{"http://foo.com/allowed-slash/index.html", true},
		{"http://foo.com/anyother-url", false},
	} {
		if got := fileAllows(t, body, Google, "foobot", c.url); got != c.want {
			t.Errorf("%s: allowed=%v, want %v", c.url, got, c.want)
		}
	}
	d, _ := Compile(Parse([]byte(body)), Google).Resolve("foobot").Decide([]byte("/allowed-slash/"), nil)
	if d.Rule != "Allow: /allowed-slash/index.html" || d.Line != 2 {
		t.Errorf("deciding rule %q line %d", d.Rule, d.Line)
	}
	if fileAllows(t, body, RFC9309, "foobot", "/allowed-slash/") {
		t.Error("rfc9309 allowed the directory")
	}
}

// GoogleOnly_ExtensionsKept: Google ignores Crawl-delay, but extensions are
// parsed whatever the profile, so that an audit can say what a site asked
// of a crawler that ignores them.
func TestGoogleOnly_ExtensionsKept(t *testing.T) {
	g := Compile(Parse([]byte("User-agent: FooBot\nCrawl-delay: 2.5\nDisallow: /\n")), Google).Resolve("FooBot")
	if s, ok := g.CrawlDelay(); !ok || s != 2.5 {
		t.Errorf("crawl-delay %v %v", s, ok)
	}
}

// TestGoogle_ReadsSameGroupsOnCleanFiles: on a file without Google-only
// constructs the google and rfc9309 profiles form the same groups.
func TestGoogle_ReadsSameGroupsOnCleanFiles(t *testing.T) {
	f := Parse([]byte(strings.Join([]string{
		"User-agent: a", "User-agent: b", "Disallow: /x", "Crawl-delay: 3",
		"User-agent: c", "Allow: /y", "Sitemap: http://s/", "User-agent: *", "Disallow: /",
	}, "\n")))
	rg, gg := Compile(f, RFC9309).Groups(), Compile(f, Google).Groups()
	if len(rg) != len(gg) || len(rg) != 3 {
		t.Fatalf("%d and %d groups", len(rg), len(gg))
	}
	for i := range rg {
		if len(rg[i].Agents) != len(gg[i].Agents) || len(rg[i].Rules) != len(gg[i].Rules) {
			t.Errorf("group %d differs", i)
		}
	}
}

// GoogleOnly_ExtensionsDoNotEndAgents: Google's parser knows no extension,
// so a Crawl-delay between User-agent lines does not start a new group;
// under rfc9309 it does (see buildGroups).
func TestGoogleOnly_ExtensionsDoNotEndAgents(t *testing.T) {
	body := "User-agent: Yandex\nCrawl-delay: 5\n\nUser-agent: *\nDisallow: /admin\n"
	for _, c := range []struct {
		p          Profile
		yandex     bool // Yandex allowed /admin
		starDelay  bool // "*" has a Crawl-delay
		groupCount int
	}{{RFC9309, true, false, 2}, {Google, false, true, 1}, {Koster1996, true, false, 2}} {
		r := Compile(Parse([]byte(body)), c.p)
		if len(r.Groups()) != c.groupCount {
			t.Errorf("%s: %d groups", c.p, len(r.Groups()))
		}
		if d, _ := r.Resolve("Yandex").Decide([]byte("/admin"), nil); d.Allowed != c.yandex {
			t.Errorf("%s: Yandex allowed=%v", c.p, d.Allowed)
		}
		if _, ok := r.Resolve("other").CrawlDelay(); ok != c.starDelay {
			t.Errorf("%s: * crawl-delay %v", c.p, ok)
		}
	}
}

// GoogleOnly_SystemTest (robots_test.cc) asks an empty agent: it is
// allowed everything by a file that names only FooBot. Under the google
// profile (and every other) an empty agent gets the "*" groups and nothing
// else. Upstream's code goes one step further by accident: HandleUserAgent
// compares the agent with ExtractUserAgent of the line's value, which is ""
// for "User-agent: 123bot" or an empty value, so an empty agent would get
// such a group as its own; crawlaudit reads those lines as naming no
// crawler, under google too: RFC 9309 §2.2.1 allows no such token.
func TestGoogleOnly_EmptyAgent(t *testing.T) {
	for _, c := range []struct {
		body, url string
		want      bool
	}{
		{"user-agent: FooBot\ndisallow: /\n", "", true},
		{"user-agent: FooBot\ndisallow: /\n", "/x", true},
		{"user-agent: *\ndisallow: /x\nuser-agent: FooBot\ndisallow: /\n", "/x", false},
		{"user-agent: *\ndisallow: /x\nuser-agent: FooBot\ndisallow: /\n", "/y", true},
		{"user-agent: 123bot\ndisallow: /\n", "/y", true},
		{"user-agent:\ndisallow: /\n", "/y", true},
	} {
		for _, p := range []Profile{Google, RFC9309} {
			if got := fileAllows(t, c.body, p, "", c.url); got != c.want {
				t.Errorf("%s: %q, empty agent, %q: allowed=%v, want %v", p, c.body, c.url, got, c.want)
			}
		}
	}
	if g := Compile(Parse([]byte("user-agent: FooBot\ndisallow: /\nuser-agent: *\nallow: /\n")), Google).Resolve(""); g.Name() != "*" {
		t.Errorf("empty agent got group %q, want *", g.Name())
	}
}

// FuzzGooglePathParamsQuery: never panics; the result starts with "/",
// holds no "#", and is a piece of the URL (with a "/" put in front when the
// piece starts with "?" or ";"), or "/". (Checked against upstream's
// compiled GetPathParamsQuery on 100,000 random URLs while porting.)
func FuzzGooglePathParamsQuery(f *testing.F) {
	for _, s := range []string{"", "http://www.example.com/a/b?c=http://d.e/", "example.com/a;b#c", "//a/b/c", "a/b",
		"example.com?a", "//", "/", "#/", "a#b/c", "x://", "?://a/b", ";a://b/c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, url string) {
		p := GooglePathParamsQuery(url)
		if !strings.HasPrefix(p, "/") || strings.Contains(p, "#") {
			t.Fatalf("%q: %q", url, p)
		}
		if p != "/" && !strings.Contains(url, p) && !(strings.Contains(url, p[1:]) && (p[1] == '?' || p[1] == ';')) {
			t.Fatalf("%q: %q is not a piece of it", url, p)
		}
	})
}
