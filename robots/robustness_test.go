package robots

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/crawlaudit/crawlaudit/internal/shareddata"
)

// probeAgents and probeTargets are asked of every file in the robustness
// tests: every lookup must answer.
var probeAgents = []string{
	"Googlebot", "googlebot-image", "*", "",
	"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
	"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
	"GPTBot/1.2", "FigTree/0.1 Robot libwww-perl/5.04", "bot", "x",
}

var probeTargets = []string{"/", "/robots.txt", "/admin/", "/a/b.html?x=1", "/%7Euser/", "/search?q=a*b$", "http://example.com/wp-admin/x", ""}

// probe resolves and decides the probes under every profile. It returns
// the number of decisions made.
func probe(t testing.TB, f *File) int {
	n := 0
	var buf []byte
	for _, p := range Profiles {
		r := Compile(f, p)
		for _, a := range probeAgents {
			g := r.Resolve(a)
			if g == nil {
				t.Fatalf("%s: Resolve(%q) = nil", p, a)
			}
			for _, u := range probeTargets {
				var d Decision
				d, buf = g.Decide([]byte(u), buf)
				if d.Index >= len(g.Rules()) || (d.Index >= 0) != (d.Rule != "") && !isUnlisted(p, d) || (d.Index >= 0 && d.Line != g.Rules()[d.Index].Line) {
					t.Fatalf("%s %q %q: inconsistent decision %+v", p, a, u, d)
				}
				n++
			}
			g.RequestRate(0)
			g.InVisitTime(0)
			g.CrawlDelay()
		}
	}
	return n
}

// isUnlisted reports whether d is the decision on a target that a 2.0.0
// record's Allow lines leave out under spc2: disallowed by the record's
// Robot-version line, with no rule index.
func isUnlisted(p Profile, d Decision) bool {
	return p == Spc2 && d.Index == -1 && !d.Allowed && d.Line > 0 && strings.HasPrefix(d.Rule, "Robot-version: ")
}

// TestProtegoCorpus parses the 4,231 real robots.txt files of the Protego
// top-10k corpus (2019): none panics, every lookup answers, and the number
// of files showing each diagnostic is logged.
func TestProtegoCorpus(t *testing.T) {
	path := shareddata.Path(t, "robots-corpus/protego-top10k-2019.tar.gz")
	if testing.Short() {
		t.Skip("skipping the corpus in -short mode")
	}
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	files, withErrors, groups, rules, decisions := 0, 0, 0, 0, 0
	perCode := map[Code]int{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatalf("%s: %s: %v", path, h.Name, err)
		}
		files++
		f := Parse(data)
		seen := map[Code]bool{}
		for _, d := range f.Diagnostics {
			if d.Line < 1 || d.Line > f.Lines+1 {
				t.Errorf("%s: diagnostic at line %d of %d: %v", h.Name, d.Line, f.Lines, d)
			}
			seen[d.Code] = true
		}
		for c := range seen {
			perCode[c]++
		}
		if f.HasErrors() {
			withErrors++
		}
		groups += len(f.Groups)
		for _, g := range f.Groups {
			rules += len(g.Rules)
		}
		decisions += probe(t, f)
	}
	if files != 4231 {
		t.Errorf("%d files, want 4231", files)
	}
	t.Logf("%d files, %d groups, %d rules, %d decisions; %d files with errors", files, groups, rules, decisions, withErrors)
	codes := make([]string, 0, len(perCode))
	for c := range perCode {
		codes = append(codes, string(c))
	}
	sort.Strings(codes)
	for _, c := range codes {
		t.Logf("  %-22s %5d files", c, perCode[Code(c)])
	}
}

// TestRobotsHistory parses every version of a few sites' real robots.txt
// histories, Wikipedia's long commented file among them.
func TestRobotsHistory(t *testing.T) {
	root := shareddata.Path(t, "robots-history")
	for _, site := range []string{"wikipedia.org", "www.openstreetmap.org", "sandia.gov", "_template_ai.robots.txt"} {
		versions, _ := filepath.Glob(filepath.Join(root, site, "*.txt"))
		if len(versions) == 0 {
			t.Errorf("%s: no versions", site)
			continue
		}
		for _, v := range versions {
			data, err := os.ReadFile(v)
			if err != nil {
				t.Fatal(err)
			}
			f := Parse(data)
			probe(t, f)
			for _, d := range f.Diagnostics {
				if d.Severity == Error && site == "wikipedia.org" && v == versions[len(versions)-1] {
					t.Logf("%s:%v", filepath.Base(v), d)
				}
			}
		}
	}
	// The newest Wikipedia file: many groups, every one of them disallowing
	// all for some named bot, and a "*" group with specific rules.
	versions, _ := filepath.Glob(filepath.Join(root, "wikipedia.org", "*.txt"))
	data, err := os.ReadFile(versions[len(versions)-1])
	if err != nil {
		t.Fatal(err)
	}
	r := Compile(Parse(data), RFC9309)
	if len(r.Groups()) < 20 {
		t.Errorf("wikipedia: %d groups", len(r.Groups()))
	}
	if d, _ := r.Resolve("Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)").Decide([]byte("/wiki/Main_Page"), nil); d.Allowed {
		t.Errorf("wikipedia: MJ12bot allowed /wiki/Main_Page")
	}
	if d, _ := r.Resolve("Googlebot").Decide([]byte("/wiki/Main_Page"), nil); !d.Allowed {
		t.Errorf("wikipedia: Googlebot refused /wiki/Main_Page by %q", d.Rule)
	}
	if d, _ := r.Resolve("Googlebot").Decide([]byte("/w/index.php?title=Special:Search"), nil); d.Allowed {
		t.Errorf("wikipedia: Googlebot allowed /w/")
	}
}

// TestNastyInputs: hostile bytes parse without panic, in bounded time, with
// the diagnostics they deserve.
func TestNastyInputs(t *testing.T) {
	big := strings.Repeat("User-agent: a\nDisallow: /x\n", 30000) // ~780 KB
	for _, c := range []struct {
		name  string
		data  string
		codes []Code
	}{
		{"NULs", "User-agent: *\x00\nDisallow: /\x00x\n\x00\x00\x00", []Code{CodeControlChar}},
		{"binary", string(bytes.Repeat([]byte{0xff, 0xfe, 0x00, 0x01, '\n', 0x80, ':', 0xc0}, 500)), []Code{CodeNotUTF8, CodeBinary}},
		{"UTF-16LE with a mark", utf16LE("\ufeffUser-agent: *\r\nDisallow: /private/\r\n"), []Code{CodeUTF16}},
		{"UTF-16BE with a mark", utf16BE("\ufeffUser-agent: *\nDisallow: /\n"), []Code{CodeUTF16}},
		{"UTF-16LE without a mark", utf16LE("User-agent: *\nDisallow: /\n"), []Code{CodeUTF16}},
		{"UTF-16LE, French comments", utf16LE("\ufeff# Règles pour les robots\nUser-agent: *\nDisallow: /privé/\n"), []Code{CodeUTF16}},
		{"gzip", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x0b\x2d\x4e", []Code{CodeCompressed}},
		{"zstd", "\x28\xb5\x2f\xfd\x24\x1a\xd1\x00", []Code{CodeCompressed}},
		{"bzip2", "BZh91AY&SY\x00", []Code{CodeCompressed}},
		{"zip", "PK\x03\x04\x14\x00\x00\x00", []Code{CodeCompressed}},
		{"BZh is text", "BZh: a robots.txt that begins oddly\nUser-agent: *\nDisallow: /\n", []Code{CodeUnknownKey}},
		{"latin-1 in a rule", "User-agent: *\nDisallow: /caf\xe9\n", []Code{CodeNotUTF8}},
		{"html", "<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n<body>\n<p>Not found: robots.txt</p>\n</body></html>\n", []Code{CodeHTML}},
		{"html upper", "<HTML>\n<BODY>Disallow: /</BODY>\n", []Code{CodeHTML}},
		{"over 500 KiB", big, []Code{CodeFileTooLarge}},
		{"long line", "User-agent: *\nDisallow: /" + strings.Repeat("a", 100000) + "\n", []Code{CodeLineTooLong}},
		{"only colons", strings.Repeat(":::\n", 100), []Code{CodeUnknownKey}},
		{"only hashes", strings.Repeat("####\n", 100), nil},
		{"CR only", strings.Repeat("\r", 1000), nil},
		{"unterminated", "User-agent: *\nDisallow: /a", nil},
		{"misspellings", "Useragent: *\nDissalow: /a\nuser agent: b\nCrawl_delay: 4\n", []Code{CodeMisspelledKey}},
		{"missing colon", "User-agent *\nDisallow /\n", []Code{CodeMissingColon}},
		{"rule first", "Disallow: /\nUser-agent: *\n", []Code{CodeRuleOutsideGroup}},
		{"bad agent", "User-agent: Яндекс\nDisallow: /\n", []Code{CodeInvalidAgent}},
		{"agent with version", "User-agent: Googlebot/2.1\nDisallow: /\n", []Code{CodeAgentNotToken}},
		{"blank in group", "User-agent: *\nDisallow: /a\n\nDisallow: /b\n", []Code{CodeBlankLineInGroup}},
		{"duplicate visit time", "User-agent: *\nVisit-time: 0100-0200\nVisit-time: 0300-0400\n", []Code{CodeDuplicateVisit}},
		{"bad rate", "User-agent: *\nRequest-rate: fast\n", []Code{CodeInvalidRate}},
		{"pattern not path", "User-agent: *\nDisallow: private\n", []Code{CodePatternNotPath}},
	} {
		f := Parse([]byte(c.data))
		probe(t, f)
		for _, code := range c.codes {
			if !hasCode(f, code, 0) {
				t.Errorf("%s: no %s diagnostic in %v", c.name, code, f.Diagnostics)
			}
		}
		if c.codes == nil && len(f.Diagnostics) != 0 {
			t.Errorf("%s: unexpected diagnostics %v", c.name, f.Diagnostics)
		}
	}
	// The files that are plainly not a robots.txt say so; flawed ones do not.
	for _, c := range []struct {
		data       string
		not        Code
		directives bool
	}{
		{"<html><body>Disallow: /</body></html>\n", CodeHTML, false},
		{utf16LE("\ufeffUser-agent: *\n"), CodeUTF16, false},
		{"\x1f\x8b\x08\x00", CodeCompressed, false},
		{"\x00\x01\x02\n\x03\x04\n", CodeBinary, false},
		{"User-agent: *\x00\nDisallow: /\n", "", true},     // junk beside directives: a flawed robots.txt
		{"# nothing but a comment\n", "", false},           // allows everything, but is a robots.txt
		{"", "", false},                                    // the same
		{"Sitemap: https://example.com/s.xml\n", "", true}, // a directive outside any group
		{"User-agent: *\nDisalow: /\n", "", true},          // misspelt: flawed, not wrong
	} {
		f := Parse([]byte(c.data))
		d, not := f.NotRobotsTxt()
		if not != (c.not != "") || not && d.Code != c.not {
			t.Errorf("%q: NotRobotsTxt = %v, %v; want %q", c.data, d, not, c.not)
		}
		if f.HasDirective() != c.directives {
			t.Errorf("%q: HasDirective = %v", c.data, !c.directives)
		}
	}
	// HTML: individual unknown lines are not listed.
	f := Parse([]byte("<html>\n<body>\nhello\nfoo: bar\n</body>\n</html>\n"))
	if len(f.Diagnostics) != 1 || f.Diagnostics[0].Line != 1 || !f.HasErrors() {
		t.Errorf("html: %v", f.Diagnostics)
	}
	// Over 500 KiB: the line the limit falls in is dropped; earlier lines
	// are read.
	f = Parse([]byte(big))
	// 18,962 pairs of lines fill 511,974 bytes; "User-agent: a" ends at
	// 511,988 and "Disallow: /x" at 512,000, its LF just past the limit:
	// complete, so kept.
	if !f.Truncated || f.Lines != 2*18962+2 {
		t.Errorf("big: truncated=%v lines=%d", f.Truncated, f.Lines)
	}
	last := f.Groups[len(f.Groups)-1]
	if len(last.Rules) == 1 && last.Rules[0].Pattern != "/x" {
		t.Errorf("big: a cut rule was kept: %q", last.Rules[0].Pattern)
	}
	// The limit inside a line: that line is dropped whole.
	f = Parse([]byte(strings.Repeat("#", MaxFileBytes-5) + "\nUser-agent: *\nDisallow: /\n"))
	if f.Lines != 1 || len(f.Groups) != 0 || !hasCode(f, CodeFileTooLarge, 2) {
		t.Errorf("cut line: %d lines, %d groups, %v", f.Lines, len(f.Groups), f.Diagnostics)
	}
	// Rules past the limit do not count.
	tail := strings.Repeat("# padding padding padding padding padding padding\n", MaxFileBytes/50+10) + "User-agent: *\nDisallow: /\n"
	if !fileAllows(t, tail, RFC9309, "x", "/a") {
		t.Error("a rule past 500 KiB was applied")
	}
}

// TestProperty_LineEndings: LF, CRLF and CR give the same answers.
func TestProperty_LineEndings(t *testing.T) {
	bodies := []string{fictOrg, "User-agent: a\nUser-agent: b\nDisallow: /x\nAllow: /x/y\n\nUser-agent: *\nDisallow: /\nCrawl-delay: 3\n"}
	for _, body := range bodies {
		ref := answers(t, body)
		for _, eol := range []string{"\r\n", "\r"} {
			if got := answers(t, strings.ReplaceAll(body, "\n", eol)); got != ref {
				t.Errorf("%q line ends change the answers:\n%s\nvs\n%s", eol, got, ref)
			}
		}
	}
}

// TestProperty_GroupOrder: under rfc9309 the answers do not depend on the
// order of the groups (merging and longest match are order-free).
func TestProperty_GroupOrder(t *testing.T) {
	groups := []string{
		"User-agent: a\nUser-agent: b\nDisallow: /x\nAllow: /x/y\nCrawl-delay: 2\n",
		"User-agent: *\nDisallow: /\nAllow: /pub\n",
		"User-agent: a\nAllow: /x/y/z\nDisallow: /q\n",
		"User-agent: c\nDisallow: /org/plans.html\nAllow: /org/\nAllow: /serv\nDisallow: /\n",
		"User-agent: *\nDisallow: /pub/secret\n",
		"User-agent: unhipbot\nUser-agent: webcrawler\nDisallow:\n",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	ref := ""
	for i := range 30 {
		perm := rng.Perm(len(groups))
		var sb strings.Builder
		for _, j := range perm {
			sb.WriteString(groups[j])
			sb.WriteString("\n")
		}
		got := answersNoLines(t, sb.String())
		if i == 0 {
			ref = got
		} else if got != ref {
			t.Fatalf("order %v changes the answers:\n%s\nvs\n%s", perm, got, ref)
		}
	}
}

var propAgents = []string{"a", "b", "c", "unhipbot", "webcrawler", "other", "Mozilla/5.0 (compatible; a/1.0)"}
var propTargets = []string{"/", "/x", "/x/y", "/x/y/z", "/q", "/pub", "/pub/secret", "/org/plans.html", "/org/x", "/services", "/robots.txt", "/%7Emak/"}

// answers lists, for the property tests, every decision with its rule and
// line under every profile.
func answers(t *testing.T, body string) string {
	var sb strings.Builder
	f := Parse([]byte(body))
	for _, p := range Profiles {
		r := Compile(f, p)
		for _, a := range propAgents {
			g := r.Resolve(a)
			cd, _ := g.CrawlDelay()
			for _, u := range propTargets {
				d, _ := g.Decide([]byte(u), nil)
				fmt.Fprintf(&sb, "%s %s %s %s: %v %q %d %v\n", p, a, g.Name(), u, d.Allowed, d.Rule, d.Line, cd)
			}
		}
	}
	return sb.String()
}

// answersNoLines is answers under rfc9309 without line numbers, which move
// when groups are reordered.
func answersNoLines(t *testing.T, body string) string {
	var sb strings.Builder
	r := Compile(Parse([]byte(body)), RFC9309)
	for _, a := range propAgents {
		g := r.Resolve(a)
		cd, _ := g.CrawlDelay()
		for _, u := range propTargets {
			d, _ := g.Decide([]byte(u), nil)
			fmt.Fprintf(&sb, "%s %s %s: %v %q %v\n", a, g.Name(), u, d.Allowed, d.Rule, cd)
		}
	}
	return sb.String()
}

// utf16LE and utf16BE encode s as UTF-16, little- and big-endian.
func utf16LE(s string) string { return utf16Bytes(s, false) }
func utf16BE(s string) string { return utf16Bytes(s, true) }

func utf16Bytes(s string, big bool) string {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		if big {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return string(b)
}
