package ingest

import (
	"bytes"
	"cmp"

	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
)

// formatEntry is a format resolved for a run. Workers keep one parser per
// entry.
type formatEntry struct {
	logfmt.Format
}

// Vote is the result of format detection on the first lines of a file.
type Vote struct {
	// Lines is the number of sample lines voted on.
	Lines int
	// Parsed, Directives and Foreign count, per candidate format (in the
	// order of the candidates), the sample lines it parsed, the directive
	// lines it recognised and the lines it rejected as
	// logfmt.ErrNotThisFormat.
	Parsed, Directives, Foreign []int
	// Winner is the index of the chosen format, -1 when none parsed or
	// recognised any line.
	Winner int
}

// DetectFormat chooses, among formats, the one that parses the most of the
// given lines (empty lines are ignored; give it the first non-empty lines
// of a file), preferring the formats listed first: logfmt.Formats() lists
// the most specific first (combined before common, which also accepts
// combined lines but drops their referer and user agent).
//
// The rule: the format that parses the most lines wins, the first listed on
// a tie. Then a format listed before the winner takes its place if it is a
// refinement of it — every line it parses, the winner parses too (combined
// lines are common lines) — and it fails at most one line in ten more than
// the winner (at least one line; and it must parse more than half as many).
// So a combined log with a few lines that lack the referer and user agent
// is still read as combined (those lines are rejected and counted), not as
// common, which would drop the user agent of every line. A format that is
// not a refinement (vhost_combined against combined) never wins with fewer
// lines. Because it counts lines, one broken or foreign line (a truncated
// first line of a rotated file, a stray JSON object) cannot mislead it.
//
// When no format parses any line, the format that recognises the most
// directive lines (logfmt.ErrDirective: a W3C file with headers only) wins,
// then the one that rejects fewer lines as logfmt.ErrNotThisFormat, then the
// first listed. Each format is tried with a fresh parser fed the lines in
// order, so stateful formats see their own directives.
func DetectFormat(lines [][]byte, formats []logfmt.Format) Vote {
	v := Vote{Parsed: make([]int, len(formats)), Directives: make([]int, len(formats)), Foreign: make([]int, len(formats)), Winner: -1}
	ok := make([][]bool, len(formats)) // ok[i][j]: format i parsed line j
	var row logfmt.Row
	for i, f := range formats {
		p := f.New()
		ok[i] = make([]bool, len(lines))
		n := 0
		for j, l := range lines {
			if len(l) == 0 {
				continue
			}
			n++
			switch err := p.Parse(l, &row); err {
			case nil:
				v.Parsed[i]++
				ok[i][j] = true
			case logfmt.ErrDirective:
				v.Directives[i]++
			case logfmt.ErrNotThisFormat:
				v.Foreign[i]++
			}
		}
		v.Lines = n
	}
	best := 0
	for i, n := range v.Parsed {
		if n > best {
			best, v.Winner = n, i
		}
	}
	if best > 0 {
		w := v.Winner
	refine:
		for i := range w {
			n := v.Parsed[i]
			if n < best-max(1, best/10) || 2*n <= best {
				continue
			}
			for j := range lines {
				if ok[i][j] && !ok[w][j] {
					continue refine
				}
			}
			v.Winner = i
			break
		}
		return v
	}
	for i := range formats {
		if v.Directives[i] == 0 {
			continue
		}
		if w := v.Winner; w < 0 || cmp.Or(cmp.Compare(v.Directives[i], v.Directives[w]), cmp.Compare(v.Foreign[w], v.Foreign[i])) > 0 {
			v.Winner = i
		}
	}
	return v
}

// sniffLines returns up to n non-empty lines from the start of data, without
// their terminators, skipping lines longer than maxLine.
func sniffLines(data []byte, n, maxLine int) [][]byte {
	var out [][]byte
	for len(data) > 0 && len(out) < n {
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data = data, nil
		}
		if len(l) > maxLine {
			continue
		}
		l = bytes.TrimSuffix(l, []byte{'\r'})
		if len(l) > 0 {
			out = append(out, l)
		}
	}
	return out
}
