package firewall

import (
	"bytes"
	"encoding/csv"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
)

// hostileBots are bot names made to break a cell, a line or a string, or to
// start a spreadsheet formula.
var hostileBots = []string{
	`"`, "\n", ",", "=cmd|' /C calc'!A0", "+1", "-2", "@SUM(A1:A9)", "\t", "\u2028",
	"\r=1", `a","b`, " =1", "\uFF1D1", `evil"bot;` + "\n} flush ruleset #",
}

// hostileList is a list with one IPv4 and one IPv6 address per hostile bot
// name, none adjacent (each its own block), plus an IPv6 address with no
// claim at all.
func hostileList(t testing.TB) *List {
	t.Helper()
	t0 := time.Date(2026, 10, 2, 3, 4, 5, 0, time.UTC)
	var es []Entry
	for i, bot := range hostileBots {
		e := Entry{FirstSeen: t0, LastSeen: t0.Add(time.Duration(i) * time.Hour)}
		e.Counts[Disallowed] = int64(i + 1)
		e.Claims = []Claim{{Bot: bot, Identity: "unverified"}, {Bot: "Googlebot", Identity: hostileBots[len(hostileBots)-1-i]}}
		e.Addr = netip.AddrFrom4([4]byte{192, 0, 2, byte(2*i + 1)})
		es = append(es, e)
		e.Addr = netip.MustParseAddr("2001:db8:bad::").Next()
		for range 2 * i {
			e.Addr = e.Addr.Next()
		}
		es = append(es, e)
	}
	e := Entry{Addr: netip.MustParseAddr("2001:db8:f00d::1"), FirstSeen: t0, LastSeen: t0}
	e.Counts[Spoofed] = 1
	es = append(es, e)
	l, st := Build(es, Options{}, Meta{Tool: "crawlaudit test", Made: t0, TTL: 24 * time.Hour})
	if st.Listed != len(es) || len(l.Blocks) != len(es) {
		t.Fatalf("hostile list: %d listed in %d blocks, want %d each", st.Listed, len(l.Blocks), len(es))
	}
	return l
}

// formulaStart reports whether a spreadsheet could take cell for a formula
// (report.SafeCell's rule).
func formulaStart(cell string) bool {
	cell = strings.TrimLeft(cell, " ")
	if cell == "" {
		return false
	}
	if strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
		return true
	}
	for _, r := range "\uFF1D\uFF0B\uFF0D\uFF20" {
		if strings.HasPrefix(cell, string(r)) {
			return true
		}
	}
	return false
}

func TestCSVGolden(t *testing.T) {
	checkGolden(t, "blocklist.csv", writeFile(t, "csv", "blocklist.csv", fixtureList(t)))
}

// TestCSVReadBack reads blocklist.csv back with encoding/csv and checks
// every entry, once, with exact values, and that no cell could be a
// formula or holds a control character.
func TestCSVReadBack(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    *List
	}{
		{"fixture", fixtureList(t)},
		{"hostile bot names", hostileList(t)},
		{"empty", &List{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := writeFile(t, "csv", "blocklist.csv", tc.l)
			r := csv.NewReader(bytes.NewReader(out))
			recs, err := r.ReadAll() // FieldsPerRecord 0: every row as long as the header
			if err != nil {
				t.Fatalf("encoding/csv: %v\n%s", err, out)
			}
			if len(recs) == 0 || !slices.Equal(recs[0], blocklistCSVColumns) {
				t.Fatalf("header = %q, want %q", recs[0], blocklistCSVColumns)
			}
			rows := recs[1:]
			if len(rows) != len(tc.l.Entries) {
				t.Fatalf("%d rows, want one per entry: %d", len(rows), len(tc.l.Entries))
			}
			if n := bytes.Count(out, []byte("\n")); n != len(recs) {
				t.Errorf("%d lines for %d records: a cell broke a line", n, len(recs))
			}
			covering := func(a netip.Addr) string {
				for _, b := range tc.l.Blocks {
					if b.Prefix.Contains(a) {
						return b.CIDR()
					}
				}
				return ""
			}
			for i, e := range tc.l.Entries {
				row := rows[i]
				var bots, ids []string
				for _, c := range e.Claims {
					bots, ids = append(bots, c.Bot), append(ids, c.Identity)
				}
				want := []string{
					e.Addr.String(), covering(e.Addr),
					report.SafeCell(strings.Join(bots, ", ")), report.SafeCell(strings.Join(ids, ", ")),
					CountsText(e.Counts),
					e.FirstSeen.UTC().Format(time.RFC3339), e.LastSeen.UTC().Format(time.RFC3339),
				}
				if !slices.Equal(row, want) {
					t.Errorf("row %d = %q, want %q", i, row, want)
				}
				if want[1] == "" {
					t.Errorf("row %d: %s is in no block", i, e.Addr)
				}
				for j, cell := range row {
					if formulaStart(cell) {
						t.Errorf("row %d, %s = %q could be a formula", i, blocklistCSVColumns[j], cell)
					}
					if strings.ContainsAny(cell, "\n\r\t\u2028\u2029") {
						t.Errorf("row %d, %s = %q holds a control character", i, blocklistCSVColumns[j], cell)
					}
				}
				for _, col := range []int{5, 6} {
					if _, err := time.Parse(time.RFC3339, row[col]); err != nil {
						t.Errorf("row %d, %s: %v", i, blocklistCSVColumns[col], err)
					}
				}
			}
		})
	}
}

// TestCSVHostileCells checks what a hostile bot name becomes in its cell.
func TestCSVHostileCells(t *testing.T) {
	l := &List{Entries: []Entry{{Addr: netip.MustParseAddr("192.0.2.1")}}}
	l.Blocks = []Block{{Prefix: netip.MustParsePrefix("192.0.2.1/32"), Entries: l.Entries}}
	for _, tc := range []struct{ bot, want string }{
		{"=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"},
		{"+1", "'+1"},
		{"-2", "'-2"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tx", `'\x09x`},
		{"a\nb", `a\x0Ab`},
		{"a\u2028b", `a\u2028b`},
		{`say "hi", bot`, `say "hi", bot`},
		{"Googlebot", "Googlebot"},
	} {
		l.Entries[0].Claims = []Claim{{Bot: tc.bot}}
		recs, err := csv.NewReader(bytes.NewReader(writeFile(t, "csv", "blocklist.csv", l))).ReadAll()
		if err != nil {
			t.Fatalf("%q: %v", tc.bot, err)
		}
		if got := recs[1][2]; got != tc.want {
			t.Errorf("bot %q: cell %q, want %q", tc.bot, got, tc.want)
		}
	}
}
