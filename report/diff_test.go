package report

import (
	"strings"
	"testing"
)

func TestLineDiff(t *testing.T) {
	for _, c := range []struct {
		name, old, new string
		want           string // ops joined: "+b" "-a" " c" "~"
		added, removed int
	}{
		{"same", "a\nb", "a\nb", "", 0, 0},
		{"added", "a\nb", "a\nx\nb", " a|+x| b", 1, 0},
		{"removed", "a\nb\nc", "a\nc", " a|-b| c", 0, 1},
		{"changed", "a\nb\nc", "a\nB\nc", " a|-b|+B| c", 1, 1},
		{"from nothing", "", "a\nb", "+a|+b", 2, 0},
		{"moved", "a\nb\nc\nd", "b\nc\nd\na", "-a| b| c| d|+a", 1, 1},
		{"context", "1\n2\n3\n4\n5\n6\n7\n8\n9", "1\n2\n3\n4\nX\n6\n7\n8\n9", " 3| 4|-5|+X| 6| 7", 1, 1},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11", "X\n2\n3\n4\n5\n6\n7\n8\n9\n10\nY", "-1|+X| 2| 3|~| 9| 10|-11|+Y", 2, 2},
		{"CRLF", "a\r\nb\r\n", "a\nb\n", "", 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			lines, cut, added, removed := LineDiff(SplitLines([]byte(c.old)), SplitLines([]byte(c.new)), 2, -1)
			var got []string
			for _, l := range lines {
				if l.Op == '~' {
					got = append(got, "~")
				} else {
					got = append(got, string(l.Op)+l.Text)
				}
			}
			if strings.Join(got, "|") != c.want || cut != 0 || added != c.added || removed != c.removed {
				t.Errorf("got %q (+%d -%d, cut %d), want %q (+%d -%d)", strings.Join(got, "|"), added, removed, cut, c.want, c.added, c.removed)
			}
		})
	}
	// Line numbers, and the cut.
	lines, cut, _, _ := LineDiff([]string{"a", "b"}, []string{"a", "x", "y", "b"}, 0, 1)
	if len(lines) != 1 || lines[0] != (DiffLine{Op: '+', New: 2, Text: "x"}) || cut != 1 {
		t.Errorf("got %+v, cut %d", lines, cut)
	}
	// A large change falls back to removed then added, still bounded.
	big := make([]string, 3000)
	other := make([]string, 3000)
	for i := range big {
		big[i] = "a" + strings.Repeat("x", i%7) + string(rune('A'+i%26))
		other[i] = "b" + big[i]
	}
	lines, cut, added, removed := LineDiff(big, other, 2, 200)
	if len(lines) != 200 || added != 3000 || removed != 3000 || cut != 5800 {
		t.Errorf("big diff: %d lines, +%d -%d, cut %d", len(lines), added, removed, cut)
	}
}
