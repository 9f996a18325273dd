package markdown

import "github.com/crawlaudit/crawlaudit/report"

// conduct writes the section "Conduct": how each crawler treated the site
// (report.Conduct), the rows that most need a look first, and what the
// whole audit's bots cost in bytes.
func (m *writer) conduct(f *report.Findings) {
	m.p("## Conduct")
	m.p("")
	rows := report.ConductRows(f.Summary, f.Limits.Bots)
	if len(rows) == 0 {
		m.p("No bot request in the audited period.")
		m.p("")
		return
	}
	// A log that records no signature header cannot show who signs: the
	// column would say nothing, so it is left out.
	signs := len(f.Summary.Signatures) > 0
	var total int64
	for _, r := range f.Summary.Bots {
		total += r.Bytes
	}
	m.p("How each crawler treated the site, after the crawler best practices of draft-illyes-webbotauth-cbcp-01: " +
		"*no back-off* counts the requests it sent after a 5xx or 429 answer and within the wait the answer's `Retry-After` asked for " +
		"(1 s where the log has none); *304 share* is the share of its fetches of a URL it had fetched before that were answered 304 Not Modified; " +
		"*refetch* is the median time between two fetches of one URL. None of this is a robots.txt violation or a block reason. " +
		"The rows that most need a look come first; summary.json has every row's `bytes`, `status` and `conduct`.")
	if signs {
		m.p("")
		m.p("*signs*: some of its requests carried a valid Web Bot Auth signature; *no* when the log records signatures but none of its requests had a valid one.")
	}
	m.p("")
	m.p("The bots' responses came to %s in all.", report.HumanBytes(total))
	m.p("")
	var out [][]string
	for _, r := range rows {
		c := &r.Conduct
		row := []string{Name(r.Label()), Name(r.Host), num(r.Requests), report.HumanBytes(r.Bytes),
			num(r.Status.S2xx), num(r.Status.S3xx), num(r.Status.S304), num(r.Status.S4xx), num(r.Status.S5xx),
			num(c.ErrorAnswers), num(c.NoBackoff), report.Share(c.NotModifiedShare), report.Interval(c.RefetchHoursMedian),
			num(c.OtherMethods), report.YesNo(c.Contact), report.YesNo(c.PublishesRanges)}
		if signs {
			row = append(row, report.YesNoUnknown(c.Signs))
		}
		out = append(out, row)
	}
	head := []string{"bot", "host", "requests", "bytes", "2xx", "3xx", "304", "4xx", "5xx", "error answers", "no back-off",
		"304 share", "refetch", "other methods", "contact", "ranges"}
	if signs {
		head = append(head, "signs")
	}
	m.table(head, []bool{false, false, true, true, true, true, true, true, true, true, true, true, true, true}, out)
}
