package robots

import (
	"bytes"
	"strings"
)

// pattern is one compiled Allow or Disallow value: literal pieces (in
// matching-key form, see appendKey) separated by "*" wildcards, the first
// piece anchored at the start of the target, the last one at its end when
// the value ended in "$".
//
// Reading of the special characters (RFC 9309 §2.2.3 Table 3):
//   - "*" matches any run of octets, including none; runs of "*" are one
//     wildcard;
//   - "$" is the end of the target only as the last character of the value;
//     anywhere else it is a literal "$" (as in Google's matcher);
//   - %2A and %24 are a literal "*" and "$" (Table 4).
//
// Orig1994 has no wildcards: "*" and "$" are literal everywhere.
//
// Each piece is normalised in the component its own text puts it in: after
// the value's first "?" it is query, before it path. A piece after a "*"
// may still match inside the target's query ("/*&p=" matches
// "/list?a=1&p=2", "/*/feed/" matches "/?next=/feed/"): literal octets
// always compare as written, only the few escapes whose equivalence
// depends on the component (%2F and %3F in a path, %26 %3D %2B %3B in a
// query) are compared as the pattern's component reads them. Normalising
// the other way (encoding the target's query data, as NormalizeTarget
// prints it) would make the common "/*&p=" miss the query it was written
// for.
type pattern struct {
	// pieces[0] is matched by the trie; pieces[1:] follow wildcards.
	pieces [][]byte
	// ids[i] is the memo slot of pieces[i] (see memo), -1 for none.
	ids []int32
	// need has bit id set for each memo slot id of a piece: the pattern
	// cannot match unless all of them may occur in the key.
	need uint64
	// kmp[i] is the failure table of pieces[i] when it is long enough for
	// bytes.Index to risk super-linear time (see indexFrom).
	kmp [][]int32
	// end: the last piece must end the target ("$").
	end bool
	// rule is the index of the rule in the RuleSet's rules.
	rule int32
	// score orders matching patterns: the highest score decides.
	score uint64
}

// compileValue splits a rule value into literal pieces. It returns the raw
// pieces (not yet normalised), whether the value is anchored at the end,
// and the number of special characters written, "*" and a final "$" (they
// count one octet each in the priority).
func compileValue(v string, wild bool) (raw []string, end bool, specials int) {
	if !wild {
		return []string{v}, false, 0
	}
	if strings.HasSuffix(v, "$") {
		end = true
		specials++
		v = v[:len(v)-1]
	}
	specials += strings.Count(v, "*")
	parts := strings.Split(v, "*")
	raw = parts[:1]
	for _, p := range parts[1:] {
		if p != "" {
			raw = append(raw, p)
		}
	}
	if strings.HasSuffix(v, "*") {
		// "/a*b*" and "/a*b*$" both end in "anything": the final wildcard
		// swallows the "$", and the last piece is searched unanchored.
		end = false
	}
	return raw, end, specials
}

// kmpMin is the piece length from which a piece is searched with
// Knuth-Morris-Pratt rather than bytes.Index. Below it bytes.Index is a
// brute-force or IndexByte search whose worst case is len(text)*len(piece)
// with len(piece) < 64, a constant factor; above it bytes.Index falls back
// to Rabin-Karp, which crafted input can drive quadratic.
const kmpMin = 64

func kmpTable(p []byte) []int32 {
	f := make([]int32, len(p)+1)
	f[0] = -1
	k := int32(-1)
	for i := 0; i < len(p); i++ {
		for k >= 0 && p[k] != p[i] {
			k = f[k]
		}
		k++
		f[i+1] = k
	}
	return f
}

func kmpIndex(s, p []byte, f []int32) int {
	k := int32(0)
	for i := 0; i < len(s); i++ {
		for k >= 0 && p[k] != s[i] {
			k = f[k]
		}
		k++
		if int(k) == len(p) {
			return i + 1 - len(p)
		}
	}
	return -1
}

// memo caches, for one decision, the first occurrence in the key of the
// pieces that have a memo slot (the short pieces the most patterns share):
// 0 unknown, 1 absent, i+2 first at i. RuleSet.scanPieces fills it in one
// pass per anchor byte before the patterns are tried, so that a piece
// shared by many patterns ("?", ".pdf") is looked for once per decision and
// a pattern whose pieces are not all present is skipped without a search.
type memo [64]int32

// maxMemoPiece is the longest piece given a memo slot.
const maxMemoPiece = 32

// maxAnchorHits bounds the occurrences of one anchor byte that scanPieces
// examines; pieces still unresolved after that many are left unknown and
// searched one by one (a hostile target of 100 KB of "?" costs no more
// than a few linear searches).
const maxAnchorHits = 32

// indexFrom returns the first index >= pos of piece i in t[:limit], or -1.
// work, when not nil, is increased by the number of bytes the search may
// examine, for the tests that check the matcher stays linear.
func (p *pattern) indexFrom(t []byte, pos, limit, i int, m *memo, work *int) int {
	piece := p.pieces[i]
	if id := p.ids[i]; id >= 0 {
		switch v := m[id]; {
		case v == 1:
			return -1
		case v == 0:
			j := p.search(t, i, work)
			if j < 0 {
				m[id] = 1
				return -1
			}
			m[id] = int32(j) + 2
			v = int32(j) + 2
			fallthrough
		default:
			if j := int(v) - 2; j >= pos {
				if j+len(piece) <= limit {
					return j
				}
				return -1 // the first occurrence after pos is j: too late
			}
		}
	}
	j := p.search(t[pos:limit], i, work)
	if j < 0 {
		return -1
	}
	return pos + j
}

// search returns the first index of piece i in s, or -1. work counts the
// bytes of s up to the end of the match (all of s on a miss).
func (p *pattern) search(s []byte, i int, work *int) int {
	var j int
	if p.kmp[i] != nil {
		j = kmpIndex(s, p.pieces[i], p.kmp[i])
	} else {
		j = bytes.Index(s, p.pieces[i])
	}
	if work != nil {
		if j < 0 {
			*work += len(s)
		} else {
			*work += j + len(p.pieces[i])
		}
	}
	return j
}

// matchRest reports whether the pattern matches key t, given that
// pieces[0] matched t[:pos].
//
// Greedy leftmost matching is correct for patterns made of literal pieces
// and "*": write the pattern P0 * P1 * ... * Pk. Suppose some match puts Pi
// at q(i), with q(i) >= q(i-1)+len(P(i-1)). Let g(i) be the greedy choice,
// the first occurrence of Pi at or after g(i-1)+len(P(i-1)), with g(0)=0.
// By induction g(i) <= q(i): g(i-1) <= q(i-1) means the occurrence at q(i)
// starts at or after g(i-1)+len(P(i-1)), so it is a candidate and the
// first candidate g(i) is no later. So whenever a match exists, greedy
// placement of P1..P(k-1) succeeds and leaves the most room for Pk, which
// is then found (unanchored) or is a suffix starting at or after the greedy
// end (anchored, "$"); the converse is immediate. Each search starts where
// the previous piece ended, so the searches cover disjoint stretches of t
// and a pattern costs O(len(t) + len(pattern)) — with bytes.Index's
// constant factor (< 64) for short pieces, KMP for long ones. There is no
// backtracking: 1,000 "*" against 100 KB stays linear.
func (p *pattern) matchRest(t []byte, pos int, m *memo, work *int) bool {
	n := len(p.pieces)
	if n == 1 {
		return !p.end || pos == len(t)
	}
	limit := len(t)
	last := p.pieces[n-1]
	if p.end {
		if len(t)-pos < len(last) || !bytes.HasSuffix(t, last) {
			return false
		}
		limit = len(t) - len(last)
		n-- // the last piece is placed: it ends t
	}
	for i := 1; i < n; i++ {
		j := p.indexFrom(t, pos, limit, i, m, work)
		if j < 0 {
			return false
		}
		pos = j + len(p.pieces[i])
	}
	return true
}
