package report

import "strings"

// maxDiffCells bounds the work of LineDiff's longest common subsequence:
// past it (two versions of several thousand changed lines each), the
// changed middle is shown as removed then added, which is still a correct
// diff, only not a minimal one.
const maxDiffCells = 4 << 20

// SplitLines splits a robots.txt into lines: LF, CRLF or CR end a line
// (RFC 9309), and a last line without an end counts.
func SplitLines(data []byte) []string {
	s := strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// LineDiff returns the difference from old to new as unified-diff lines:
// changed lines with up to context unchanged lines around them, a '~' line
// where unchanged lines are left out, cut to limit lines (cut counts those
// left out). added and removed count every changed line, shown or not.
// The changes are a longest common subsequence of the lines (after the
// common head and tail are set aside), so a rule moved within the file
// shows as one line removed and one added.
func LineDiff(old, new []string, context, limit int) (lines []DiffLine, cut, added, removed int) {
	ops := diffOps(old, new)
	for _, op := range ops {
		switch op.Op {
		case '+':
			added++
		case '-':
			removed++
		}
	}
	// keep marks the lines within context of a change.
	keep := make([]bool, len(ops))
	for i, op := range ops {
		if op.Op == ' ' {
			continue
		}
		for j := max(i-context, 0); j <= i+context && j < len(ops); j++ {
			keep[j] = true
		}
	}
	skipped := false
	for i, op := range ops {
		if !keep[i] {
			skipped = true
			continue
		}
		if skipped && len(lines) > 0 {
			lines = append(lines, DiffLine{Op: '~'})
		}
		skipped = false
		lines = append(lines, op)
	}
	if limit >= 0 && len(lines) > limit {
		for _, l := range lines[limit:] {
			if l.Op != '~' {
				cut++
			}
		}
		lines = lines[:limit]
	}
	return lines, cut, added, removed
}

// diffOps returns every line of old and new as a diff: unchanged, removed
// or added, in order.
func diffOps(old, new []string) []DiffLine {
	var ops []DiffLine
	// The common head and tail.
	head := 0
	for head < len(old) && head < len(new) && old[head] == new[head] {
		head++
	}
	tail := 0
	for tail < len(old)-head && tail < len(new)-head && old[len(old)-1-tail] == new[len(new)-1-tail] {
		tail++
	}
	for i := 0; i < head; i++ {
		ops = append(ops, DiffLine{Op: ' ', Old: i + 1, New: i + 1, Text: old[i]})
	}
	a, b := old[head:len(old)-tail], new[head:len(new)-tail]
	if len(a)*len(b) > maxDiffCells {
		for i, l := range a {
			ops = append(ops, DiffLine{Op: '-', Old: head + i + 1, Text: l})
		}
		for j, l := range b {
			ops = append(ops, DiffLine{Op: '+', New: head + j + 1, Text: l})
		}
	} else {
		// lcs[i][j]: the length of a longest common subsequence of a[i:]
		// and b[j:], in one slice of (len(a)+1)*(len(b)+1) cells.
		w := len(b) + 1
		lcs := make([]int32, (len(a)+1)*w)
		for i := len(a) - 1; i >= 0; i-- {
			for j := len(b) - 1; j >= 0; j-- {
				if a[i] == b[j] {
					lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
				} else {
					lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(a) || j < len(b) {
			switch {
			case i < len(a) && j < len(b) && a[i] == b[j]:
				ops = append(ops, DiffLine{Op: ' ', Old: head + i + 1, New: head + j + 1, Text: a[i]})
				i++
				j++
			case i < len(a) && (j == len(b) || lcs[(i+1)*w+j] >= lcs[i*w+j+1]):
				ops = append(ops, DiffLine{Op: '-', Old: head + i + 1, Text: a[i]})
				i++
			default:
				ops = append(ops, DiffLine{Op: '+', New: head + j + 1, Text: b[j]})
				j++
			}
		}
	}
	for k := 0; k < tail; k++ {
		oi, ni := len(old)-tail+k, len(new)-tail+k
		ops = append(ops, DiffLine{Op: ' ', Old: oi + 1, New: ni + 1, Text: old[oi]})
	}
	return ops
}
