package markdown

import (
	"strings"
	"testing"
	"testing/quick"
	"unicode/utf8"
)

// cells splits a GFM table row into its cells as GitHub's parser does: a
// '|' preceded by a backslash is part of the cell, any other '|' ends it;
// the row's leading and trailing pipes open and close it.
func cells(row string) []string {
	var out []string
	var cur strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			cur.WriteString(`\|`)
			i++
		case row[i] == '|':
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(row[i])
		}
	}
	out = append(out, cur.String())
	// "| a | b |" splits into "", " a ", " b ", "".
	if len(out) >= 2 && strings.TrimSpace(out[0]) == "" && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[1 : len(out)-1]
	}
	return out
}

// checkTables checks that every table row of a Markdown text has as many
// cells as its header.
func checkTables(t *testing.T, md string) {
	t.Helper()
	want := 0
	for i, l := range strings.Split(md, "\n") {
		if !strings.HasPrefix(l, "|") {
			want = 0
			continue
		}
		n := len(cells(l))
		if want == 0 {
			want = n
		} else if n != want {
			t.Errorf("line %d has %d cells, its table %d: %s", i+1, n, want, l)
		}
	}
}

// rowOK checks a row of three cells made of s by Text, Code and Name.
func rowOK(s string) bool {
	row := Row(Text(s), Code(s), Name(s), "x")
	if strings.ContainsAny(row, "\n\r\u2028\u2029\u0085") || !utf8.ValidString(row) {
		return false
	}
	cs := cells(row)
	if len(cs) != 4 || strings.TrimSpace(cs[3]) != "x" {
		return false
	}
	// Text lets no HTML through; a code span shows the string as it is
	// (GFM turns \| back into | before it reads the span).
	if strings.ContainsAny(Text(s), "<>") {
		return false
	}
	if c := Code(s); c != "" {
		fence := strings.IndexByte(c, ' ')
		inner := strings.ReplaceAll(c[fence+1:len(c)-fence-1], `\|`, "|")
		if inner != visible(s, MaxCell) {
			return false
		}
	}
	return true
}

// TestRowCellsQuick: no string, random or made of the characters Markdown
// reads, gives a row with a wrong number of cells.
func TestRowCellsQuick(t *testing.T) {
	if err := quick.Check(rowOK, &quick.Config{MaxCount: 20000}); err != nil {
		t.Error(err)
	}
	special := []rune("|\\`*_[]()<>&!#$@~^ \n\r\t\x00\u2028\u0085xé")
	gen := func(seed []byte) bool {
		var b strings.Builder
		for _, c := range seed {
			b.WriteRune(special[int(c)%len(special)])
		}
		return rowOK(b.String())
	}
	if err := quick.Check(gen, &quick.Config{MaxCount: 20000}); err != nil {
		t.Error(err)
	}
}

func FuzzRow(f *testing.F) {
	for _, s := range []string{"", "|", `\|`, `\\|`, "a|b", "``", "` x `", "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>",
		"</script>", "javascript:alert(1)", "[x](javascript:alert(1))", "line\nbreak", "\r\n| --- |", "\xff\xfe", "@admin #1 $x$", strings.Repeat("|", 500)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !rowOK(s) {
			t.Errorf("%q: row %q", s, Row(Text(s), Code(s), Name(s), "x"))
		}
	})
}

func TestEscapes(t *testing.T) {
	for _, c := range []struct {
		fn       func(string) string
		in, want string
	}{
		{Text, "a|b", `a\|b`},
		{Text, "<script>alert(1)</script>", `&lt;script&gt;alert(1)&lt;/script&gt;`},
		{Text, "[x](javascript:alert(1))", `\[x\](javascript:alert(1))`},
		{Text, "*bold* _it_ `code`", "\\*bold\\* \\_it\\_ \\`code\\`"},
		{Text, "a\nb\rc", `a\\nb\\rc`}, // shown as a\nb\rc
		{Text, "evil\u202etxt.exe", `evil\\u202etxt.exe`},
		{Code, "\u2066a\u2069\u200f\u061c", "` \\u2066a\\u2069\\u200f\\u061c `"},
		{Name, "Bot\u202e", "` Bot\\u202e `"},
		{Text, "\xff", `\\xff`},
		{Code, "a|b", "` a\\|b `"},
		{Code, "a`b", "`` a`b ``"},
		{Code, "", ""},
		{Name, "Googlebot (spoofed)", "Googlebot (spoofed)"},
		{Name, "Evil|Bot", "` Evil\\|Bot `"},
		{Name, "bot_x", "` bot_x `"},
	} {
		if got := c.fn(c.in); got != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
	if got := Text(strings.Repeat("a", MaxCell+10)); utf8.RuneCountInString(got) != MaxCell+1 || !strings.HasSuffix(got, "…") {
		t.Errorf("a long string is not cut: %d characters", utf8.RuneCountInString(got))
	}
}
