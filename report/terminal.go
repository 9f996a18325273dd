package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/rivo/uniseg"
)

// DefaultWidth is the terminal width WriteTable assumes when
// TableOptions.Width is 0.
const DefaultWidth = 80

// maxBotWidth is the widest the BOT column gets.
const maxBotWidth = 40

// minBotWidth is the narrowest the BOT column is cut to before more
// columns are dropped.
const minBotWidth = 12

// termColumn is one column of the terminal table.
type termColumn struct {
	head  string
	short string // the head on a narrow terminal ("" keeps head)
	right bool   // numbers: right-aligned
	cell  func(r *BotRow) string
	// drop is the order in which columns go when the table is wider than
	// the terminal: 1 first; 0 never.
	drop int
	// optional: left out when it is 0 in every row (not reported as
	// dropped).
	optional bool
	// legend explains the head under the table when the column is shown
	// ("" for a head that says it all).
	legend string
}

var termColumns = []termColumn{
	{head: "BOT", cell: func(r *BotRow) string { return Printable(r.Label(), 0) }},
	{head: "HOST", cell: func(r *BotRow) string { return Printable(dash(r.Host), 0) }, drop: 3},
	{head: "OPERATOR", cell: func(r *BotRow) string { return Printable(dash(r.Operator), 0) }, drop: 2},
	{head: "PURPOSE", cell: func(r *BotRow) string { return Printable(dash(r.Purpose), 0) }, drop: 1},
	{head: "REQUESTS", short: "REQS", right: true, cell: func(r *BotRow) string { return Thousands(r.Requests) }, legend: "requests"},
	{head: "ROBOTS", short: "RBTS", right: true, cell: func(r *BotRow) string { return Thousands(r.RobotsFetches) }, drop: 6, legend: "robots.txt fetches"},
	{head: "DISALLOWED", short: "DISAL", right: true, cell: func(r *BotRow) string { return Thousands(r.Disallowed) }, legend: "disallowed by the robots.txt in effect"},
	{head: "IN GRACE", short: "GRACE", right: true, cell: func(r *BotRow) string { return Thousands(r.DisallowedInGrace) }, drop: 7, legend: "disallowed within the cache grace of a change"},
	{head: "UNREACHABLE", short: "UNRCH", right: true, cell: func(r *BotRow) string { return Thousands(r.DisallowedUnreachable) }, optional: true, legend: "made while robots.txt was unreachable (5xx, 429)"},
	{head: "UNAVAILABLE", short: "UNAV", right: true, cell: func(r *BotRow) string { return Thousands(r.AllowedUnavailable) }, drop: 8, optional: true, legend: "disallowed, but made while robots.txt was unavailable (4xx)"},
	{head: "USER-TRIGGERED", short: "USER", right: true, cell: func(r *BotRow) string { return Thousands(r.UserTriggered) }, drop: 9, optional: true, legend: "fetched for a user (robots.txt does not apply)"},
	{head: "DELAY", right: true, cell: func(r *BotRow) string { return Thousands(r.CrawlDelayBreaches) }, legend: "Crawl-delay breaches"},
	{head: "RATE", right: true, cell: func(r *BotRow) string { return Thousands(r.RequestRateBreaches) }, legend: "Request-rate breaches"},
	{head: "VISIT", right: true, cell: func(r *BotRow) string { return Thousands(r.VisitTimeBreaches) }, legend: "Visit-time breaches"},
	{head: "IPS", right: true, cell: func(r *BotRow) string { return Thousands(r.IPs) }, drop: 5, legend: "distinct client addresses"},
	{head: "BYTES", right: true, cell: func(r *BotRow) string { return HumanBytes(r.Bytes) }, drop: 4, legend: "response bytes (KiB, MiB, GiB: powers of 1024)"},
	{head: "VERDICT", cell: func(r *BotRow) string { return r.Verdict }},
}

// verdictColors are the ANSI SGR codes of each verdict on a colour
// terminal.
var verdictColors = map[string]string{
	VerdictIgnoresRobots: "31",   // red
	VerdictSpoofed:       "1;35", // bold magenta: not the crawler named
	VerdictBreaches:      "33",   // yellow
	VerdictGrace:         "36",   // cyan
	VerdictOK:            "32",   // green
	VerdictUnaudited:     "2",    // dim
}

// shortVerdict is a verdict in one word, for a narrow terminal.
func shortVerdict(v string) string {
	switch v {
	case VerdictIgnoresRobots:
		return "ignores"
	case VerdictBreaches:
		return "breaches"
	case VerdictGrace:
		return "stale"
	}
	return v
}

// Thousands formats n with comma thousands separators: 1,234,567.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	if len(s) <= 3 {
		if neg {
			return "-" + s
		}
		return s
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	first := len(s) % 3
	if first > 0 {
		b.WriteString(s[:first])
	}
	for i := first; i < len(s); i += 3 {
		if b.Len() > 0 && !(neg && b.Len() == 1) {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// displayWidth is the number of terminal cells s takes (East Asian wide
// characters take two).
func displayWidth(s string) int { return uniseg.StringWidth(s) }

// cutToWidth cuts s to at most w cells, ending with "…" when cut.
func cutToWidth(s string, w int) string {
	if displayWidth(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	var b strings.Builder
	used := 0
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		cw := g.Width()
		if used+cw > w-1 {
			break
		}
		b.WriteString(g.Str())
		used += cw
	}
	return b.String() + "…"
}

// minNameWidth is the least of a bot's name a cut label keeps before its
// identity marker ("Googleb… (spoofed)").
const minNameWidth = 8

// writeTerminalTable writes the bot rows as an aligned table no line of
// which is wider than width: the least useful columns are dropped first
// (purpose, operator, a host all rows share), then the bot name is cut,
// heads are shortened and more columns go; a row is never wrapped. A cut
// label keeps its identity marker whole and cuts the name before it: the
// marker says whose requests the row counts. It returns the heads of the
// columns dropped, and the legend of the heads and short verdicts shown.
func writeTerminalTable(w io.Writer, rows []BotRow, width int, color bool) (dropped []string, legend string) {
	const gap = 2
	// marks are the identity markers of the labels (" (spoofed)"), kept
	// whole when a label is cut.
	marks := make([]string, len(rows))
	markFloor := 0
	for r := range rows {
		name := Printable(rows[r].Bot, 0)
		if label := Printable(rows[r].Label(), 0); strings.HasPrefix(label, name) && len(label) > len(name) {
			marks[r] = label[len(name):]
			markFloor = max(markFloor, min(displayWidth(label), minNameWidth+displayWidth(marks[r])))
		}
	}
	cells := make([][]string, len(rows))
	widths := make([]int, len(termColumns))
	heads := make([]string, len(termColumns))
	for i, c := range termColumns {
		heads[i] = c.head
		widths[i] = displayWidth(c.head)
	}
	singleHost := true
	for r := range rows {
		cells[r] = make([]string, len(termColumns))
		for i, c := range termColumns {
			cells[r][i] = c.cell(&rows[r])
			widths[i] = max(widths[i], displayWidth(cells[r][i]))
		}
		singleHost = singleHost && rows[r].Host == rows[0].Host
	}
	// A bot name is cut at maxBotWidth whatever the width: a hostile
	// User-Agent must not push the other columns out.
	widths[0] = min(widths[0], maxBotWidth)
	shown := make([]bool, len(termColumns))
	for i, c := range termColumns {
		shown[i] = !c.optional
		for r := range cells {
			shown[i] = shown[i] || cells[r][i] != "0"
		}
	}
	total := func() int {
		t := -gap
		for i, ok := range shown {
			if ok {
				t += widths[i] + gap
			}
		}
		return t
	}
	drop := func(head string) {
		for i, c := range termColumns {
			if c.head == head && shown[i] {
				shown[i] = false
				dropped = append(dropped, head)
			}
		}
	}
	last := len(termColumns) - 1
	// Each step makes the table narrower, the least useful first; they are
	// taken until it fits.
	steps := []func(){
		func() { drop("PURPOSE") },
		func() { drop("OPERATOR") },
		func() {
			if singleHost {
				drop("HOST") // the caller says it once under the table
			}
		},
		func() {
			widths[0] = max(minBotWidth, markFloor, widths[0]-(total()-width), displayWidth(heads[0]))
			widths[0] = min(widths[0], maxBotWidth)
		},
		func() {
			for i, c := range termColumns {
				if c.short == "" {
					continue
				}
				heads[i] = c.short
				widths[i] = displayWidth(c.short)
				for r := range cells {
					widths[i] = max(widths[i], displayWidth(cells[r][i]))
				}
			}
		},
		func() { drop("HOST") },
		func() { drop("BYTES") },
		func() { drop("IPS") },
		func() { drop("ROBOTS") },
		func() { drop("IN GRACE") },
		func() {
			widths[last] = displayWidth(heads[last])
			for r := range cells {
				cells[r][last] = shortVerdict(cells[r][last])
				widths[last] = max(widths[last], displayWidth(cells[r][last]))
			}
		},
		func() { widths[0] = max(8, widths[0]-(total()-width)) },
		func() { widths[last] = max(5, widths[last]-(total()-width)) },
	}
	for _, step := range steps {
		if total() <= width {
			break
		}
		step()
	}
	// A label with an identity marker is shown whole before a dropped
	// column comes back: it says whose requests the row counts.
	if spare := width - total(); spare > 0 {
		marked := 0
		for r := range cells {
			if marks[r] != "" {
				marked = max(marked, displayWidth(cells[r][0]))
			}
		}
		widths[0] = max(widths[0], min(marked, widths[0]+spare, maxBotWidth))
	}
	// What fits again comes back, the last dropped first (a shared host is
	// said under the table instead); the bot name gets the room left.
	for k := len(dropped) - 1; k >= 0; k-- {
		if dropped[k] == "HOST" && singleHost {
			continue
		}
		for i, c := range termColumns {
			if c.head == dropped[k] && total()+gap+widths[i] <= width {
				shown[i] = true
				dropped = append(dropped[:k], dropped[k+1:]...)
			}
		}
	}
	if spare := width - total(); spare > 0 {
		natural := displayWidth(heads[0])
		for r := range cells {
			natural = max(natural, displayWidth(cells[r][0]))
		}
		widths[0] = min(natural, widths[0]+spare, maxBotWidth)
	}
	legend = tableLegend(shown, heads, cells, last)
	var short []string
	for r := range cells {
		if m := marks[r]; m != "" && displayWidth(cells[r][0]) > widths[0] && widths[0]-displayWidth(m) < 4 && !slices.Contains(short, m) {
			short = append(short, m)
		}
	}
	if len(short) > 0 {
		slices.Sort(short)
		for i, m := range short {
			short[i] = strings.TrimSpace(shortMark(m)) + " " + strings.Trim(m, " ()")
		}
		legend = strings.TrimSpace(legend + " BOT " + strings.Join(short, ", ") + ".")
	}
	// The last resort on a very narrow terminal: lines cut, never wrapped,
	// and no colour escapes in the way of the cut.
	cutLines := total() > width
	color = color && !cutLines
	line := func(vals []string, mark string, style func(i int, s string) string) {
		var b strings.Builder
		first := true
		for i, ok := range shown {
			if !ok {
				continue
			}
			if !first {
				b.WriteString(strings.Repeat(" ", gap))
			}
			first = false
			v := cutToWidth(vals[i], widths[i])
			if i == 0 && mark != "" {
				v = cutLabel(vals[i], mark, widths[i])
			}
			pad := strings.Repeat(" ", widths[i]-displayWidth(v))
			switch {
			case termColumns[i].right:
				b.WriteString(pad + style(i, v))
			case i == last:
				b.WriteString(style(i, v)) // no trailing blanks
			default:
				b.WriteString(style(i, v) + pad)
			}
		}
		s := b.String()
		if cutLines {
			s = cutToWidth(s, width)
		}
		fmt.Fprintln(w, s)
	}
	line(heads, "", func(i int, s string) string {
		if color {
			return "\033[1m" + s + "\033[0m"
		}
		return s
	})
	for r := range rows {
		line(cells[r], marks[r], func(i int, s string) string {
			if code, ok := verdictColors[rows[r].Verdict]; ok && color && i == last {
				return "\033[" + code + "m" + s + "\033[0m"
			}
			return s
		})
	}
	return dropped, legend
}

// cutLabel cuts label, which ends with the identity marker mark, to w
// cells: the name before the marker is cut and the marker kept while the
// name keeps four cells; on a narrower column the marker is its first
// letter, " (s)" for " (spoofed)", which the legend explains.
func cutLabel(label, mark string, w int) string {
	if displayWidth(label) <= w {
		return label
	}
	name := strings.TrimSuffix(label, mark)
	if room := w - displayWidth(mark); room >= 4 {
		return cutToWidth(name, room) + mark
	}
	if short := shortMark(mark); w-displayWidth(short) >= 2 {
		return cutToWidth(name, w-displayWidth(short)) + short
	}
	return cutToWidth(label, w)
}

// shortMark is an identity marker in one letter: " (spoofed)" is " (s)".
func shortMark(mark string) string {
	if len(mark) < 3 {
		return mark
	}
	return mark[:3] + ")"
}

// tableLegend explains the heads of the shown columns that do not say
// everything, and the one-word verdicts of a narrow terminal.
func tableLegend(shown []bool, heads []string, cells [][]string, last int) string {
	var parts []string
	trio := true // the three breach columns, side by side, get one entry
	for i, c := range termColumns {
		if c.head == "DELAY" || c.head == "RATE" || c.head == "VISIT" {
			trio = trio && shown[i]
		}
	}
	for i, c := range termColumns {
		if !shown[i] || c.legend == "" || (heads[i] == c.head && c.head == "REQUESTS") {
			continue
		}
		switch {
		case trio && c.head == "DELAY":
			parts = append(parts, "DELAY/RATE/VISIT Crawl-delay, Request-rate and Visit-time breaches")
		case trio && (c.head == "RATE" || c.head == "VISIT"):
		default:
			parts = append(parts, heads[i]+" "+c.legend)
		}
	}
	if shown[last] {
		seen := map[string]bool{}
		var short []string
		for r := range cells {
			v := cells[r][last]
			if seen[v] {
				continue
			}
			seen[v] = true
			for _, full := range []string{VerdictIgnoresRobots, VerdictBreaches, VerdictGrace} {
				if v != full && v == shortVerdict(full) {
					short = append(short, v+": "+full)
				}
			}
		}
		if len(short) > 0 {
			parts = append(parts, "VERDICT "+strings.Join(short, ", "))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Columns: " + strings.Join(parts, "; ") + "."
}

// wrapText breaks prose into lines of at most width cells, at spaces (a
// word longer than the width is cut).
func wrapText(text string, width int) []string {
	var lines []string
	for _, para := range strings.Split(text, "\n") {
		var cur string
		for _, word := range strings.Fields(para) {
			switch {
			case cur == "":
				cur = word
			case displayWidth(cur)+1+displayWidth(word) <= width:
				cur += " " + word
			default:
				lines = append(lines, cur)
				cur = word
			}
			for displayWidth(cur) > width {
				lines = append(lines, cutToWidth(cur, width))
				cur = ""
			}
		}
		lines = append(lines, cur)
	}
	return lines
}
