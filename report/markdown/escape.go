package markdown

import (
	"strings"

	"github.com/crawlaudit/crawlaudit/report"
)

// MaxCell is the longest text, in characters, a cell shows of a string
// from a log; a longer one is cut and ends with "…".
const MaxCell = 200

// Text returns s as the text of a GitHub-flavoured Markdown table cell that
// shows s as it is, whatever it holds:
//
//   - every ASCII punctuation character that Markdown or a renderer's
//     extensions give a meaning (emphasis, links, images, code, math,
//     strikethrough, mentions, entities, tables) is backslash-escaped, and
//     '<', '>' and '&' are written as entities, so no HTML reaches the page;
//   - '|' is written "\|", which GFM reads as a pipe inside the cell
//     whatever precedes it, so a cell never splits;
//   - line breaks and other control characters, bidirectional controls
//     (U+202E) and invalid UTF-8 are written as visible escapes (\n,
//     \u202e, \xff), so a row stays one line and reads in its order.
//
// Strings longer than MaxCell characters are cut.
func Text(s string) string { return text(s, MaxCell) }

// Sentence is Text for a sentence the program wrote around strings from
// logs (a headline): escaped the same way, but not cut.
func Sentence(s string) string { return text(s, -1) }

func text(s string, limit int) string {
	s = visible(s, limit)
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\\', '`', '*', '_', '~', '[', ']', '!', '#', '$', '@', '|', '^':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Code returns s as a code span for a table cell: shown exactly as it is
// (after the control characters and invalid UTF-8 are made visible, as in
// Text, and cut to MaxCell characters), with no Markdown, HTML, link,
// mention or math inside. The fence is one backtick longer than the longest
// run of backticks in s; every '|' is written "\|", which GFM turns back
// into '|' before it reads the span. The empty string is an empty cell.
func Code(s string) string {
	s = visible(s, MaxCell)
	if s == "" {
		return ""
	}
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	return fence + " " + strings.ReplaceAll(s, "|", `\|`) + " " + fence
}

// visible returns s cut to limit characters (-1: not cut), with every
// character that is not printable written as a visible escape by
// report.Printable, the one function the terminal and report.html use too:
// control characters (a line break would end the row), the bidirectional
// controls that would reorder the text around them, the line and paragraph
// separators, and the bytes of invalid UTF-8.
func visible(s string, limit int) string {
	if limit >= 0 {
		s = report.Cut(s, limit)
	}
	return report.Printable(s, 0)
}

// Name returns a bot name (or label) for a cell: as it is when it holds
// only letters, digits, spaces and ". , _ - + ( ) /", else as Code.
func Name(s string) string {
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune(" .,-+()/", r):
		default:
			return Code(s)
		}
	}
	if len(s) > MaxCell {
		return Code(s)
	}
	return s
}

// Row returns a table row of the cells, each already made safe with Text
// or Code (or made by the program).
func Row(cells ...string) string {
	var b strings.Builder
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" ")
		b.WriteString(c)
		b.WriteString(" |")
	}
	return b.String()
}
