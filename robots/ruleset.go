package robots

import (
	"bytes"
	"math"
	"math/bits"
	"sort"
	"strings"
	"unsafe"
)

// RuleSet is a compiled list of rules deciding paths under one profile. It
// is built once by CompileRules and is safe for concurrent use: Decide
// keeps its state on the stack and in the caller's buffer.
//
// How it decides, per profile (each choice is documented where it is made):
//
//   - RFC9309: the matching rule with the most octets wins (RFC 9309
//     §2.2.2), its octets counted in the RFC 9309 normal form of the value
//     (NormalizeTarget; "*" and a final "$" count one each, as written), so
//     "/ツ" and "/%E3%83%84" weigh the same 10 octets. On a tie Allow wins;
//     between equal rules of one kind the first in the file is reported.
//     No match: allowed. Both sides are compared after the
//     percent-encoding normalisation described in encode.go (%2F never
//     equals "/"; %2A and %24 are a literal "*" and "$").
//   - Google: longest match as RFC9309, but compared as google/robotstxt
//     compares (Google-only): the value is escaped as Google's parser
//     escapes it (googleEscapePattern: octets >= 0x80 %-encoded, the hex
//     of %xx upper-cased, nothing decoded) and the target is taken as
//     written, octet for octet ("/ツ" matches "/%E3%83%84" but not a raw
//     "/ツ" nor "/%e3%83%84"; "/%62" does not match "/b"; %2A and %24 are
//     octets like others). A value weighs its escaped length, "*" and "$"
//     included.
//   - Koster1996: the first matching rule in the order given wins (1996
//     draft §3.2.2); every %xx but %2F is decoded before comparing. The
//     draft defines no wildcards; crawlaudit keeps "*" and a final "$" as
//     in RFC 9309 (only Orig1994, which predates them, reads them
//     literally).
//   - Orig1994: the first matching Disallow wins, as a plain prefix: "*"
//     and "$" are literal; Allow rules never match. %xx as Koster1996.
//   - Spc2: the 2.0.0 proposal (seed 000), for the rules of a record that
//     declares Robot-version 2.x.y (Compile gives the other records of a
//     file the Koster1996 set). Every value matches the whole target: a
//     value without "*" is an explicit match (the target equals it), one
//     with "*" a wildcard match in which "*" matches any run of octets
//     and nothing is added at the end ("/a*" is a prefix, "*.shtml" a
//     suffix); a final "$" is redundant and dropped. An explicit Allow
//     wins over every Disallow, a Disallow over every wildcard Allow; of
//     several matching rules of one class the first in the file decides.
//     No match: allowed, except in a set whose Allow lines list what may
//     be fetched (Allow without Disallow, or any wildcard Allow), where
//     Decide returns Unlisted (disallowed). %xx as Koster1996. See the
//     package documentation, "The 2.0.0 proposal".
//
// "*" matches any run of octets; "$" anchors only as the last character of
// a value (see pattern). Google additionally allows the directory of an
// allowed ".../index.htm*" page (see CompileRules). In every profile a value
// starting with neither "/" nor "*" matches no path that starts with "/".
//
// In every profile "/robots.txt" is allowed whatever the rules say (RFC
// 9309 §2.2.2, 1996 draft §3.2.2; the 1994 document is silent, but a robot
// cannot learn the rules without fetching it), with any query string.
//
// Literal prefixes are looked up in a compressed trie walked once along the
// target; patterns with wildcards hang off the trie node of their literal
// prefix and finish with a linear greedy search (see pattern.matchRest).
// The short pieces after wildcards (up to 64 distinct ones) are found for
// all patterns at once by one scan per anchor byte (see scanPieces), so a
// pattern whose pieces are absent costs a bit test. A decision costs
// O(len(target)) per pattern at most; a group with hundreds of distinct
// wildcard pieces (p99 of real files: 7) pays a search per extra pattern.
type RuleSet struct {
	rules   []Rule
	profile Profile
	keep    *keepTable
	pats    []pattern
	nodes   []trieNode
	// Memo'd wildcard pieces (see memo and scanPieces).
	memoPiece [][]byte
	memoOff   []int
	anchors   []anchorGroup
	anchorOf  [256]int8 // group anchored on each byte, -1 for none
	allMemo   uint64    // every memo slot in use
	// allowList: under Spc2, a target no rule matches is Unlisted
	// (disallowed) rather than allowed.
	allowList bool
}

// trieNode is a node of the compressed trie of the patterns' first pieces.
type trieNode struct {
	label []byte  // edge label from the parent
	pats  []int32 // patterns whose first piece ends here, by score, best first
	// scores and needs copy the patterns' score and need, parallel to
	// pats, so that skipping a pattern touches no pattern struct.
	scores []uint64
	needs  []uint64
	first  []byte  // first byte of each child's label
	kids   []int32 // children, parallel to first
}

// CompileRules compiles the Allow and Disallow rules of one group for
// profile p. It never fails: a value that cannot match anything (empty, or
// an Allow under Orig1994) is kept in the list but matches nothing. The
// rules slice is retained; do not modify it afterwards.
func CompileRules(rules []Rule, p Profile) *RuleSet {
	rs := &RuleSet{rules: rules, profile: p, keep: &keepRFC9309}
	if p == Koster1996 || p == Orig1994 || p == Spc2 {
		rs.keep = &keepKoster
	}
	if p == Spc2 {
		rs.allowList = spcAllowList(rules)
	}
	rs.nodes = append(rs.nodes, trieNode{})
	for i, r := range rules {
		v := r.Pattern
		if v == "" {
			// RFC 9309: "Disallow:" with nothing after it allows
			// everything; an empty Allow likewise changes nothing.
			continue
		}
		if p == Orig1994 && r.Allow {
			// The 1994 standard has no Allow: its robots ignore
			// unrecognised lines, and the 1996 draft (§5.1) accepts
			// that such a robot does not fetch what Allow re-permits.
			continue
		}
		// A value that starts with neither "/" nor "*" ("Disallow:
		// private/") matches no target under any profile: targets start
		// with "/". RFC 9309's grammar requires path-pattern = "/" ...,
		// and google/robotstxt's matcher compares from the first octet,
		// so Google never matches it either. lint reports such values.
		if p == Google {
			// Google's parser escapes the value before matching
			// (MaybeEscapePattern): "/ツ" is "/%E3%83%84", "%aa" "%AA".
			v = googleEscapePattern(v)
		}
		rs.addPattern(v, i, r.Allow)
		if p == Google && r.Allow {
			// Google's matcher (robots.cc, HandleAllow) also allows the
			// directory of an allowed ".../index.htm*" page: "Allow:
			// /d/index.html" adds "Allow: /d/$".
			if s := lastIndexByte(v, '/'); s >= 0 && hasPrefixString(v[s:], "/index.htm") {
				rs.addPattern(v[:s+1]+"$", i, true)
			}
		}
	}
	rs.assignMemo()
	for n := range rs.nodes {
		nd := &rs.nodes[n]
		ps := nd.pats
		sort.SliceStable(ps, func(a, b int) bool { return rs.pats[ps[a]].score > rs.pats[ps[b]].score })
		for _, pi := range ps {
			nd.scores = append(nd.scores, rs.pats[pi].score)
			nd.needs = append(nd.needs, rs.pats[pi].need)
		}
	}
	return rs
}

func lastIndexByte(s string, c byte) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == c {
			return i
		}
	}
	return -1
}

func hasPrefixString(s, prefix string) bool {
	return len(s) >= len(prefix) && s[:len(prefix)] == prefix
}

// addPattern compiles value v of rule i and files it in the trie.
func (rs *RuleSet) addPattern(v string, i int, allow bool) {
	raw, end, octets := compileValue(v, rs.profile != Orig1994)
	if rs.profile == Spc2 {
		end = spcAnchored(v)
	}
	pat := pattern{end: end, rule: int32(i)}
	inQuery, inQueryN := false, false
	for _, r := range raw {
		var key []byte
		if rs.profile == Google {
			// Google: the (escaped) value's octets as written, each
			// counting one in the priority, as in Google's matcher
			// (LongestMatchRobotsMatchStrategy: pattern.length()).
			key = []byte(r)
			octets += len(r)
		} else {
			key, inQuery = appendKey(nil, []byte(r), rs.keep, inQuery)
			var n int
			n, inQueryN = normalLen([]byte(r), inQueryN)
			octets += n
		}
		pat.pieces = append(pat.pieces, key)
		pat.ids = append(pat.ids, -1)
		var f []int32
		if len(key) >= kmpMin {
			f = kmpTable(key)
		}
		pat.kmp = append(pat.kmp, f)
	}
	rank := uint64(math.MaxUint32 - uint32(i)) // earlier rule first
	switch rs.profile {
	case RFC9309, Google:
		// Longest match, then Allow on a tie (RFC 9309 §2.2.2).
		var a uint64
		if allow {
			a = 1
		}
		pat.score = uint64(octets)<<33 | a<<32 | rank
	case Spc2:
		// Explicit Allow, then Disallow, then wildcard Allow; then
		// file order (see spcClass).
		pat.score = spcClass(rs.rules[i])<<32 | rank
	default:
		// Koster1996, Orig1994: first match in file order.
		pat.score = rank
	}
	rs.pats = append(rs.pats, pat)
	rs.insert(pat.pieces[0], int32(len(rs.pats)-1))
}

// insert files pattern pi under key in the compressed trie.
func (rs *RuleSet) insert(key []byte, pi int32) {
	n := int32(0)
	for {
		if len(key) == 0 {
			rs.nodes[n].pats = append(rs.nodes[n].pats, pi)
			return
		}
		k := bytes.IndexByte(rs.nodes[n].first, key[0])
		if k < 0 {
			rs.nodes = append(rs.nodes, trieNode{label: key, pats: []int32{pi}})
			c := int32(len(rs.nodes) - 1)
			rs.nodes[n].first = append(rs.nodes[n].first, key[0])
			rs.nodes[n].kids = append(rs.nodes[n].kids, c)
			return
		}
		c := rs.nodes[n].kids[k]
		label := rs.nodes[c].label
		l := 0
		for l < len(label) && l < len(key) && label[l] == key[l] {
			l++
		}
		if l < len(label) {
			// Split the edge: n -> mid (label[:l]) -> c (label[l:]).
			rs.nodes = append(rs.nodes, trieNode{
				label: label[:l:l],
				first: []byte{label[l]},
				kids:  []int32{c},
			})
			mid := int32(len(rs.nodes) - 1)
			rs.nodes[c].label = label[l:]
			rs.nodes[n].kids[k] = mid
			c = mid
		}
		key = key[l:]
		n = c
	}
}

// assignMemo gives the memo slots to the short wildcard pieces that the
// most patterns share, and groups them by anchor byte for scanPieces.
func (rs *RuleSet) assignMemo() {
	count := map[string]int{}
	for _, p := range rs.pats {
		for _, pc := range p.pieces[1:] {
			if len(pc) > 0 && len(pc) <= maxMemoPiece {
				count[string(pc)]++
			}
		}
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool {
		if count[keys[a]] != count[keys[b]] {
			return count[keys[a]] > count[keys[b]]
		}
		return keys[a] < keys[b]
	})
	if len(keys) > len(memo{}) {
		keys = keys[:len(memo{})]
	}
	ids := map[string]int32{}
	group := map[byte]int{}
	for i, k := range keys {
		ids[k] = int32(i)
		off := anchorOffset(k)
		rs.memoPiece = append(rs.memoPiece, []byte(k))
		rs.memoOff = append(rs.memoOff, off)
		g, ok := group[k[off]]
		if !ok {
			g = len(rs.anchors)
			group[k[off]] = g
			rs.anchors = append(rs.anchors, anchorGroup{c: k[off]})
		}
		rs.anchors[g].mask |= 1 << i
		rs.anchors[g].addNeighbours(i, k, off)
		rs.allMemo |= 1 << i
	}
	for c := range rs.anchorOf {
		rs.anchorOf[c] = -1
	}
	for g := range rs.anchors {
		rs.anchorOf[rs.anchors[g].c] = int8(g)
	}
	for pi := range rs.pats {
		p := &rs.pats[pi]
		for i, pc := range p.pieces {
			if id, ok := ids[string(pc)]; ok && i > 0 {
				p.ids[i] = id
				p.need |= 1 << id
			}
		}
	}
}

// anchorGroup is the memo'd pieces that scanPieces finds through one byte.
type anchorGroup struct {
	c    byte
	mask uint64 // memo slots of the pieces anchored on c
	// next[b] and prev[b]: the pieces that can occur at a hit followed
	// (preceded) by byte b in the key, so that a hit compares only the
	// one or two pieces that fit. Slot 256 is for a hit at the end
	// (start) of the key.
	next, prev *[257]uint64
}

// addNeighbours files piece id (anchored at off) in the group's filters.
func (g *anchorGroup) addNeighbours(id int, piece string, off int) {
	if g.next == nil {
		g.next, g.prev = new([257]uint64), new([257]uint64)
	}
	bit := uint64(1) << id
	for b := 0; b < 257; b++ {
		if off+1 >= len(piece) || b == int(piece[off+1]) {
			g.next[b] |= bit
		}
		if off == 0 || b == int(piece[off-1]) {
			g.prev[b] |= bit
		}
	}
}

// urlByteFrequency ranks bytes by how often they appear in URLs, most
// frequent first (a rough order from access logs). Bytes not listed are
// rarer than all listed ones.
const urlByteFrequency = "/e-atoisnr.c_lpd1m20hgu3b45f6789wykv=&xjqzEASTPCRIMDBNLO?"

// anchorPreference lists the bytes preferred as anchors, best first: they
// occur a few times per URL at most, and sharing them keeps the number of
// anchor scans per decision small.
const anchorPreference = "?&=./"

// anchorOffset returns the offset in piece of its anchor byte: the first
// of anchorPreference it contains, else its rarest byte.
func anchorOffset(piece string) int {
	for i := 0; i < len(anchorPreference); i++ {
		if j := strings.IndexByte(piece, anchorPreference[i]); j >= 0 {
			return j
		}
	}
	best, bestRank := 0, -1
	for i := 0; i < len(piece); i++ {
		r := strings.IndexByte(urlByteFrequency, piece[i])
		if r < 0 {
			r = len(urlByteFrequency)
		}
		if r > bestRank {
			best, bestRank = i, r
		}
	}
	return best
}

// shortKey is the key length up to which scanPieces walks the key once,
// byte by byte, rather than calling bytes.IndexByte per anchor and hit:
// most logged targets are this short, and there the calls cost more than
// the bytes.
const shortKey = 128

// scanShort is scanPieces for a short key: one pass, every anchor at once.
// Its work is at most len(key) * 64 pieces * 32 bytes, a constant factor.
func (rs *RuleSet) scanShort(key []byte, m *memo, work *int) (maybe uint64) {
	rem := rs.allMemo
	for at := 0; at < len(key) && rem != 0; at++ {
		g := rs.anchorOf[key[at]]
		if g < 0 {
			continue
		}
		grp := &rs.anchors[g]
		nb, pb := 256, 256
		if at+1 < len(key) {
			nb = int(key[at+1])
		}
		if at > 0 {
			pb = int(key[at-1])
		}
		for r := rem & grp.mask & grp.next[nb] & grp.prev[pb]; r != 0; r &= r - 1 {
			id := bits.TrailingZeros64(r)
			pc := rs.memoPiece[id]
			start := at - rs.memoOff[id]
			end := start + len(pc)
			if work != nil {
				*work += len(pc)
			}
			if start >= 0 && end <= len(key) && key[start] == pc[0] && key[end-1] == pc[len(pc)-1] &&
				string(key[start:end]) == string(pc) {
				m[id] = int32(start) + 2
				maybe |= 1 << id
				rem &^= 1 << id
			}
		}
	}
	if work != nil {
		*work += len(key)
	}
	return maybe
}

// scanPieces fills m with the first occurrence in key of every memo'd
// piece, looking for each anchor byte with bytes.IndexByte and comparing
// the pieces anchored on it at each hit. It returns the set of slots whose
// piece may occur (found, or left unknown after maxAnchorHits hits). Work
// is bounded by len(anchors) scans of key plus maxAnchorHits*64*32 byte
// comparisons per anchor.
func (rs *RuleSet) scanPieces(key []byte, m *memo, work *int) (maybe uint64) {
	if len(key) <= shortKey {
		return rs.scanShort(key, m, work)
	}
	for _, g := range rs.anchors {
		rem := g.mask
		i, hits := 0, 0
		for rem != 0 {
			j := bytes.IndexByte(key[i:], g.c)
			if work != nil {
				if j < 0 {
					*work += len(key) - i
				} else {
					*work += j + 1
				}
			}
			if j < 0 {
				break
			}
			at := i + j
			if hits++; hits > maxAnchorHits {
				maybe |= rem
				break
			}
			nb, pb := 256, 256
			if at+1 < len(key) {
				nb = int(key[at+1])
			}
			if at > 0 {
				pb = int(key[at-1])
			}
			for r := rem & g.next[nb] & g.prev[pb]; r != 0; r &= r - 1 {
				id := bits.TrailingZeros64(r)
				pc := rs.memoPiece[id]
				start := at - rs.memoOff[id]
				if work != nil {
					*work += len(pc)
				}
				end := start + len(pc)
				if start >= 0 && end <= len(key) && key[start] == pc[0] && key[end-1] == pc[len(pc)-1] &&
					string(key[start:end]) == string(pc) {
					m[id] = int32(start) + 2
					maybe |= 1 << id
					rem &^= 1 << id
				}
			}
			i = at + 1
		}
		// What is left in rem is absent: its bit stays clear in maybe, so
		// no pattern needing it reaches the memo.
	}
	return maybe
}

// Rules returns the rules the set was compiled from; index them with the
// result of Decide. The slice must not be modified.
func (rs *RuleSet) Rules() []Rule { return rs.rules }

// Profile returns the profile the set was compiled for.
func (rs *RuleSet) Profile() Profile { return rs.profile }

// Decide returns the index into the compiled rules of the rule deciding
// target, or -1 when no rule matches (the target is allowed). The target
// is allowed when the result is -1 or names an Allow rule. Under Spc2 it
// may also return Unlisted: no rule matches, and the set's Allow lines
// list all that may be fetched (disallowed).
//
// target is the path and query as logged (an absolute URL and a fragment
// are accepted, see trimTarget); a target that starts with "/" is a path,
// even "//a/b" (to read a URL as Google's matcher does, see
// GooglePathParamsQuery). buf is caller scratch space for the normalised
// target; Decide returns it, possibly grown, for the next call. A target
// that starts with "/" and has no "%" (under Google, any target that starts
// with "/") is matched in place. Decide does not allocate once buf has
// grown to the longest target.
func (rs *RuleSet) Decide(target []byte, buf []byte) (rule int, bufOut []byte) {
	t, slash := trimTarget(target)
	key := t
	if slash || rs.profile != Google && bytes.IndexByte(t, '%') >= 0 {
		buf = rs.appendTargetKey(buf[:0], t, slash)
		key = buf
	}
	if isRobotsTxt(key) {
		return -1, buf
	}
	rule = rs.decideKey(key, nil)
	if rule < 0 && rs.allowList {
		rule = Unlisted
	}
	return rule, buf
}

// appendTargetKey appends to dst the matching key of the trimmed target t
// (see trimTarget), with a "/" in front when slash is set. Under Google the
// key is the target as written: Google's matcher does not normalise the URL
// (AllowedByRobots: "the user is asked to provide it in escaped form
// already"). Under the other profiles it is appendKey's.
func (rs *RuleSet) appendTargetKey(dst, t []byte, slash bool) []byte {
	if slash {
		dst = append(dst, '/')
	}
	if rs.profile == Google {
		return append(dst, t...)
	}
	dst, _ = appendKey(dst, t, rs.keep, false)
	return dst
}

// DecideString is Decide for a target held in a string (an Arrow string
// column, say); the string is read in place, not copied.
func (rs *RuleSet) DecideString(target string, buf []byte) (rule int, bufOut []byte) {
	return rs.Decide(unsafe.Slice(unsafe.StringData(target), len(target)), buf)
}

// isRobotsTxt reports whether key is /robots.txt, with or without a query.
func isRobotsTxt(key []byte) bool {
	const r = "/robots.txt"
	return len(key) >= len(r) && string(key[:len(r)]) == r && (len(key) == len(r) || key[len(r)] == '?')
}

// decideKey walks the trie along key and returns the rule of the
// best-scoring matching pattern, or -1. work is for the linearity tests.
func (rs *RuleSet) decideKey(key []byte, work *int) int {
	var m memo
	maybe := ^uint64(0)
	if len(rs.anchors) > 0 {
		maybe = rs.scanPieces(key, &m, work)
	}
	var best uint64
	rule := -1
	n, pos := int32(0), 0
	for {
		nd := &rs.nodes[n]
		needs := nd.needs
		for k, score := range nd.scores {
			if score <= best {
				break // sorted best first: nothing better here
			}
			if needs[k]&^maybe != 0 {
				continue // a piece it needs is absent
			}
			if p := &rs.pats[nd.pats[k]]; p.matchRest(key, pos, &m, work) {
				best, rule = score, int(p.rule)
				break
			}
		}
		if pos == len(key) {
			return rule
		}
		k, b := 0, key[pos]
		for k < len(nd.first) && nd.first[k] != b {
			k++
		}
		if k == len(nd.first) {
			return rule
		}
		c := nd.kids[k]
		label := rs.nodes[c].label
		if work != nil {
			*work += len(label)
		}
		if len(key)-pos < len(label) || string(key[pos:pos+len(label)]) != string(label) {
			return rule
		}
		pos += len(label)
		n = c
	}
}
