package robots

import (
	"strings"
	"testing"
)

// FuzzDecide: a rule set (one rule per line, "A" or "D" then the value)
// and a target, under the profile Profiles[prof%len(Profiles)].
// Invariants: never panics, always answers with -1, a valid rule index or
// (under Spc2 only) Unlisted, agrees with the reference matcher, and the
// work counted grows linearly with the input.
func FuzzDecide(f *testing.F) {
	seeds := []struct {
		rules, target string
		prof          uint8
	}{
		{"D/\nA/fish", "/fish.html", 0},
		{"D/*.php$\nA/*.php", "/a.php?x", 1},
		{"D/a%2fb\nA/a/b", "/a%2Fb", 2},
		{"D/tmp/*\nD/a$", "/tmp/*", 3},
		{"D" + strings.Repeat("*a", 200) + "b", "/" + strings.Repeat("a", 2000), 0},
		{"D/*?*sessionid=\nA/*?", "/x?y=1&sessionid=2", 0},
		{"A/allowed/index.html\nD/", "http://h/allowed/", 1},
		{"D/foo/bar?baz=http://foo.bar", "/foo/bar?baz=http%3A%2F%2Ffoo.bar", 0},
		{"D/path/file-with-a-%2A.html", "/path/file-with-a-*.html", 0},
		{"D%\nD/%zz\nD/\xff\xfe", "/%%zz\xff", 0},
		{"D$\nD*\nA", "", 2},
		{"A*/index.html", "/a/index.html", 4},
		{"A/blackhole/index.html\nA/blackhole/info*\nD*.shtml\nD/blackhole/info99*", "/blackhole/info1.shtml", 4},
		{"A/x\nD/y$", "/z", 4},
	}
	for _, s := range seeds {
		f.Add(s.rules, s.target, s.prof)
	}
	f.Fuzz(func(t *testing.T, rulesText, target string, prof uint8) {
		p := Profiles[int(prof)%len(Profiles)]
		var rules []Rule
		for i, line := range strings.Split(rulesText, "\n") {
			if line == "" {
				continue
			}
			if len(rules) == 64 {
				break // keep the quadratic reference quick
			}
			rules = append(rules, Rule{Allow: line[0] == 'A', Pattern: strings.TrimSpace(line[1:]), Line: i + 1})
		}
		rs := CompileRules(rules, p)
		got, _ := rs.Decide([]byte(target), nil)
		if (got < -1 && !(p == Spc2 && got == Unlisted)) || got >= len(rules) {
			t.Fatalf("%s: Decide = %d with %d rules", p, got, len(rules))
		}
		if len(target) <= 512 && len(rulesText) <= 1024 {
			if want := refDecide(rules, p, target); got != want {
				t.Fatalf("%s: rules %q, target %q: Decide = %d, reference = %d", p, rules, target, got, want)
			}
		}
		_, work := decideWork(rs, []byte(target))
		patBytes := 0
		for _, r := range rules {
			// A value may grow 3x (%-encoding), and Google's index.htm
			// rule adds it a second time.
			patBytes += 6*len(r.Pattern) + 3
		}
		keyLen := 3*len(target) + 1
		// Each pattern and each anchor scans the key at most a few times;
		// each anchor hit compares at most 64 pieces of 32 bytes.
		limit := (len(rs.pats)+len(rs.anchors)+2)*(2*keyLen+patBytes) + len(rs.anchors)*maxAnchorHits*64*maxMemoPiece
		if work > limit {
			t.Fatalf("work %d > %d (key %d bytes, %d patterns, %d anchors)", work, limit, keyLen, len(rs.pats), len(rs.anchors))
		}
	})
}
