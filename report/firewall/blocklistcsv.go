package firewall

import (
	"fmt"
	"io"
	"strings"

	"github.com/crawlaudit/crawlaudit/report"
)

func init() {
	register(Format{Name: "csv", Files: []File{{Name: "blocklist.csv", Write: WriteCSV}}})
}

// blocklistCSVColumns are the columns of blocklist.csv, in order.
var blocklistCSVColumns = []string{"address", "prefix", "bots", "identity", "reasons", "first_seen", "last_seen"}

// WriteCSV writes blocklist.csv, for people and spreadsheets: a header row
// of the column names, then one row per qualifying address
// (l.Entries, not the blocks), IPv4 first:
//
//   - address: the address ("192.0.2.10", "2001:db8::1");
//   - prefix: the block that covers it, in CIDR notation ("198.51.100.4/30");
//   - bots: the crawlers its requests claimed, joined with ", ";
//   - identity: what verification found for each claim ("spoofed",
//     "unverified", "unverified (logs predate its published ranges)"), in
//     the same order, joined with ", ";
//   - reasons: its requests per kind (CountsText: "disallowed 3, crawl-delay 12");
//   - first_seen, last_seen: its first and last request, RFC 3339 in UTC.
//
// The file is RFC 4180 CSV written by report.CSVWriter, so every text cell
// is formula-safe and free of control characters (report.SafeCell): a bot
// name from a log that starts with '=', '+', '-', '@', a tab or a CR gets a
// leading apostrophe, and a line break in it is written as \x0A. Bot names
// are otherwise as the logs had them (quotes and commas quoted by the CSV
// writer, not sanitized), since this file is where one reads them.
//
// There are no '#' comment lines: spreadsheets and CSV readers would take
// them for rows of data. So the header of the list (Meta) goes nowhere in
// this format; the other formats carry it.
func WriteCSV(w io.Writer, l *List) error {
	cw := report.NewCSVWriter(w)
	if err := cw.Header(blocklistCSVColumns...); err != nil {
		return fmt.Errorf("cannot write csv block list: %w", err)
	}
	bi := 0
	for _, e := range l.Entries {
		prefix := ""
		for j := bi; j < len(l.Blocks); j++ {
			if l.Blocks[j].Prefix.Contains(e.Addr) {
				bi, prefix = j, l.Blocks[j].CIDR()
				break
			}
		}
		bots := make([]string, len(e.Claims))
		ids := make([]string, len(e.Claims))
		for i, c := range e.Claims {
			bots[i], ids[i] = c.Bot, c.IdentityText()
		}
		cw.Text(e.Addr.String())
		cw.Text(prefix)
		cw.Text(strings.Join(bots, ", "))
		cw.Text(strings.Join(ids, ", "))
		cw.Text(CountsText(e.Counts))
		cw.Time(e.FirstSeen)
		cw.Time(e.LastSeen)
		if err := cw.EndRow(); err != nil {
			return fmt.Errorf("cannot write csv block list: %w", err)
		}
	}
	if err := cw.Flush(); err != nil {
		return fmt.Errorf("cannot write csv block list: %w", err)
	}
	return nil
}
