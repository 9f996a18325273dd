package robots

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// refNorm is the reference normalisation: the matching key of the
// profile. (That the RFC 9309 key and the normal form define the same
// equivalence on targets is TestKeyAndNormalFormAgree's business; on
// patterns the key is the definition, see pattern.)
func refNorm(p Profile, s string, inQuery bool) (string, bool) {
	keep := &keepRFC9309
	if p == Koster1996 || p == Orig1994 || p == Spc2 {
		keep = &keepKoster
	}
	out, inQuery := appendKey(nil, []byte(s), keep, inQuery)
	return string(out), inQuery
}

// refPattern is a pattern as a token list for the dynamic-programming
// reference matcher: literal octets and wildcards (-1).
type refPattern struct {
	tokens   []int
	anchored bool
	octets   int
}

func keepFor(p Profile) *keepTable {
	if p == Koster1996 || p == Orig1994 || p == Spc2 {
		return &keepKoster
	}
	return &keepRFC9309
}

func refCompile(p Profile, v string) (refPattern, bool) {
	var rp refPattern
	if v == "" {
		return rp, false
	}
	if p == Google {
		// Octets as written, "*" and "$" included, each counting one
		// (google/robotstxt: the priority is pattern.length()).
		rp.octets = len(v)
		if strings.HasSuffix(v, "$") {
			rp.anchored = true
			v = v[:len(v)-1]
		}
		for i, piece := range strings.Split(v, "*") {
			if i > 0 {
				rp.tokens = append(rp.tokens, -1)
			}
			for k := 0; k < len(piece); k++ {
				rp.tokens = append(rp.tokens, int(piece[k]))
			}
		}
		return rp, true
	}
	if p == Orig1994 {
		n, _ := refNorm(p, v, false)
		for i := 0; i < len(n); i++ {
			rp.tokens = append(rp.tokens, int(n[i]))
		}
		return rp, true
	}
	if p == Spc2 {
		// Seed 000: a value matches the whole URL; "*" at its end makes
		// it a prefix. A final "$" changes nothing.
		v = strings.TrimSuffix(v, "$")
		rp.anchored = !strings.HasSuffix(v, "*")
	} else if strings.HasSuffix(v, "$") {
		rp.anchored = true
		rp.octets++
		v = v[:len(v)-1]
	}
	inQuery, inQueryN := false, false
	for i, piece := range strings.Split(v, "*") {
		if i > 0 {
			rp.tokens = append(rp.tokens, -1)
			rp.octets++
		}
		var n, nn []byte
		n, inQuery = appendKey(nil, []byte(piece), keepFor(p), inQuery)
		nn, inQueryN = appendNormal(nil, []byte(piece), inQueryN)
		rp.octets += len(nn)
		for k := 0; k < len(n); k++ {
			rp.tokens = append(rp.tokens, int(n[k]))
		}
	}
	return rp, true
}

// refMatch is the textbook O(len(t)*len(tokens)) glob matcher: dp[j] says
// whether tokens[:i] can match t[:j].
func refMatch(rp refPattern, t string) bool {
	tokens := rp.tokens
	if !rp.anchored {
		tokens = append(tokens[:len(tokens):len(tokens)], -1)
	}
	dp := make([]bool, len(t)+1)
	next := make([]bool, len(t)+1)
	dp[0] = true
	for _, tok := range tokens {
		next[0] = false
		if tok == -1 {
			any := false
			for j := 0; j <= len(t); j++ {
				any = any || dp[j]
				next[j] = any
			}
		} else {
			for j := 1; j <= len(t); j++ {
				next[j] = dp[j-1] && int(t[j-1]) == tok
			}
		}
		dp, next = next, dp
	}
	return dp[len(t)]
}

// refDecide is Decide written the slow, obvious way.
func refDecide(rules []Rule, p Profile, target string) int {
	tt, slash := trimTarget([]byte(target))
	t, _ := refNorm(p, string(tt), false)
	if p == Google {
		t = string(tt) // Google compares the target as written
	}
	if slash {
		t = "/" + t
	}
	if t == "/robots.txt" || strings.HasPrefix(t, "/robots.txt?") {
		return -1
	}
	if p == Spc2 {
		return refDecideSpc2(rules, t)
	}
	best, bestOctets, bestAllow := -1, -1, false
	for i, r := range rules {
		if p == Orig1994 && r.Allow {
			continue
		}
		values := []string{r.Pattern}
		if p == Google {
			// The value as Google's parser escapes it, and for an Allow
			// of ".../index.htm*" also its directory.
			v := googleEscapePattern(r.Pattern)
			values[0] = v
			if s := strings.LastIndexByte(v, '/'); r.Allow && s >= 0 && strings.HasPrefix(v[s:], "/index.htm") {
				values = append(values, v[:s+1]+"$")
			}
		}
		for _, v := range values {
			rp, ok := refCompile(p, v)
			if !ok || !refMatch(rp, t) {
				continue
			}
			if p == Koster1996 || p == Orig1994 {
				return i
			}
			if rp.octets > bestOctets || rp.octets == bestOctets && r.Allow && !bestAllow {
				best, bestOctets, bestAllow = i, rp.octets, r.Allow
			}
		}
	}
	return best
}

// refDecideSpc2 is the 2.0.0 proposal's precedence (seed 000, Allow and
// Disallow) written the obvious way: the first matching explicit Allow,
// else the first matching Disallow, else the first matching wildcard
// Allow; else Unlisted when the Allow lines list what may be fetched (no
// Disallow, or a wildcard Allow), else -1.
func refDecideSpc2(rules []Rule, t string) int {
	// class: 3 explicit Allow (no "*"), 2 Disallow, 1 wildcard Allow.
	class := func(r Rule) int {
		switch {
		case !r.Allow:
			return 2
		case !strings.Contains(r.Pattern, "*"):
			return 3
		}
		return 1
	}
	has := map[int]bool{}
	for _, r := range rules {
		if r.Pattern != "" {
			has[class(r)] = true
		}
	}
	for c := 3; c >= 1; c-- {
		for i, r := range rules {
			if r.Pattern == "" || class(r) != c {
				continue
			}
			if rp, ok := refCompile(Spc2, r.Pattern); ok && refMatch(rp, t) {
				return i
			}
		}
	}
	if (has[3] || has[1]) && (!has[2] || has[1]) {
		return Unlisted
	}
	return -1
}

var patternAlphabet = []string{"a", "b", "/", "?", "*", "*", "$", ".", "=", "&", "%61", "%2F", "%2f", "%3F", "%2A", "ツ", "%E3"}

func randomPattern(r *rand.Rand, n int) string {
	var b strings.Builder
	if r.IntN(4) != 0 {
		b.WriteByte('/')
	}
	for k := r.IntN(n + 1); k > 0; k-- {
		b.WriteString(patternAlphabet[r.IntN(len(patternAlphabet))])
	}
	return b.String()
}

func randomTargetSmall(r *rand.Rand, n int) string {
	alpha := []string{"a", "b", "/", "?", ".", "=", "&", "*", "$", "%61", "%2F", "%3F", "%2a", "ツ", "%e3%83%84"}
	var b strings.Builder
	b.WriteByte('/')
	for k := r.IntN(n + 1); k > 0; k-- {
		b.WriteString(alpha[r.IntN(len(alpha))])
	}
	return b.String()
}

// The compiled matcher (trie, greedy pieces, memo, anchor scan, pruning)
// agrees with the dynamic-programming reference on random rule sets.
func TestDecideAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, p := range Profiles {
		for round := 0; round < 1500; round++ {
			var rules []Rule
			for k := r.IntN(8); k >= 0; k-- {
				rules = append(rules, Rule{Allow: r.IntN(2) == 0, Pattern: randomPattern(r, 6), Line: len(rules) + 1})
			}
			rs := CompileRules(rules, p)
			for k := 0; k < 20; k++ {
				target := randomTargetSmall(r, 10)
				if k%4 == 0 {
					// Past shortKey: the per-anchor scan, hit limits.
					target += strings.Repeat(randomTargetSmall(r, 3), 60)
				}
				got, _ := rs.Decide([]byte(target), nil)
				if want := refDecide(rules, p, target); got != want {
					t.Fatalf("%s: rules %q, target %q: Decide = %d, reference = %d", p, rules, target, got, want)
				}
			}
		}
	}
}

// Greedy piece matching against the reference on long random strings over
// a two-letter alphabet, where backtracking matchers blow up.
func TestGreedyMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for round := 0; round < 3000; round++ {
		var pb strings.Builder
		pb.WriteByte('/')
		for k := r.IntN(12); k > 0; k-- {
			pb.WriteString([]string{"a", "b", "*", "ab", "ba"}[r.IntN(5)])
		}
		if r.IntN(3) == 0 {
			pb.WriteByte('$')
		}
		var tb strings.Builder
		tb.WriteByte('/')
		for k := r.IntN(40); k > 0; k-- {
			tb.WriteByte("ab"[r.IntN(2)])
		}
		rules := []Rule{{Pattern: pb.String(), Line: 1}}
		got, _ := CompileRules(rules, RFC9309).Decide([]byte(tb.String()), nil)
		if want := refDecide(rules, RFC9309, tb.String()); got != want {
			t.Fatalf("pattern %q, target %q: Decide = %d, reference = %d", pb.String(), tb.String(), got, want)
		}
	}
}

// work counts the bytes the matcher examines for one decision.
func decideWork(rs *RuleSet, target []byte) (int, int) {
	t, slash := trimTarget(target)
	key := rs.appendTargetKey(nil, t, slash)
	work := 0
	return rs.decideKey(key, &work), work
}

// A pattern of 1,000 "*" against a 100 KB target stays linear: the work
// counted is a small multiple of the input, not of their product.
func TestWildcardsLinear(t *testing.T) {
	const n = 100 << 10
	cases := []struct{ name, pattern, target string }{
		{"stars-miss", strings.Repeat("*a", 1000) + "b", "/" + strings.Repeat("a", n)},
		{"stars-hit", "/" + strings.Repeat("*a", 1000), "/" + strings.Repeat("a", n)},
		{"stars-anchored", strings.Repeat("*a", 1000) + "*b$", "/" + strings.Repeat("a", n)},
		{"stars-interleaved", strings.Repeat("*ab", 1000) + "*c", "/" + strings.Repeat("ab", n/2)},
		{"long-piece", "/*" + strings.Repeat("a", 5000) + "b", "/" + strings.Repeat("a", n)},
		{"anchor-flood", "/*?" + "a*?b*?c", "/" + strings.Repeat("?a", n/2)},
	}
	for _, c := range cases {
		rules := []Rule{{Pattern: c.pattern, Line: 1}, {Allow: true, Pattern: "/*?zz", Line: 2}}
		rs := CompileRules(rules, RFC9309)
		got, work := decideWork(rs, []byte(c.target))
		if want := refDecideLinear(c.pattern, c.target); (got == 0) != want {
			t.Errorf("%s: matched=%v, want %v", c.name, got == 0, want)
		}
		if limit := 8 * (len(c.target) + len(c.pattern)); work > limit {
			t.Errorf("%s: work %d > %d for %d+%d bytes", c.name, work, limit, len(c.target), len(c.pattern))
		}
	}
}

// refDecideLinear answers the TestWildcardsLinear cases without the
// quadratic reference: they are built so the answer is known.
func refDecideLinear(pattern, target string) bool {
	switch {
	case strings.HasSuffix(pattern, "b"), strings.HasSuffix(pattern, "b$"), strings.HasSuffix(pattern, "*c"):
		return false
	case strings.HasPrefix(pattern, "/*?a"):
		return false
	}
	return true
}
