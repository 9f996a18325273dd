package robots

import (
	"fmt"
	"strings"
	"testing"
)

// group builds rules from "allow: /p" / "disallow: /p" lines (line numbers
// from 1).
func group(lines ...string) []Rule {
	rules := make([]Rule, 0, len(lines))
	for i, l := range lines {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			panic("bad rule " + l)
		}
		rules = append(rules, Rule{
			Allow:   strings.EqualFold(strings.TrimSpace(k), "allow"),
			Pattern: strings.TrimSpace(v),
			Line:    i + 1,
		})
	}
	return rules
}

// allowed decides target against rs and reports whether it is allowed.
func allowed(rs *RuleSet, target string) (bool, int) {
	i, _ := rs.Decide([]byte(target), nil)
	return i < 0 || rs.Rules()[i].Allow, i
}

type urlCase struct {
	url   string
	allow bool
}

func checkCases(t *testing.T, p Profile, rules []Rule, cases []urlCase) {
	t.Helper()
	rs := CompileRules(rules, p)
	for _, c := range cases {
		got, i := allowed(rs, c.url)
		if got != c.allow {
			deciding := "none"
			if i >= 0 {
				deciding = rules[i].String()
			}
			t.Errorf("%s: %q: allowed=%v, want %v (deciding rule %s; rules %v)", p, c.url, got, c.allow, deciding, rules)
		}
	}
}

// RFC 9309 §2.2.2, Table 2: each row's "Path", as written in robots.txt,
// matches a URI written as the "Path", the "Encoded Path" or the "Path to
// Match"; and the other way round.
func TestRFC9309_Table2PercentEncoding(t *testing.T) {
	rows := [][3]string{
		{"/foo/bar?baz=quz", "/foo/bar?baz=quz", "/foo/bar?baz=quz"},
		{"/foo/bar?baz=http://foo.bar", "/foo/bar?baz=http%3A%2F%2Ffoo.bar", "/foo/bar?baz=http%3A%2F%2Ffoo.bar"},
		{"/foo/bar/ツ", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"},
		{"/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"},
		{"/foo/bar/%62%61%7A", "/foo/bar/%62%61%7A", "/foo/bar/baz"},
	}
	// RFC9309 only: the google profile compares the target as written
	// (TestGoogle_Encoding).
	for _, p := range []Profile{RFC9309} {
		for _, row := range rows {
			for _, pat := range row {
				rules := group("disallow: /", "allow: "+pat)
				var cases []urlCase
				for _, u := range row {
					cases = append(cases, urlCase{u, true}, urlCase{"http://www.example.com" + u, true},
						urlCase{strings.ToLower(u), true}) // hex case is not significant
				}
				checkCases(t, p, rules, cases)
			}
			// And the normal form is the "Encoded Path" (with unreserved
			// characters decoded, i.e. the "Path to Match").
			for _, u := range row {
				if got := string(NormalizeTarget(nil, []byte(u))); got != row[2] {
					t.Errorf("NormalizeTarget(%q) = %q, want %q", u, got, row[2])
				}
			}
		}
	}
	// The query's "/" is data, the path's is not: %2F never equals "/".
	checkCases(t, RFC9309, group("disallow: /foo/bar"), []urlCase{
		{"/foo%2Fbar", true}, {"/foo/bar", false}, {"/foo/bar%2F", false},
	})
	checkCases(t, RFC9309, group("disallow: /foo?u=a/b"), []urlCase{
		{"/foo?u=a%2Fb", false}, {"/foo?u=a%2fb", false}, {"/foo%3Fu=a/b", true},
	})
	// "&" and "=" delimit the query: their %xx is data, not the same.
	checkCases(t, RFC9309, group("disallow: /s?a=1&b=2"), []urlCase{
		{"/s?a=1&b=2", false}, {"/s?a=1%26b=2", true}, {"/s?a%3D1&b=2", true},
	})
}

// RFC 9309 §2.2.3, Table 3 (special characters) and Table 4 (%2A, %24).
func TestRFC9309_Table3SpecialCharacters(t *testing.T) {
	checkCases(t, RFC9309, group("disallow: /", "allow: /this/path/exactly$"), []urlCase{
		{"/this/path/exactly", true}, {"/this/path/exactly/", false}, {"/this/path/exactly?x", false},
	})
	checkCases(t, RFC9309, group("disallow: /", "allow: /this/*/exactly"), []urlCase{
		{"/this/a/exactly", true}, {"/this//exactly", true}, {"/this/a/b/exactly/c", true}, {"/this/exactly", false},
	})
}

func TestRFC9309_Table4PercentEncodedSpecials(t *testing.T) {
	checkCases(t, RFC9309, group("disallow: /path/file-with-a-%2A.html", "disallow: /path/foo-%24"), []urlCase{
		{"https://www.example.com/path/file-with-a-*.html", false},
		{"/path/file-with-a-%2a.html", false},
		{"/path/file-with-a-x.html", true}, // %2A is not a wildcard
		{"/path/file-with-a-.html", true},
		{"https://www.example.com/path/foo-$", false},
		{"/path/foo-%24", false},
		{"/path/foo-", true}, // %24 is not an anchor
	})
	// A "$" that is not last is literal; a literal "*" in the URL is %2A.
	checkCases(t, RFC9309, group("disallow: /a$b", "disallow: /c%2Ad$"), []urlCase{
		{"/a$b", false}, {"/a%24b", false}, {"/ab", true}, {"/c*d", false}, {"/c*dd", true}, {"/cxd", true},
	})
}

// RFC 9309 §5.1 and §5.2 at the RuleSet level (group selection is the
// parser's job).
func TestRFC9309_Section5Examples(t *testing.T) {
	foobot := group("Disallow : /example/page.html", "Disallow : /example/disallowed.gif")
	barbot := group("Allow : /example/page.html", "Disallow : /example/disallowed.gif")
	checkCases(t, RFC9309, foobot, []urlCase{
		{"/example/page.html", false}, {"/example/disallowed.gif", false}, {"/example/other.html", true},
	})
	checkCases(t, RFC9309, barbot, []urlCase{
		{"/example/page.html", true}, {"/example/disallowed.gif", false}, {"/", true},
	})
	checkCases(t, RFC9309, nil, []urlCase{{"/example/page.html", true}}) // quxbot: empty group
	longest := group("Allow : /example/page/", "Disallow : /example/page/disallowed.gif")
	checkCases(t, RFC9309, longest, []urlCase{
		{"/example/page/disallowed.gif", false}, {"/example/page/", true}, {"/example/page/other.gif", true},
	})
	rs := CompileRules(longest, RFC9309)
	if i, _ := rs.Decide([]byte("/example/page/disallowed.gif"), nil); i != 1 || rs.Rules()[i].Line != 2 {
		t.Errorf("deciding rule = %d, want 1 (line 2)", i)
	}
}

func TestRFC9309_LongestMatchAndTies(t *testing.T) {
	tests := []struct {
		name  string
		rules []Rule
		cases []urlCase
	}{
		{"equal allow wins", group("disallow: /x/page.html", "allow: /x/page.html"), []urlCase{{"/x/page.html", true}}},
		{"equal allow wins, other order", group("allow: /x/page.html", "disallow: /x/page.html"), []urlCase{{"/x/page.html", true}}},
		{"root tie", group("allow: /", "disallow: /"), []urlCase{{"/", true}, {"/a", true}}},
		{"empty rules", group("disallow:", "allow:"), []urlCase{{"/", true}}},
		{"empty disallow only", group("disallow:"), []urlCase{{"/anything", true}}},
		{"wildcard shorter", group("allow: /page", "disallow: /*.html"), []urlCase{{"/page.html", false}, {"/page", true}}},
		{"prefix longer than wildcard", group("allow: /x/page.", "disallow: /*.html"), []urlCase{{"/x/page.html", true}, {"/x/y.html", false}}},
		{"anchored root", group("allow: /$", "disallow: /"), []urlCase{{"/", true}, {"/page.htm", false}}},
		{"allow p", group("allow: /p", "disallow: /"), []urlCase{{"/page", true}}},
		{"folder tie", group("allow: /folder", "disallow: /folder"), []urlCase{{"/folder/page", true}}},
		{"page vs htm", group("allow: /page", "disallow: /*.htm"), []urlCase{{"/page.htm", false}}},
		{"wildcards counted", group("disallow: /a*b", "allow: /a*"), []urlCase{{"/ab", false}, {"/ax", true}}},
		{"utf-8 weighs encoded octets", group("allow: /ツ", "disallow: /%E3%83%84x"), []urlCase{{"/ツ", true}, {"/ツx", false}}},
		{"robots.txt always allowed", group("disallow: /"), []urlCase{{"/robots.txt", true}, {"/robots.txt?x=1", true}, {"http://h/robots.txt", true}, {"/robots.txtx", false}, {"/Robots.txt", false}}},
		{"case sensitive", group("disallow: /Fish"), []urlCase{{"/fish", true}, {"/Fish", false}, {"/FISH", true}}},
		{"not starting with slash", group("disallow: fish"), []urlCase{{"/fish", true}, {"fish", false}}},
		{"fragment dropped", group("disallow: /a$"), []urlCase{{"/a#frag", false}, {"/a%23frag", true}}},
		{"empty path is root", group("disallow: /$"), []urlCase{{"http://example.com", false}, {"", false}, {"http://example.com/x", true}}},
		// google/robotstxt ID_LongestMatch and ID_AllowDisallow_Value_CaseSensitive.
		{"directory allow", group("disallow: /x", "allow: /x/"), []urlCase{{"http://foo.bar/x", false}, {"http://foo.bar/x/", true}}},
		{"value case", group("disallow: /x/"), []urlCase{{"/x/y", false}}},
		{"value case upper", group("disallow: /X/"), []urlCase{{"/x/y", true}}},
		{"comment-free values", group("disallow: /foo/quz", "allow: /"), []urlCase{{"/foo/bar", true}, {"/foo/quz", false}}},
		{"star then anchor", group("disallow: /a*$"), []urlCase{{"/a", false}, {"/abc", false}, {"/b", true}}},
		{"only star", group("disallow: *"), []urlCase{{"/", false}, {"/x?y", false}}},
		{"only anchor", group("disallow: $"), []urlCase{{"/", true}}},
		{"query rule", group("disallow: /*?*sessionid="), []urlCase{{"/a?b=1&sessionid=2", false}, {"/a?sessionid=2", false}, {"/sessionid=2", true}}},
		{"wildcard across query", group("disallow: /*&p="), []urlCase{{"/list?a=1&p=2", false}, {"/list?a=1%26p=2", true}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkCases(t, RFC9309, tc.rules, tc.cases)
		})
	}
}

// google/robotstxt's documentation checks (robots_test.cc,
// GoogleOnly_DocumentationChecks), which are the cases of Google's
// "URL matching based on path values" table.
func TestGoogle_DocumentationChecks(t *testing.T) {
	tests := []struct {
		allow string
		cases []urlCase
	}{
		{"/fish", []urlCase{{"/bar", false}, {"/fish", true}, {"/fish.html", true}, {"/fish/salmon.html", true},
			{"/fishheads", true}, {"/fishheads/yummy.html", true}, {"/fish.html?id=anything", true},
			{"/Fish.asp", false}, {"/catfish", false}, {"/?id=fish", false}}},
		{"/fish*", []urlCase{{"/bar", false}, {"/fish", true}, {"/fish.html", true}, {"/fish/salmon.html", true},
			{"/fishheads", true}, {"/fishheads/yummy.html", true}, {"/fish.html?id=anything", true},
			{"/Fish.bar", false}, {"/catfish", false}, {"/?id=fish", false}}},
		{"/fish/", []urlCase{{"/bar", false}, {"/fish/", true}, {"/fish/salmon", true}, {"/fish/?salmon", true},
			{"/fish/salmon.html", true}, {"/fish/?id=anything", true},
			{"/fish", false}, {"/fish.html", false}, {"/Fish/Salmon.html", false}}},
		{"/*.php", []urlCase{{"/bar", false}, {"/filename.php", true}, {"/folder/filename.php", true},
			{"/folder/filename.php?parameters", true}, {"/folder/any.php.file.html", true}, {"/filename.php/", true},
			{"/", false}, {"/windows.PHP", false}}},
		{"/*.php$", []urlCase{{"/bar", false}, {"/filename.php", true}, {"/folder/filename.php", true},
			{"/filename.php?parameters", false}, {"/filename.php/", false}, {"/filename.php5", false},
			{"/php/", false}, {"/filename?php", false}, {"/aaaphpaaa", false}, {"/windows.PHP", false}}},
		{"/fish*.php", []urlCase{{"/bar", false}, {"/fish.php", true}, {"/fishheads/catfish.php?parameters", true},
			{"/Fish.PHP", false}}},
	}
	for _, p := range []Profile{RFC9309, Google} {
		for _, tc := range tests {
			checkCases(t, p, group("disallow: /", "allow: "+tc.allow), tc.cases)
		}
	}
}

// google/robotstxt robots_test.cc: ID_SpecialCharacters, ID_LongestMatch's
// wildcard cases, and the "/*?" idiom.
func TestGoogle_SpecialCharacters(t *testing.T) {
	checkCases(t, RFC9309, group("disallow: /foo/bar/quz", "allow: /foo/*/qux"), []urlCase{
		{"/foo/bar/quz", false}, {"/foo/quz", true}, {"/foo//quz", true}, {"/foo/bax/quz", true},
	})
	checkCases(t, RFC9309, group("disallow: /foo/bar$", "allow: /foo/bar/qux"), []urlCase{
		{"/foo/bar", false}, {"/foo/bar/qux", true}, {"/foo/bar/", true}, {"/foo/bar/baz", true},
	})
	checkCases(t, RFC9309, group("disallow: /*?"), []urlCase{
		{"/a?b", false}, {"/?", false}, {"/a", true}, {"/a%3Fb", true},
	})
	checkCases(t, RFC9309, group("disallow: /$"), []urlCase{{"/", false}, {"/a", true}})
	checkCases(t, RFC9309, group("disallow: /", "allow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par"), []urlCase{
		{"http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par", true},
	})
}

// google/robotstxt ID_Encoding at the RuleSet level: the google profile
// compares the target verbatim with the rule escaped as Google escapes it
// (non-ASCII octets %-encoded, escapes' hex upper-cased), so a raw UTF-8
// target, lower-case hex in the target and %-encoded unreserved characters
// are not the rule's octets. rfc9309 normalises both sides (RFC 9309 Table
// 2, TestRFC9309_Table2PercentEncoding).
func TestGoogle_Encoding(t *testing.T) {
	checkCases(t, Google, group("disallow: /", "allow: /foo/bar/ツ"), []urlCase{
		{"http://foo.bar/foo/bar/%E3%83%84", true},
		{"http://foo.bar/foo/bar/ツ", false}, // the URL is not %-encoded
		{"http://foo.bar/foo/bar/%e3%83%84", false},
	})
	checkCases(t, Google, group("disallow: /", "allow: /foo/bar/%e3%83%84"), []urlCase{
		{"http://foo.bar/foo/bar/%E3%83%84", true}, {"http://foo.bar/foo/bar/%e3%83%84", false},
	})
	checkCases(t, Google, group("disallow: /", "allow: /foo/bar/%62%61%7A"), []urlCase{
		{"http://foo.bar/foo/bar/baz", false},
		{"http://foo.bar/foo/bar/%62%61%7A", true},
	})
	checkCases(t, Google, group("disallow: /", "allow: /foo/bar?baz=http://foo.bar"), []urlCase{
		{"/foo/bar?baz=http://foo.bar", true}, {"/foo/bar?baz=http%3A%2F%2Ffoo.bar", false},
	})
	// "%2A" and "%24" are octets like any other: no wildcard, no anchor,
	// and not a literal "*" or "$" either.
	checkCases(t, Google, group("disallow: /a%2A", "disallow: /b%24"), []urlCase{
		{"/a%2A", false}, {"/a*", true}, {"/ax", true}, {"/b%24", false}, {"/b$", true},
	})
	// Priority is the length of the escaped value: "/ツ" weighs 10 octets,
	// more than the 9 of "/%E3%83%8".
	checkCases(t, Google, group("allow: /%E3%83%8", "disallow: /ツ"), []urlCase{{"/%E3%83%84", false}})
	checkCases(t, Google, group("disallow: /%E3%83%8", "allow: /ツ"), []urlCase{{"/%E3%83%84", true}})
}

// google/robotstxt GoogleOnly_IndexHTMLisDirectory; and a value not
// starting with "/", which Google's matcher (comparing from the first
// octet) never matches.
func TestGoogle_Only(t *testing.T) {
	rules := group("disallow: /", "allow: /allowed-slash/index.html")
	checkCases(t, Google, rules, []urlCase{
		{"/allowed-slash/", true}, {"/allowed-slash/index.html", true}, {"/allowed-slash/index.htm", false},
		{"/allowed-slash/x", false}, {"/anyother-url", false},
	})
	checkCases(t, RFC9309, rules, []urlCase{{"/allowed-slash/", false}})
	checkCases(t, Google, group("disallow: fish"), []urlCase{{"/fish", true}, {"/cat", true}})
}

// The 1996 draft, §3.2.2: the %xx table (Record Path, URL path, Matches),
// under Koster1996 and, as it has the same normalisation, Orig1994 and
// Spc2. A 2.0.0 value matches the whole target, so under Spc2 each record
// gets the "*" that turns a general match into a wildcard one (seed 000,
// Disallow: "a general match can be turned into a wild card/regular
// expression match by adding a '*' to the end of the string").
func TestKoster1996_PercentTable(t *testing.T) {
	rows := []struct {
		record, url string
		match       bool
		google      bool // matches under google: octet for octet, the record escaped (%xx upper-cased)
	}{
		{"/tmp", "/tmp", true, true},
		{"/tmp", "/tmp.html", true, true},
		{"/tmp", "/tmp/a.html", true, true},
		{"/tmp/", "/tmp", false, false},
		{"/tmp/", "/tmp/", true, true},
		{"/tmp/", "/tmp/a.html", true, true},
		{"/a%3cd.html", "/a%3cd.html", true, false},
		{"/a%3Cd.html", "/a%3cd.html", true, false},
		{"/a%3cd.html", "/a%3Cd.html", true, true},
		{"/a%3Cd.html", "/a%3Cd.html", true, true},
		{"/a%2fb.html", "/a%2fb.html", true, false},
		{"/a%2fb.html", "/a/b.html", false, false},
		{"/a/b.html", "/a%2fb.html", false, false},
		{"/a/b.html", "/a/b.html", true, true},
		{"/%7ejoe/index.html", "/~joe/index.html", true, false},
		{"/~joe/index.html", "/%7Ejoe/index.html", true, false},
	}
	for _, p := range Profiles {
		for _, r := range rows {
			match := r.match
			if p == Google {
				match = r.google
			}
			record := r.record
			if p == Spc2 {
				record += "*"
			}
			checkCases(t, p, group("disallow: "+record), []urlCase{{r.url, !match}})
		}
	}
}

// The 1996 draft, §4: the fict.org matrix (fictOrgMatrix, in
// conformance_test.go), all 11 URLs and three columns, at the matcher level.
func TestKoster1996_FictOrgMatrix(t *testing.T) {
	unhip := group("Disallow: /")
	webcrawler := group("Disallow:")
	other := group("Disallow: /org/plans.html", "Allow: /org/", "Allow: /serv", "Allow: /~mak", "Disallow: /")
	for _, m := range fictOrgMatrix {
		checkCases(t, Koster1996, unhip, []urlCase{{m.url, m.unhip}})
		checkCases(t, Koster1996, webcrawler, []urlCase{{m.url, m.webcrawler}})
		checkCases(t, Koster1996, other, []urlCase{{m.url, m.other}})
	}
	// Under RFC 9309 the longest match gives the same matrix for this file
	// except where file order and length disagree: none here.
	for _, m := range fictOrgMatrix {
		checkCases(t, RFC9309, other, []urlCase{{m.url, m.other}})
	}
}

func TestKoster1996_FirstMatchWins(t *testing.T) {
	rules := group("disallow: /a", "allow: /a/b")
	checkCases(t, Koster1996, rules, []urlCase{{"/a/b", false}, {"/c", true}})
	checkCases(t, RFC9309, rules, []urlCase{{"/a/b", true}})
	rs := CompileRules(group("allow: /x", "disallow: /x", "disallow: /"), Koster1996)
	if i, _ := rs.Decide([]byte("/x/y"), nil); i != 0 {
		t.Errorf("Koster1996 first match: rule %d, want 0", i)
	}
	// Wildcards are kept under Koster1996 (the draft does not define them).
	checkCases(t, Koster1996, group("disallow: /*.pdf$"), []urlCase{{"/a/b.pdf", false}, {"/a/b.pdfx", true}})
}

// The 1994 standard: Disallow is a plain prefix, no Allow, no wildcards.
func TestOrig1994_PlainPrefix(t *testing.T) {
	checkCases(t, Orig1994, group("Disallow: /help"), []urlCase{
		{"/help.html", false}, {"/help/index.html", false}, {"/hel", true},
	})
	checkCases(t, Orig1994, group("Disallow: /help/"), []urlCase{
		{"/help/index.html", false}, {"/help.html", true},
	})
	checkCases(t, Orig1994, group("Disallow: /cyberworld/map/", "Disallow: /tmp/", "Disallow: /foo.html"), []urlCase{
		{"/cyberworld/map/x", false}, {"/tmp/a", false}, {"/foo.html", false}, {"/foo.htm", true}, {"/cyberworld/", true},
	})
	checkCases(t, Orig1994, group("Disallow: /"), []urlCase{{"/", false}, {"/x", false}, {"/robots.txt", true}})
	checkCases(t, Orig1994, group("Disallow:"), []urlCase{{"/", true}})
	// No wildcards: "*" and "$" are literal.
	checkCases(t, Orig1994, group("Disallow: /tmp/*", "Disallow: /a$"), []urlCase{
		{"/tmp/x", true}, {"/tmp/*", false}, {"/tmp/%2A", false}, {"/a", true}, {"/a$", false}, {"/a$b", false},
	})
	// No Allow.
	checkCases(t, Orig1994, group("Allow: /a", "Disallow: /"), []urlCase{{"/a", false}})
}

func TestDecideReportsRuleAndReusesBuffer(t *testing.T) {
	rules := group("disallow: /private/", "allow: /private/ok", "disallow: /*.pdf$")
	rs := CompileRules(rules, RFC9309)
	var buf []byte
	for _, c := range []struct {
		url  string
		want int
	}{{"/private/x", 0}, {"/private/ok", 1}, {"/a%2Eb.pdf", 2}, {"/x", -1}, {"/private/%6Fk", 1}} {
		var got int
		got, buf = rs.Decide([]byte(c.url), buf)
		if got != c.want {
			t.Errorf("Decide(%q) = %d, want %d", c.url, got, c.want)
		}
		if got2, _ := rs.DecideString(c.url, nil); got2 != c.want {
			t.Errorf("DecideString(%q) = %d, want %d", c.url, got2, c.want)
		}
	}
	if testing.AllocsPerRun(100, func() { _, buf = rs.Decide([]byte("/private/%6Fk?x=%E3%83%84"), buf) }) != 0 {
		t.Error("Decide allocates with a grown buffer")
	}
}

func ExampleRuleSet_Decide() {
	rules := []Rule{
		{Allow: false, Pattern: "/private/", Line: 3},
		{Allow: true, Pattern: "/private/press-*.html$", Line: 4},
	}
	rs := CompileRules(rules, RFC9309)
	var buf []byte
	for _, target := range []string{"/private/a", "/private/press-2026.html", "/public"} {
		var i int
		i, buf = rs.Decide([]byte(target), buf)
		if i < 0 {
			fmt.Printf("%s: allowed, no rule\n", target)
			continue
		}
		fmt.Printf("%s: %s (line %d)\n", target, rules[i], rules[i].Line)
	}
	// Output:
	// /private/a: Disallow: /private/ (line 3)
	// /private/press-2026.html: Allow: /private/press-*.html$ (line 4)
	// /public: allowed, no rule
}
