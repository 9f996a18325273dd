package robots

import (
	"fmt"
	"strings"
	"testing"
)

// conner1996Example is the example file of seed 000 (lines 37-70 of
// 000_1daf4344aa268b6b.txt, verbatim), after 36 comment lines so that each
// line has its number in the seed: Fredsbot's Disallow is line 42, Chives's
// Robot-version line 49, Alfred's rules lines 59-63, "*" line 70. (Lines
// holding only a comment do not end a record.)
var conner1996Example = strings.Repeat("#\n", 36) + `# -------------------------------------------
# the following robot only understands 1.0.0
# -------------------------------------------

User-agent: Fredsbot # if it don't understand 2.0.0
Disallow: / # it's unwelcome here

# ---------------------------------------------
# the following robot does understand 2.0.0
# ---------------------------------------------

User-agent: Chives
Robot-version: 2.0.0
Allow: */index.html # only allow index pages

# ----------------------------------------------
# So does this one, but we know it works, so we
# allow a bit more freedom for this one
# ----------------------------------------------

User-agent: Alfred
Robot-version: 2.0.0
Allow: /blackhole/index.html
Allow: /blackhole/info*
Disallow: *.shtml
Disallow: /blackhole/info99*
Disallow: /blackhole/info8.html

# ------------------------------------------------
# anything else we don't trust
# -------------------------------------------------

User-agent: *
Disallow: /
`

// spc2Row is one decision: agent and URL, the verdict, the deciding line as
// a robots.txt line ("" for none) and its number, and the source of the
// expectation.
type spc2Row struct {
	agent, url string
	allowed    bool
	rule       string
	line       int
	source     string
}

func checkSpc2Rows(t *testing.T, p Profile, body string, rows []spc2Row) {
	t.Helper()
	r := Compile(Parse([]byte(body)), p)
	var buf []byte
	for _, c := range rows {
		var d Decision
		d, buf = r.Resolve(c.agent).Decide([]byte(c.url), buf)
		if d.Allowed != c.allowed || d.Rule != c.rule || d.Line != c.line {
			t.Errorf("%s: %s %s: allowed=%v by %q line %d, want allowed=%v by %q line %d (%s)",
				p, c.agent, c.url, d.Allowed, d.Rule, d.Line, c.allowed, c.rule, c.line, c.source)
		}
	}
}

// TestSpc2_Conner1996Examples: the Fredsbot, Chives and Alfred records of
// seed 000 under spc2. Each row cites the seed line it follows.
func TestSpc2_Conner1996Examples(t *testing.T) {
	const (
		chivesV = "Robot-version: 2.0.0" // line 49
		alfredV = "Robot-version: 2.0.0" // line 58
	)
	checkSpc2Rows(t, Spc2, conner1996Example, []spc2Row{
		// Fredsbot: no Robot-version, a 1.0.0 record (seed 72-73).
		{"Fredsbot", "/", false, "Disallow: /", 42, "seed 41-42: Fredsbot is unwelcome"},
		{"Fredsbot", "/index.html", false, "Disallow: /", 42, "seed 41-42; 19-27: a general match is a prefix"},
		{"Fredsbot", "/robots.txt", true, "", 0, "the file itself is always allowed (1996 draft §3.2.2)"},
		// Chives: "Allow: */index.html # only allow index pages" and no
		// Disallow: only what the Allow matches (seed 175-177).
		{"Chives", "/index.html", true, "Allow: */index.html", 50, "seed 50; 88: '*' matches zero or more characters"},
		{"Chives", "/docs/a/index.html", true, "Allow: */index.html", 50, "seed 50"},
		{"Chives", "/", false, chivesV, 49, "seed 175-177: ONLY allowed what the Allow lines match"},
		{"Chives", "/docs/a.html", false, chivesV, 49, "seed 175-177"},
		{"Chives", "/index.html.bak", false, chivesV, 49, "seed 84-88: only a general match has the implied trailing '*'"},
		{"Chives", "/docs/index.html?lang=en", false, chivesV, 49, "seed 84-88: the whole URL, query included, must match"},
		{"Mozilla/5.0 (compatible; Chives/1.0)", "/a/index.html", true, "Allow: */index.html", 50, "seed 50, the agent in a header"},
		// Alfred: explicit Allow, then Disallow, then wildcard Allow
		// (seed 197-201); nothing else (seed 200-201).
		{"Alfred", "/blackhole/index.html", true, "Allow: /blackhole/index.html", 59, "seed 166-168, 197-198: explicit Allow, highest precedence"},
		{"Alfred", "/blackhole/info1.html", true, "Allow: /blackhole/info*", 60, "seed 170-173: wildcard Allow, no Disallow matches"},
		{"Alfred", "/blackhole/info8.html.old", true, "Allow: /blackhole/info*", 60, "seed 63 is explicit: it does not match a longer URL"},
		{"Alfred", "/blackhole/info99.html", false, "Disallow: /blackhole/info99*", 62, "seed 198-199: Disallow over wildcard Allow"},
		{"Alfred", "/blackhole/info8.html", false, "Disallow: /blackhole/info8.html", 63, "seed 63, 198-199"},
		{"Alfred", "/blackhole/info2.shtml", false, "Disallow: *.shtml", 61, "seed 61, 198-199"},
		{"Alfred", "/blackhole/index.shtml", false, "Disallow: *.shtml", 61, "seed 61: /blackhole/index.html is explicit, not a prefix"},
		{"Alfred", "/blackhole/", false, alfredV, 58, "seed 200-201: what no Disallow filters must pass the wildcard Allows"},
		{"Alfred", "/index.html", false, alfredV, 58, "seed 200-201"},
		// Anyone else: the default record (seed 66-70).
		{"Googlebot", "/", false, "Disallow: /", 70, "seed 66-70: anything else we don't trust"},
		{"Googlebot", "/blackhole/index.html", false, "Disallow: /", 70, "seed 69-70"},
	})
	// The same file under koster1996, which reads every record as 1.0.0:
	// the rows where the 2.0.0 reading differs.
	checkSpc2Rows(t, Koster1996, conner1996Example, []spc2Row{
		{"Chives", "/", true, "", 0, "koster1996: no line matches: allowed"},
		{"Chives", "/docs/a.html", true, "", 0, "koster1996"},
		{"Alfred", "/blackhole/info99.html", true, "Allow: /blackhole/info*", 60, "koster1996: the first matching line wins"},
		{"Alfred", "/blackhole/info8.html", true, "Allow: /blackhole/info*", 60, "koster1996"},
		{"Alfred", "/blackhole/index.shtml", false, "Disallow: *.shtml", 61, "koster1996: *.shtml is a wildcard anywhere after"},
		{"Alfred", "/blackhole/", true, "", 0, "koster1996"},
		{"Fredsbot", "/", false, "Disallow: /", 42, "koster1996"},
	})
	// The file is clean: every Robot-version line is where it belongs.
	if d := Parse([]byte(conner1996Example)).Diagnostics; len(d) != 0 {
		t.Errorf("diagnostics: %v", d)
	}
}

// TestSpc2_Discuss: the proposal's open question (seed 000, lines 197-208:
// explicit Allow and Disallow lines, no wildcard Allow, a URL none
// matches; "1. nothing else is allowed 2. everything else is allowed
// Discuss."). crawlaudit answers 2 (package documentation, "Discuss."),
// and keeps the cases the proposal does settle around it.
func TestSpc2_Discuss(t *testing.T) {
	const head = "User-agent: a\nRobot-version: 2.0.0\n"
	for _, c := range []struct {
		name, rules string
		rows        []spc2Row
	}{
		{"explicit Allow and Disallow, no wildcard Allow: the Discuss case",
			"Allow: /private/press.html\nDisallow: /private/*\n", []spc2Row{
				{"a", "/private/press.html", true, "Allow: /private/press.html", 3, "seed 166-168"},
				{"a", "/private/x", false, "Disallow: /private/*", 4, "seed 190-191"},
				{"a", "/public/x", true, "", 0, "seed 204-208, answer 2: everything else is allowed"},
				{"a", "/", true, "", 0, "seed 204-208, answer 2"},
			}},
		{"and a wildcard Allow: what no Disallow filters must pass it",
			"Allow: /private/press.html\nDisallow: /private/*\nAllow: /public/*\n", []spc2Row{
				{"a", "/public/x", true, "Allow: /public/*", 5, "seed 200-201"},
				{"a", "/other", false, "Robot-version: 2.0.0", 2, "seed 200-201"},
			}},
		{"Allow lines only: nothing else",
			"Allow: /private/press.html\n", []spc2Row{
				{"a", "/private/press.html", true, "Allow: /private/press.html", 3, "seed 175-177"},
				{"a", "/public/x", false, "Robot-version: 2.0.0", 2, "seed 175-177: ONLY allowed what they match"},
			}},
		{"Disallow lines only: everything else",
			"Disallow: /private/*\n", []spc2Row{
				{"a", "/private/x", false, "Disallow: /private/*", 3, "seed 190-191"},
				{"a", "/public/x", true, "", 0, "seed 194-195: any URL not matching can be retrieved"},
			}},
		{"an empty Allow is no Allow line",
			"Allow:\nDisallow: /x\n", []spc2Row{
				{"a", "/y", true, "", 0, "an empty value matches nothing and counts for nothing"},
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkSpc2Rows(t, Spc2, head+c.rules+"\nUser-agent: *\nDisallow: /\n", c.rows)
		})
	}
}

// TestSpc2_RobotVersion: which records spc2 reads as 2.0.0, as 1.0.0, or
// ignores (seed 000, Robot-version, lines 118-158). The record has a
// wildcard Allow and an explicit Disallow, so the three readings differ:
// 2.0.0 disallows /x (it matches no Allow) and /a/b (Disallow over a
// wildcard Allow); 1.0.0 (koster1996: first match) allows both; ignored,
// the default record allows both and disallows /d.
func TestSpc2_RobotVersion(t *testing.T) {
	const (
		v2      = "2.0.0"
		general = "1.0.0"
		ignored = "ignored"
	)
	for _, c := range []struct {
		lines  string // the record's lines after "User-agent: a"
		want   string
		source string
	}{
		{"Robot-version: 2.0.0\n", v2, "seed 72-76"},
		{"Robot-version: 2.2.0\n", v2, "seed 147-151: 2.2.0 is fine for a 2.0.0 robot"},
		{"Robot-version: 2.4.7\n", v2, "seed 147-151"},
		{"Robot-version: 2.0\n", v2, "seed 002, Robot-version: VIPnytt writes 2.0"},
		{"Robot-version: 2\n", v2, "missing parts read as 0"},
		{"robot-VERSION : 2.0.0\n", v2, "keys in any case, space before the colon (RFC 9309 §2.2: parse leniently)"},
		{"# a comment\nRobot-version: 2.0.0\n", v2, "1996 draft §3.3: comment lines are discarded, so it still follows"},
		{"User-agent: b\nRobot-version: 2.0.0\n", v2, "seed 139: it follows the User-agent lines"},
		{"Robot-version: 1.0.0\n", general, "seed 145: 1.0.0 is allowed"},
		{"Robot-version: 1.2.0\n", general, "seed 128-133"},
		{"Robot-version: 2.1.0\n", ignored, "seed 157-158: an experimental version: ignore the rule set, use the default"},
		{"Robot-version: 2.3\n", ignored, "seed 129-133: odd numbers are experimental"},
		{"Robot-version: 1.1.0\n", ignored, "seed 157-158"},
		{"Robot-version: 3.0.0\n", general, "seed 126: valid major numbers are 1 and 2; not a valid header"},
		{"Robot-version: 2.0.0-beta\n", general, "not a version"},
		{"Robot-version:\n", general, "not a version"},
		{"Crawl-delay: 5\nRobot-version: 2.0.0\n", general, "seed 139-141: if it does not immediately follow, 1.0.0"},
		{"Disallow: /q\nRobot-version: 2.0.0\n", general, "seed 139-141"},
		{"", general, "seed 72-73: missing"},
	} {
		body := "User-agent: a\n" + c.lines + "Allow: /a*\nDisallow: /a/b\n\nUser-agent: *\nDisallow: /d\n"
		r := Compile(Parse([]byte(body)), Spc2)
		g := r.Resolve("a")
		got := map[string]bool{}
		for _, u := range []string{"/x", "/a/b", "/d"} {
			d, _ := g.Decide([]byte(u), nil)
			got[u] = d.Allowed
		}
		var want map[string]bool
		switch c.want {
		case v2:
			want = map[string]bool{"/x": false, "/a/b": false, "/d": false}
		case general:
			want = map[string]bool{"/x": true, "/a/b": true, "/d": true}
		case ignored:
			want = map[string]bool{"/x": true, "/a/b": true, "/d": false}
			if g.Name() != "*" {
				t.Errorf("%q: group %q, want the default (%s)", c.lines, g.Name(), c.source)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q: allowed %v, want the %s reading %v (%s)", c.lines, got, c.want, want, c.source)
		}
	}
}

// TestSpc2_IgnoredDefault: an experimental "*" record is not the default;
// the next "*" record is, else none (seed 157-158; koster1996 otherwise
// takes the first "*" record, 1996 draft §3.2.1). A crawler whose record is
// ignored gets the default even when a later record names it too.
func TestSpc2_IgnoredDefault(t *testing.T) {
	body := "User-agent: *\nRobot-version: 2.1.0\nDisallow: /a\n\nUser-agent: a\nRobot-version: 2.3.0\nDisallow: /\n\nUser-agent: a\nDisallow: /c\n\nUser-agent: *\nDisallow: /b\n"
	checkSpc2Rows(t, Spc2, body, []spc2Row{
		{"x", "/a", true, "", 0, "the experimental * record is ignored"},
		{"x", "/b", false, "Disallow: /b", 13, "the next * record is the default"},
		{"a", "/", true, "", 0, "a's record is ignored: the default"},
		{"a", "/b", false, "Disallow: /b", 13, "the default, not the record of line 9"},
	})
	none := Compile(Parse([]byte("User-agent: *\nRobot-version: 2.1.0\nDisallow: /\n")), Spc2).Resolve("x")
	if none.Matched() {
		t.Errorf("only an ignored * record: group %q", none.Name())
	}
}

// TestSpc2_Diagnostics: lint reports Robot-version lines that spc2 reads
// otherwise than their author likely meant, as warnings (seed 000,
// Robot-version), and accepts the valid ones without a word.
func TestSpc2_Diagnostics(t *testing.T) {
	body := `User-agent: a
Robot-version: 2.0.0
Robot-version: 2.2.0
Disallow: /a

User-agent: b
Disallow: /b
Robot-version: 2.0.0

User-agent: c
Robot-version: 2.1.0
Disallow: /c

User-agent: d
Robot-version: two
Disallow: /d

User-agent: e
Robot-version: 1.0.0
Disallow: /e
`
	want := []string{
		"3 warning duplicate-robot-version",
		"8 warning robot-version-not-first",
		"11 warning experimental-robot-version",
		"15 warning invalid-robot-version",
	}
	var got []string
	for _, d := range Parse([]byte(body)).Diagnostics {
		got = append(got, fmt.Sprintf("%d %s %s", d.Line, d.Severity, d.Code))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSpc2_ParseProfile: --spec spc2 names the profile, and the list of
// names in the error has it; the profiles before it keep their values.
func TestSpc2_ParseProfile(t *testing.T) {
	if p, err := ParseProfile("SPC2"); err != nil || p != Spc2 || p.String() != "spc2" {
		t.Errorf("ParseProfile(SPC2) = %v, %v", p, err)
	}
	if _, err := ParseProfile("spc3"); err == nil || !strings.Contains(err.Error(), "orig1994, spc2") {
		t.Errorf("error %v", err)
	}
	if RFC9309 != 0 || Orig1994 != 3 || Spc2 != 4 || Profiles[len(Profiles)-1] != Spc2 {
		t.Error("profile values moved")
	}
	if p, _ := ParseProfile(""); p != RFC9309 {
		t.Errorf("default %v", p)
	}
}

// TestSpc2_DecideAllocs: the hot path stays allocation-free under spc2,
// for a 2.0.0 record (an Unlisted target included) and a 1.0.0 one.
func TestSpc2_DecideAllocs(t *testing.T) {
	r := Compile(Parse([]byte(conner1996Example)), Spc2)
	var buf []byte
	for _, agent := range []string{"Alfred", "Chives", "Fredsbot"} {
		g := r.Resolve(agent)
		for _, u := range []string{"/blackhole/info1.html", "/x/%7Ey?q=1", "/index.html"} {
			_, buf = g.DecideString(u, buf)
			if n := testing.AllocsPerRun(100, func() { _, buf = g.DecideString(u, buf) }); n != 0 {
				t.Errorf("%s %s: %v allocs", agent, u, n)
			}
		}
	}
}

func ExampleRobots_Resolve_spc2() {
	f := Parse([]byte(`User-agent: Alfred
Robot-version: 2.0.0
Allow: /blackhole/index.html
Allow: /blackhole/info*
Disallow: *.shtml
Disallow: /blackhole/info99*
`))
	g := Compile(f, Spc2).Resolve("Alfred")
	for _, u := range []string{"/blackhole/index.html", "/blackhole/info99.html", "/blackhole/info1.html", "/about.html"} {
		d, _ := g.Decide([]byte(u), nil)
		fmt.Printf("%s: allowed=%v (line %d: %s)\n", u, d.Allowed, d.Line, d.Rule)
	}
	// Output:
	// /blackhole/index.html: allowed=true (line 3: Allow: /blackhole/index.html)
	// /blackhole/info99.html: allowed=false (line 6: Disallow: /blackhole/info99*)
	// /blackhole/info1.html: allowed=true (line 4: Allow: /blackhole/info*)
	// /about.html: allowed=false (line 2: Robot-version: 2.0.0)
}
