package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestNormalizeTarget(t *testing.T) {
	tests := []struct{ in, want string }{
		// RFC 9309 Table 2, "Path" -> "Path to Match".
		{"/foo/bar?baz=quz", "/foo/bar?baz=quz"},
		{"/foo/bar?baz=http://foo.bar", "/foo/bar?baz=http%3A%2F%2Ffoo.bar"},
		{"/foo/bar/ツ", "/foo/bar/%E3%83%84"},
		{"/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"},
		{"/foo/bar/%62%61%7A", "/foo/bar/baz"},
		// RFC 9309 Table 4: literal "*" and "$" are %2A and %24.
		{"/path/file-with-a-*.html", "/path/file-with-a-%2A.html"},
		{"/path/foo-$", "/path/foo-%24"},
		// 1996 draft: %7e is "~", hex case does not matter, %2F stays.
		{"/%7ejoe/index.html", "/~joe/index.html"},
		{"/a%3cd.html", "/a%3Cd.html"},
		{"/a%2fb.html", "/a%2Fb.html"},
		// Delimiters stay, data is encoded.
		{"/s?a=1&b=2;c+d", "/s?a=1&b=2;c+d"},
		{"/s?a=1%26b=2", "/s?a=1%26b=2"},
		{"/s?q=a?b@c", "/s?q=a%3Fb%40c"},
		{"/a%3Fb", "/a%3Fb"},
		{"/wiki/Foo:Bar", "/wiki/Foo%3ABar"},
		{"/a b|c\"", "/a%20b%7Cc%22"},
		// A stray "%" is %25; so is %25.
		{"/100%", "/100%25"},
		{"/100%25", "/100%25"},
		{"/%zz%4", "/%25zz%254"},
		{"/\x00\xff", "/%00%FF"},
		// Absolute form, fragment, empty path.
		{"https://Example.com:8443/a/b?c#d", "/a/b?c"},
		{"http://example.com", "/"},
		{"http://example.com?x=1", "/?x=1"},
		{"HTTP://example.com/x", "/x"},
		{"/a#b?c", "/a"},
		{"", "/"},
		{"*", "%2A"},
		{"//double/slash", "//double/slash"},
		// google/robotstxt TestMaybeEscapePattern.
		{"http://www.example.com", "/"},
		{"/a/b/c", "/a/b/c"},
		{"/á", "/%C3%A1"},
		{"/%aa", "/%AA"},
	}
	for _, tc := range tests {
		if got := string(NormalizeTarget(nil, []byte(tc.in))); got != tc.want {
			t.Errorf("NormalizeTarget(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// dst is appended to.
	if got := string(NormalizeTarget([]byte("x:"), []byte("/a%41"))); got != "x:/aA" {
		t.Errorf("NormalizeTarget appends: got %q", got)
	}
}

func TestNormalLenMatchesAppendNormal(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 2000; i++ {
		s := randomTarget(r, 20)
		for _, q := range []bool{false, true} {
			out, q1 := appendNormal(nil, []byte(s), q)
			n, q2 := normalLen([]byte(s), q)
			if n != len(out) || q1 != q2 {
				t.Fatalf("normalLen(%q, %v) = %d,%v; appendNormal gives %d,%v", s, q, n, q2, len(out), q1)
			}
		}
	}
}

// alphabet of bytes and escapes that exercise every class.
var targetAlphabet = []string{
	"a", "b", "Z", "0", "~", "-", ".", "_", "/", "?", "&", "=", "+", ";", ":", "@", "!", "$", "*", "(", ",",
	"[", "#", "%", "%2F", "%2f", "%3F", "%3f", "%26", "%3D", "%61", "%41", "%7E", "%7e", "%25", "%2A", "%24",
	"%3A", "%40", "%E3", "%e3", "\xe3", "\x83", "ツ", " ", "%20", "|", "%7C", "%G1", "%4",
}

func randomTarget(r *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteByte('/')
	for k := r.IntN(n + 1); k > 0; k-- {
		b.WriteString(targetAlphabet[r.IntN(len(targetAlphabet))])
	}
	return b.String()
}

// reencode rewrites s into an equivalent target under RFC 9309: unreserved
// characters and non-delimiting reserved ones are randomly escaped, escapes
// of such characters randomly decoded, hex case randomly flipped.
func reencode(r *rand.Rand, s string) string {
	var b strings.Builder
	inQuery := false
	delim := func(c byte) bool {
		if c == '%' || c == '#' { // "#" starts a fragment: keep it as it is
			return true
		}
		if !inQuery {
			return c == '/' || c == '?'
		}
		return byteClass[c]&clsQueryDelim != 0
	}
	hex := func(v byte) string {
		h := fmt.Sprintf("%%%02X", v)
		if r.IntN(2) == 0 {
			h = strings.ToLower(h)
		}
		return h
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			if v, ok := escapeAt([]byte(s), i); ok {
				i += 2
				if !delim(v) && r.IntN(2) == 0 && v != '#' && !(v == '?' && !inQuery) {
					b.WriteByte(v)
				} else {
					b.WriteString(hex(v))
				}
				continue
			}
			b.WriteString("%25")
			continue
		}
		if c == '?' && !inQuery {
			inQuery = true
			b.WriteByte(c)
			continue
		}
		if !delim(c) && r.IntN(2) == 0 {
			b.WriteString(hex(c))
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// The matching key and the normal form define the same equivalence, and
// re-encoding never changes either.
func TestKeyAndNormalFormAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	key := func(s string) string { k, _ := appendKey(nil, []byte(s), &keepRFC9309, false); return string(k) }
	norm := func(s string) string { n, _ := appendNormal(nil, []byte(s), false); return string(n) }
	for i := 0; i < 20000; i++ {
		a := randomTarget(r, 8)
		var b string
		if i%2 == 0 {
			b = reencode(r, a)
			if key(a) != key(b) || norm(a) != norm(b) {
				t.Fatalf("re-encoding changed the target: %q -> %q: keys %q %q, normal %q %q", a, b, key(a), key(b), norm(a), norm(b))
			}
		} else {
			b = randomTarget(r, 8)
		}
		if (key(a) == key(b)) != (norm(a) == norm(b)) {
			t.Fatalf("%q vs %q: keys %q %q, normal %q %q disagree", a, b, key(a), key(b), norm(a), norm(b))
		}
	}
}

// Property: Decide gives the same answer for every equivalent encoding of
// a target under RFC9309 (the google profile compares the target as
// written, as Google's matcher does: TestGoogle_Encoding).
func TestDecideSameUnderReencoding(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	targets := realisticTargets(500)
	for i := 0; i < 500; i++ {
		targets = append(targets, []byte(randomTarget(r, 12)))
	}
	for _, p := range []Profile{RFC9309} {
		rs := CompileRules(append(realisticGroup(), group(
			"disallow: /s?q=a/b", "allow: /s?q=a:", "disallow: /x%2Fy", "disallow: /*%2A$", "allow: /*ツ*~",
			"disallow: /a%26", "disallow: /*?*&b")...), p)
		var buf []byte
		for _, tg := range targets {
			var want int
			want, buf = rs.Decide(tg, buf)
			for k := 0; k < 5; k++ {
				alt := reencode(r, string(tg))
				var got int
				got, buf = rs.Decide([]byte(alt), buf)
				if got != want {
					t.Fatalf("%s: Decide(%q) = %d but Decide(%q) = %d", p, tg, want, alt, got)
				}
			}
		}
	}
}

// FuzzNormalizeTarget: never panics; the normal form is a fixed point and
// is decided exactly like the target it came from.
func FuzzNormalizeTarget(f *testing.F) {
	for _, s := range []string{
		"/foo/bar?baz=http://foo.bar", "/foo/bar/ツ", "/%62%61%7a", "/a%2fb?c%2Fd", "*", "", "http://h?q#f",
		"/100%", "/%zz%4", "/\x00\xff", "/s?a=1&b=2;c+d", "/p%3F?q%3F", "HTTP://x.y:80", "/a#b",
	} {
		f.Add(s)
	}
	rs := CompileRules(append(realisticGroup(), group("disallow: /*%2F", "allow: /*?*/", "disallow: /*%3F")...), RFC9309)
	f.Fuzz(func(t *testing.T, target string) {
		n := NormalizeTarget(nil, []byte(target))
		if n2 := NormalizeTarget(nil, n); string(n2) != string(n) {
			t.Fatalf("not a fixed point: %q -> %q -> %q", target, n, n2)
		}
		for i := 0; i < len(n); i++ {
			if n[i] >= 0x80 || n[i] <= ' ' || n[i] == 0x7f {
				t.Fatalf("normal form of %q has raw byte %#x: %q", target, n[i], n)
			}
		}
		a, _ := rs.Decide([]byte(target), nil)
		b, _ := rs.Decide(n, nil)
		if a != b {
			t.Fatalf("Decide(%q) = %d but Decide(NormalizeTarget) = Decide(%q) = %d", target, a, n, b)
		}
	})
}

func ExampleNormalizeTarget() {
	for _, target := range []string{
		"/foo/bar?baz=http://foo.bar",
		"/%7ejoe/ツ",
		"https://example.com/a%2fb?q=1#top",
	} {
		fmt.Println(string(NormalizeTarget(nil, []byte(target))))
	}
	// Output:
	// /foo/bar?baz=http%3A%2F%2Ffoo.bar
	// /~joe/%E3%83%84
	// /a%2Fb?q=1
}
