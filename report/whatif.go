package report

import (
	"fmt"
	"io"
	"strings"
)

// whatIfRows is how many bot rows the terminal's what-if table shows.
const whatIfRows = 10

// WriteWhatIf writes the short what-if table of the terminal (--what-if):
// the totals, then the bots and hosts whose verdicts the
// proposed robots.txt (named file) would change, the most newly
// disallowed first, with the top path of each kind. Piped (terminal
// false), it writes tab-separated rows of every bot and host instead:
// bot, host, requests, newly_disallowed, newly_allowed.
func WriteWhatIf(w io.Writer, rows []WhatIfRow, file string, terminal bool, width int) error {
	if !terminal {
		if _, err := fmt.Fprintln(w, "bot\thost\trequests\tnewly_disallowed\tnewly_allowed"); err != nil {
			return err
		}
		for _, r := range rows {
			if _, err := fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\n", tsvField(r.Bot), tsvField(r.Host), r.Requests, r.NewlyDisallowed, r.NewlyAllowed); err != nil {
				return err
			}
		}
		return nil
	}
	head, changed := whatIfHead(rows, file)
	if width <= 0 {
		width = 80
	}
	if _, err := fmt.Fprintln(w, "\n"+strings.Join(wrapText(head, width), "\n")); err != nil {
		return err
	}
	if len(changed) == 0 {
		return nil
	}
	if len(changed) > whatIfRows {
		changed = changed[:whatIfRows]
	}
	cells := [][]string{{"BOT", "HOST", "NEWLY DISALLOWED", "NEWLY ALLOWED", "TOP PATH"}}
	for _, r := range changed {
		top := ""
		switch {
		case len(r.TopPaths.NewlyDisallowed) > 0:
			top = r.TopPaths.NewlyDisallowed[0].Path
		case len(r.TopPaths.NewlyAllowed) > 0:
			top = r.TopPaths.NewlyAllowed[0].Path
		}
		cells = append(cells, []string{Printable(r.Bot, maxBotWidth), Printable(dash(r.Host), 0), Thousands(r.NewlyDisallowed), Thousands(r.NewlyAllowed), Printable(top, 0)})
	}
	widths := make([]int, len(cells[0]))
	for _, row := range cells {
		for i, c := range row {
			widths[i] = max(widths[i], displayWidth(c))
		}
	}
	// The top path takes what is left of the width, at least 12 columns.
	fixed := 0
	for _, wd := range widths[:4] {
		fixed += wd + 2
	}
	if fixed+widths[4] > width {
		widths[4] = max(12, width-fixed)
	}
	for _, row := range cells {
		var b strings.Builder
		for i, c := range row {
			if i == 4 {
				c = cutToWidth(c, widths[4])
			}
			pad := strings.Repeat(" ", max(0, widths[i]-displayWidth(c)))
			if i == 2 || i == 3 {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c)
				if i < 4 {
					b.WriteString(pad)
				}
			}
			if i < 4 {
				b.WriteString("  ")
			}
		}
		if _, err := fmt.Fprintln(w, strings.TrimRight(b.String(), " ")); err != nil {
			return err
		}
	}
	return nil
}

// WhatIfLine is the what-if table's first sentence, alone: what a run
// whose stdout and stderr are both piped says of --what-if on stderr, so
// that the table never follows the bots' rows into a script's input.
func WhatIfLine(rows []WhatIfRow, file string) string {
	head, _ := whatIfHead(rows, file)
	return head
}

// whatIfHead returns the totals in a sentence and the rows that change.
func whatIfHead(rows []WhatIfRow, file string) (string, []WhatIfRow) {
	var nd, na int64
	var changed []WhatIfRow
	for _, r := range rows {
		nd += r.NewlyDisallowed
		na += r.NewlyAllowed
		if r.NewlyDisallowed+r.NewlyAllowed > 0 {
			changed = append(changed, r)
		}
	}
	return fmt.Sprintf("What if robots.txt were %s: %s requests newly disallowed, %s newly allowed, for %d of %d bots and hosts.",
		Printable(file, 0), Thousands(nd), Thousands(na), len(changed), len(rows)), changed
}
